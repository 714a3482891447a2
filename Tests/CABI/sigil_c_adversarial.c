/*
 * The C ABI from the attacker's side (Scripts/test-c-abi builds it against sigil.h and libSigilC
 * and runs it after the conformance test).
 *
 *   sigil_c_adversarial FORGED
 *
 * FORGED is what Conformance/forged.py writes: a root the attacker made ("root", base64 DER), a
 * transaction for com.victim.bank signed under it ("jws"), and one signed by a self-made
 * Xcode-shaped certificate the JWS carries ("xcodejws"). Each case names the attack and the
 * answer it must get: a typed refusal, or a valid answer that says whose trust it rests on.
 * Exit 0 only when every case held.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigil.h"

static int failures;
static int cases;
static char *forged_root, *forged_jws, *forged_xcode_jws;

/* Sends `request` and checks that the answer holds every string of `wanted` (NULL-terminated)
 * and none of `unwanted`. */
static void attack(const char *name, const char *request, const char *const *wanted, const char *const *unwanted) {
    cases++;
    char *answer = sigil_verify(request);
    if (!answer) {
        fprintf(stderr, "sigil_c_adversarial: FAIL %s: NULL answer\n", name);
        failures++;
        return;
    }
    for (const char *const *w = wanted; w && *w; w++) {
        if (!strstr(answer, *w)) {
            fprintf(stderr, "sigil_c_adversarial: FAIL %s: no %s in %.400s\n", name, *w, answer);
            failures++;
        }
    }
    for (const char *const *u = unwanted; u && *u; u++) {
        if (strstr(answer, *u)) {
            fprintf(stderr, "sigil_c_adversarial: FAIL %s: %s in %.400s\n", name, *u, answer);
            failures++;
        }
    }
    if (strlen(answer) > 4096 && strncmp(answer, "{\"valid\":false", 14) == 0) {
        fprintf(stderr, "sigil_c_adversarial: FAIL %s: a refusal of %zu bytes echoes the request\n", name, strlen(answer));
        failures++;
    }
    sigil_free(answer);
}

/* A refusal with `code`, never valid. */
static void refused(const char *name, const char *request, const char *code) {
    char wanted[160];
    snprintf(wanted, sizeof wanted, "\"code\":\"%s\"", code);
    const char *const want[] = {"{\"valid\":false,\"error\":{", wanted, NULL};
    attack(name, request, want, NULL);
}

/* printf into a new malloc'd string (the caller frees it). */
static char *format(const char *pattern, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *pattern, ...) {
    va_list arguments;
    va_start(arguments, pattern);
    int length = vsnprintf(NULL, 0, pattern, arguments);
    va_end(arguments);
    char *out = malloc((size_t)length + 1);
    if (!out) exit(2);
    va_start(arguments, pattern);
    vsnprintf(out, (size_t)length + 1, pattern, arguments);
    va_end(arguments);
    return out;
}

static char *copy_of(const char *text) {
    size_t length = strlen(text);
    char *out = malloc(length + 1);
    if (!out) exit(2);
    memcpy(out, text, length + 1);
    return out;
}

static int read_forged(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    static char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        char *space = strchr(line, ' ');
        if (!space) continue;
        *space = 0;
        char *value = space + 1;
        value[strcspn(value, "\n")] = 0;
        char *copy = copy_of(value);
        if (strcmp(line, "root") == 0) forged_root = copy;
        else if (strcmp(line, "jws") == 0) forged_jws = copy;
        else if (strcmp(line, "xcodejws") == 0) forged_xcode_jws = copy;
        else free(copy);
    }
    fclose(f);
    return forged_root && forged_jws && forged_xcode_jws;
}

