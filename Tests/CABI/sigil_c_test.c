/*
 * The C ABI's test (Scripts/test-c-abi builds it with the system C compiler against
 * Sources/SigilC/include/sigil.h and libSigilC.so, and runs it plainly and under valgrind).
 *
 *   sigil_c_test REQUESTS ANSWERS [THREADS ITERATIONS]
 *
 * Answers each line of REQUESTS (Conformance/conformance.py requests) with sigil_verify, one
 * answer per line of ANSWERS (conformance.py check compares them with the conformance file);
 * sends the bad inputs the header promises typed errors for; then THREADS threads (default 8)
 * each make ITERATIONS (default 1000) verifications over the same requests, every answer compared
 * byte for byte with the one-thread answer. Exit 0 only when everything held.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigil.h"

static char **requests;
static char **expected;
static size_t count;
static long iterations = 1000;
static int failures;

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "sigil_c_test: FAIL %s: %.300s\n", what, detail ? detail : "(null)");
    failures++;
}

static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(data);
        return NULL;
    }
    fclose(f);
    data[size] = 0;
    *length = (size_t)size;
    return data;
}

/* One bad input: the answer must be a typed error document naming `code`. */
static void expect_error(const char *name, const char *request, const char *code) {
    char *answer = sigil_verify(request);
    char wanted[128];
    snprintf(wanted, sizeof wanted, "\"code\":\"%s\"", code);
    if (!answer) {
        fail(name, "NULL answer");
        return;
    }
    if (strncmp(answer, "{\"valid\":false,\"error\":{", 24) != 0 || !strstr(answer, wanted)) fail(name, answer);
    sigil_free(answer);
}

static void bad_inputs(void) {
    expect_error("NULL request", NULL, "request.missing");
    expect_error("empty request", "", "request.invalidJSON");
    expect_error("invalid UTF-8", "{\"data\": \"\xc3\x28\"}", "request.invalidJSON");
    expect_error("lone continuation byte", "{\"data\": \"\x80\"}", "request.invalidJSON");
    expect_error("not JSON", "verify this please", "request.invalidJSON");
    expect_error("truncated JSON", "{\"data\": \"eyJ", "request.invalidJSON");
    expect_error("not an object", "[1, 2, 3]", "request.notAnObject");
    expect_error("unknown member", "{\"data\": \"x\", \"bundle_id\": \"a\"}", "request.unknownMember");

    size_t big = 10 * 1000 * 1000;
    char *huge = malloc(big + 1);
    if (!huge) {
        fail("10 MB request", "out of memory in the test");
        return;
    }
    memset(huge, 'A', big);
    memcpy(huge, "{\"data\": \"", 10);
    huge[big] = 0;
    expect_error("10 MB request", huge, "request.tooLarge");

    size_t depth = 100000;
    char *deep = malloc(2 * depth + 1);
    for (size_t i = 0; i < depth; i++) {
        deep[i] = '[';
        deep[depth + i] = ']';
    }
    deep[2 * depth] = 0;
    expect_error("deeply nested JSON", deep, "request.invalidJSON");
    free(deep);

    char *token = sigil_mint_token(NULL);
    if (!token || !strstr(token, "\"code\":\"request.missing\"")) fail("sigil_mint_token(NULL)", token);
    sigil_free(token);
    token = sigil_mint_token(huge);
    if (!token || !strstr(token, "\"code\":\"request.tooLarge\"")) fail("sigil_mint_token(10 MB)", token);
    sigil_free(token);
    free(huge);
    sigil_free(NULL);

    const char *version = sigil_version();
    if (!version || !*version || strcmp(version, sigil_version()) != 0) fail("sigil_version", version);
}

static void *worker(void *argument) {
    size_t offset = (size_t)argument;
    long mismatches = 0;
    for (long i = 0; i < iterations; i++) {
        size_t index = (offset + (size_t)i) % count;
        char *answer = sigil_verify(requests[index]);
        if (!answer || strcmp(answer, expected[index]) != 0) mismatches++;
        sigil_free(answer);
    }
    return (void *)mismatches;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: sigil_c_test REQUESTS ANSWERS [THREADS ITERATIONS]\n");
        return 2;
    }
    int threads = argc == 5 ? atoi(argv[3]) : 8;
    if (argc == 5) iterations = atol(argv[4]);
    if (threads < 1 || threads > 64 || iterations < 0) return 2;

    size_t length;
    char *text = read_file(argv[1], &length);
    if (!text) {
        fprintf(stderr, "sigil_c_test: cannot read %s\n", argv[1]);
        return 2;
    }
    for (size_t i = 0; i < length; i++) count += text[i] == '\n';
    requests = calloc(count, sizeof *requests);
    expected = calloc(count, sizeof *expected);
    char *line = text;
    for (size_t i = 0; i < count; i++) {
        char *end = strchr(line, '\n');
        *end = 0;
        requests[i] = line;
        line = end + 1;
    }

    FILE *out = fopen(argv[2], "wb");
    if (!out) return 2;
    for (size_t i = 0; i < count; i++) {
        expected[i] = sigil_verify(requests[i]);
        if (!expected[i] || strchr(expected[i], '\n')) {
            fail("answer", expected[i]);
            continue;
        }
        fprintf(out, "%s\n", expected[i]);
    }
    fclose(out);

    bad_inputs();

    if (count > 0 && iterations > 0) {
        pthread_t ids[64];
        for (int t = 0; t < threads; t++) pthread_create(&ids[t], NULL, worker, (void *)(size_t)(t * 7));
        long mismatches = 0;
        for (int t = 0; t < threads; t++) {
            void *result;
            pthread_join(ids[t], &result);
            mismatches += (long)result;
        }
        if (mismatches) {
            char detail[64];
            snprintf(detail, sizeof detail, "%ld answers differ from the one-thread answer", mismatches);
            fail("threads", detail);
        }
        printf("sigil_c_test: %d threads x %ld verifications agree with one thread\n", threads, iterations);
    }

    for (size_t i = 0; i < count; i++) sigil_free(expected[i]);
    free(expected);
    free(requests);
    free(text);
    printf("sigil_c_test: %zu requests answered, bad inputs typed, %s\n", count, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
