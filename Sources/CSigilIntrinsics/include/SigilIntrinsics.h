// CPU-specific compression kernels for Sigil's digests (SHA-256 with the SHA extensions or with AVX2
// and BMI2, SHA-384/512 with AVX2 and BMI2), and the CPUID probes that select them.
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

// The round constants, one table each for every kernel below (whatever the architecture):
// SHA-256's K of FIPS 180-4 §4.2.2 and SHA-512's (and SHA-384's) K of §4.2.3, 16-byte aligned for
// vector loads. (The SHA-256 AVX2 kernel keeps its own table: each group of four repeated for its
// second block's lane.)
static inline const uint32_t *sigil_sha256_constants(void) {
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
    return k;
}

static inline const uint64_t *sigil_sha512_constants(void) {
    static const uint64_t k[80] __attribute__((aligned(16))) = {
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
    return k;
}

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

/// 1 when the CPU has AVX2 (CPUID.(EAX=7,ECX=0):EBX bit 5) and BMI2 (same leaf, EBX bit 8) with
/// AVX and SSSE3 (CPUID.1:ECX bits 28 and 9), which the SHA-256 and SHA-512 AVX2 kernels use, and the OS saves the
/// YMM registers across context switches: OSXSAVE (CPUID.1:ECX bit 27) set and XCR0 bits 1 and 2
/// (SSE and AVX state) enabled, read with XGETBV.
__attribute__((target("xsave")))
static inline int sigil_cpu_has_avx2_bmi2(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    const int ssse3 = (ecx >> 9) & 1;
    const int osxsave = (ecx >> 27) & 1;
    const int avx = (ecx >> 28) & 1;
    if (!(ssse3 & osxsave & avx)) {
        return 0;
    }
    // XGETBV is defined only when OSXSAVE is set (checked above).
    if ((_xgetbv(0) & 0x6) != 0x6) {
        return 0;
    }
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    const int avx2 = (ebx >> 5) & 1;
    const int bmi2 = (ebx >> 8) & 1;
    return avx2 & bmi2;
}

/// SHA-256 compression (FIPS 180-4 §6.2.2) of `block_count` consecutive 64-byte blocks at
/// `blocks` into `state` (H0…H7, native-endian words), with the SHA extensions.
///
/// Constant time: no branch or address depends on the state or the message, only on
/// `block_count`. Requires sigil_cpu_has_sha256_extensions() == 1.
__attribute__((target("sha,sse4.1,ssse3")))
static inline void sigil_sha256_compress_shani(uint32_t state[8], const uint8_t *blocks, size_t block_count) {
    // §4.2.2 constants, four per 128-bit lane, low word first.
    const uint32_t *k = sigil_sha256_constants();
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

// §4.1.2 σ0(x) = ROTR7(x) ⊕ ROTR18(x) ⊕ SHR3(x) on eight schedule words. AVX2 has no 32-bit vector
// rotate: each rotation is a right and a left shift.
__attribute__((target("avx2,bmi2"), always_inline))
static inline __m256i sigil_sha256_small_sigma0_avx2(__m256i x) {
    const __m256i right = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi32(x, 7), _mm256_srli_epi32(x, 18)), _mm256_srli_epi32(x, 3));
    return _mm256_xor_si256(right, _mm256_xor_si256(_mm256_slli_epi32(x, 25), _mm256_slli_epi32(x, 14)));
}

// §4.1.2 σ1(x) = ROTR17(x) ⊕ ROTR19(x) ⊕ SHR10(x) of the schedule words in 32-bit lanes 0 and 2 of
// each 128-bit half, given each of them twice, as (x, x) in a 64-bit lane: shifted right as a 64-bit
// lane, (x, x) gives ROTR(x) in its low half. The results are left in lanes 0 and 2 (lanes 1 and 3
// hold junk) for the caller's byte shuffle.
__attribute__((target("avx2,bmi2"), always_inline))
static inline __m256i sigil_sha256_small_sigma1_pairs_avx2(__m256i xx) {
    const __m256i r17 = _mm256_srli_epi64(xx, 17);
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi32(xx, 10), r17), _mm256_srli_epi64(r17, 2));
}

