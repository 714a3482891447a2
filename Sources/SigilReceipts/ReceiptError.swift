import SigilBase
import SigilPKCS7
import SigilX509

/// The one error type of SigilReceipts: each way an app receipt is refused has its own code.
///
/// A receipt is a CMS SignedData, so its failures are the CMS layer's (SigilPKCS7's
/// `PKCS7Error`: a malformed message, a signer not found, a bad signature, an untrusted or
/// expired signer, …), carried over with the same code, reason and chain failures, and the
/// receipt profile's own (``Code/notAReceipt``, ``Code/deviceMismatch``,
/// ``Code/invalidAppIdentifier``, ``Code/invalidEnvironment``, ``Code/invalidConfiguration``).
///
/// The domain is "pkcs7", the CMS layer's: receipt refusals have always been named `pkcs7.code`
/// across Sigil — in the CLI's reports, the C ABI's, Python's and the HTTP service's answers and
/// the conformance cases — and a code must not change. The type is the receipt's own; the names
/// callers compare are the ones they always compared.
public struct ReceiptError: ChainFailureError {
    /// "pkcs7": `pkcs7.code` names receipt refusals across Sigil, as it did before receipts had
    /// an error type of their own (the CMS layer's domain: a receipt is a CMS message).
    public static let domain = PKCS7Error.domain

    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The CMS layer's code of the same name (every CMS failure keeps its code as a receipt's).
        public init(_ code: PKCS7Error.Code) { rawValue = code.rawValue }

        // The CMS layer's codes.
        /// Not a well-formed (BER) CMS structure, or bytes that are neither BER nor base64.
        public static let malformed = Code(PKCS7Error.Code.malformed)
        /// A content type other than the one expected (signedData, data).
        public static let unexpectedContentType = Code(PKCS7Error.Code.unexpectedContentType)
        /// No certificate in the message matches the SignerInfo's identifier.
        public static let signerNotFound = Code(PKCS7Error.Code.signerNotFound)
        /// The message-digest attribute does not equal the digest of the content.
        public static let contentDigestMismatch = Code(PKCS7Error.Code.contentDigestMismatch)
        /// The content-type attribute is missing or differs from eContentType.
        public static let contentTypeAttributeMismatch = Code(PKCS7Error.Code.contentTypeAttributeMismatch)
        /// The signature over the signed attributes (or the content) does not verify.
        public static let invalidSignature = Code(PKCS7Error.Code.invalidSignature)
        /// The signer's certificate does not chain to a trusted root under the verifier's
        /// policies, or (Xcode) is not Xcode's certificate itself.
        public static let untrustedSigner = Code(PKCS7Error.Code.untrustedSigner)
        /// The chain is trusted but a certificate in it is expired or not yet valid at the time chosen.
        public static let signerNotValidAtTime = Code(PKCS7Error.Code.signerNotValidAtTime)
        /// An algorithm Sigil does not verify with.
        public static let unsupportedAlgorithm = Code(PKCS7Error.Code.unsupportedAlgorithm)

        // The receipt profile's codes.
        /// The content is not an app receipt payload (a SET OF ReceiptAttribute), or has no
        /// creation date to validate at and no time was given.
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

    /// Why the receipt was refused, as a stable code.
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

    /// The CMS layer's refusal of a receipt as a receipt's: the same code, reason and chain
    /// failures (a typed conversion; nothing is lost).
    public init(_ error: PKCS7Error) {
        self.init(Code(error.code), error.reason, failures: error.failures)
    }
}
