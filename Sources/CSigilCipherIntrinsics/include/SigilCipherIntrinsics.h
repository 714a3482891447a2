// CPU-specific AES and GHASH kernels for SigilCipher's AES-GCM: AES rounds with AES-NI and the GHASH
// multiplication with PCLMULQDQ (x86-64), and the CPUID probe that selects them.
//
// Header-only, like SigilIntrinsics.h: every function is `static inline` with
// `__attribute__((target("...")))`, so only a Swift module that calls one compiles it, and no
// compiler flag is needed. The round keys come from the portable key expansion (FIPS 197 §5.2, the
// byte order AESENC expects), so there is no key-expansion kernel. Swift calls a kernel only after
// the probe has reported the instructions present.

#ifndef SIGIL_CIPHER_INTRINSICS_H
#define SIGIL_CIPHER_INTRINSICS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

/// 1 when the CPU has AES-NI (CPUID.1:ECX bit 25), PCLMULQDQ (bit 1), SSSE3 (bit 9) and SSE4.1
/// (bit 19), which the AES-GCM kernels below use.
static inline int sigil_cpu_has_aesni_pclmul(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    return ((ecx >> 25) & 1) & ((ecx >> 1) & 1) & ((ecx >> 9) & 1) & ((ecx >> 19) & 1);
}

/// One block through the AES Cipher (FIPS 197 §5.1) with AESENC/AESENCLAST: `round_keys` holds
/// `rounds + 1` round keys of 16 bytes.
__attribute__((target("aes,sse4.1")))
static inline __m128i sigil_aesni_block(const uint8_t *round_keys, int rounds, __m128i block) {
    block = _mm_xor_si128(block, _mm_loadu_si128((const __m128i *)round_keys));
    for (int r = 1; r < rounds; r++) {
        block = _mm_aesenc_si128(block, _mm_loadu_si128((const __m128i *)(round_keys + 16 * r)));
    }
    return _mm_aesenclast_si128(block, _mm_loadu_si128((const __m128i *)(round_keys + 16 * rounds)));
}

/// Encrypts the 16 bytes at `in` into `out` (which may alias).
__attribute__((target("aes,sse4.1")))
static inline void sigil_aesni_encrypt_block(const uint8_t *round_keys, int rounds, const uint8_t *in, uint8_t *out) {
    _mm_storeu_si128((__m128i *)out, sigil_aesni_block(round_keys, rounds, _mm_loadu_si128((const __m128i *)in)));
}

/// Counter mode as GCM uses it (NIST SP 800-38D §6.5, GCTR): `length` bytes of `in` XOR the
/// encryptions of `counter`, inc32(counter), … into `out` (which may alias `in`); the last block may
/// be partial. inc32 adds 1 modulo 2³² to the last four bytes, big-endian. On return `counter`
/// holds the next counter block. Four blocks at a time, so the AESENC latencies overlap.
///
/// Constant time: no branch or address depends on the key, the counter or the data, only on
/// `length`.
__attribute__((target("aes,sse4.1,ssse3")))
static inline void sigil_aesni_gctr(const uint8_t *round_keys, int rounds, uint8_t counter[16],
                                    const uint8_t *in, uint8_t *out, size_t length) {
    uint8_t prefix[12];
    memcpy(prefix, counter, 12);
    uint32_t ctr = ((uint32_t)counter[12] << 24) | ((uint32_t)counter[13] << 16) |
                   ((uint32_t)counter[14] << 8) | (uint32_t)counter[15];
    uint8_t block_bytes[16];
    memcpy(block_bytes, prefix, 12);
    size_t offset = 0;
    while (length - offset >= 64) {
        __m128i b[4];
        for (int i = 0; i < 4; i++) {
            uint32_t c = ctr + (uint32_t)i;
            block_bytes[12] = (uint8_t)(c >> 24);
            block_bytes[13] = (uint8_t)(c >> 16);
            block_bytes[14] = (uint8_t)(c >> 8);
            block_bytes[15] = (uint8_t)c;
            b[i] = _mm_xor_si128(_mm_loadu_si128((const __m128i *)block_bytes),
                                 _mm_loadu_si128((const __m128i *)round_keys));
        }
        for (int r = 1; r < rounds; r++) {
            const __m128i k = _mm_loadu_si128((const __m128i *)(round_keys + 16 * r));
            b[0] = _mm_aesenc_si128(b[0], k);
            b[1] = _mm_aesenc_si128(b[1], k);
            b[2] = _mm_aesenc_si128(b[2], k);
            b[3] = _mm_aesenc_si128(b[3], k);
        }
        const __m128i last = _mm_loadu_si128((const __m128i *)(round_keys + 16 * rounds));
        for (int i = 0; i < 4; i++) {
            const __m128i keystream = _mm_aesenclast_si128(b[i], last);
            const __m128i data = _mm_loadu_si128((const __m128i *)(in + offset + 16 * i));
            _mm_storeu_si128((__m128i *)(out + offset + 16 * i), _mm_xor_si128(data, keystream));
        }
        ctr += 4;
        offset += 64;
    }
    while (offset < length) {
        block_bytes[12] = (uint8_t)(ctr >> 24);
        block_bytes[13] = (uint8_t)(ctr >> 16);
        block_bytes[14] = (uint8_t)(ctr >> 8);
        block_bytes[15] = (uint8_t)ctr;
        uint8_t keystream[16];
        _mm_storeu_si128((__m128i *)keystream,
                         sigil_aesni_block(round_keys, rounds, _mm_loadu_si128((const __m128i *)block_bytes)));
        const size_t n = length - offset < 16 ? length - offset : 16;
        for (size_t i = 0; i < n; i++) {
            out[offset + i] = in[offset + i] ^ keystream[i];
        }
        ctr += 1;
        offset += n;
    }
    counter[12] = (uint8_t)(ctr >> 24);
    counter[13] = (uint8_t)(ctr >> 16);
    counter[14] = (uint8_t)(ctr >> 8);
    counter[15] = (uint8_t)ctr;
}