/// SHA-256 compression (FIPS 180-4 §6.2.2) of `block_count` consecutive 64-byte blocks at `blocks`
/// into `state` (H0…H7, native-endian words), with AVX2 and BMI2: the path for x86-64 CPUs without
/// the SHA extensions.
///
/// Blocks go in pairs: one vector holds four schedule words of the first block in its low half and
/// the same four words of the second block in its high half, so one pass of the vector schedule
/// (§6.2.2 step 1) serves both blocks. It runs interleaved with the first block's rounds; the second
/// block's rounds then only read their W + K. The rounds run in general-purpose registers, the
/// rotations of Σ0 and Σ1 with RORX. An odd last block is scheduled in both halves and hashed once.
///
/// The rounds are a loop over groups of sixteen (the roles of a…h and the four schedule vectors
/// are back in place after each group), not written out: unrolled, the kernel is about 15 KB of
/// code against 6 KB and measured no faster here (the embedded verifier's size is bounded).
///
/// Constant time: no branch or address depends on the state or the message, only on
/// `block_count`. Requires sigil_cpu_has_avx2_bmi2() == 1.
__attribute__((target("avx2,bmi2")))
static inline void sigil_sha256_compress_avx2(uint32_t state[8], const uint8_t *blocks, size_t block_count) {
    // §4.2.2 constants, K_t … K_t+3 twice (once for each block's half of a vector).
    static const uint32_t k[128] __attribute__((aligned(32))) = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
        0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
        0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
        0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
        0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
        0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
        0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    // Byte order within each 32-bit word reversed: the message words are big-endian (§3.1).
    const __m256i byteswap = _mm256_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL,
                                               0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // Byte shuffles gathering 32-bit lanes 0 and 2 into lanes 0 and 1 (`low`) or into lanes 2 and 3
    // (`high`) of each half, the other two lanes zeroed (index bytes with the top bit set).
    const __m256i low = _mm256_set_epi64x(-1, 0x0b0a090803020100LL, -1, 0x0b0a090803020100LL);
    const __m256i high = _mm256_set_epi64x(0x0b0a090803020100LL, -1, 0x0b0a090803020100LL, -1);
    // W_t + K_t of both blocks: for each t divisible by four, wk[2t] … wk[2t+3] hold W_t + K_t …
    // W_t+3 + K_t+3 of the first block and wk[2t+4] … wk[2t+7] those of the second (one vector store).
    uint32_t wk[128] __attribute__((aligned(32)));

    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    uint32_t bc;

// One round of §6.2.2 step 3 with the roles of a…h given by the arguments (the caller rotates them)
// and W_t + K_t from `wkt`. Ch(e, f, g) = g ⊕ (e ∧ (f ⊕ g)); Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)),
// with b ⊕ c carried in `bc` from the previous round's a ⊕ b. The sums are grouped so the next e is
// d + (h + W + K + Ch) + Σ1(e), Σ1 last.
#define SIGIL_ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define SIGIL_SHA256_ROUND(a, b, c, d, e, f, g, h, wkt) do { \
        const uint32_t partial = ((h) + (wkt)) + ((g) ^ ((e) & ((f) ^ (g)))); \
        const uint32_t sigma1 = SIGIL_ROTR32(e, 6) ^ SIGIL_ROTR32(e, 11) ^ SIGIL_ROTR32(e, 25); \
        const uint32_t ab = (a) ^ (b); \
        const uint32_t t2 = (SIGIL_ROTR32(a, 2) ^ SIGIL_ROTR32(a, 13) ^ SIGIL_ROTR32(a, 22)) + ((b) ^ (ab & bc)); \
        bc = ab; \
        (d) = ((d) + partial) + sigma1; \
        (h) = (partial + sigma1) + t2; \
    } while (0)
// The schedule words W_t … W_t+3 of both blocks (§6.2.2 step 1) into `w0`, the lane that held
// W_t−16 … W_t−13, with w1 = (W_t−12 … W_t−9), w2 = (W_t−8 … W_t−5), w3 = (W_t−4 … W_t−1):
// W_t = σ1(W_t−2) + W_t−7 + σ0(W_t−15) + W_t−16. The σ0 and W_t−7 terms come from the aligned lanes
// for all four words; σ1 in two halves, since W_t+2 and W_t+3 need W_t and W_t+1: first σ1 of
// (W_t−2, W_t−2, W_t−1, W_t−1), its two results moved into lanes 0 and 1 and lanes 2 and 3 zeroed by
// one byte shuffle (`low`), then of (W_t, W_t, W_t+1, W_t+1) into lanes 2 and 3 (`high`). Then W + K
// (K_t … K_t+3 twice at `kt`) into `wkt`. The empty asm takes wk's address, so the compiler
// keeps the stores and the rounds add W + K from memory (as in the SHA-512 kernel below).
#define SIGIL_SHA256_SCHEDULE(w0, w1, w2, w3, wkt, kt) do { \
        (w0) = _mm256_add_epi32(_mm256_add_epi32((w0), sigil_sha256_small_sigma0_avx2(_mm256_alignr_epi8((w1), (w0), 4))), \
                                _mm256_alignr_epi8((w3), (w2), 4)); \
        (w0) = _mm256_add_epi32((w0), _mm256_shuffle_epi8(sigil_sha256_small_sigma1_pairs_avx2(_mm256_shuffle_epi32((w3), 0xFA)), low)); \
        (w0) = _mm256_add_epi32((w0), _mm256_shuffle_epi8(sigil_sha256_small_sigma1_pairs_avx2(_mm256_shuffle_epi32((w0), 0x50)), high)); \
        _mm256_store_si256((__m256i *)(void *)(wkt), _mm256_add_epi32((w0), _mm256_load_si256((const __m256i *)(const void *)(kt)))); \
        __asm__("" : : "r"(wk) : "memory"); \
    } while (0)
