import SigilASN1
import SigilBase
import SigilCore
import SigilKeys

/// The one error type of SigilX509: a stable code, a human reason (what was wrong and, for
/// encoding errors, at which byte offset), never key material.
public struct X509Error: ModuleError {
    /// "x509": `x509.code` names this module's errors across Sigil.
    public static let domain = "x509"
    /// A stable error code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not a well-formed DER certificate (the ASN.1 error is in the reason).
        public static var malformed: Code { Code("malformed") }
        /// A version other than v1, v2 or v3, or a field the version does not allow.
        public static var unsupportedVersion: Code { Code("unsupportedVersion") }
        /// The outer signatureAlgorithm differs from the TBSCertificate's signature field.
        public static var algorithmMismatch: Code { Code("algorithmMismatch") }
        /// An extension whose value does not parse as its type, or that breaks an RFC 5280 rule.
        public static var invalidExtension: Code { Code("invalidExtension") }
        /// The same extension OID appears twice (RFC 5280 §4.2).
        public static var duplicateExtension: Code { Code("duplicateExtension") }
        /// A PEM text without certificates, or a block that is not a certificate.
        public static var invalidPEM: Code { Code("invalidPEM") }
        /// A signature or key algorithm Sigil does not verify with.
        public static var unsupportedAlgorithm: Code { Code("unsupportedAlgorithm") }
        /// Input past a stated bound (a CRL's bytes, entries or certificate issuers).
        public static var limitExceeded: Code { Code("limitExceeded") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String

    /// An error with its code and a reason for people.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
