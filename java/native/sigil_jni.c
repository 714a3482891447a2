/*
 * sigil_jni.c: the JNI functions of sigil.Native over libSigilC (Sources/SigilC/include/sigil.h).
 *
 * The Java side hands over the request as a byte array (UTF-8 as Sigil.java encodes it, never the
 * JVM's "modified UTF-8") and gets the answer back as a byte array: no jstring crosses, so no text
 * conversion of the JVM's can alter a request or an answer. Each call:
 *   - copies the request into a NUL-terminated buffer of its own (a Java array is not
 *     NUL-terminated and may be moved by the collector), calls sigil_verify or sigil_mint_token,
 *     wipes and frees the copy (a token request carries a private key);
 *   - copies the answer into a new byte[] and releases it with sigil_free, exactly once, on every
 *     path;
 *   - checks every JNI call: an allocation that fails leaves the JVM's OutOfMemoryError pending (or
 *     throws one) and returns NULL; nothing here aborts the process.
 * A null request is passed to libSigilC as NULL, which answers it ("request.missing"). There is no
 * state here at all: every function may run on any thread at once, as sigil.h allows.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <jni.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sigil.h"

/* Throws java.lang.OutOfMemoryError with message; when even that fails, the JVM has an error
 * pending already (FindClass raised it). */
static void throw_out_of_memory(JNIEnv *env, const char *message) {
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    jclass type = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
    if (type != NULL) {
        (*env)->ThrowNew(env, type, message);
        (*env)->DeleteLocalRef(env, type);
    }
}

/* The answer of function for request (a byte[] or NULL), as a new byte[]; NULL with an exception
 * pending when memory ran out. */
static jbyteArray call(JNIEnv *env, jbyteArray request, char *(*function)(const char *)) {
    char *answer;
    if (request == NULL) {
        answer = function(NULL);
    } else {
        jsize length = (*env)->GetArrayLength(env, request);
        if (length < 0) {
            throw_out_of_memory(env, "sigil: a request array of negative length");
            return NULL;
        }
        char *copy = malloc((size_t)length + 1);
        if (copy == NULL) {
            throw_out_of_memory(env, "sigil: no memory for a copy of the request");
            return NULL;
        }
        (*env)->GetByteArrayRegion(env, request, 0, length, (jbyte *)copy);
        if ((*env)->ExceptionCheck(env)) {
            free(copy);
            return NULL;
        }
        copy[length] = '\0';
        answer = function(copy);
        explicit_bzero(copy, (size_t)length + 1);
        free(copy);
    }
    if (answer == NULL) {
        throw_out_of_memory(env, "sigil: libSigilC could not allocate the answer");
        return NULL;
    }
    size_t size = strlen(answer);
    if (size > (size_t)INT_MAX) {
        explicit_bzero(answer, size);
        sigil_free(answer);
        throw_out_of_memory(env, "sigil: an answer larger than a Java array");
        return NULL;
    }
    jbyteArray out = (*env)->NewByteArray(env, (jsize)size);
    if (out != NULL) {
        (*env)->SetByteArrayRegion(env, out, 0, (jsize)size, (const jbyte *)answer);
    }
    explicit_bzero(answer, size); /* a minted token is a credential */
    sigil_free(answer);
    if (out == NULL || (*env)->ExceptionCheck(env)) {
        throw_out_of_memory(env, "sigil: no memory for the answer");
        return NULL;
    }
    return out;
}

JNIEXPORT jbyteArray JNICALL Java_sigil_Native_verify(JNIEnv *env, jclass type, jbyteArray request) {
    (void)type;
    return call(env, request, sigil_verify);
}

JNIEXPORT jbyteArray JNICALL Java_sigil_Native_mintToken(JNIEnv *env, jclass type, jbyteArray request) {
    (void)type;
    return call(env, request, sigil_mint_token);
}

JNIEXPORT jbyteArray JNICALL Java_sigil_Native_version(JNIEnv *env, jclass type) {
    (void)type;
    const char *version = sigil_version();
    if (version == NULL) {
        version = "";
    }
    size_t size = strlen(version);
    jbyteArray out = (*env)->NewByteArray(env, (jsize)size);
    if (out == NULL) {
        throw_out_of_memory(env, "sigil: no memory for the version");
        return NULL;
    }
    (*env)->SetByteArrayRegion(env, out, 0, (jsize)size, (const jbyte *)version);
    return (*env)->ExceptionCheck(env) ? NULL : out;
}
