/// SHA-256 compression (FIPS 180-4 §6.2.2), 64 rounds over a 16-word rolling schedule.
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


    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        var s0 = h0, s1 = h1, s2 = h2, s3 = h3, s4 = h4, s5 = h5, s6 = h6, s7 = h7
        SHA256Core.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
                var offset = 0
                while offset < blocks.count {
                    for t in 0..<16 { w[t] = blocks.loadBigEndianUInt32(at: offset + 4 * t) }
                    var a = s0, b = s1, c = s2, d = s3, e = s4, f = s5, g = s6, h = s7
                    for t in 0..<64 {
                        // §6.2.2 step 1, kept mod 16: W_t = σ1(W_{t-2}) + W_{t-7} + σ0(W_{t-15}) + W_{t-16}.
                        let wt: UInt32
                        if t < 16 {
                            wt = w[t]
                        } else {
                            let w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15]
                            let sigma0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 &>> 3)
                            let sigma1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 &>> 10)
                            wt = sigma1 &+ w[(t - 7) & 15] &+ sigma0 &+ w[t & 15]
                            w[t & 15] = wt
                        }
                        // §4.1.2: Σ1, Ch, Σ0, Maj.
                        let bigSigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let ch = (e & f) ^ (~e & g)
                        let t1 = h &+ bigSigma1 &+ ch &+ k[t] &+ wt
                        let bigSigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let maj = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = bigSigma0 &+ maj
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                    s0 &+= a; s1 &+= b; s2 &+= c; s3 &+= d; s4 &+= e; s5 &+= f; s6 &+= g; s7 &+= h
                    offset += 64
                }
            }
        }
        h0 = s0; h1 = s1; h2 = s2; h3 = s3; h4 = s4; h5 = s5; h6 = s6; h7 = s7
    }

    func writeDigest(into output: UnsafeMutableRawBufferPointer) {
        output.storeBigEndian(h0, h1, h2, h3, h4, h5, h6, h7)
    }
}
