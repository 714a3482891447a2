// CPU-specific compression kernels for Sigil's digests, and the CPUID probe that selects them.
//
// Header-only: every function is `static inline`, so the Swift module that imports this header
// compiles them itself. Each kernel carries `__attribute__((target("...")))`, which lets clang emit
// the instructions without any compiler flag; the caller (Swift, built for the baseline ISA) can
// never inline it, so one call processes a whole run of blocks. Swift calls a kernel only after
// the probe has reported the instructions present.
//
// Nothing else belongs here: padding, buffering and the portable compressions stay in Swift
// (Sources/SigilCore/Digest).

#ifndef SIGIL_INTRINSICS_H
#define SIGIL_INTRINSICS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

/// 1 when the CPU has the SHA extensions (CPUID.(EAX=7,ECX=0):EBX bit 29) together with SSSE3
/// (CPUID.1:ECX bit 9) and SSE4.1 (CPUID.1:ECX bit 19), which the SHA-256 kernel also uses.
static inline int sigil_cpu_has_sha256_extensions(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    const int ssse3 = (ecx >> 9) & 1;
    const int sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    const int sha = (ebx >> 29) & 1;
    return ssse3 & sse41 & sha;
}

/// SHA-256 compression (FIPS 180-4 §6.2.2) of `block_count` consecutive 64-byte blocks at
/// `blocks` into `state` (H0…H7, native-endian words), with the SHA extensions.
///
/// Constant time: no branch or address depends on the state or the message, only on
/// `block_count`. Requires sigil_cpu_has_sha256_extensions() == 1.
__attribute__((target("sha,sse4.1,ssse3")))
static inline void sigil_sha256_compress_shani(uint32_t state[8], const uint8_t *blocks, size_t block_count) {
    // §4.2.2 constants, four per 128-bit lane, low word first.
    static const uint32_t k[64] __attribute__((aligned(16))) = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    // Byte order within each 32-bit word reversed: the message words are big-endian (§3.1).
    const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);

    // SHA256RNDS2 keeps the eight working variables as two lanes: ABEF = {F, E, B, A} and
    // CDGH = {H, G, D, C} (lowest word first).
    const __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)&state[0]), 0xB1);  // {B, A, D, C}
    const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)&state[4]), 0x1B);  // {H, G, F, E}
    __m128i abef = _mm_alignr_epi8(abcd, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, abcd, 0xF0);

// Four rounds (§6.2.2 step 3) with the schedule lane `w` and constants K[4i … 4i+3]: two rounds with
// the low words of W + K, two with the high ones. Written out (not a loop) because the Swift compiler's
// pipeline that builds these imported functions does not unroll loops: unrolled, the lanes stay in
// registers (1.59 → 1.90 GB/s at 1 MiB on this machine).
#define SIGIL_SHA256_QUAD(w, i) do { \
        __m128i wk = _mm_add_epi32((w), _mm_load_si128((const __m128i *)(const void *)&k[4 * (i)])); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk); \
        wk = _mm_shuffle_epi32(wk, 0x0E); \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, wk); \
    } while (0)
// The next four schedule words into `oldest` (§6.2.2 step 1): W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15])
// + W[t−16]; MSG1 adds σ0, the aligned lanes bring W[t−7], MSG2 adds σ1 (two words at a time).
#define SIGIL_SHA256_SCHEDULE(oldest, next, before, newest) \
    (oldest) = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((oldest), (next)), \
                                                  _mm_alignr_epi8((newest), (before), 4)), (newest))

    for (size_t n = 0; n < block_count; n++) {
        const uint8_t *block = blocks + 64 * n;
        const __m128i abef_in = abef, cdgh_in = cdgh;
        // The schedule as four lanes of four words, W[0 … 15] first.
        __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(block + 0)), byteswap);
        __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(block + 16)), byteswap);
        __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(block + 32)), byteswap);
        __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(block + 48)), byteswap);
        SIGIL_SHA256_QUAD(w0, 0);
        SIGIL_SHA256_QUAD(w1, 1);
        SIGIL_SHA256_QUAD(w2, 2);
        SIGIL_SHA256_QUAD(w3, 3);
        SIGIL_SHA256_SCHEDULE(w0, w1, w2, w3); SIGIL_SHA256_QUAD(w0, 4);
        SIGIL_SHA256_SCHEDULE(w1, w2, w3, w0); SIGIL_SHA256_QUAD(w1, 5);
        SIGIL_SHA256_SCHEDULE(w2, w3, w0, w1); SIGIL_SHA256_QUAD(w2, 6);
        SIGIL_SHA256_SCHEDULE(w3, w0, w1, w2); SIGIL_SHA256_QUAD(w3, 7);
        SIGIL_SHA256_SCHEDULE(w0, w1, w2, w3); SIGIL_SHA256_QUAD(w0, 8);
        SIGIL_SHA256_SCHEDULE(w1, w2, w3, w0); SIGIL_SHA256_QUAD(w1, 9);
        SIGIL_SHA256_SCHEDULE(w2, w3, w0, w1); SIGIL_SHA256_QUAD(w2, 10);
        SIGIL_SHA256_SCHEDULE(w3, w0, w1, w2); SIGIL_SHA256_QUAD(w3, 11);
        SIGIL_SHA256_SCHEDULE(w0, w1, w2, w3); SIGIL_SHA256_QUAD(w0, 12);
        SIGIL_SHA256_SCHEDULE(w1, w2, w3, w0); SIGIL_SHA256_QUAD(w1, 13);
        SIGIL_SHA256_SCHEDULE(w2, w3, w0, w1); SIGIL_SHA256_QUAD(w2, 14);
        SIGIL_SHA256_SCHEDULE(w3, w0, w1, w2); SIGIL_SHA256_QUAD(w3, 15);
        // Step 4: add the block's result into the chaining value.
        abef = _mm_add_epi32(abef, abef_in);
        cdgh = _mm_add_epi32(cdgh, cdgh_in);
    }
#undef SIGIL_SHA256_QUAD
#undef SIGIL_SHA256_SCHEDULE

    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);  // {A, B, E, F}
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);  // {G, H, C, D}
    _mm_storeu_si128((__m128i *)(void *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));  // {A, B, C, D}
    _mm_storeu_si128((__m128i *)(void *)&state[4], _mm_alignr_epi8(dchg, feba, 8));    // {E, F, G, H}
}

#else

/// Not an x86-64 build: no kernel here, the portable Swift compression runs.
static inline int sigil_cpu_has_sha256_extensions(void) {
    return 0;
}

#endif

#endif