#define SIGIL_SHA256_NO_SCHEDULE(w0, w1, w2, w3, wkt, kt) do { } while (0)
// Sixteen rounds of one block, W + K of round t of the group at wp[8 ⌊t/4⌋ + t mod 4]; the roles
// are back in place after eight. With SIGIL_SHA256_SCHEDULE, the four steps for the next group's
// W (into wp + 32 …, K from kp, kp + 8 …) of both blocks are interleaved, one after every four rounds.
#define SIGIL_SHA256_SIXTEEN(wp, kp, SCHEDULE) do { \
        SIGIL_SHA256_ROUND(a, b, c, d, e, f, g, h, (wp)[0]); \
        SIGIL_SHA256_ROUND(h, a, b, c, d, e, f, g, (wp)[1]); \
        SIGIL_SHA256_ROUND(g, h, a, b, c, d, e, f, (wp)[2]); \
        SIGIL_SHA256_ROUND(f, g, h, a, b, c, d, e, (wp)[3]); \
        SCHEDULE(w0, w1, w2, w3, (wp) + 32, (kp)); \
        SIGIL_SHA256_ROUND(e, f, g, h, a, b, c, d, (wp)[8]); \
        SIGIL_SHA256_ROUND(d, e, f, g, h, a, b, c, (wp)[9]); \
        SIGIL_SHA256_ROUND(c, d, e, f, g, h, a, b, (wp)[10]); \
        SIGIL_SHA256_ROUND(b, c, d, e, f, g, h, a, (wp)[11]); \
        SCHEDULE(w1, w2, w3, w0, (wp) + 40, (kp) + 8); \
        SIGIL_SHA256_ROUND(a, b, c, d, e, f, g, h, (wp)[16]); \
        SIGIL_SHA256_ROUND(h, a, b, c, d, e, f, g, (wp)[17]); \
        SIGIL_SHA256_ROUND(g, h, a, b, c, d, e, f, (wp)[18]); \
        SIGIL_SHA256_ROUND(f, g, h, a, b, c, d, e, (wp)[19]); \
        SCHEDULE(w2, w3, w0, w1, (wp) + 48, (kp) + 16); \
        SIGIL_SHA256_ROUND(e, f, g, h, a, b, c, d, (wp)[24]); \
        SIGIL_SHA256_ROUND(d, e, f, g, h, a, b, c, (wp)[25]); \
        SIGIL_SHA256_ROUND(c, d, e, f, g, h, a, b, (wp)[26]); \
        SIGIL_SHA256_ROUND(b, c, d, e, f, g, h, a, (wp)[27]); \
        SCHEDULE(w3, w0, w1, w2, (wp) + 56, (kp) + 24); \
    } while (0)
// Step 4: the chaining value, read back from `state` (it does not hold eight registers through the
// rounds).
#define SIGIL_SHA256_FINISH() do { \
        a += state[0]; b += state[1]; c += state[2]; d += state[3]; \
        e += state[4]; f += state[5]; g += state[6]; h += state[7]; \
        state[0] = a; state[1] = b; state[2] = c; state[3] = d; \
        state[4] = e; state[5] = f; state[6] = g; state[7] = h; \
    } while (0)
// W_t … W_t+3 of both blocks, and their sums with K_t … K_t+3.
#define SIGIL_SHA256_LOAD(w, t) do { \
        (w) = _mm256_shuffle_epi8(_mm256_loadu2_m128i((const __m128i *)(const void *)(second + 4 * (t)), \
                                                      (const __m128i *)(const void *)(first + 4 * (t))), byteswap); \
        _mm256_store_si256((__m256i *)(void *)&wk[2 * (t)], _mm256_add_epi32((w), _mm256_load_si256((const __m256i *)(const void *)&k[2 * (t)]))); \
    } while (0)

    for (size_t n = 0; n < block_count; n += 2) {
        const uint8_t *first = blocks + 64 * n;
        const uint8_t *second = n + 1 < block_count ? first + 64 : first;
        __m256i w0, w1, w2, w3;
        SIGIL_SHA256_LOAD(w0, 0);
        SIGIL_SHA256_LOAD(w1, 4);
        SIGIL_SHA256_LOAD(w2, 8);
        SIGIL_SHA256_LOAD(w3, 12);
        // The first block: rounds 0–47 with W_16 … W_63 of both blocks scheduled in between, then 48–63.
        bc = b ^ c;
        const uint32_t *wp = wk;
#pragma clang loop unroll(disable)
        for (int group = 1; group < 4; group++) {
            SIGIL_SHA256_SIXTEEN(wp, &k[32 * group], SIGIL_SHA256_SCHEDULE);
            wp += 32;
        }
        SIGIL_SHA256_SIXTEEN(wp, k, SIGIL_SHA256_NO_SCHEDULE);
        SIGIL_SHA256_FINISH();
        if (n + 1 < block_count) {
            // The second block reads its W + K from the high halves.
            bc = b ^ c;
            wp = wk + 4;
#pragma clang loop unroll(disable)
            for (int group = 0; group < 4; group++) {
                SIGIL_SHA256_SIXTEEN(wp, k, SIGIL_SHA256_NO_SCHEDULE);
                wp += 32;
            }
            SIGIL_SHA256_FINISH();
        }
    }
