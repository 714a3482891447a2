#if !hasFeature(Embedded)
import CSigilIntrinsics
#endif

/// SHA-256 compression (FIPS 180-4 §6.2.2): the 64-word schedule, then 64 rounds.
struct SHA256Core: MDCompressor {
    static let blockByteCount = 64
    static let lengthByteCount = 8
    static let digestByteCount = 32

    // §5.3.3 initial hash value.
    private var h0: UInt32 = 0x6A09_E667
    private var h1: UInt32 = 0xBB67_AE85
    private var h2: UInt32 = 0x3C6E_F372
    private var h3: UInt32 = 0xA54F_F53A
    private var h4: UInt32 = 0x510E_527F
    private var h5: UInt32 = 0x9B05_688C
    private var h6: UInt32 = 0x1F83_D9AB
    private var h7: UInt32 = 0x5BE0_CD19

    init() {}

    /// §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Processes the blocks with the backend ``DigestBackend/current`` names: on x86-64 the
    /// SHA-extension kernel, else the AVX2 one, on arm64 the ARMv8 SHA-256 kernel, when the CPU has
    /// it and no other path is forced, else the Swift rounds below.
    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        #if hasFeature(Embedded)
        // No CPU kernels in Embedded Swift (they are C): the Swift rounds.
        #elseif arch(x86_64)
        let inUse = digestSelection.flags.pointee & (DigestSelection.sha256Extensions | DigestSelection.sha256AVX2)
        if inUse != 0, let base = blocks.baseAddress {
            var state = (h0, h1, h2, h3, h4, h5, h6, h7)
            withUnsafeMutablePointer(to: &state) {
                $0.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
                    let input = base.assumingMemoryBound(to: UInt8.self)
                    if inUse == DigestSelection.sha256Extensions {
                        sigil_sha256_compress_shani(words, input, blocks.count / 64)
                    } else {
                        sigil_sha256_compress_avx2(words, input, blocks.count / 64)
                    }
                }
            }
            (h0, h1, h2, h3, h4, h5, h6, h7) = state
            return
        }
        #elseif arch(arm64)
        if digestSelection.uses(DigestSelection.sha256ARMv8), let base = blocks.baseAddress {
            var state = (h0, h1, h2, h3, h4, h5, h6, h7)
            withUnsafeMutablePointer(to: &state) {
                $0.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
                    sigil_sha256_compress_armv8(words, base.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
                }
            }
            (h0, h1, h2, h3, h4, h5, h6, h7) = state
            return
        }
        #endif
        compressPortable(blocks)
    }

    /// One round of §6.2.2 step 3 with the working variables passed in place, so rounds can be
    /// written without shuffling eight variables each time (the caller rotates the roles).
    /// `bc` carries b ⊕ c in and leaves a ⊕ b, which is the next round's b ⊕ c, so Maj costs
    /// two operations: Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)). Ch(e, f, g) = g ⊕ (e ∧ (f ⊕ g)).
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ kw: UInt32, _ bc: inout UInt32
    ) {
        // §4.1.2: Σ1, Ch, Σ0, Maj. Grouped for a short dependency chain: h, kw and Ch are summed
        // while Σ1(e) is computed, so the next e is d + (that sum) + Σ1(e).
        let sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let partial = (h &+ kw) &+ (g ^ (e & (f ^ g)))
        let sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let ab = a ^ b
        let t2 = sigma0 &+ (b ^ (ab & bc))
        bc = ab
        let t1 = partial &+ sigma1
        d = (d &+ partial) &+ sigma1
        h = t1 &+ t2
    }

    /// §6.2.2 step 1 for one word: W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}.
    @inline(__always)
    private static func schedule(_ w: UnsafeMutablePointer<UInt32>, _ t: Int) {
        let w15 = w[t - 15]
        let w2 = w[t - 2]
        // §4.1.2 σ0 = ROTR7 ⊕ ROTR18 ⊕ SHR3 and σ1 = ROTR17 ⊕ ROTR19 ⊕ SHR10, the two rotations
        // nested (ROTR7(ROTR11(x) ⊕ x)) to save an instruction off the rounds' critical path.
        let sigma0 = rotr(rotr(w15, 11) ^ w15, 7) ^ (w15 &>> 3)
        let sigma1 = rotr(rotr(w2, 2) ^ w2, 17) ^ (w2 &>> 10)
        w[t] = (sigma1 &+ w[t - 7]) &+ (sigma0 &+ w[t - 16])
    }

    /// §6.2.2 in Swift, on every CPU.
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
        let blockCount = blocks.count / 64
        SHA256Core.k.withUnsafeBufferPointer { kBuffer in
            let k = kBuffer.baseAddress.unsafelyUnwrapped
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { wBuffer in
                let w = wBuffer.baseAddress.unsafelyUnwrapped
                for block in 0..<blockCount {
                    let bytes = input + 64 * block
                    // §6.2.2 step 1: the first 16 schedule words; the other 48 are computed inside
                    // rounds 0–47, sixteen rounds before their use, so that work overlaps the
                    // rounds' dependency chain instead of running before it.
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
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
                    // Rounds 0–47 also compute W_16…W_63, sixteen rounds before each is used.
                    while t < 48 {
                        SHA256Core.schedule(w, t + 16)
                        SHA256Core.round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t], &bc)
                        SHA256Core.schedule(w, t + 17)
                        SHA256Core.round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1], &bc)
                        SHA256Core.schedule(w, t + 18)
                        SHA256Core.round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2], &bc)
                        SHA256Core.schedule(w, t + 19)
                        SHA256Core.round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3], &bc)
                        SHA256Core.schedule(w, t + 20)
                        SHA256Core.round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4], &bc)
                        SHA256Core.schedule(w, t + 21)
                        SHA256Core.round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5], &bc)
                        SHA256Core.schedule(w, t + 22)
                        SHA256Core.round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6], &bc)
                        SHA256Core.schedule(w, t + 23)
                        SHA256Core.round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7], &bc)
                        t += 8
                    }
                    while t < 64 {
                        SHA256Core.round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t], &bc)
                        SHA256Core.round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1], &bc)
                        SHA256Core.round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2], &bc)
                        SHA256Core.round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3], &bc)
                        SHA256Core.round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4], &bc)
                        SHA256Core.round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5], &bc)
                        SHA256Core.round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6], &bc)
                        SHA256Core.round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7], &bc)
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