/* Trust members smuggled into a request: valid only when the answer names them, or refused. */
static void smuggled_trust(void) {
    char *request;

    request = format("{\"data\":\"%s\",\"roots\":[\"%s\"],\"bundleId\":\"com.victim.bank\",\"appAppleId\":42,"
                     "\"environments\":[\"Production\"]}",
                     forged_jws, forged_root);
    const char *const named[] = {"{\"valid\":true,\"kind\":\"transaction\",\"environment\":\"Production\",\"trust\":\"request-roots\",",
                                 "\"notEnforced\":[\"appleRoot\"]}", NULL};
    const char *const not_apple[] = {"\"trust\":\"apple\"", "\"notEnforced\":[]", NULL};
    attack("self-made CA in roots for any bundle id: valid only as trust request-roots, appleRoot not enforced", request, named,
           not_apple);
    free(request);

    request = format("{\"data\":\"%s\",\"bundleId\":\"com.victim.bank\",\"appAppleId\":42,\"environments\":[\"Production\"]}",
                     forged_jws);
    refused("the same forgery without roots: Apple's root refuses it", request, "appstore.VERIFICATION_FAILURE");
    free(request);

    request = format("{\"kind\":\"transaction\",\"data\":\"%s\",\"environments\":[\"Xcode\"]}", forged_xcode_jws);
    const char *const xcode[] = {"\"trust\":\"xcode\"", "\"notEnforced\":[\"bundleId\",\"appAppleId\",\"appleRoot\"]", NULL};
    attack("Xcode trust of a certificate the data carries: named xcode, appleRoot not enforced", request, xcode, not_apple);
    free(request);

    request = format("{\"kind\":\"transaction\",\"data\":\"%s\",\"environments\":[\"Xcode\"],\"roots\":[\"%s\",\"%s\"]}",
                     forged_xcode_jws, forged_root, forged_root);
    refused("Xcode with extra roots: refused, never cut to the first", request, "request.invalidMember");
    free(request);

    request = format("{\"kind\":\"receipt\",\"data\":\"AAAA\",\"environments\":[\"Xcode\"],\"roots\":[\"%s\",\"%s\"]}", forged_root,
                     forged_root);
    refused("Xcode receipt with extra roots: refused", request, "request.invalidMember");
    free(request);

    refused("unpinnedTestRoot on an assertion", "{\"kind\":\"assertion\",\"data\":\"AAAA\",\"teamId\":\"ABCDE12345\",\"bundleId\":"
            "\"com.victim.bank\",\"clientData\":\"AA==\",\"publicKey\":\"BAAA\",\"unpinnedTestRoot\":true}",
            "request.invalidMember");
    request = format("{\"kind\":\"assertion\",\"data\":\"AAAA\",\"teamId\":\"ABCDE12345\",\"bundleId\":\"com.victim.bank\","
                     "\"clientData\":\"AA==\",\"publicKey\":\"BAAA\",\"roots\":[\"%s\"]}",
                     forged_root);
    refused("roots on an assertion (its key was attested)", request, "request.invalidMember");
    free(request);
    refused("unpinnedTestRoot on App Store data", "{\"data\":\"x.y.z\",\"unpinnedTestRoot\":true}", "request.invalidMember");
    refused("unpinnedTestRoot without a root to trust",
            "{\"kind\":\"attestation\",\"data\":\"AAAA\",\"teamId\":\"ABCDE12345\",\"bundleId\":\"com.victim.bank\","
            "\"clientData\":\"AA==\",\"unpinnedTestRoot\":true}",
            "request.missingMember");
    refused("a trust verdict sent as a request member", "{\"data\":\"x.y.z\",\"trust\":\"apple\"}", "request.unknownMember");
    refused("notEnforced sent as a request member", "{\"data\":\"x.y.z\",\"notEnforced\":[]}", "request.unknownMember");
}

/* Kind applepay through a door without merchant keys: never decrypted. */
static void applepay(void) {
    const char *const wanted[] = {"\"code\":\"service.notConfigured\"", NULL};
    const char *const decrypted[] = {"\"valid\":true", "\"payment\"", NULL};
    attack("applepay through the C ABI: service.notConfigured, nothing decrypted",
           "{\"kind\":\"applepay\",\"data\":\"{\\\"version\\\":\\\"EC_v1\\\",\\\"data\\\":\\\"AAAA\\\",\\\"signature\\\":\\\"AAAA\\\","
           "\\\"header\\\":{}}\"}",
           wanted, decrypted);
    char *request = format("{\"kind\":\"applepay\",\"data\":\"{}\",\"roots\":[\"%s\"]}", forged_root);
    refused("applepay with roots smuggled: its roots are the service's configuration", request, "request.invalidMember");
    free(request);
}

