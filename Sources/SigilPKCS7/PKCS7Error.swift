import SigilASN1
import SigilBase
import SigilCore
import SigilKeys
import SigilX509

/// The one error type of SigilPKCS7: each verification failure has its own code.
public struct PKCS7Error: ChainFailureError {
    /// "pkcs7": `pkcs7.code` names this module's errors across Sigil.
    public static let domain = "pkcs7"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// Not a well-formed (BER) CMS structure.
        public static var malformed: Code { Code("malformed") }
        /// A content type other than the one expected (signedData, data).
        public static var unexpectedContentType: Code { Code("unexpectedContentType") }
        /// No certificate in the message matches the SignerInfo's identifier.
        public static var signerNotFound: Code { Code("signerNotFound") }
        /// The message-digest attribute does not equal the digest of the content.
        public static var contentDigestMismatch: Code { Code("contentDigestMismatch") }
        /// The content-type attribute is missing or differs from eContentType.
        public static var contentTypeAttributeMismatch: Code { Code("contentTypeAttributeMismatch") }
        /// The signature over the signed attributes (or the content) does not verify.
        public static var invalidSignature: Code { Code("invalidSignature") }
        /// The signer's certificate does not chain to a trusted root under the policy.
        public static var untrustedSigner: Code { Code("untrustedSigner") }
        /// The chain is trusted but a certificate in it is expired or not yet valid at the time chosen.
        public static var signerNotValidAtTime: Code { Code("signerNotValidAtTime") }
        /// An algorithm Sigil does not verify with.
        public static var unsupportedAlgorithm: Code { Code("unsupportedAlgorithm") }
        /// The content is not an app receipt payload (a SET OF ReceiptAttribute).
        public static var notAReceipt: Code { Code("notAReceipt") }
        /// The receipt's SHA-1 hash does not match the device GUID given: another device, or a copied receipt.
        public static var deviceMismatch: Code { Code("deviceMismatch") }
        /// The receipt's bundle id is not the one the verifier enforces (another app's receipt,
        /// from this device or another; SigilAppStore's name for the same failure).
        public static var invalidAppIdentifier: Code { Code("invalidAppIdentifier") }
        /// The receipt's type names an environment the verifier does not accept, or none it knows.
        public static var invalidEnvironment: Code { Code("invalidEnvironment") }
        /// The verifier cannot be built as asked (no accepted environment, an empty bundle id).
        public static var invalidConfiguration: Code { Code("invalidConfiguration") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String
    /// The certificate verifier's typed reasons when the signer's chain failed (each with the
    /// certificate it concerns and its rule).
    public let failures: [ValidationFailure]

    /// An error with `code` and `reason` and the chain's typed failures.
    public init(_ code: Code, _ reason: String, failures: [ValidationFailure]) {
        self.code = code
        self.reason = reason
        self.failures = failures
    }
}
