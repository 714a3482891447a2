/// The hash functions Sigil's signatures use, as a value (for keys, CLI flags, JOSE algorithms).
public enum HashAlgorithm: String, Sendable, CaseIterable {
    case sha1 = "SHA-1"
    case sha256 = "SHA-256"
    case sha384 = "SHA-384"
    case sha512 = "SHA-512"

    public var digestByteCount: Int {
        switch self {
        case .sha1: SHA1.digestByteCount
        case .sha256: SHA256.digestByteCount
        case .sha384: SHA384.digestByteCount
        case .sha512: SHA512.digestByteCount
        }
    }

    public func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        switch self {
        case .sha1: SHA1.hash(bytes)
        case .sha256: SHA256.hash(bytes)
        case .sha384: SHA384.hash(bytes)
        case .sha512: SHA512.hash(bytes)
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