/* Documents the parser and the decoder must refuse before any verifier runs. */
static void malformed(void) {
    size_t size = (4u << 20) + 64;
    char *oversized = malloc(size + 1);
    if (!oversized) exit(2);
    memset(oversized, 'A', size);
    memcpy(oversized, "{\"data\":\"", 9);
    memcpy(oversized + size - 2, "\"}", 2);
    oversized[size] = 0;
    refused("oversized request (4 MiB + 64 bytes)", oversized, "request.tooLarge");
    free(oversized);

    size_t depth = 30000;
    char *deep = malloc(depth * 9 + 2 + depth + 1);
    if (!deep) exit(2);
    char *p = deep;
    for (size_t i = 0; i < depth; i++) p += sprintf(p, "{\"data\":");
    *p++ = '1';
    for (size_t i = 0; i < depth; i++) *p++ = '}';
    *p = 0;
    refused("deep nesting (30,000 objects)", deep, "request.invalidJSON");
    free(deep);

    refused("duplicate member name (a second data)", "{\"data\":\"x\",\"data\":\"y\"}", "request.invalidJSON");
    refused("duplicate trust member (roots null, then roots again)", "{\"data\":\"x\",\"roots\":null,\"roots\":[\"AAAA\"]}",
            "request.invalidJSON");
    refused("invalid UTF-8 (overlong slash)", "{\"data\":\"\xc0\xaf\"}", "request.invalidJSON");
    refused("invalid UTF-8 (surrogate half encoded)", "{\"data\":\"\xed\xa0\x80\"}", "request.invalidJSON");
    refused("invalid UTF-8 in a member name", "{\"\xff\":1}", "request.invalidJSON");
    refused("non-object document: array", "[{\"data\":\"x\"}]", "request.notAnObject");
    refused("non-object document: number", "42", "request.notAnObject");
    refused("non-object document: null", "null", "request.notAnObject");
    refused("truncated document", "{\"data\":\"x\",\"roots\":[", "request.invalidJSON");
    refused("truncated string", "{\"data\":\"eyJhbGciOiJFUzI1", "request.invalidJSON");
    refused("trailing second document", "{\"data\":\"x\"}{\"roots\":[]}", "request.invalidJSON");
    refused("unknown member (a misspelt trust option)", "{\"data\":\"x\",\"trustedRoots\":[]}", "request.unknownMember");
    refused("wrong type: roots a string", "{\"data\":\"x\",\"roots\":\"AAAA\"}", "request.invalidMember");
    refused("wrong type: environments a string", "{\"data\":\"x\",\"environments\":\"Xcode\"}", "request.invalidMember");
    refused("wrong type: at a string", "{\"data\":\"x\",\"at\":\"now\"}", "request.invalidMember");
    refused("wrong type: at a fraction", "{\"data\":\"x\",\"at\":1.5}", "request.invalidMember");
    refused("wrong type: reportOnly a string", "{\"data\":\"x\",\"reportOnly\":\"true\"}", "request.invalidMember");
    refused("wrong type: data a number", "{\"data\":5}", "request.invalidMember");
    refused("roots not a certificate", "{\"data\":\"x\",\"roots\":[\"AAAA\"]}", "request.invalidMember");
}

int main(int argc, char **argv) {
    if (argc != 2 || !read_forged(argv[1])) {
        fprintf(stderr, "usage: sigil_c_adversarial FORGED (Conformance/forged.py writes it)\n");
        return 2;
    }
    smuggled_trust();
    applepay();
    malformed();
    free(forged_root);
    free(forged_jws);
    free(forged_xcode_jws);
    printf("sigil_c_adversarial: %d attacks, %s\n", cases, failures ? "FAILED" : "each refused or named");
    return failures ? 1 : 0;
}
