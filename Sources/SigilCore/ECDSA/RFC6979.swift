/// Deterministic nonce generation, RFC 6979 §3.2 (HMAC_DRBG with the message hash), with the
/// optional additional data of §3.6 for hedged signatures.
///
/// Restricted to group orders whose bit length is a multiple of 8 (P-256, P-384), so `bits2int`
/// is "keep the leftmost qlen/8 bytes" and `int2octets` is a fixed-width big-endian encoding.
/// Secret inputs (the key, the candidates) only flow through HMAC, whose work depends on lengths
/// alone. The HMAC key schedule of the current K is computed once and reused by every HMAC under
/// that K (steps e–f, g–h and the h loop), as ``HMACKey`` allows.
///
/// No heap allocation once constructed: K and V live inline (64 bytes each, the largest digest),
/// the MACs are written into them in place, and `nextCandidate(into:)` writes the candidate into
/// the caller's buffer. The switch over the hash is on the public algorithm, never on key bytes.
struct RFC6979Generator {
    private var state: State

    private enum State {
        case sha1(RFC6979State<SHA1>)
        case sha256(RFC6979State<SHA256>)
        case sha384(RFC6979State<SHA384>)
        case sha512(RFC6979State<SHA512>)
    }

    /// - Parameters:
    ///   - privateKey: int2octets(x), exactly `byteCount` bytes.
    ///   - hashedMessage: bits2octets(h1), exactly `byteCount` bytes.
    ///   - extraData: RFC 6979 §3.6 additional input (empty for the deterministic variant).
    init(hash: HashAlgorithm, byteCount: Int, privateKey: [UInt8], hashedMessage: [UInt8], extraData: [UInt8]) {
        self = hashedMessage.withUnsafeBytes {
            RFC6979Generator(hash: hash, byteCount: byteCount, privateKey: privateKey, hashedMessage: $0, extraData: extraData)
        }
    }

    /// The same with bits2octets(h1) in a buffer (signing passes it from the stack).
    init(hash: HashAlgorithm, byteCount: Int, privateKey: [UInt8], hashedMessage: UnsafeRawBufferPointer, extraData: [UInt8]) {
        switch hash {
        case .sha1:
            state = .sha1(RFC6979State(byteCount, privateKey, hashedMessage, extraData))
        case .sha256:
            state = .sha256(RFC6979State(byteCount, privateKey, hashedMessage, extraData))
        case .sha384:
            state = .sha384(RFC6979State(byteCount, privateKey, hashedMessage, extraData))
        case .sha512:
            state = .sha512(RFC6979State(byteCount, privateKey, hashedMessage, extraData))
        }
    }

    /// The next candidate, bits2int(T) as `byteCount` big-endian bytes (§3.2 h), written into the
    /// first `byteCount` bytes of `candidate` (the caller provides at least that many). The
    /// caller rejects candidates outside [1, n − 1] and asks again.
    mutating func nextCandidate(into candidate: UnsafeMutableRawBufferPointer) {
        switch state {
        case .sha1(var s):
            s.nextCandidate(into: candidate)
            state = .sha1(s)
        case .sha256(var s):
            s.nextCandidate(into: candidate)
            state = .sha256(s)
        case .sha384(var s):
            s.nextCandidate(into: candidate)
            state = .sha384(s)
        case .sha512(var s):
            s.nextCandidate(into: candidate)
            state = .sha512(s)
        }
    }

    /// The next candidate as an array (tests and benchmarks).
    mutating func nextCandidate() -> [UInt8] {
        var candidate = [UInt8](repeating: 0, count: byteCount)
        candidate.withUnsafeMutableBytes { nextCandidate(into: $0) }
        return candidate
    }

    private var byteCount: Int {
        switch state {
        case .sha1(let s): s.byteCount
        case .sha256(let s): s.byteCount
        case .sha384(let s): s.byteCount
        case .sha512(let s): s.byteCount
        }
    }

    /// Overwrites K and V (and the key schedule derived from K) with zeros.
    mutating func wipe() {
        switch state {
        case .sha1(var s):
            s.wipe()
            state = .sha1(s)
        case .sha256(var s):
            s.wipe()
            state = .sha256(s)
        case .sha384(var s):
            s.wipe()
            state = .sha384(s)
        case .sha512(var s):
            s.wipe()
            state = .sha512(s)
        }
    }
}