#undef SIGIL_ROTR32
#undef SIGIL_SHA256_ROUND
#undef SIGIL_SHA256_SCHEDULE
#undef SIGIL_SHA256_NO_SCHEDULE
#undef SIGIL_SHA256_SIXTEEN
#undef SIGIL_SHA256_FINISH
#undef SIGIL_SHA256_LOAD
}

// §4.1.3 σ0(x) = ROTR1(x) ⊕ ROTR8(x) ⊕ SHR7(x) on four schedule words. AVX2 has no 64-bit vector
// rotate: each rotation is a right and a left shift.
__attribute__((target("avx2,bmi2"), always_inline))
static inline __m256i sigil_sha512_small_sigma0_avx2(__m256i x) {
    const __m256i right = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_srli_epi64(x, 8)), _mm256_srli_epi64(x, 7));
    return _mm256_xor_si256(right, _mm256_xor_si256(_mm256_slli_epi64(x, 63), _mm256_slli_epi64(x, 56)));
}

// §4.1.3 σ1(x) = ROTR19(x) ⊕ ROTR61(x) ⊕ SHR6(x) on four schedule words.
__attribute__((target("avx2,bmi2"), always_inline))
static inline __m256i sigil_sha512_small_sigma1_avx2(__m256i x) {
    const __m256i right = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_srli_epi64(x, 61)), _mm256_srli_epi64(x, 6));
    return _mm256_xor_si256(right, _mm256_xor_si256(_mm256_slli_epi64(x, 45), _mm256_slli_epi64(x, 3)));
}

/// SHA-512 compression (FIPS 180-4 §6.4.2; SHA-384 shares it, §6.5) of `block_count` consecutive
/// 128-byte blocks at `blocks` into `state` (H0…H7, native-endian words), with AVX2 and BMI2.
///
/// Blocks go in pairs: one vector holds two schedule words of the first block in its low half and
/// the same two words of the second block in its high half, so one pass of the vector schedule
/// (§6.4.2 step 1) serves both blocks. It runs interleaved with the first block's rounds; the second
/// block's rounds then only read their W + K. The rounds run in general-purpose registers, the
/// rotations of Σ0 and Σ1 with RORX. An odd last block is scheduled in both halves and hashed once.
///
/// Constant time: no branch or address depends on the state or the message, only on
/// `block_count`. Requires sigil_cpu_has_avx2_bmi2() == 1.
__attribute__((target("avx2,bmi2")))
static inline void sigil_sha512_compress_avx2(uint64_t state[8], const uint8_t *blocks, size_t block_count) {
    // §4.2.3 constants, two per 128-bit lane.
    const uint64_t *k = sigil_sha512_constants();
    // Byte order within each 64-bit word reversed: the message words are big-endian (§3.1).
    const __m256i byteswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL,
                                               0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL);
    // W_t + K_t of both blocks: for each even t, wk[2t], wk[2t+1] hold W_t + K_t, W_t+1 + K_t+1 of the
    // first block and wk[2t+2], wk[2t+3] those of the second (one vector store).
    uint64_t wk[160] __attribute__((aligned(32)));

    uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    uint64_t bc;

// One round of §6.4.2 step 3 with the roles of a…h given by the arguments (the caller rotates them)
// and W_t + K_t from wk[i]. Ch(e, f, g) = g ⊕ (e ∧ (f ⊕ g)); Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)),
// with b ⊕ c carried in `bc` from the previous round's a ⊕ b. The sums are grouped so the next e is
// d + (h + W + K + Ch) + Σ1(e), Σ1 last.
#define SIGIL_ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define SIGIL_SHA512_ROUND(a, b, c, d, e, f, g, h, i) do { \
        const uint64_t partial = ((h) + wk[(i)]) + ((g) ^ ((e) & ((f) ^ (g)))); \
        const uint64_t sigma1 = SIGIL_ROTR64(e, 14) ^ SIGIL_ROTR64(e, 18) ^ SIGIL_ROTR64(e, 41); \
        const uint64_t ab = (a) ^ (b); \
        const uint64_t t2 = (SIGIL_ROTR64(a, 28) ^ SIGIL_ROTR64(a, 34) ^ SIGIL_ROTR64(a, 39)) + ((b) ^ (ab & bc)); \
        bc = ab; \
        (d) = ((d) + partial) + sigma1; \
        (h) = (partial + sigma1) + t2; \
    } while (0)
// The schedule words W_t, W_t+1 of both blocks (§6.4.2 step 1) into `w0`, the lane that held W_t−16,
// W_t−15: W_t = σ1(W_t−2) + W_t−7 + σ0(W_t−15) + W_t−16, with w1 = (W_t−14, W_t−13), w4, w5 =
// (W_t−8 … W_t−5) and w7 = (W_t−2, W_t−1). Then W + K into wk. The empty asm takes wk's address, so
// the compiler keeps the stores and the rounds add W + K from memory; without it, clang extracts
// the words from the vectors (VPEXTRQ) and spills vectors: 430 instead of 300 cycles per block.
#define SIGIL_SHA512_SCHEDULE(w0, w1, w4, w5, w7, t) do { \
        (w0) = _mm256_add_epi64(_mm256_add_epi64((w0), sigil_sha512_small_sigma0_avx2(_mm256_alignr_epi8((w1), (w0), 8))), \
                                _mm256_add_epi64(_mm256_alignr_epi8((w5), (w4), 8), sigil_sha512_small_sigma1_avx2(w7))); \
        _mm256_store_si256((__m256i *)(void *)&wk[2 * (t)], _mm256_add_epi64((w0), \
            _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)&k[(t)])))); \
        __asm__("" : : "r"(wk) : "memory"); \
    } while (0)
