/// A COSE algorithm identifier (the `alg` header parameter, label 1; IANA "COSE Algorithms").
///
/// Any integer reads; SigilCOSE verifies with ``es256``, ``es384`` and ``hmac256`` and refuses
/// every other identifier by its name (``name``), so a caller's log says "EdDSA (-8)", not "-8".
public struct COSEAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The registered integer.
    public let rawValue: Int64

    /// The algorithm numbered `rawValue`.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// ECDSA with SHA-256 (RFC 9053 §2.1), on P-256.
    public static let es256 = COSEAlgorithm(rawValue: -7)
    /// ECDSA with SHA-384 (RFC 9053 §2.1), on P-384.
    public static let es384 = COSEAlgorithm(rawValue: -35)
    /// ECDSA with SHA-512 (RFC 9053 §2.1): read, refused.
    public static let es512 = COSEAlgorithm(rawValue: -36)
    /// EdDSA (RFC 9053 §2.2): read, refused.
    public static let edDSA = COSEAlgorithm(rawValue: -8)
    /// HMAC with SHA-256, full 256-bit tag (RFC 9053 §3.1, "HMAC 256/256").
    public static let hmac256 = COSEAlgorithm(rawValue: 5)

    /// The registered name, or "unregistered" (IANA COSE Algorithms, the entries an mdoc or a
    /// JOSE-minded issuer might send).
    public var name: String {
        switch rawValue {
        case -7: "ES256"
        case -35: "ES384"
        case -36: "ES512"
        case -8: "EdDSA"
        case -9: "ESP256"
        case -51: "ESP384"
        case -19: "Ed25519"
        case -37: "PS256"
        case -38: "PS384"
        case -39: "PS512"
        case -257: "RS256"
        case -258: "RS384"
        case -259: "RS512"
        case 4: "HMAC 256/64"
        case 5: "HMAC 256/256"
        case 6: "HMAC 384/384"
        case 7: "HMAC 512/512"
        case 1: "A128GCM"
        case 2: "A192GCM"
        case 3: "A256GCM"
        default: "unregistered"
        }
    }

    /// `name (rawValue)`, as errors print it.
    public var description: String { "\(name) (\(rawValue))" }
}
