import SigilBase
import SigilCore
import SigilKeys

/// The one error type of SigilJOSE: a stable code and a human reason (never key material).
public struct JOSEError: ModuleError {
    /// "jose": `jose.code` names this module's errors across Sigil.
    public static let domain = "jose"
    /// A stable error code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// Not three dot-separated base64url parts, bad base64url, or JSON that is not valid.
        public static var malformed: Code { Code("malformed") }
        /// The header's alg is missing, not the algorithm the key is bound to, "none" or HMAC.
        public static var algorithmMismatch: Code { Code("algorithmMismatch") }
        /// The header has a member we must understand and do not (RFC 7515 §4.1.11 crit).
        public static var unsupportedHeader: Code { Code("unsupportedHeader") }
        /// The signature does not verify.
        public static var invalidSignature: Code { Code("invalidSignature") }
        /// No key in the key set has the token's kid (or the token has none).
        public static var unknownKeyID: Code { Code("unknownKeyID") }
        /// exp is in the past (beyond the leeway).
        public static var expired: Code { Code("expired") }
        /// nbf (or iat) is in the future (beyond the leeway).
        public static var notYetValid: Code { Code("notYetValid") }
        /// iss is not the expected issuer.
        public static var issuerMismatch: Code { Code("issuerMismatch") }
        /// aud does not contain the expected audience.
        public static var audienceMismatch: Code { Code("audienceMismatch") }
        /// A claim is missing or of the wrong type, or another claim check failed (nonce, sub).
        public static var invalidClaim: Code { Code("invalidClaim") }
        /// A JWK that cannot be used (members missing, wrong or inconsistent).
        public static var invalidKey: Code { Code("invalidKey") }
        /// A builder's argument rule (for example a lifetime limit) was broken.
        public static var invalidArgument: Code { Code("invalidArgument") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String

    /// An error with its code and a reason for people (never key material).
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}