#define SIGIL_SHA512_NO_SCHEDULE(w0, w1, w4, w5, w7, t) do { } while (0)
// Rounds t … t+15 of one block (`o` = 0 for the first, 2 for the second), the roles back in place
// after sixteen. With SIGIL_SHA512_SCHEDULE, the eight steps for W_t+16 … W_t+31 of both blocks are
// interleaved, one after every two rounds.
#define SIGIL_SHA512_SIXTEEN(t, o, SCHEDULE) do { \
        SIGIL_SHA512_ROUND(a, b, c, d, e, f, g, h, 2 * (t) + 0 + (o)); \
        SIGIL_SHA512_ROUND(h, a, b, c, d, e, f, g, 2 * (t) + 1 + (o)); \
        SCHEDULE(w0, w1, w4, w5, w7, (t) + 16); \
        SIGIL_SHA512_ROUND(g, h, a, b, c, d, e, f, 2 * (t) + 4 + (o)); \
        SIGIL_SHA512_ROUND(f, g, h, a, b, c, d, e, 2 * (t) + 5 + (o)); \
        SCHEDULE(w1, w2, w5, w6, w0, (t) + 18); \
        SIGIL_SHA512_ROUND(e, f, g, h, a, b, c, d, 2 * (t) + 8 + (o)); \
        SIGIL_SHA512_ROUND(d, e, f, g, h, a, b, c, 2 * (t) + 9 + (o)); \
        SCHEDULE(w2, w3, w6, w7, w1, (t) + 20); \
        SIGIL_SHA512_ROUND(c, d, e, f, g, h, a, b, 2 * (t) + 12 + (o)); \
        SIGIL_SHA512_ROUND(b, c, d, e, f, g, h, a, 2 * (t) + 13 + (o)); \
        SCHEDULE(w3, w4, w7, w0, w2, (t) + 22); \
        SIGIL_SHA512_ROUND(a, b, c, d, e, f, g, h, 2 * (t) + 16 + (o)); \
        SIGIL_SHA512_ROUND(h, a, b, c, d, e, f, g, 2 * (t) + 17 + (o)); \
        SCHEDULE(w4, w5, w0, w1, w3, (t) + 24); \
        SIGIL_SHA512_ROUND(g, h, a, b, c, d, e, f, 2 * (t) + 20 + (o)); \
        SIGIL_SHA512_ROUND(f, g, h, a, b, c, d, e, 2 * (t) + 21 + (o)); \
        SCHEDULE(w5, w6, w1, w2, w4, (t) + 26); \
        SIGIL_SHA512_ROUND(e, f, g, h, a, b, c, d, 2 * (t) + 24 + (o)); \
        SIGIL_SHA512_ROUND(d, e, f, g, h, a, b, c, 2 * (t) + 25 + (o)); \
        SCHEDULE(w6, w7, w2, w3, w5, (t) + 28); \
        SIGIL_SHA512_ROUND(c, d, e, f, g, h, a, b, 2 * (t) + 28 + (o)); \
        SIGIL_SHA512_ROUND(b, c, d, e, f, g, h, a, 2 * (t) + 29 + (o)); \
        SCHEDULE(w7, w0, w3, w4, w6, (t) + 30); \
    } while (0)
// Eighty rounds of one block, then step 4 (the chaining value, read back from `state`, so it does not
// hold eight registers through the rounds).
#define SIGIL_SHA512_BLOCK(o, SCHEDULE) do { \
        bc = b ^ c; \
        SIGIL_SHA512_SIXTEEN(0, o, SCHEDULE); \
        SIGIL_SHA512_SIXTEEN(16, o, SCHEDULE); \
        SIGIL_SHA512_SIXTEEN(32, o, SCHEDULE); \
        SIGIL_SHA512_SIXTEEN(48, o, SCHEDULE); \
        SIGIL_SHA512_SIXTEEN(64, o, SIGIL_SHA512_NO_SCHEDULE); \
        a += state[0]; b += state[1]; c += state[2]; d += state[3]; \
        e += state[4]; f += state[5]; g += state[6]; h += state[7]; \
        state[0] = a; state[1] = b; state[2] = c; state[3] = d; \
        state[4] = e; state[5] = f; state[6] = g; state[7] = h; \
    } while (0)
