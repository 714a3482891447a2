import SigilBase
import SigilX509

/// The one error type of SigilAppStore: a stable status, a human reason, and for chain failures
/// every reason the certificate verifier gave.
///
/// The verification statuses are those of Apple's App Store Server Libraries (Python/Java/Node
/// `VerificationStatus`), so code written against them maps one to one; Sigil additionally keeps
/// a bad signature apart from a bad chain (both are `verificationFailure` there) through `reason`
/// and `failures`.
public struct AppStoreError: ChainFailureError {
    /// "appstore": `appstore.code` names this module's errors across Sigil.
    public static let domain = "appstore"
    /// A stable status code (Apple's library's names): compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The status's name, as in Apple's libraries ("VERIFICATION_FAILURE", …).
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// Not a three-part JWS, bad base64url or JSON, alg other than ES256, no x5c, or a payload
        /// that does not decode as the expected type.
        public static var invalidJWTFormat: Code { Code("INVALID_JWT_FORMAT") }
        /// The payload's kind was not given and its members fit several kinds (or none): Sigil
        /// does not guess; the reason names the kinds that fit.
        public static var ambiguousPayloadKind: Code { Code("AMBIGUOUS_PAYLOAD_KIND") }
        /// x5c does not hold exactly three certificates.
        public static var invalidChainLength: Code { Code("INVALID_CHAIN_LENGTH") }
        /// The leaf or intermediate in x5c is not a valid DER certificate.
        public static var invalidCertificate: Code { Code("INVALID_CERTIFICATE") }
        /// The chain does not validate to a trusted root under the Apple signed-data policy, the
        /// leaf key is not P-256, or the signature does not verify.
        public static var verificationFailure: Code { Code("VERIFICATION_FAILURE") }
        /// An online (OCSP) check could not be completed because of the network: try again later.
        public static var retryableVerificationFailure: Code { Code("RETRYABLE_VERIFICATION_FAILURE") }
        /// The payload's bundle id or app Apple id is not the configured one.
        public static var invalidAppIdentifier: Code { Code("INVALID_APP_IDENTIFIER") }
        /// The payload's environment is not the configured one.
        public static var invalidEnvironment: Code { Code("INVALID_ENVIRONMENT") }
        /// A verifier or builder was configured wrongly (for example Production without an app
        /// Apple id, no trusted roots, or a token lifetime beyond Apple's limit).
        public static var invalidConfiguration: Code { Code("INVALID_CONFIGURATION") }
        /// A configuration error of its own: a verifier enforcing the app identity for Production
        /// data was given no app Apple id (App Store Connect, App Information, Apple ID). Apple's
        /// libraries refuse the same configuration without a status; this code lets a caller tell
        /// it from other ``invalidConfiguration`` errors without reading the reason.
        public static var appAppleIdRequired: Code { Code("APP_APPLE_ID_REQUIRED") }
        /// A key that cannot sign (not a P-256 PKCS#8 key).
        public static var invalidKey: Code { Code("INVALID_KEY") }
        /// An external purchase token that is not base64url JSON with the documented fields.
        public static var invalidExternalPurchaseToken: Code { Code("INVALID_EXTERNAL_PURCHASE_TOKEN") }
        /// A client-side payload's `deviceVerification` is not SHA-384 of its nonce and the device
        /// verification identifier given, or the payload carries no device verification members.
        public static var deviceVerificationMismatch: Code { Code("DEVICE_VERIFICATION_MISMATCH") }
    }

    /// The status: compare codes, show reasons.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String
    /// The certificate verifier's typed reasons, when the chain failed: each a `ValidationFailure`
    /// case with the certificate it concerns and the rule it breaks (`rule`), so a program can tell
    /// an expired leaf from a missing marker OID without reading English.
    public let failures: [ValidationFailure]

    /// An error with `code` and `reason` and the chain's typed failures.
    public init(_ code: Code, _ reason: String, failures: [ValidationFailure]) {
        self.code = code
        self.reason = reason
        self.failures = failures
    }

    /// Whether trying again later may succeed (network failures during online checks).
    public var isRetryable: Bool { code == .retryableVerificationFailure }

    /// The code and reason, and the chain's failures when there are any.
    public var description: String {
        failures.isEmpty ? "\(code): \(reason)" : "\(code): \(reason) [\(failures.map { $0.description }.joined(separator: "; "))]"
    }
}
