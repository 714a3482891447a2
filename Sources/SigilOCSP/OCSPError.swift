import SigilASN1
import SigilBase
import SigilCore
import SigilKeys
import SigilX509

/// The one error type of SigilOCSP. Each verification failure has its own code, so a caller can
/// tell a revoked certificate (not an error: a status) from a response it must not trust, and a
/// network failure (`retryable`) from both.
public struct OCSPError: ModuleError {
    /// "ocsp": `ocsp.code` names this module's errors across Sigil.
    public static let domain = "ocsp"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not a well-formed DER OCSP structure.
        public static var malformed: Code { Code("malformed") }
        /// The responder answered with a status other than successful (the status is in the reason).
        public static var unsuccessfulStatus: Code { Code("unsuccessfulStatus") }
        /// A response type other than id-pkix-ocsp-basic.
        public static var unsupportedResponseType: Code { Code("unsupportedResponseType") }
        /// The signature does not verify under the issuer's or the delegated responder's key.
        public static var invalidSignature: Code { Code("invalidSignature") }
        /// The signer is neither the issuer nor a responder certificate the issuer signed with
        /// id-kp-OCSPSigning, or it does not match the responderID.
        public static var unauthorizedResponder: Code { Code("unauthorizedResponder") }
        /// No SingleResponse carries the CertID that was asked about.
        public static var certIDMismatch: Code { Code("certIDMismatch") }
        /// A nonce was sent and the response's is missing or different.
        public static var nonceMismatch: Code { Code("nonceMismatch") }
        /// thisUpdate in the future, nextUpdate in the past, or producedAt out of order (beyond the skew).
        public static var stale: Code { Code("stale") }
        /// The transport failed (down, slow, refused, too large): try again later.
        public static var retryable: Code { Code("retryable") }
        /// An argument outside what the operation supports.
        public static var invalidArgument: Code { Code("invalidArgument") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

extension OCSPError {
    /// A lower layer's error (ASN.1, X.509) met while reading a response, as this module's:
    /// `.malformed`, its reason "OCSP response: " and the lower error's code and reason.
    static func malformed<Lower: CodedError>(_ error: Lower) -> OCSPError {
        OCSPError(wrapping: error, as: .malformed, context: "OCSP response")
    }

    /// The Extensions inside `[tag] EXPLICIT` (responseExtensions, singleExtensions).
    static func extensions(_ tagged: ASN1Node) throws(OCSPError) -> [Extension] {
        let list: ASN1Node
        do {
            list = try ASN1.explicitInner(tagged, tag: tagged.identifier)
            try ASN1.expect(list, .sequence, constructed: true)
        } catch {
            throw malformed(error)
        }
        var extensions: [Extension] = []
        for child in list.children {
            let fields: Extension.Fields
            do {
                fields = try Extension.fields(of: child)
            } catch {
                throw malformed(error)
            }
            do {
                extensions.append(try Extension(fields))
            } catch {
                throw malformed(error)
            }
        }
        return extensions
    }
}