// W_t, W_t+1 of both blocks, and their sums with K_t, K_t+1.
#define SIGIL_SHA512_LOAD(w, t) do { \
        (w) = _mm256_shuffle_epi8(_mm256_loadu2_m128i((const __m128i *)(const void *)(second + 8 * (t)), \
                                                      (const __m128i *)(const void *)(first + 8 * (t))), byteswap); \
        _mm256_store_si256((__m256i *)(void *)&wk[2 * (t)], _mm256_add_epi64((w), \
            _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)&k[(t)])))); \
    } while (0)

    for (size_t n = 0; n < block_count; n += 2) {
        const uint8_t *first = blocks + 128 * n;
        const uint8_t *second = n + 1 < block_count ? first + 128 : first;
        __m256i w0, w1, w2, w3, w4, w5, w6, w7;
        SIGIL_SHA512_LOAD(w0, 0);
        SIGIL_SHA512_LOAD(w1, 2);
        SIGIL_SHA512_LOAD(w2, 4);
        SIGIL_SHA512_LOAD(w3, 6);
        SIGIL_SHA512_LOAD(w4, 8);
        SIGIL_SHA512_LOAD(w5, 10);
        SIGIL_SHA512_LOAD(w6, 12);
        SIGIL_SHA512_LOAD(w7, 14);
        SIGIL_SHA512_BLOCK(0, SIGIL_SHA512_SCHEDULE);
        if (n + 1 < block_count) {
            SIGIL_SHA512_BLOCK(2, SIGIL_SHA512_NO_SCHEDULE);
        }
    }
#undef SIGIL_ROTR64
#undef SIGIL_SHA512_ROUND
#undef SIGIL_SHA512_SCHEDULE
#undef SIGIL_SHA512_NO_SCHEDULE
#undef SIGIL_SHA512_SIXTEEN
#undef SIGIL_SHA512_BLOCK
#undef SIGIL_SHA512_LOAD
}

#else

/// Not an x86-64 build: no kernel here, the portable Swift compression runs.
static inline int sigil_cpu_has_sha256_extensions(void) {
    return 0;
}

/// Not an x86-64 build: no kernel here, the portable Swift compression runs.
static inline int sigil_cpu_has_avx2_bmi2(void) {
    return 0;
}

#endif

#if defined(__aarch64__)

#include <arm_neon.h>

#if defined(__linux__)
#include <sys/auxv.h>
// The HWCAP bits of the Linux arm64 ABI (arch/arm64/include/uapi/asm/hwcap.h), for C libraries
// whose headers predate them.
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)
#endif
#ifndef HWCAP_SHA512
#define HWCAP_SHA512 (1UL << 21)
#endif
#elif defined(__APPLE__)
#include <sys/sysctl.h>

// 1 when the sysctl `name` exists and reads as a nonzero integer, 0 when it reads as zero, -1 when
// it does not exist (an older OS that predates the name).
static inline int sigil_darwin_feature(const char *name) {
    int value = 0;
    size_t size = sizeof(value);
    if (sysctlbyname(name, &value, &size, NULL, 0) != 0) {
        return -1;
    }
    return value != 0;
}
#endif

/// 1 when the CPU has the ARMv8 SHA-256 instructions (SHA256H, SHA256H2, SHA256SU0, SHA256SU1;
/// FEAT_SHA256): on Linux the HWCAP_SHA2 bit of getauxval(AT_HWCAP), on Darwin the sysctl
/// hw.optional.arm.FEAT_SHA256 (where an older OS lacks the name, every arm64 Apple CPU has them,
/// so the compiler's baseline, __ARM_FEATURE_SHA2, answers). 0 on other systems.
static inline int sigil_cpu_has_arm_sha256(void) {
#if defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
#elif defined(__APPLE__)
    const int feature = sigil_darwin_feature("hw.optional.arm.FEAT_SHA256");
    if (feature >= 0) {
        return feature;
    }
#if defined(__ARM_FEATURE_SHA2)
    return 1;
#else
    return 0;
#endif
#else
    return 0;
#endif
}

/// 1 when the CPU has the ARMv8.2 SHA-512 instructions (SHA512H, SHA512H2, SHA512SU0, SHA512SU1;
/// FEAT_SHA512): on Linux the HWCAP_SHA512 bit of getauxval(AT_HWCAP), on Darwin the sysctl
/// hw.optional.arm.FEAT_SHA512 or, on an OS older than that name, hw.optional.armv8_2_sha512.
/// 0 on other systems.
static inline int sigil_cpu_has_arm_sha512(void) {
#if defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_SHA512) != 0;
#elif defined(__APPLE__)
    const int feature = sigil_darwin_feature("hw.optional.arm.FEAT_SHA512");
    if (feature >= 0) {
        return feature;
    }
    return sigil_darwin_feature("hw.optional.armv8_2_sha512") == 1;
#else
    return 0;
#endif
}

