/// Deterministic nonce generation, RFC 6979 §3.2 (HMAC_DRBG with the message hash), with the
/// optional additional data of §3.6 for hedged signatures.
///
/// Restricted to group orders whose bit length is a multiple of 8 (P-256, P-384), so `bits2int`
/// is "keep the leftmost qlen/8 bytes" and `int2octets` is a fixed-width big-endian encoding.
/// Secret inputs (the key, the candidates) only flow through HMAC, whose work depends on lengths
/// alone. The HMAC key schedule of the current K is computed once and reused by every HMAC under
/// that K (steps e–f, g–h and the h loop), as ``HMACKey`` allows.
struct RFC6979Generator {
    private let hash: HashAlgorithm
    private let byteCount: Int
    private var k: [UInt8]
    private var v: [UInt8]
    /// HMAC's padded-key states for the current `k`.
    private var key: AnyHMACKey
    private var started = false

    /// - Parameters:
    ///   - privateKey: int2octets(x), exactly `byteCount` bytes.
    ///   - hashedMessage: bits2octets(h1), exactly `byteCount` bytes.
    ///   - extraData: RFC 6979 §3.6 additional input (empty for the deterministic variant).
    init(hash: HashAlgorithm, byteCount: Int, privateKey: [UInt8], hashedMessage: [UInt8], extraData: [UInt8]) {
        self.hash = hash
        self.byteCount = byteCount
        let hlen = hash.digestByteCount
        // §3.2 b, c.
        v = [UInt8](repeating: 0x01, count: hlen)
        k = [UInt8](repeating: 0x00, count: hlen)
        key = hash.authenticationKey(k)
        // §3.2 d–g.
        for separator: UInt8 in [0x00, 0x01] {
            k = key.authenticationCode(v, [separator], privateKey, hashedMessage, extraData)
            key = hash.authenticationKey(k)
            v = key.authenticationCode(v)
        }
    }

    /// The next candidate, bits2int(T) as `byteCount` big-endian bytes (§3.2 h). The caller
    /// rejects candidates outside [1, n − 1] and asks again.
    mutating func nextCandidate() -> [UInt8] {
        if started {
            // §3.2 h.3: after a rejected candidate.
            k = key.authenticationCode(v, [0x00])
            key = hash.authenticationKey(k)
            v = key.authenticationCode(v)
        }
        started = true
        var t: [UInt8] = []
        while t.count < byteCount {
            v = key.authenticationCode(v)
            t += v
        }
        return Array(t.prefix(byteCount))
    }

    mutating func wipe() {
        for i in k.indices { k[i] = 0 }
        for i in v.indices { v[i] = 0 }
        key = hash.authenticationKey(k)  // the schedule of the all-zero K replaces the secret one
    }
}
