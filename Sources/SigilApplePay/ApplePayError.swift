import SigilBase

/// The one error type of SigilApplePay: a stable code, the step of Apple's "Payment Token Format
/// Reference" that failed and the clause it rests on, and a reason for people.
///
/// No error ever carries a decrypted byte, a key, a shared secret or a card number: reasons name
/// lengths, fields, certificates and times only.
public struct ApplePayError: ModuleError {
    /// "applepay": `applepay.code` names this module's errors across Sigil.
    public static let domain = "applepay"
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The token is not the JSON Apple's reference describes (a member missing, of the wrong
        /// type, or not valid base64 or hex).
        public static var malformedToken: Code { Code("malformedToken") }
        /// `version` is neither EC_v1 nor RSA_v1.
        public static var unknownVersion: Code { Code("unknownVersion") }
        /// `header.transactionId` is not 32 bytes of hex (the identifier every device writes): the
        /// signed content has no lengths, so a shorter or longer id would let bytes move between it
        /// and `applicationData` under the same signature, each variant a new id.
        public static var invalidTransactionId: Code { Code("invalidTransactionId") }
        /// `header.applicationData`, when present, is not 32 bytes of hex (the SHA-256 of the
        /// request's application data).
        public static var invalidApplicationData: Code { Code("invalidApplicationData") }
        /// EC_v1's `header.ephemeralPublicKey` is not exactly one DER SubjectPublicKeyInfo of a
        /// P-256 point (trailing bytes, another curve, a point off the curve).
        public static var invalidEphemeralPublicKey: Code { Code("invalidEphemeralPublicKey") }
        /// The signature is not a CMS SignedData that verifies over the token's fields.
        public static var invalidSignature: Code { Code("invalidSignature") }
        /// The signer does not chain to the trusted root under Apple Pay's certificate profile.
        public static var untrustedSigner: Code { Code("untrustedSigner") }
        /// The signature has no signing time, or it lies outside the accepted window.
        public static var signingTimeOutsideWindow: Code { Code("signingTimeOutsideWindow") }
        /// No merchant key given has the token's `publicKeyHash`: the token was made for another key.
        public static var unknownMerchantKey: Code { Code("unknownMerchantKey") }
        /// A merchant key, certificate or identifier that cannot be used.
        public static var invalidMerchantKey: Code { Code("invalidMerchantKey") }
        /// The ephemeral public key or wrapped key cannot be used to derive the symmetric key.
        public static var keyAgreementFailed: Code { Code("keyAgreementFailed") }
        /// The AES-256-GCM tag over `data` does not match: the data or the key is not the one Apple used.
        public static var tagMismatch: Code { Code("tagMismatch") }
        /// The decrypted payment data is not the JSON Apple's reference describes.
        public static var malformedPaymentData: Code { Code("malformedPaymentData") }
        /// A token with this ``PaymentToken/replayKey`` (the same signed content, however its
        /// fields are framed) was already accepted by another request: refused by a replay store
        /// (the verification service's; SigilApplePay itself keeps no state).
        public static var replayedTransaction: Code { Code("replayedTransaction") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people (never secret bytes).
    public let reason: String
    /// The step that failed ("decode", "signature", "chain", "signing time", "merchant key",
    /// "key agreement", "decryption", "payment data").
    public let step: String
    /// The clause the refused rule rests on (a section of Apple's reference, an RFC or NIST clause).
    public let clause: String

    /// An error with `code` and `reason` (step and clause left empty).
    public init(_ code: Code, _ reason: String) {
        self.init(code, reason, step: "", clause: "")
    }

    /// An error with its step and clause.
    public init(_ code: Code, _ reason: String, step: String, clause: String) {
        self.code = code
        self.reason = step.isEmpty ? reason : "\(step) (\(clause)): \(reason)"
        self.step = step
        self.clause = clause
    }
}
