/// The hash functions Sigil's signatures use, as a value (for keys, CLI flags, JOSE algorithms).
public enum HashAlgorithm: String, Sendable, CaseIterable {
    /// SHA-1 (FIPS 180-4), 20-byte digests: for OCSP CertIDs and old signatures only.
    case sha1 = "SHA-1"
    /// SHA-256 (FIPS 180-4), 32-byte digests.
    case sha256 = "SHA-256"
    /// SHA-384 (FIPS 180-4), 48-byte digests.
    case sha384 = "SHA-384"
    /// SHA-512 (FIPS 180-4), 64-byte digests.
    case sha512 = "SHA-512"

    /// The length of a digest in bytes.
    public var digestByteCount: Int {
        switch self {
        case .sha1: SHA1.digestByteCount
        case .sha256: SHA256.digestByteCount
        case .sha384: SHA384.digestByteCount
        case .sha512: SHA512.digestByteCount
        }
    }

    /// The digest of `bytes`.
    public func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        switch self {
        case .sha1: SHA1.hash(bytes)
        case .sha256: SHA256.hash(bytes)
        case .sha384: SHA384.hash(bytes)
        case .sha512: SHA512.hash(bytes)
        }
    }

    /// Hashes `bytes` into a stack buffer and hands the digest (`digestByteCount` bytes) to
    /// `body`, with no allocation for contiguous input. Internal: signing and verification.
    func withDigest<Bytes: Sequence, R>(of bytes: Bytes, _ body: (UnsafeRawBufferPointer) -> R) -> R
    where Bytes.Element == UInt8 {
        switch self {
        case .sha1: HashAlgorithm.withDigest(SHA1.self, bytes, body)
        case .sha256: HashAlgorithm.withDigest(SHA256.self, bytes, body)
        case .sha384: HashAlgorithm.withDigest(SHA384.self, bytes, body)
        case .sha512: HashAlgorithm.withDigest(SHA512.self, bytes, body)
        }
    }

    private static func withDigest<H: MDHashFunction, Bytes: Sequence, R>(
        _ type: H.Type, _ bytes: Bytes, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R where Bytes.Element == UInt8 {
        var hasher = H()
        hasher.update(bytes)
        // 64 bytes: room for the largest digest (SHA-512).
        var digest: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digest) { raw in
            let out = UnsafeMutableRawBufferPointer(rebasing: raw[0..<H.digestByteCount])
            hasher.finalize(into: out)
            return body(UnsafeRawBufferPointer(out))
        }
    }

    /// HMAC under this hash.
    public func authenticationCode<Key: Collection, Message: Sequence>(key: Key, message: Message) -> [UInt8]
    where Key.Element == UInt8, Message.Element == UInt8 {
        switch self {
        case .sha1: HMAC<SHA1>.authenticationCode(key: key, message: message)
        case .sha256: HMAC<SHA256>.authenticationCode(key: key, message: message)
        case .sha384: HMAC<SHA384>.authenticationCode(key: key, message: message)
        case .sha512: HMAC<SHA512>.authenticationCode(key: key, message: message)
        }
    }
}
