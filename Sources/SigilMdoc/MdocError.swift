import SigilBase
import SigilX509

/// The one error type of SigilMdoc: each refusal has its own code, and its reason names the
/// clause of ISO/IEC 18013-5 (or 18013-7 Annex C) that was not met.
///
/// A reason names structures, namespaces, element identifiers and digest IDs, never an element's
/// value, a portrait or key material: these are personal data and secrets, and an error message
/// ends up in logs.
public struct MdocError: ChainFailureError {
    /// "mdoc": `mdoc.code` names this module's errors across Sigil.
    public static let domain = "mdoc"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code as a string.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not CBOR within the limits (depth, size, definite lengths, unique map keys,
        /// shortest heads); the CBOR error's code and offset are in the reason.
        public static var invalidCBOR: Code { Code("invalidCBOR") }
        /// A structure of the wrong shape: a member missing or of the wrong type, a wrong tag
        /// (§8.3.2.1.2.2, §9.1.2.4, §9.1.3).
        public static var malformedStructure: Code { Code("malformedStructure") }
        /// The DeviceResponse's `status` is not 0 (OK): the mdoc reports an error and returns no
        /// data (§8.3.2.1.2.3; the code and its meaning are in the reason).
        public static var responseStatus: Code { Code("responseStatus") }
        /// The DeviceResponse holds no document.
        public static var noDocument: Code { Code("noDocument") }
        /// A version this implementation does not read: the DeviceResponse's or the MSO's major
        /// version is not 1.
        public static var unsupportedVersion: Code { Code("unsupportedVersion") }
        /// IssuerAuth's COSE_Sign1 is malformed, carries no document-signer certificate, or its
        /// signature does not verify with the document signer's key (§9.1.2.4).
        public static var invalidIssuerSignature: Code { Code("invalidIssuerSignature") }
        /// The document signer does not chain to one of the caller's IACA roots under Annex B's
        /// profiles (§9.1.2.4, B.1); the typed ``MdocError/failures`` say why.
        public static var untrustedIssuer: Code { Code("untrustedIssuer") }
        /// The document signer's chain is trusted but a certificate in it is not valid at the
        /// MSO's `signed` time or at the verification time.
        public static var certificateNotValidAtTime: Code { Code("certificateNotValidAtTime") }
        /// The MSO names a digest algorithm other than SHA-256, SHA-384 and SHA-512 (§9.1.2.5).
        public static var unsupportedDigestAlgorithm: Code { Code("unsupportedDigestAlgorithm") }
        /// The MSO's `docType` is not the document's (§9.1.2.4).
        public static var docTypeMismatch: Code { Code("docTypeMismatch") }
        /// The MSO's `validityInfo` is out of order (signed ≤ validFrom < validUntil) or the
        /// verification time is outside validFrom … validUntil (§9.1.2.4).
        public static var documentNotValidAtTime: Code { Code("documentNotValidAtTime") }
        /// A disclosed IssuerSignedItem's digest is not the MSO's entry for its namespace and
        /// digestID (§9.1.2.5).
        public static var digestMismatch: Code { Code("digestMismatch") }
        /// A disclosed item's namespace or digestID has no entry in the MSO's `valueDigests`.
        public static var unknownDigestID: Code { Code("unknownDigestID") }
        /// Two disclosed items of one namespace share a digestID, or one element is disclosed
        /// twice.
        public static var duplicateItem: Code { Code("duplicateItem") }
        /// The MSO's device key is not a usable COSE_Key (EC2 on P-256 or P-384) (§9.1.2.4).
        public static var invalidDeviceKey: Code { Code("invalidDeviceKey") }
        /// The deviceSignature does not verify with the MSO's device key over
        /// DeviceAuthenticationBytes and this session transcript (§9.1.3.6).
        public static var invalidDeviceSignature: Code { Code("invalidDeviceSignature") }
        /// The deviceMac does not verify under the key derived from the reader's ephemeral key,
        /// the device key and this session transcript (§9.1.3.5).
        public static var invalidDeviceMAC: Code { Code("invalidDeviceMAC") }
        /// The document is authenticated by a deviceMac and the caller holds no reader private key
        /// to check it: refused unless the caller named
        /// ``MdocVerifier/Relaxation/acceptUnverifiedDeviceMAC``.
        public static var deviceMACNotVerifiable: Code { Code("deviceMACNotVerifiable") }
        /// A device-signed element that the MSO's `keyAuthorizations` does not authorize
        /// (§9.1.2.4).
        public static var unauthorizedDeviceElement: Code { Code("unauthorizedDeviceElement") }
        /// The session transcript given is not a SessionTranscript (a CBOR array of three, plain or
        /// tag 24 around its bytes) (§9.1.5.1).
        public static var invalidSessionTranscript: Code { Code("invalidSessionTranscript") }
        /// The reader key given cannot compute the deviceMac (not a P-256 private key), or the
        /// caller gave none at all for a verification that needs one.
        public static var invalidReaderKey: Code { Code("invalidReaderKey") }
        /// An 18013-7 Annex C response that does not open: malformed EncryptedResponse, HPKE
        /// failure (another key, another transcript, altered bytes).
        public static var decryptionFailed: Code { Code("decryptionFailed") }
        /// A request the caller asked to build is not well-formed (empty, unknown values).
        public static var invalidRequest: Code { Code("invalidRequest") }
    }

    /// The stable code.
    public let code: Code
    /// What was wrong, for people, with its clause. Never an element value or key material.
    public let reason: String
    /// The certificate verifier's typed reasons when the document signer's chain failed.
    public let failures: [ValidationFailure]

    /// An error with `code`, `reason` and the chain's typed failures.
    public init(_ code: Code, _ reason: String, failures: [ValidationFailure]) {
        self.code = code
        self.reason = reason
        self.failures = failures
    }
}