/// SHA-256 compression (FIPS 180-4 §6.2.2) of `block_count` consecutive 64-byte blocks at
/// `blocks` into `state` (H0…H7, native-endian words), with the ARMv8 SHA-256 instructions.
///
/// The eight working variables live in two vectors, {A, B, C, D} and {E, F, G, H} (lowest lane
/// first), which is the layout SHA256H and SHA256H2 take; each pair of them does four rounds.
///
/// Constant time: no branch or address depends on the state or the message, only on
/// `block_count`. Requires sigil_cpu_has_arm_sha256() == 1.
__attribute__((target("sha2")))
static inline void sigil_sha256_compress_armv8(uint32_t state[8], const uint8_t *blocks, size_t block_count) {
    // §4.2.2 constants, four per vector, low lane first.
    const uint32_t *k = sigil_sha256_constants();
    uint32x4_t abcd = vld1q_u32(&state[0]);
    uint32x4_t efgh = vld1q_u32(&state[4]);

// Four rounds (§6.2.2 step 3) with the schedule lane `w` and K[4i … 4i+3]: SHA256H gives the new
// {A, B, C, D} and SHA256H2, from the old {A, B, C, D}, the new {E, F, G, H}. Written out (not a
// loop): the Swift compiler's pipeline that builds these imported functions does not unroll loops.
#define SIGIL_SHA256_QUAD(w, i) do { \
        const uint32x4_t wk = vaddq_u32((w), vld1q_u32(&k[4 * (i)])); \
        const uint32x4_t abcd_before = abcd; \
        abcd = vsha256hq_u32(abcd, efgh, wk); \
        efgh = vsha256h2q_u32(efgh, abcd_before, wk); \
    } while (0)
// The next four schedule words into `oldest` (§6.2.2 step 1), from W[t−16 … t−13] (`oldest`),
// W[t−12 … t−9] (`next`), W[t−8 … t−5] (`before`) and W[t−4 … t−1] (`newest`): SHA256SU0 adds
// σ0(W[t−15]) to W[t−16], SHA256SU1 adds W[t−7] and σ1(W[t−2]).
#define SIGIL_SHA256_SCHEDULE(oldest, next, before, newest) \
    (oldest) = vsha256su1q_u32(vsha256su0q_u32((oldest), (next)), (before), (newest))

    for (size_t n = 0; n < block_count; n++) {
        const uint8_t *block = blocks + 64 * n;
        const uint32x4_t abcd_in = abcd, efgh_in = efgh;
        // W[0 … 15] as four lanes of four words; the message words are big-endian (§3.1).
        uint32x4_t w0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block + 0)));
        uint32x4_t w1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block + 16)));
        uint32x4_t w2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block + 32)));
        uint32x4_t w3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block + 48)));
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
        abcd = vaddq_u32(abcd, abcd_in);
        efgh = vaddq_u32(efgh, efgh_in);
    }
#undef SIGIL_SHA256_QUAD
#undef SIGIL_SHA256_SCHEDULE

    vst1q_u32(&state[0], abcd);
    vst1q_u32(&state[4], efgh);
}

/// SHA-512 compression (FIPS 180-4 §6.4.2; SHA-384 shares it, §6.5) of `block_count` consecutive
/// 128-byte blocks at `blocks` into `state` (H0…H7, native-endian words), with the ARMv8.2 SHA-512
/// instructions (clang names the feature `sha3`, which includes them).
///
/// The working variables live in four vectors of two, {A, B}, {C, D}, {E, F}, {G, H} (lowest lane
/// first). SHA512H takes {D, E}, {F, G} and {G, H} + W + K of two rounds and gives T1 of both rounds
/// (without the D and C that §6.4.2 adds for the new E values); SHA512H2 takes those, {C, ·} and
/// {A, B} and gives the new {A, B}. After two rounds the old {A, B} is the new {C, D}, {C, D} + the
/// T1 values the new {E, F}, the old {E, F} the new {G, H}, so each pair of rounds overwrites only two
/// vectors and the roles move round the four.
///
/// Constant time: no branch or address depends on the state or the message, only on
/// `block_count`. Requires sigil_cpu_has_arm_sha512() == 1.
__attribute__((target("sha3")))
static inline void sigil_sha512_compress_armv8(uint64_t state[8], const uint8_t *blocks, size_t block_count) {
    // §4.2.3 constants, two per vector, low lane first.
    const uint64_t *k = sigil_sha512_constants();
    uint64x2_t ab = vld1q_u64(&state[0]);
    uint64x2_t cd = vld1q_u64(&state[2]);
    uint64x2_t ef = vld1q_u64(&state[4]);
    uint64x2_t gh = vld1q_u64(&state[6]);

// Two rounds (§6.4.2 step 3, rounds 2i and 2i + 1) with the schedule lane `w` = {W_2i, W_2i+1} and
// the roles given by the arguments. SHA512H wants the first round's h + K + W in its high lane, so
// {K + W} is swapped (EXT) before {G, H} is added. The new {A, B} goes into `gh`, the new {E, F}
// into `cd`; the caller passes the next pair of rounds (gh, ab, cd, ef).
#define SIGIL_SHA512_PAIR(ab, cd, ef, gh, w, i) do { \
        const uint64x2_t kw = vaddq_u64((w), vld1q_u64(&k[2 * (i)])); \
        const uint64x2_t t1 = vsha512hq_u64(vaddq_u64((gh), vextq_u64(kw, kw, 1)), \
                                            vextq_u64((ef), (gh), 1), vextq_u64((cd), (ef), 1)); \
        (gh) = vsha512h2q_u64(t1, (cd), (ab)); \
        (cd) = vaddq_u64((cd), t1); \
    } while (0)
