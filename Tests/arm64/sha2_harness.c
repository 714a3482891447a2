// Checks the arm64 SHA-2 kernels of Sources/CSigilIntrinsics/include/SigilIntrinsics.h
// (sigil_sha256_compress_armv8, sigil_sha512_compress_armv8) and their probes, as C: this machine
// cannot run arm64 Swift. Scripts/check-arm64-kernels cross-compiles it for aarch64 and runs it under
// qemu-user, once on a CPU model with the SHA-512 instructions and once on one without.
//
//   sha2_harness VECTOR_DIR [SEED]
//
// VECTOR_DIR holds the NIST SHAVS response files (SHA{256,384,512}{ShortMsg,LongMsg,Monte}.rsp),
// read at run time. The harness has its own portable SHA-256 / SHA-384 / SHA-512 (FIPS 180-4,
// written here, one block at a time) as the reference, and checks:
//   1. the probes' answers (printed for the script to compare with the CPU model it asked for);
//   2. SHAVS short and long messages on the reference and on each kernel (whole messages, padding
//      done here, all full blocks in one kernel call), and SHAVS Monte Carlo on each kernel;
//   3. every message length 0 … 1000 of random bytes: kernel digest = reference digest;
//   4. runs of 1 … 40 blocks from random chaining values: one kernel call = one kernel call per
//      block = the reference compression.
// A kernel whose probe answers 0 is not called (it would fault) and the harness says it skipped it.
// Any mismatch is printed; the exit status is 1 when anything failed or no check ran, else 0.
//
// Built with -DSIGIL_HARNESS_SWIFT_KERNELS, the kernels under test are the ones Swift compiled from
// the header (Tests/arm64/SwiftImportedKernels.swift, linked in), called through Swift wrappers;
// otherwise the ones clang compiled from the header here.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "SigilIntrinsics.h"

#if !defined(__aarch64__)
#error "sha2_harness tests the arm64 kernels: build it for aarch64"
#endif

#if defined(SIGIL_HARNESS_SWIFT_KERNELS)
void sigil_swift_sha256_compress_armv8(uint32_t state[8], const uint8_t *blocks, size_t block_count);
void sigil_swift_sha512_compress_armv8(uint64_t state[8], const uint8_t *blocks, size_t block_count);
#define KERNEL_SHA256 sigil_swift_sha256_compress_armv8
#define KERNEL_SHA512 sigil_swift_sha512_compress_armv8
#define KERNELS_FROM "Swift (swiftc imported the header)"
#else
#define KERNEL_SHA256 sigil_sha256_compress_armv8
#define KERNEL_SHA512 sigil_sha512_compress_armv8
#define KERNELS_FROM "C (clang compiled the header)"
#endif

// ---- Reference SHA-2, FIPS 180-4 -----------------------------------------------------------------

static uint32_t rotr32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }
static uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

// §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
static const uint32_t ref_k256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80 primes.
static const uint64_t ref_k512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

