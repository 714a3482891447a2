import SigilASN1
import SigilBase
import SigilCore

/// The one error type of SigilKeys: a stable code, a reason, and never any key bytes.
public struct SigilKeysError: ModuleError {
    /// "keys": `keys.code` names this module's errors across Sigil.
    public static let domain = "keys"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not the structure expected (wraps the ASN.1 error).
        public static var malformed: Code { Code("malformed") }
        /// An algorithm or curve Sigil does not handle (the OID is in the reason).
        public static var unsupportedAlgorithm: Code { Code("unsupportedAlgorithm") }
        /// A version number other than the ones the format allows.
        public static var unsupportedVersion: Code { Code("unsupportedVersion") }
        /// The key material is invalid (scalar out of range, point off the curve).
        public static var invalidKey: Code { Code("invalidKey") }
        /// Two parts of the encoding disagree (curve parameters, embedded public key).
        public static var inconsistent: Code { Code("inconsistent") }
        /// A PEM block with a label that is not a key of the expected kind.
        public static var unexpectedLabel: Code { Code("unexpectedLabel") }
        /// A signature encoding that is not a strict DER ECDSA-Sig-Value for the curve.
        public static var invalidSignatureEncoding: Code { Code("invalidSignatureEncoding") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people (never key material).
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}

/// Object identifiers for key encodings (RFC 5480 §2.1.1, RFC 5915, SEC 2).
public enum KeyOIDs {
    /// id-ecPublicKey, RFC 5480 §2.1.1.
    public static let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
    /// secp256r1 / prime256v1, RFC 5480 §2.1.1.1.
    public static let secp256r1: ASN1ObjectIdentifier = [1, 2, 840, 10045, 3, 1, 7]
    /// secp384r1, RFC 5480 §2.1.1.1.
    public static let secp384r1: ASN1ObjectIdentifier = [1, 3, 132, 0, 34]
    /// rsaEncryption, RFC 8017 §A.1 / RFC 3279 §2.3.1.
    public static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]
    /// id-RSASSA-PSS, RFC 4055 §3.1 / RFC 8017 §A.2.3.
    public static let rsassaPSS: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 10]
    /// id-mgf1, RFC 8017 §B.2.1.
    public static let mgf1: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 8]
    /// Hash algorithm identifiers, RFC 8017 §A.2.4 / RFC 4055 §2.1.
    public static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    /// id-sha256.
    public static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    /// id-sha384.
    public static let sha384: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 2]
    /// id-sha512.
    public static let sha512: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 3]

    /// The hash a digest-algorithm OID names, or nil when Sigil does not know it.
    public static func hash(_ oid: ASN1ObjectIdentifier) -> HashAlgorithm? {
        switch oid {
        case sha1: .sha1
        case sha256: .sha256
        case sha384: .sha384
        case sha512: .sha512
        default: nil
        }
    }

    /// The digest-algorithm OID of `hash`.
    public static func oid(_ hash: HashAlgorithm) -> ASN1ObjectIdentifier {
        switch hash {
        case .sha1: sha1
        case .sha256: sha256
        case .sha384: sha384
        case .sha512: sha512
        }
    }

    /// The curve a namedCurve OID names, or nil for any other curve.
    public static func curve(_ oid: ASN1ObjectIdentifier) -> ECCurve? {
        switch oid {
        case secp256r1: .p256
        case secp384r1: .p384
        default: nil
        }
    }

    /// The namedCurve OID of `curve`.
    public static func oid(_ curve: ECCurve) -> ASN1ObjectIdentifier {
        curve == .p256 ? secp256r1 : secp384r1
    }
}
