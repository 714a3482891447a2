#if !hasFeature(Embedded)
import CSigilIntrinsics
#endif

/// What distinguishes SHA-384 from SHA-512: the initial hash value and the digest length.
protocol SHA512Variant: Sendable {
    static var initialValue: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) { get }
    static var digestByteCount: Int { get }
}

/// §5.3.5 SHA-512 initial hash value.
enum SHA512Parameters: SHA512Variant {
    static let initialValue: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179
    )
    static let digestByteCount = 64
}

/// §5.3.4 SHA-384 initial hash value.
enum SHA384Parameters: SHA512Variant {
    static let initialValue: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
        0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4
    )
    static let digestByteCount = 48
}

/// SHA-512 compression (FIPS 180-4 §6.4.2): the 80-word schedule, then 80 rounds; shared
/// by SHA-384 (§6.5), which only changes the initial value and truncates the output.
struct SHA512Core<Variant: SHA512Variant>: MDCompressor {
    static var blockByteCount: Int { 128 }
    static var lengthByteCount: Int { 16 }
    static var digestByteCount: Int { Variant.digestByteCount }

    private var h0, h1, h2, h3, h4, h5, h6, h7: UInt64

    init() {
        (h0, h1, h2, h3, h4, h5, h6, h7) = Variant.initialValue
    }

    /// One round of §6.4.2 step 3 with the working variables passed in place (see SHA256Core for
    /// the carried b ⊕ c and the grouping of the sums).
    @inline(__always)
    private static func round(
        _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
        _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64,
        _ kw: UInt64, _ bc: inout UInt64
    ) {
        // §4.1.3: Σ1, Ch, Σ0, Maj.
        let sigma1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)
        let partial = (h &+ kw) &+ (g ^ (e & (f ^ g)))
        let sigma0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)
        let ab = a ^ b
        let t2 = sigma0 &+ (b ^ (ab & bc))
        bc = ab
        let t1 = partial &+ sigma1
        d = (d &+ partial) &+ sigma1
        h = t1 &+ t2
    }

    /// §6.4.2 step 1 for one word: W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}.
    @inline(__always)
    private static func schedule(_ w: UnsafeMutablePointer<UInt64>, _ t: Int) {
        let w15 = w[t - 15]
        let w2 = w[t - 2]
        // §4.1.3 σ0 = ROTR1 ⊕ ROTR8 ⊕ SHR7 and σ1 = ROTR19 ⊕ ROTR61 ⊕ SHR6, the rotations nested.
        let sigma0 = rotr(rotr(w15, 7) ^ w15, 1) ^ (w15 &>> 7)
        let sigma1 = rotr(rotr(w2, 42) ^ w2, 19) ^ (w2 &>> 6)
        w[t] = (sigma1 &+ w[t - 7]) &+ (sigma0 &+ w[t - 16])
    }

    /// Processes the blocks with the backend `DigestBackend.current(for: .sha512)` names: the AVX2
    /// kernel on x86-64, the ARMv8.2 SHA-512 kernel on arm64, when the CPU has it and no other path
    /// is forced, else the Swift rounds below.
    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        #if hasFeature(Embedded)
        // No CPU kernels in Embedded Swift (they are C): the Swift rounds.
        #elseif arch(x86_64)
        if digestSelection.uses(DigestSelection.sha512AVX2), let base = blocks.baseAddress {
            var state = (h0, h1, h2, h3, h4, h5, h6, h7)
            withUnsafeMutablePointer(to: &state) {
                $0.withMemoryRebound(to: UInt64.self, capacity: 8) { words in
                    sigil_sha512_compress_avx2(words, base.assumingMemoryBound(to: UInt8.self), blocks.count / 128)
                }
            }
            (h0, h1, h2, h3, h4, h5, h6, h7) = state
            return
        }
        #elseif arch(arm64)
        if digestSelection.uses(DigestSelection.sha512ARMv8), let base = blocks.baseAddress {
            var state = (h0, h1, h2, h3, h4, h5, h6, h7)
            withUnsafeMutablePointer(to: &state) {
                $0.withMemoryRebound(to: UInt64.self, capacity: 8) { words in
                    sigil_sha512_compress_armv8(words, base.assumingMemoryBound(to: UInt8.self), blocks.count / 128)
                }
            }
            (h0, h1, h2, h3, h4, h5, h6, h7) = state
            return
        }
        #endif
        compressPortable(blocks)
    }

    /// §6.4.2 in Swift, on every CPU.
    mutating func compressPortable(_ blocks: UnsafeRawBufferPointer) {
        var s0 = h0
        var s1 = h1
        var s2 = h2
        var s3 = h3
        var s4 = h4
        var s5 = h5
        var s6 = h6
        var s7 = h7
        guard let input = blocks.baseAddress else { return }
        let blockCount = blocks.count / 128
        sha512RoundConstants.withUnsafeBufferPointer { kBuffer in
            let k = kBuffer.baseAddress.unsafelyUnwrapped
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 80) { wBuffer in
                let w = wBuffer.baseAddress.unsafelyUnwrapped
                for block in 0..<blockCount {
                    let bytes = input + 128 * block
                    // §6.4.2 step 1: the first 16 schedule words; the other 64 are computed inside
                    // rounds 0–63, sixteen rounds before their use (see SHA256Core).
                    for t in 0..<16 {
                        w[t] = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8 * t, as: UInt64.self))
                    }
                    // Steps 2–3: eight rounds per pass, the roles of a…h rotating by one each round.
                    var a = s0
                    var b = s1
                    var c = s2
                    var d = s3
                    var e = s4
                    var f = s5
                    var g = s6
                    var h = s7
                    var bc = b ^ c
                    var t = 0
                    while t < 64 {
                        Self.schedule(w, t + 16)
                        Self.round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t], &bc)
                        Self.schedule(w, t + 17)
                        Self.round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1], &bc)
                        Self.schedule(w, t + 18)
                        Self.round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2], &bc)
                        Self.schedule(w, t + 19)
                        Self.round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3], &bc)
                        Self.schedule(w, t + 20)
                        Self.round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4], &bc)
                        Self.schedule(w, t + 21)
                        Self.round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5], &bc)
                        Self.schedule(w, t + 22)
                        Self.round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6], &bc)
                        Self.schedule(w, t + 23)
                        Self.round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7], &bc)
                        t += 8
                    }
                    while t < 80 {
                        Self.round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t], &bc)
                        Self.round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1], &bc)
                        Self.round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2], &bc)
                        Self.round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3], &bc)
                        Self.round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4], &bc)
                        Self.round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5], &bc)
                        Self.round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6], &bc)
                        Self.round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7], &bc)
                        t += 8
                    }
                    s0 &+= a
                    s1 &+= b
                    s2 &+= c
                    s3 &+= d
                    s4 &+= e
                    s5 &+= f
                    s6 &+= g
                    s7 &+= h
                }
            }
        }
        h0 = s0
        h1 = s1
        h2 = s2
        h3 = s3
        h4 = s4
        h5 = s5
        h6 = s6
        h7 = s7
    }

    func writeDigest(into output: UnsafeMutableRawBufferPointer) {
        output.storeBigEndian(h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

/// §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80 primes.
/// A file-level constant because generic types cannot have static stored properties.
private let sha512RoundConstants: [UInt64] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
]
