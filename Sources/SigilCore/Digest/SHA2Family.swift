/// The public hash types: each is a thin shell over the shared Merkle–Damgård engine with its
/// own compression function (FIPS 180-4).
protocol MDHashFunction: HashFunction {
    associatedtype Core: MDCompressor
    var engine: MDEngine<Core> { get set }
}

extension MDHashFunction {
    public static var digestByteCount: Int { Core.digestByteCount }
    public static var blockByteCount: Int { Core.blockByteCount }
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { engine.update(bytes) }
    public mutating func finalize() -> [UInt8] { engine.finalize() }
    /// The digest into the first `digestByteCount` bytes of `digest` (the caller provides at
    /// least that many), with no allocation. Internal: RFC 6979 and HMAC use it.
    mutating func finalize(into digest: UnsafeMutableRawBufferPointer) { engine.finalize(into: digest) }
}

/// SHA-1 (FIPS 180-4 §6.1). Broken for collision resistance; Sigil uses it only where a format
/// requires it (legacy receipt signatures, OCSP CertID, receipt device hash).
public struct SHA1: MDHashFunction {
    /// The algorithm's name in FIPS 180-4.
    public static let name = "SHA-1"
    var engine = MDEngine<SHA1Core>()
    /// A hash in its initial state, ready for `update`.
    public init() {}
}

/// SHA-256 (FIPS 180-4 §6.2).
public struct SHA256: MDHashFunction {
    /// The algorithm's name in FIPS 180-4.
    public static let name = "SHA-256"
    var engine = MDEngine<SHA256Core>()
    /// A hash in its initial state, ready for `update`.
    public init() {}
}

/// SHA-384 (FIPS 180-4 §6.5): SHA-512 with its own initial value, truncated to 384 bits.
public struct SHA384: MDHashFunction {
    /// The algorithm's name in FIPS 180-4.
    public static let name = "SHA-384"
    var engine = MDEngine<SHA512Core<SHA384Parameters>>()
    /// A hash in its initial state, ready for `update`.
    public init() {}
}

/// SHA-512 (FIPS 180-4 §6.4).
public struct SHA512: MDHashFunction {
    /// The algorithm's name in FIPS 180-4.
    public static let name = "SHA-512"
    var engine = MDEngine<SHA512Core<SHA512Parameters>>()
    /// A hash in its initial state, ready for `update`.
    public init() {}
}
