// A stand-in for sigil.wasm with its exports and answer format, for the trap test of
// hostile.test.mjs (no request sent to sigil.wasm traps it): sigil_verify answers
// {"valid":true,"calls":N} with N the instance's call count, traps (unreachable) on "trap", and
// overflows the stack on "recurse". Compiled by Scripts/test-wasm with clang for wasm32.
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;
static uintptr_t top;
static int calls;

void *sigil_alloc(size_t count) {
    if (!top) top = ((uintptr_t)&__heap_base + 15u) & ~(uintptr_t)15u;
    uintptr_t start = top, end = start + count + 16u;
    while (end > (uintptr_t)__builtin_wasm_memory_size(0) * 65536u) {
        if (__builtin_wasm_memory_grow(0, 1) == (size_t)-1) return 0;
    }
    top = (end + 15u) & ~(uintptr_t)15u;
    return (void *)start;
}
void sigil_free(void *pointer) { (void)pointer; }
void sigil_seed(const unsigned char *bytes, size_t count) { (void)bytes; (void)count; }
int32_t sigil_request_limit(int32_t which) { return which == 1 ? 65536 : 4194304; }

static unsigned char *answer(const char *text) {
    size_t length = 0;
    while (text[length]) length++;
    unsigned char *out = sigil_alloc(4 + length);
    out[0] = (unsigned char)length; out[1] = (unsigned char)(length >> 8); out[2] = 0; out[3] = 0;
    for (size_t i = 0; i < length; i++) out[4 + i] = (unsigned char)text[i];
    return out;
}
unsigned char *sigil_configure(const unsigned char *request, size_t count) { (void)request; (void)count; return answer("{\"valid\":true}"); }

static volatile int depth;
static int recurse(int n) {
    volatile char frame[256];
    frame[0] = (char)n;
    if (++depth < 0) return 0; // never: depth only grows until the stack runs out
    return recurse(n + 1) + frame[0];
}

unsigned char *sigil_verify(const unsigned char *request, size_t count, int64_t now) {
    (void)now;
    if (count == 4 && request[0] == 't') __builtin_trap();
    if (count == 7 && request[0] == 'r') return (unsigned char *)(uintptr_t)recurse(0);
    calls++;
    static char text[] = "{\"valid\":true,\"calls\":0}";
    text[22] = (char)('0' + calls % 10);
    return answer(text);
}
unsigned char *sigil_mint_token(const unsigned char *request, size_t count, int64_t now) { return sigil_verify(request, count, now); }
unsigned char *sigil_version(void) { return answer("0.0.0-trap"); }
