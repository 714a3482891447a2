import SigilASN1

/// Apple's object identifiers in the certificates that sign its data: the one place Sigil writes
/// them down. Marker extensions (value NULL) say what a certificate is for; App Attest's
/// credential certificates carry their facts in extensions of their own.
public enum AppleOIDs {
    // MARK: - Intermediates

    /// Marks Apple's WWDR intermediate CA that issues App Store and receipt signing certificates
    /// (1.2.840.113635.100.6.2.1).
    public static let wwdrIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Marks the Apple Application Integration CA that issues App Attest fraud-receipt signers
    /// (1.2.840.113635.100.6.2.3).
    public static let applicationIntegrationIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 3]

    /// Marks the Apple Application Integration CA - G3 that issues the Apple Pay payment-processing
    /// broker certificates (1.2.840.113635.100.6.2.14).
    /// (Apple Pay's identifiers are emitted into the module that uses them, SigilApplePay, so
    /// that a verifier of App Store data links no Apple Pay code or data: see ``applePayDisplayNames``.)
    @_alwaysEmitIntoClient public static var applicationIntegrationG3Intermediate: ASN1ObjectIdentifier {
        [1, 2, 840, 113_635, 100, 6, 2, 14]
    }

    // MARK: - Signing leaves

    /// Marks the App Store and receipt signing leaf (1.2.840.113635.100.6.11.1).
    public static let appStoreReceiptSigning: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Marks the App Attest fraud-receipt signer (1.2.840.113635.100.12.15).
    public static let appAttestReceiptSigning: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 12, 15]

    /// Marks the Apple Pay payment-processing broker leaf that signs payment tokens
    /// (1.2.840.113635.100.6.29).
    @_alwaysEmitIntoClient public static var applePayPaymentProcessing: ASN1ObjectIdentifier { [1, 2, 840, 113_635, 100, 6, 29] }

    // MARK: - Apple Pay merchant certificates

    /// The merchant identifier hash in an Apple Pay payment-processing certificate: a UTF8String of
    /// 64 hexadecimal characters, SHA-256 of the merchant identifier (1.2.840.113635.100.6.32).
    @_alwaysEmitIntoClient public static var applePayMerchantIdentifier: ASN1ObjectIdentifier { [1, 2, 840, 113_635, 100, 6, 32] }

    // MARK: - App Attest credential certificates

    /// The nonce: `SEQUENCE { [1] EXPLICIT OCTET STRING }`, SHA-256(authData ‖ clientDataHash)
    /// (1.2.840.113635.100.8.2).
    public static let appAttestNonce: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]
    /// App and environment information, the App ID under tag 1204 (1.2.840.113635.100.8.5).
    public static let appAttestAppInfo: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 5]
    /// Key access policy, macOS (1.2.840.113635.100.8.6).
    public static let appAttestKeyAccessPolicy: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 6]
    /// Operating system information, the OS version under tag 1400 (1.2.840.113635.100.8.7).
    public static let appAttestOSInfo: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 7]

    /// Each identifier above with the name a person reads in a trace or a certificate dump (Apple
    /// Pay's in ``applePayDisplayNames``).
    public static let displayNames: [ASN1ObjectIdentifier: String] = [
        wwdrIntermediate: "Apple WWDR intermediate marker",
        applicationIntegrationIntermediate: "Apple Application Integration CA marker",
        appStoreReceiptSigning: "Apple App Store receipt signing marker",
        appAttestReceiptSigning: "Apple App Attest receipt signing marker",
        appAttestNonce: "Apple App Attest nonce",
        appAttestAppInfo: "Apple App Attest app information",
        appAttestKeyAccessPolicy: "Apple App Attest key access policy",
        appAttestOSInfo: "Apple App Attest OS information",
    ]

    /// Apple Pay's identifiers with their display names, emitted into the caller (a program that
    /// links SigilApplePKI for App Store data carries none of them).
    @_alwaysEmitIntoClient public static var applePayDisplayNames: [ASN1ObjectIdentifier: String] {
        [
            applicationIntegrationG3Intermediate: "Apple Application Integration CA - G3 marker",
            applePayPaymentProcessing: "Apple Pay payment processing marker",
            applePayMerchantIdentifier: "Apple Pay merchant identifier hash",
        ]
    }

    /// The display name of `oid` when it is one of Apple's (``displayNames``; Apple Pay's are
    /// ``applePayDisplayNames``).
    public static func name(_ oid: ASN1ObjectIdentifier) -> String? { displayNames[oid] }
}