// §6.2.2, one 64-byte block after another, with the functions of §4.1.2 as written there.
static void ref_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t block_count) {
    for (size_t n = 0; n < block_count; n++) {
        const uint8_t *m = blocks + 64 * n;
        uint32_t w[64];
        for (int t = 0; t < 16; t++) {
            w[t] = (uint32_t)m[4 * t] << 24 | (uint32_t)m[4 * t + 1] << 16 | (uint32_t)m[4 * t + 2] << 8 | m[4 * t + 3];
        }
        for (int t = 16; t < 64; t++) {
            const uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = s1 + w[t - 7] + s0 + w[t - 16];
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 64; t++) {
            const uint32_t t1 = hh + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) + ref_k256[t] + w[t];
            const uint32_t t2 = (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
}

// §6.4.2, one 128-byte block after another, with the functions of §4.1.3 as written there.
static void ref_sha512_compress(uint64_t h[8], const uint8_t *blocks, size_t block_count) {
    for (size_t n = 0; n < block_count; n++) {
        const uint8_t *m = blocks + 128 * n;
        uint64_t w[80];
        for (int t = 0; t < 16; t++) {
            w[t] = 0;
            for (int i = 0; i < 8; i++) {
                w[t] = w[t] << 8 | m[8 * t + i];
            }
        }
        for (int t = 16; t < 80; t++) {
            const uint64_t s0 = rotr64(w[t - 15], 1) ^ rotr64(w[t - 15], 8) ^ (w[t - 15] >> 7);
            const uint64_t s1 = rotr64(w[t - 2], 19) ^ rotr64(w[t - 2], 61) ^ (w[t - 2] >> 6);
            w[t] = s1 + w[t - 7] + s0 + w[t - 16];
        }
        uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 80; t++) {
            const uint64_t t1 = hh + (rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41)) + ((e & f) ^ (~e & g)) + ref_k512[t] + w[t];
            const uint64_t t2 = (rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
}

// ---- Whole-message hashing over a compression function ------------------------------------------

typedef void (*compress256_fn)(uint32_t state[8], const uint8_t *blocks, size_t block_count);
typedef void (*compress512_fn)(uint64_t state[8], const uint8_t *blocks, size_t block_count);

enum algorithm { SHA256, SHA384, SHA512 };
static const char *const algorithm_names[] = {"SHA-256", "SHA-384", "SHA-512"};
static const size_t digest_sizes[] = {32, 48, 64};

// One hash's compression: the reference or the kernel under test.
struct engine {
    compress256_fn c256;
    compress512_fn c512;
};

// FIPS 180-4 §5.1 padding and §5.3 initial values; every full block of the message goes to the
// compression in one call, then the one or two padding blocks in another.
static void hash(enum algorithm alg, struct engine engine, const uint8_t *msg, size_t len, uint8_t *digest) {
    if (alg == SHA256) {
        uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
        const size_t full = len / 64;
        if (full > 0) {
            engine.c256(h, msg, full);
        }
        uint8_t tail[128] = {0};
        const size_t rest = len - 64 * full;
        memcpy(tail, msg + 64 * full, rest);
        tail[rest] = 0x80;
        const size_t tail_blocks = rest + 1 + 8 <= 64 ? 1 : 2;
        const uint64_t bits = (uint64_t)len * 8;
        for (int i = 0; i < 8; i++) {
            tail[64 * tail_blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
        }
        engine.c256(h, tail, tail_blocks);
        for (int i = 0; i < 8; i++) {
            digest[4 * i] = (uint8_t)(h[i] >> 24);
            digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
            digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
            digest[4 * i + 3] = (uint8_t)h[i];
        }
        return;
    }
    static const uint64_t iv384[8] = {
        0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
        0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
    };
    static const uint64_t iv512[8] = {
        0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
        0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
    };
    uint64_t h[8];
    memcpy(h, alg == SHA384 ? iv384 : iv512, sizeof(h));
    const size_t full = len / 128;
    if (full > 0) {
        engine.c512(h, msg, full);
    }
    uint8_t tail[256] = {0};
    const size_t rest = len - 128 * full;
    memcpy(tail, msg + 128 * full, rest);
    tail[rest] = 0x80;
    const size_t tail_blocks = rest + 1 + 16 <= 128 ? 1 : 2;
    // The 128-bit length: its high 64 bits stay zero for any message held in memory here.
    const uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) {
        tail[128 * tail_blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    }
    engine.c512(h, tail, tail_blocks);
    for (size_t i = 0; i < digest_sizes[alg] / 8; i++) {
        for (int j = 0; j < 8; j++) {
            digest[8 * i + (size_t)j] = (uint8_t)(h[i] >> (56 - 8 * j));
        }
    }
}

// ---- Bookkeeping ---------------------------------------------------------------------------------

static long checks_passed, checks_failed;

static void hexprint(const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        printf("%02x", bytes[i]);
    }
}

// Records one comparison; prints the first few failures in full.
static void expect_equal(const uint8_t *got, const uint8_t *want, size_t size, const char *what) {
    if (memcmp(got, want, size) == 0) {
        checks_passed++;
        return;
    }
    checks_failed++;
    if (checks_failed <= 20) {
        printf("MISMATCH %s\n  got  ", what);
        hexprint(got, size);
        printf("\n  want ");
        hexprint(want, size);
        printf("\n");
    }
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Decodes `text` (hex, up to the end of the line) into a malloc'd buffer; returns its size or -1.
static long parse_hex(const char *text, uint8_t **out) {
    size_t n = 0;
    while (hex_value(text[n]) >= 0) n++;
    if (n % 2 != 0) return -1;
    *out = malloc(n / 2 + 1);
    if (*out == NULL) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        (*out)[i] = (uint8_t)(hex_value(text[2 * i]) << 4 | hex_value(text[2 * i + 1]));
    }
    return (long)(n / 2);
}

// Reads a whole file into a NUL-terminated buffer, or exits naming it.
static char *read_file(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        printf("cannot open %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text != NULL && (got = fread(text + len, 1, cap - len - 1, file)) > 0) {
        len += got;
        if (len + 1 == cap) {
            cap *= 2;
            text = realloc(text, cap);
        }
    }
    fclose(file);
    if (text == NULL) {
        printf("out of memory reading %s\n", path);
        exit(2);
    }
    text[len] = 0;
    return text;
}

// ---- SHAVS --------------------------------------------------------------------------------------

// The records of a ShortMsg/LongMsg file (Len, Msg, MD; Len in bits, Msg 00 when Len is 0): the
// reference and each engine must give MD. Returns the number of records.
static long shavs_messages(const char *dir, const char *name, enum algorithm alg, struct engine kernel) {
    char *text = read_file(dir, name);
    long records = 0, len_bits = -1;
    uint8_t *msg = NULL;
    long msg_size = -1;
    for (char *line = text; line != NULL && *line; ) {
        char *next = strchr(line, '\n');
        if (next != NULL) *next++ = 0;
        if (strncmp(line, "Len = ", 6) == 0) {
            len_bits = strtol(line + 6, NULL, 10);
        } else if (strncmp(line, "Msg = ", 6) == 0) {
            free(msg);
            msg_size = parse_hex(line + 6, &msg);
        } else if (strncmp(line, "MD = ", 5) == 0) {
            uint8_t *md = NULL;
            const long md_size = parse_hex(line + 5, &md);
            if (len_bits < 0 || len_bits % 8 != 0 || msg_size < len_bits / 8 || md_size != (long)digest_sizes[alg]) {
                printf("%s: malformed record after %ld records\n", name, records);
                exit(2);
            }
            const size_t len = (size_t)len_bits / 8;
            uint8_t digest[64];
            char what[160];
            struct engine reference = {ref_sha256_compress, ref_sha512_compress};
            hash(alg, reference, msg, len, digest);
            snprintf(what, sizeof(what), "%s %s Len = %ld, reference", name, algorithm_names[alg], len_bits);
            expect_equal(digest, md, (size_t)md_size, what);
            hash(alg, kernel, msg, len, digest);
            snprintf(what, sizeof(what), "%s %s Len = %ld, kernel", name, algorithm_names[alg], len_bits);
            expect_equal(digest, md, (size_t)md_size, what);
            free(md);
            records++;
            len_bits = -1;
            msg_size = -1;
        }
        line = next;
    }
    free(msg);
    free(text);
    return records;
}

// The Monte Carlo file (SHAVS §6.4): from the seed, 100 checkpoints of 1,000 hashes of the last
// three digests each, on the kernel. Returns the number of checkpoints.
static long shavs_monte(const char *dir, const char *name, enum algorithm alg, struct engine kernel) {
    char *text = read_file(dir, name);
    const size_t size = digest_sizes[alg];
    uint8_t seed[64];
    int have_seed = 0;
    long checkpoints = 0;
    for (char *line = text; line != NULL && *line; ) {
        char *next = strchr(line, '\n');
        if (next != NULL) *next++ = 0;
        uint8_t *value = NULL;
        if (strncmp(line, "Seed = ", 7) == 0) {
            if (parse_hex(line + 7, &value) != (long)size) {
                printf("%s: malformed seed\n", name);
                exit(2);
            }
            memcpy(seed, value, size);
            have_seed = 1;
        } else if (strncmp(line, "MD = ", 5) == 0 && have_seed) {
            if (parse_hex(line + 5, &value) != (long)size) {
                printf("%s: malformed MD\n", name);
                exit(2);
            }
            uint8_t m[3 * 64];
            memcpy(m, seed, size);
            memcpy(m + size, seed, size);
            memcpy(m + 2 * size, seed, size);
            uint8_t digest[64];
            for (int i = 3; i < 1003; i++) {
                hash(alg, kernel, m, 3 * size, digest);
                memmove(m, m + size, 2 * size);
                memcpy(m + 2 * size, digest, size);
            }
            char what[160];
            snprintf(what, sizeof(what), "%s %s checkpoint %ld, kernel", name, algorithm_names[alg], checkpoints);
            expect_equal(digest, value, size, what);
            memcpy(seed, digest, size);
            checkpoints++;
        }
        free(value);
        line = next;
    }
    free(text);
    return checkpoints;
}

// ---- Random agreement ---------------------------------------------------------------------------

// SplitMix64: a fixed sequence for a given seed, so a failure can be rerun.
static uint64_t rng_state;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static void rng_fill(uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) bytes[i] = (uint8_t)rng_next();
}

// Every length 0 … 1000 of random bytes: kernel digest = reference digest. Returns the count.
static long random_lengths(enum algorithm alg, struct engine kernel) {
    struct engine reference = {ref_sha256_compress, ref_sha512_compress};
    uint8_t data[1000];
    long count = 0;
    for (size_t len = 0; len <= 1000; len++) {
        rng_fill(data, len);
        uint8_t want[64], got[64];
        hash(alg, reference, data, len, want);
        hash(alg, kernel, data, len, got);
        char what[96];
        snprintf(what, sizeof(what), "%s of %zu random bytes", algorithm_names[alg], len);
        expect_equal(got, want, digest_sizes[alg], what);
        count++;
    }
    return count;
}

// Runs of 1 … 40 blocks from a random chaining value: one kernel call on the whole run, one kernel
// call per block and the reference compression give the same state. Returns the number of runs.
static long multi_block_256(compress256_fn kernel) {
    uint8_t blocks[40 * 64];
    long runs = 0;
    for (size_t count = 1; count <= 40; count++) {
        uint32_t start[8], whole[8], single[8], reference[8];
        for (int i = 0; i < 8; i++) start[i] = (uint32_t)rng_next();
        rng_fill(blocks, 64 * count);
        memcpy(whole, start, sizeof(start));
        memcpy(single, start, sizeof(start));
        memcpy(reference, start, sizeof(start));
        kernel(whole, blocks, count);
        for (size_t n = 0; n < count; n++) kernel(single, blocks + 64 * n, 1);
        ref_sha256_compress(reference, blocks, count);
        char what[96];
        snprintf(what, sizeof(what), "SHA-256 compression of %zu blocks in one call vs the reference", count);
        expect_equal((const uint8_t *)whole, (const uint8_t *)reference, sizeof(whole), what);
        snprintf(what, sizeof(what), "SHA-256 compression of %zu blocks one at a time vs the reference", count);
        expect_equal((const uint8_t *)single, (const uint8_t *)reference, sizeof(single), what);
        runs++;
    }
    return runs;
}

static long multi_block_512(compress512_fn kernel) {
    uint8_t blocks[40 * 128];
    long runs = 0;
    for (size_t count = 1; count <= 40; count++) {
        uint64_t start[8], whole[8], single[8], reference[8];
        for (int i = 0; i < 8; i++) start[i] = rng_next();
        rng_fill(blocks, 128 * count);
        memcpy(whole, start, sizeof(start));
        memcpy(single, start, sizeof(start));
        memcpy(reference, start, sizeof(start));
        kernel(whole, blocks, count);
        for (size_t n = 0; n < count; n++) kernel(single, blocks + 128 * n, 1);
        ref_sha512_compress(reference, blocks, count);
        char what[96];
        snprintf(what, sizeof(what), "SHA-512 compression of %zu blocks in one call vs the reference", count);
        expect_equal((const uint8_t *)whole, (const uint8_t *)reference, sizeof(whole), what);
        snprintf(what, sizeof(what), "SHA-512 compression of %zu blocks one at a time vs the reference", count);
        expect_equal((const uint8_t *)single, (const uint8_t *)reference, sizeof(single), what);
        runs++;
    }
    return runs;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: %s VECTOR_DIR [SEED]\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5A5A0029ULL;
    setvbuf(stdout, NULL, _IOLBF, 0);

    const int sha256 = sigil_cpu_has_arm_sha256();
    const int sha512 = sigil_cpu_has_arm_sha512();
    printf("probe sigil_cpu_has_arm_sha256: %d\n", sha256);
    printf("probe sigil_cpu_has_arm_sha512: %d\n", sha512);
    printf("kernels under test: as compiled by %s\n", KERNELS_FROM);

    if (sha256) {
        const struct engine kernel = {KERNEL_SHA256, NULL};
        const long shorts = shavs_messages(dir, "SHA256ShortMsg.rsp", SHA256, kernel);
        const long longs = shavs_messages(dir, "SHA256LongMsg.rsp", SHA256, kernel);
        const long monte = shavs_monte(dir, "SHA256Monte.rsp", SHA256, kernel);
        const long lengths = random_lengths(SHA256, kernel);
        const long runs = multi_block_256(KERNEL_SHA256);
        printf("SHA-256 kernel: SHAVS %ld short + %ld long messages, %ld Monte Carlo checkpoints; "
               "%ld random lengths 0-1000; %ld multi-block runs\n", shorts, longs, monte, lengths, runs);
    } else {
        printf("SHA-256 kernel: SKIPPED (the probe reports no SHA-256 instructions on this CPU)\n");
    }
    if (sha512) {
        const struct engine kernel = {NULL, KERNEL_SHA512};
        const long shorts384 = shavs_messages(dir, "SHA384ShortMsg.rsp", SHA384, kernel);
        const long longs384 = shavs_messages(dir, "SHA384LongMsg.rsp", SHA384, kernel);
        const long monte384 = shavs_monte(dir, "SHA384Monte.rsp", SHA384, kernel);
        const long shorts512 = shavs_messages(dir, "SHA512ShortMsg.rsp", SHA512, kernel);
        const long longs512 = shavs_messages(dir, "SHA512LongMsg.rsp", SHA512, kernel);
        const long monte512 = shavs_monte(dir, "SHA512Monte.rsp", SHA512, kernel);
        const long lengths384 = random_lengths(SHA384, kernel);
        const long lengths512 = random_lengths(SHA512, kernel);
        const long runs = multi_block_512(KERNEL_SHA512);
        printf("SHA-384 on the SHA-512 kernel: SHAVS %ld short + %ld long messages, %ld Monte Carlo checkpoints; "
               "%ld random lengths 0-1000\n", shorts384, longs384, monte384, lengths384);
        printf("SHA-512 kernel: SHAVS %ld short + %ld long messages, %ld Monte Carlo checkpoints; "
               "%ld random lengths 0-1000; %ld multi-block runs\n", shorts512, longs512, monte512, lengths512, runs);
    } else {
        printf("SHA-384/SHA-512 kernel: SKIPPED (the probe reports no SHA-512 instructions on this CPU)\n");
    }

    printf("checks: %ld passed, %ld failed\n", checks_passed, checks_failed);
    return checks_failed == 0 && checks_passed > 0 ? 0 : 1;
}