/// The product of two elements of GF(2¹²⁸) in GCM's representation (NIST SP 800-38D §6.3), both
/// given byte-reversed (so bit 0 of the field element is the register's top bit). Four carry-less
/// multiplications give the 256-bit product; since the operands are bit-reflected it is shifted
/// left by one, then reduced modulo x¹²⁸ + x⁷ + x² + x + 1 with shifts and XORs (the method of
/// Gueron and Kounavis, "Intel Carry-Less Multiplication Instruction and its Usage for Computing
/// the GCM Mode", algorithms 2 and 4).
__attribute__((target("pclmul,sse4.1")))
static inline __m128i sigil_gf128_multiply_reflected(__m128i a, __m128i b) {
    __m128i low = _mm_clmulepi64_si128(a, b, 0x00);
    __m128i middle = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x10), _mm_clmulepi64_si128(a, b, 0x01));
    __m128i high = _mm_clmulepi64_si128(a, b, 0x11);
    low = _mm_xor_si128(low, _mm_slli_si128(middle, 8));
    high = _mm_xor_si128(high, _mm_srli_si128(middle, 8));
    // The 256-bit value high:low shifted left by one bit.
    const __m128i low_carries = _mm_srli_epi32(low, 31);
    const __m128i high_carries = _mm_srli_epi32(high, 31);
    low = _mm_slli_epi32(low, 1);
    high = _mm_slli_epi32(high, 1);
    const __m128i crossing = _mm_srli_si128(low_carries, 12);
    low = _mm_or_si128(low, _mm_slli_si128(low_carries, 4));
    high = _mm_or_si128(high, _mm_slli_si128(high_carries, 4));
    high = _mm_or_si128(high, crossing);
    // Reduction, first phase: the low half times x⁶³ + x⁶² + x⁵⁷ (in reflected form).
    __m128i t = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(low, 31), _mm_slli_epi32(low, 30)),
                              _mm_slli_epi32(low, 25));
    const __m128i carried = _mm_srli_si128(t, 4);
    low = _mm_xor_si128(low, _mm_slli_si128(t, 12));
    // Second phase.
    __m128i u = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi32(low, 1), _mm_srli_epi32(low, 2)),
                              _mm_srli_epi32(low, 7));
    u = _mm_xor_si128(u, carried);
    low = _mm_xor_si128(low, u);
    return _mm_xor_si128(high, low);
}

/// GHASH (NIST SP 800-38D §6.4) of `block_count` whole 16-byte blocks at `data`, continuing from
/// the value `y` (16 bytes, updated in place) under the hash subkey `h` (16 bytes): for each block
/// X, y = (y ⊕ X) · H.
///
/// Constant time: no branch or address depends on H, y or the data, only on `block_count`.
__attribute__((target("pclmul,sse4.1,ssse3")))
static inline void sigil_pclmul_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t block_count) {
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i hr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)h), reverse);
    __m128i yr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)y), reverse);
    for (size_t i = 0; i < block_count; i++) {
        const __m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), reverse);
        yr = sigil_gf128_multiply_reflected(_mm_xor_si128(yr, x), hr);
    }
    _mm_storeu_si128((__m128i *)y, _mm_shuffle_epi8(yr, reverse));
}

#else

/// Not an x86-64 build: no kernel here, the portable Swift AES and GHASH run.
static inline int sigil_cpu_has_aesni_pclmul(void) {
    return 0;
}

#endif

#endif
