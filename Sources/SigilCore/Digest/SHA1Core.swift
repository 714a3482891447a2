/// SHA-1 compression (FIPS 180-4 §6.1.2), 80 rounds over a 16-word rolling schedule.
struct SHA1Core: MDCompressor {
    static let blockByteCount = 64
    static let lengthByteCount = 8
    static let digestByteCount = 20

    // §5.3.1 initial hash value.
    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0

    init() {}

    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        var offset = 0
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            while offset < blocks.count {
                for t in 0..<16 { w[t] = blocks.loadBigEndianUInt32(at: offset + 4 * t) }
                var a = h0
                var b = h1
                var c = h2
                var d = h3
                var e = h4
                for t in 0..<80 {
                    // §6.1.2 step 1: W_t = ROTL^1(W_{t-3} ⊕ W_{t-8} ⊕ W_{t-14} ⊕ W_{t-16}), kept mod 16.
                    let wt: UInt32
                    if t < 16 {
                        wt = w[t]
                    } else {
                        let x = w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15]
                        wt = (x &<< 1) | (x &>> 31)
                        w[t & 15] = wt
                    }
                    // §4.1.1 functions and §4.2.1 constants.
                    let f: UInt32
                    let k: UInt32
                    switch t {
                    case 0..<20:
                        f = (b & c) | (~b & d)
                        k = 0x5A82_7999
                    case 20..<40:
                        f = b ^ c ^ d
                        k = 0x6ED9_EBA1
                    case 40..<60:
                        f = (b & c) | (b & d) | (c & d)
                        k = 0x8F1B_BCDC
                    default:
                        f = b ^ c ^ d
                        k = 0xCA62_C1D6
                    }
                    let temp = ((a &<< 5) | (a &>> 27)) &+ f &+ e &+ k &+ wt
                    e = d
                    d = c
                    c = (b &<< 30) | (b &>> 2)
                    b = a
                    a = temp
                }
                h0 &+= a
                h1 &+= b
                h2 &+= c
                h3 &+= d
                h4 &+= e
                offset += 64
            }
        }
    }

    func writeDigest(into output: UnsafeMutableRawBufferPointer) {
        output.storeBigEndian(h0, h1, h2, h3, h4)
    }
}
