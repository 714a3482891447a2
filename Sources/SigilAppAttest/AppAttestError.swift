import SigilBase
import SigilX509

/// The one error type of SigilAppAttest: each rejection has its own code, and its reason names the
/// step of Apple's procedure ("Validating apps that connect to your server") that refused.
public struct AppAttestError: ChainFailureError {
    /// "appattest": `appattest.code` names this module's errors across Sigil.
    public static let domain = "appattest"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code as a string.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The attestation or assertion is not well-formed CBOR, or not the map Apple documents.
        public static var malformedObject: Code { Code("malformedObject") }
        /// `fmt` is not "apple-appattest".
        public static var unsupportedFormat: Code { Code("unsupportedFormat") }
        /// The authenticator data is truncated, oversized or otherwise not WebAuthn's layout.
        public static var malformedAuthenticatorData: Code { Code("malformedAuthenticatorData") }
        /// A certificate of x5c, or an extension of the credential certificate, does not parse.
        public static var malformedCertificate: Code { Code("malformedCertificate") }
        /// The root given is not the Apple App Attestation Root CA (its SHA-256 fingerprint differs from the pin).
        public static var rootNotPinned: Code { Code("rootNotPinned") }
        /// Step 1: x5c does not chain to the trusted root (another root, a bad signature, a broken profile).
        public static var untrustedChain: Code { Code("untrustedChain") }
        /// Step 1: the chain is trusted but a certificate in it is expired or not yet valid at the time.
        public static var certificateNotValidAtTime: Code { Code("certificateNotValidAtTime") }
        /// Steps 2–4: the credential certificate's nonce (1.2.840.113635.100.8.2) ≠ SHA-256(authData ‖ clientDataHash).
        public static var nonceMismatch: Code { Code("nonceMismatch") }
        /// Step 5: SHA-256 of the credential public key ≠ the key identifier the app sent.
        public static var keyIDMismatch: Code { Code("keyIDMismatch") }
        /// Step 6 (assertion step 4): the RP ID hash ≠ SHA-256(team id + "." + bundle id).
        public static var rpIDMismatch: Code { Code("rpIDMismatch") }
        /// Step 7: the attestation's counter is not 0.
        public static var nonZeroCounter: Code { Code("nonZeroCounter") }
        /// Step 8: the AAGUID is not the expected environment's ("appattestdevelop" / "appattest" + 7 zero bytes).
        public static var environmentMismatch: Code { Code("environmentMismatch") }
        /// Step 9: the credential id ≠ the key identifier.
        public static var credentialIDMismatch: Code { Code("credentialIDMismatch") }
        /// The COSE key in the authenticator data is not the credential certificate's key.
        public static var publicKeyMismatch: Code { Code("publicKeyMismatch") }
        /// Assertion step 3: the signature does not verify with the stored public key.
        public static var invalidSignature: Code { Code("invalidSignature") }
        /// Assertion step 5: the counter is not greater than the stored one (a replay, or a clone).
        public static var counterNotIncreasing: Code { Code("counterNotIncreasing") }
        /// The app's validation category or bundle version (authenticator-data extensions) is not one
        /// the ``AppAttestPolicy`` accepts, or is absent where the policy refuses its absence.
        public static var policyNotMet: Code { Code("policyNotMet") }
        /// The fraud-metric receipt is not a CMS SignedData with Apple's receipt payload.
        public static var malformedReceipt: Code { Code("malformedReceipt") }
        /// The receipt's signature or chain (to Apple Root CA - G3) does not verify.
        public static var receiptNotTrusted: Code { Code("receiptNotTrusted") }
        /// The receipt's App ID is not the expected one.
        public static var receiptAppIDMismatch: Code { Code("receiptAppIDMismatch") }
        /// The receipt's attested public key is not the stored one.
        public static var receiptKeyMismatch: Code { Code("receiptKeyMismatch") }
        /// The receipt was created too long before the time given (or after it).
        public static var receiptNotFresh: Code { Code("receiptNotFresh") }
    }

    /// The stable code.
    public let code: Code
    /// What was wrong, for people, with the step that refused.
    public let reason: String
    /// The certificate verifier's typed reasons when the chain failed.
    public let failures: [ValidationFailure]

    /// An error with `code`, `reason` and the chain's typed failures.
    public init(_ code: Code, _ reason: String, failures: [ValidationFailure]) {
        self.code = code
        self.reason = reason
        self.failures = failures
    }
}

extension AppAttestError {
    /// This error, after recording it in `trace` (when there is one) as the failed step `check` of `clause`.
    func recorded(in trace: VerificationTrace?, _ clause: String, _ check: String) -> AppAttestError {
        trace?.fail(clause, check, "\(code): \(reason)")
        return self
    }
}
