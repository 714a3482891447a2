import SigilX509

// Apple's certificate profiles, one per job: which certificate of a chain carries which of
// Apple's marker OIDs (``AppleOIDs``), and the chain's length. Each is a generic
// `MarkerExtensionPolicy` of SigilX509: the RFC 5280 basics always run beside it.

extension MarkerExtensionPolicy {
    /// Apple's signed-data profile (the x5c chain of App Store Server API and notification JWS,
    /// as Apple's App Store Server Library checks it): exactly leaf → intermediate → trusted root;
    /// the intermediate carries 1.2.840.113635.100.6.2.1 and the leaf 1.2.840.113635.100.6.11.1.
    /// The root is whichever trusted root the path reached: a root the message carried is never
    /// trusted for being there.
    public static let appleSignedData = MarkerExtensionPolicy(
        name: "Apple signed data", chainLength: 3,
        requirements: [
            .init(position: 1, oid: AppleOIDs.wwdrIntermediate, role: "the WWDR intermediate"),
            .init(position: 0, oid: AppleOIDs.appStoreReceiptSigning, role: "the signing leaf"),
        ])

    /// Apple's receipt profile: the receipt signer → an Apple WWDR intermediate → the trusted Apple
    /// root, exactly three certificates; the signer carries 1.2.840.113635.100.6.11.1 (receipt
    /// signing) and the intermediate 1.2.840.113635.100.6.2.1 (the marker of Apple's WWDR CAs).
    /// Without it any certificate Apple issued to anyone under the same root would sign receipts.
    public static let appleReceipt = MarkerExtensionPolicy(
        name: "Apple receipt", chainLength: 3,
        requirements: [
            .init(position: 1, oid: AppleOIDs.wwdrIntermediate, role: "the WWDR intermediate"),
            .init(position: 0, oid: AppleOIDs.appStoreReceiptSigning, role: "the receipt signer"),
        ])

    /// Apple's App Attest credential chain: exactly credential certificate → Apple App Attestation
    /// CA 1 → root, the credential certificate carrying the nonce extension 1.2.840.113635.100.8.2.
    public static let appAttestCredential = MarkerExtensionPolicy(
        name: "Apple App Attest credential", chainLength: 3,
        requirements: [.init(position: 0, oid: AppleOIDs.appAttestNonce, role: "the App Attest credential certificate")])

    /// Apple's fraud-receipt chain: exactly signer → Apple Application Integration CA → root, the
    /// signer carrying 1.2.840.113635.100.12.15 and the intermediate 1.2.840.113635.100.6.2.3
    /// (as Apple's certificates do).
    public static let appAttestReceipt = MarkerExtensionPolicy(
        name: "Apple App Attest receipt", chainLength: 3,
        requirements: [
            .init(position: 0, oid: AppleOIDs.appAttestReceiptSigning, role: "the fraud receipt signer"),
            .init(position: 1, oid: AppleOIDs.applicationIntegrationIntermediate, role: "the Apple Application Integration CA"),
        ])

    /// Apple Pay's payment-token signer chain: exactly the payment-processing broker leaf → Apple
    /// Application Integration CA - G3 → root, the leaf carrying 1.2.840.113635.100.6.29 and the
    /// intermediate 1.2.840.113635.100.6.2.14 (Apple's "Payment Token Format Reference", step 1 of
    /// verifying the signature).
    ///
    /// Emitted into the caller (SigilApplePay): a verifier of App Store data links none of it.
    @_alwaysEmitIntoClient public static var applePayPaymentToken: MarkerExtensionPolicy {
        MarkerExtensionPolicy(
            name: "Apple Pay payment token", chainLength: 3,
            requirements: [
                .init(position: 0, oid: AppleOIDs.applePayPaymentProcessing, role: "the payment-processing leaf"),
                .init(position: 1, oid: AppleOIDs.applicationIntegrationG3Intermediate, role: "the Apple Application Integration CA - G3"),
            ])
    }
}