/// RFC 6979 §3.2 for one hash function: K and V inline, the key schedule of K kept.
struct RFC6979State<H: MDHashFunction> {
    /// 64 bytes: room for the largest digest (SHA-512).
    private typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    let byteCount: Int
    private var k: Block = (0, 0, 0, 0, 0, 0, 0, 0)
    private var v: Block = (0, 0, 0, 0, 0, 0, 0, 0)
    /// HMAC's padded-key states for the current K.
    private var key: HMACKey<H>
    private var started = false

    init(_ byteCount: Int, _ privateKey: [UInt8], _ hashedMessage: UnsafeRawBufferPointer, _ extraData: [UInt8]) {
        self.byteCount = byteCount
        let hlen = H.digestByteCount
        // §3.2 b, c: V = 0x01 0x01 …, K = 0x00 0x00 ….
        _ = withUnsafeMutableBytes(of: &v) { $0.initializeMemory(as: UInt8.self, repeating: 0x01) }
        key = withUnsafeBytes(of: k) { HMACKey(UnsafeRawBufferPointer(rebasing: $0[0..<hlen]).assumingMemoryBound(to: UInt8.self)) }
        // §3.2 d–g.
        for separator: UInt8 in 0...1 {
            var mac = HMAC(key: key)
            withUnsafeBytes(of: v) { mac.update(UnsafeRawBufferPointer(rebasing: $0[0..<hlen])) }
            withUnsafeBytes(of: separator) { mac.update($0) }
            privateKey.withUnsafeBytes { mac.update($0) }
            mac.update(hashedMessage)
            extraData.withUnsafeBytes { mac.update($0) }
            setK(&mac)
            refreshV()
        }
    }

    /// K ← the finished `mac`, and the key schedule of the new K.
    private mutating func setK(_ mac: inout HMAC<H>) {
        let hlen = H.digestByteCount
        withUnsafeMutableBytes(of: &k) { mac.finalize(into: $0) }
        key = withUnsafeBytes(of: k) { HMACKey(UnsafeRawBufferPointer(rebasing: $0[0..<hlen]).assumingMemoryBound(to: UInt8.self)) }
    }

    /// V ← HMAC_K(V).
    private mutating func refreshV() {
        let hlen = H.digestByteCount
        var mac = HMAC(key: key)
        withUnsafeBytes(of: v) { mac.update(UnsafeRawBufferPointer(rebasing: $0[0..<hlen])) }
        withUnsafeMutableBytes(of: &v) { mac.finalize(into: $0) }
    }

    mutating func nextCandidate(into candidate: UnsafeMutableRawBufferPointer) {
        let hlen = H.digestByteCount
        if started {
            // §3.2 h.3: after a rejected candidate, K = HMAC_K(V || 0x00), V = HMAC_K(V).
            var mac = HMAC(key: key)
            withUnsafeBytes(of: v) { mac.update(UnsafeRawBufferPointer(rebasing: $0[0..<hlen])) }
            withUnsafeBytes(of: UInt8(0x00)) { mac.update($0) }
            setK(&mac)
            refreshV()
        }
        started = true
        // §3.2 h.1–h.2: T = V || V || … until it has byteCount bytes (only the leftmost are kept).
        var filled = 0
        while filled < byteCount {
            refreshV()
            let take = min(hlen, byteCount - filled)
            withUnsafeBytes(of: v) { bytes in
                UnsafeMutableRawBufferPointer(rebasing: candidate[filled..<(filled + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            }
            filled += take
        }
    }

    mutating func wipe() {
        k = (0, 0, 0, 0, 0, 0, 0, 0)
        v = (0, 0, 0, 0, 0, 0, 0, 0)
        // The schedule of the all-zero K replaces the secret one.
        key = withUnsafeBytes(of: k) {
            HMACKey(UnsafeRawBufferPointer(rebasing: $0[0..<H.digestByteCount]).assumingMemoryBound(to: UInt8.self))
        }
    }
}