// The next two schedule words into `w0` (§6.4.2 step 1): W_t = σ1(W_t−2) + W_t−7 + σ0(W_t−15) +
// W_t−16, with w0 = {W_t−16, W_t−15}, w1 = {W_t−14, W_t−13}, w4 = {W_t−8, W_t−7}, w5 = {W_t−6,
// W_t−5}, w7 = {W_t−2, W_t−1}: SHA512SU0 adds the σ0 terms, SHA512SU1 the W_t−7 (EXT of w4, w5)
// and σ1 terms.
#define SIGIL_SHA512_SCHEDULE(w0, w1, w4, w5, w7) \
    (w0) = vsha512su1q_u64(vsha512su0q_u64((w0), (w1)), (w7), vextq_u64((w4), (w5), 1))
#define SIGIL_SHA512_NO_SCHEDULE(w0, w1, w4, w5, w7) do { } while (0)
// Sixteen rounds from 2i on, the roles of the four state vectors back in place after each eight;
// with SIGIL_SHA512_SCHEDULE, each pair's two schedule words are computed first (rounds 16 … 79).
#define SIGIL_SHA512_SIXTEEN(i, SCHEDULE) do { \
        SCHEDULE(w0, w1, w4, w5, w7); SIGIL_SHA512_PAIR(ab, cd, ef, gh, w0, (i) + 0); \
        SCHEDULE(w1, w2, w5, w6, w0); SIGIL_SHA512_PAIR(gh, ab, cd, ef, w1, (i) + 1); \
        SCHEDULE(w2, w3, w6, w7, w1); SIGIL_SHA512_PAIR(ef, gh, ab, cd, w2, (i) + 2); \
        SCHEDULE(w3, w4, w7, w0, w2); SIGIL_SHA512_PAIR(cd, ef, gh, ab, w3, (i) + 3); \
        SCHEDULE(w4, w5, w0, w1, w3); SIGIL_SHA512_PAIR(ab, cd, ef, gh, w4, (i) + 4); \
        SCHEDULE(w5, w6, w1, w2, w4); SIGIL_SHA512_PAIR(gh, ab, cd, ef, w5, (i) + 5); \
        SCHEDULE(w6, w7, w2, w3, w5); SIGIL_SHA512_PAIR(ef, gh, ab, cd, w6, (i) + 6); \
        SCHEDULE(w7, w0, w3, w4, w6); SIGIL_SHA512_PAIR(cd, ef, gh, ab, w7, (i) + 7); \
    } while (0)
// W_2i, W_2i+1 from the block; the message words are big-endian (§3.1).
#define SIGIL_SHA512_LOAD(i) vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(block + 16 * (i))))

    for (size_t n = 0; n < block_count; n++) {
        const uint8_t *block = blocks + 128 * n;
        const uint64x2_t ab_in = ab, cd_in = cd, ef_in = ef, gh_in = gh;
        uint64x2_t w0 = SIGIL_SHA512_LOAD(0), w1 = SIGIL_SHA512_LOAD(1);
        uint64x2_t w2 = SIGIL_SHA512_LOAD(2), w3 = SIGIL_SHA512_LOAD(3);
        uint64x2_t w4 = SIGIL_SHA512_LOAD(4), w5 = SIGIL_SHA512_LOAD(5);
        uint64x2_t w6 = SIGIL_SHA512_LOAD(6), w7 = SIGIL_SHA512_LOAD(7);
        SIGIL_SHA512_SIXTEEN(0, SIGIL_SHA512_NO_SCHEDULE);
        SIGIL_SHA512_SIXTEEN(8, SIGIL_SHA512_SCHEDULE);
        SIGIL_SHA512_SIXTEEN(16, SIGIL_SHA512_SCHEDULE);
        SIGIL_SHA512_SIXTEEN(24, SIGIL_SHA512_SCHEDULE);
        SIGIL_SHA512_SIXTEEN(32, SIGIL_SHA512_SCHEDULE);
        // Step 4: add the block's result into the chaining value.
        ab = vaddq_u64(ab, ab_in);
        cd = vaddq_u64(cd, cd_in);
        ef = vaddq_u64(ef, ef_in);
        gh = vaddq_u64(gh, gh_in);
    }
#undef SIGIL_SHA512_PAIR
#undef SIGIL_SHA512_SCHEDULE
#undef SIGIL_SHA512_NO_SCHEDULE
#undef SIGIL_SHA512_SIXTEEN
#undef SIGIL_SHA512_LOAD

    vst1q_u64(&state[0], ab);
    vst1q_u64(&state[2], cd);
    vst1q_u64(&state[4], ef);
    vst1q_u64(&state[6], gh);
}

#else

/// Not an arm64 build: no kernel here, the portable Swift compression runs.
static inline int sigil_cpu_has_arm_sha256(void) {
    return 0;
}

/// Not an arm64 build: no kernel here, the portable Swift compression runs.
static inline int sigil_cpu_has_arm_sha512(void) {
    return 0;
}

#endif

#endif
