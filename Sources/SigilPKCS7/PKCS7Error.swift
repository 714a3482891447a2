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
        public static let malformed = Code("malformed")
        /// A content type other than the one expected (signedData, data).
        public static let unexpectedContentType = Code("unexpectedContentType")
        /// No certificate in the message matches the SignerInfo's identifier.
        public static let signerNotFound = Code("signerNotFound")
        /// The message-digest attribute does not equal the digest of the content.
        public static let contentDigestMismatch = Code("contentDigestMismatch")
        /// The content-type attribute is missing or differs from eContentType.
        public static let contentTypeAttributeMismatch = Code("contentTypeAttributeMismatch")
        /// The signature over the signed attributes (or the content) does not verify.
        public static let invalidSignature = Code("invalidSignature")
        /// The signer's certificate does not chain to a trusted root under the policy.
        public static let untrustedSigner = Code("untrustedSigner")
        /// The chain is trusted but a certificate in it is expired or not yet valid at the time chosen.
        public static let signerNotValidAtTime = Code("signerNotValidAtTime")
        /// An algorithm Sigil does not verify with.
        public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// The content is not an app receipt payload (a SET OF ReceiptAttribute).
        public static let notAReceipt = Code("notAReceipt")
        /// The receipt's SHA-1 hash does not match the device GUID given: another device, or a copied receipt.
        public static let deviceMismatch = Code("deviceMismatch")
        /// The receipt's bundle id is not the one the verifier enforces (another app's receipt,
        /// from this device or another; SigilAppStore's name for the same failure).
        public static let invalidAppIdentifier = Code("invalidAppIdentifier")
        /// The receipt's type names an environment the verifier does not accept, or none it knows.
        public static let invalidEnvironment = Code("invalidEnvironment")
        /// The verifier cannot be built as asked (no accepted environment, an empty bundle id).
        public static let invalidConfiguration = Code("invalidConfiguration")
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

/// CMS object identifiers (RFC 5652 §3, §5, §11).
public enum CMSOIDs {
    /// id-data: plain content.
    public static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    /// id-signedData.
    public static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    /// The content-type signed attribute.
    public static let contentType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 3]
    /// The message-digest signed attribute.
    public static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 4]
    /// The signing-time signed attribute.
    public static let signingTime: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 5]
    /// rsaEncryption, as old SignerInfos name an RSA PKCS#1 v1.5 signature.
    public static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]
    /// ecdsa-with-SHA1.
    public static let ecdsaWithSHA1: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 1]
    /// id-ecPublicKey, as some SignerInfos name an ECDSA signature.
    public static let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
}
