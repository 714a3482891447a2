// What an Embedded Swift module for wasm32-unknown-none-wasm expects from a C library, given inside
// sigil.wasm so that it imports nothing: memory (a size-class allocator over memory.grow), memcmp,
// the 128-bit integer helpers LLVM calls (__multi3, __lshrti3, __ashrti3), arc4random_buf served
// from bytes the host passed (sigil_seed), and stubs for putchar and the stack protector. Built by
// Scripts/build-wasm with clang --target=wasm32-unknown-unknown, freestanding.
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;

#define HEADER 16u
#define CLASSES 32
#define LIVE 0x4c495645u  // "LIVE": the block is allocated
#define FREED 0x46524545u // "FREE": the block is on a free list

// A block: 16 bytes of header (its size class, its state, the free list's link), then the payload.
typedef struct Block {
    uint32_t size_class;
    uint32_t state;
    struct Block *next;
} Block;

static Block *free_lists[CLASSES];
static uintptr_t heap_top;

static unsigned size_class(size_t total) {
    unsigned k = 5; // 32 bytes at least (16 of header)
    while (k < CLASSES - 1 && ((size_t)1 << k) < total) k++;
    return k;
}

static void *carve(size_t bytes) {
    if (heap_top == 0) heap_top = ((uintptr_t)&__heap_base + 15u) & ~(uintptr_t)15u;
    uintptr_t start = heap_top, end = start + bytes;
    if (end < start) return NULL;
    uintptr_t limit = (uintptr_t)__builtin_wasm_memory_size(0) * 65536u;
    if (limit != 0 && end > limit) {
        uintptr_t pages = (end - limit + 65535u) / 65536u;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
    }
    heap_top = end;
    return (void *)start;
}

// A payload of at least `size` bytes (16-byte aligned), or NULL when memory cannot grow.
static void *allocate(size_t size) {
    if (size > ((size_t)1 << 30)) return NULL;
    unsigned k = size_class(size + HEADER);
    Block *block = free_lists[k];
    if (block) {
        free_lists[k] = block->next;
    } else {
        block = carve((size_t)1 << k);
        if (!block) return NULL;
    }
    block->size_class = k;
    block->state = LIVE;
    block->next = 0;
    return (unsigned char *)block + HEADER;
}

// Swift's allocations: out of memory traps (the Embedded runtime does not check for NULL), and
// the host starts a fresh instance.
void *malloc(size_t size) {
    void *pointer = allocate(size);
    if (!pointer) __builtin_trap();
    return pointer;
}

// Every payload is wiped when it is released (requests hold .p8 keys, answers tokens, and the
// parsed copies of both pass through here); a pointer that is not a live block traps.
void free(void *pointer) {
    if (!pointer) return;
    Block *block = (Block *)((unsigned char *)pointer - HEADER);
    unsigned k = block->size_class;
    if (k >= CLASSES || block->state != LIVE) __builtin_trap();
    volatile unsigned char *payload = (volatile unsigned char *)pointer;
    for (size_t i = 0; i < ((size_t)1 << k) - HEADER; i++) payload[i] = 0;
    block->state = FREED;
    block->next = free_lists[k];
    free_lists[k] = block;
}

// The host's side of memory: a buffer for a request (16-byte aligned; 0 when memory cannot grow,
// which the host reports), and the release of a request buffer or an answer (NULL ignored).
void *sigil_alloc(size_t count) { return allocate(count ? count : 1); }

void sigil_free(void *pointer) { free(pointer); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment > HEADER) __builtin_trap(); // every payload is 16-byte aligned, no more; no caller asks more
    *out = malloc(size);
    return 0;
}

int memcmp(const void *a, const void *b, size_t count) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < count; i++) {
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

// Random bytes exist here only as the host gave them (sigil_seed, from its Web Crypto): the
// standard library's hash seed, and a token nonce a caller left to Sigil. A request for more than
// the host gave traps (the call fails and sigil.mjs starts the module afresh) rather than hand out
// bytes that are not random. Each byte is served once and wiped.
#define POOL 256u
static unsigned char pool[POOL];
static size_t pool_count;

void sigil_runtime_seed(const unsigned char *bytes, size_t count) {
    if (count > POOL) count = POOL;
    for (size_t i = 0; i < count; i++) pool[i] = bytes[i];
    for (size_t i = count; i < POOL; i++) pool[i] = 0;
    pool_count = count;
}

void arc4random_buf(void *buffer, size_t count) {
    if (count > pool_count) __builtin_trap();
    unsigned char *out = buffer;
    for (size_t i = 0; i < count; i++) {
        pool_count--;
        out[i] = pool[pool_count];
        pool[pool_count] = 0;
    }
}

int putchar(int character) { return character; }

// The stack protector's canary: a constant, for want of entropy (wasm's stack is not executable
// and return addresses are not in linear memory, so it guards little here).
uintptr_t __stack_chk_guard = 0x5e1f0a3du;

void __stack_chk_fail(void) { __builtin_trap(); }

typedef union {
    __int128 value;
    struct { uint64_t low, high; } parts;
} Wide;

__int128 __multi3(__int128 a, __int128 b) {
    Wide x = {.value = a}, y = {.value = b}, r;
    uint64_t a0 = x.parts.low & 0xffffffffu, a1 = x.parts.low >> 32;
    uint64_t b0 = y.parts.low & 0xffffffffu, b1 = y.parts.low >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    r.parts.low = (middle << 32) | (p00 & 0xffffffffu);
    r.parts.high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32)
        + x.parts.low * y.parts.high + x.parts.high * y.parts.low;
    return r.value;
}

__int128 __lshrti3(__int128 a, int shift) {
    Wide x = {.value = a}, r;
    if (shift == 0) return a;
    if (shift >= 64) {
        r.parts.low = x.parts.high >> (shift - 64);
        r.parts.high = 0;
    } else {
        r.parts.low = (x.parts.low >> shift) | (x.parts.high << (64 - shift));
        r.parts.high = x.parts.high >> shift;
    }
    return r.value;
}

__int128 __ashrti3(__int128 a, int shift) {
    Wide x = {.value = a}, r;
    if (shift == 0) return a;
    if (shift >= 64) {
        r.parts.low = (uint64_t)((int64_t)x.parts.high >> (shift - 64));
        r.parts.high = (uint64_t)((int64_t)x.parts.high >> 63);
    } else {
        r.parts.low = (x.parts.low >> shift) | (x.parts.high << (64 - shift));
        r.parts.high = (uint64_t)((int64_t)x.parts.high >> shift);
    }
    return r.value;
}
