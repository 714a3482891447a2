import SigilASN1
import SigilX509

/// Apple's object identifiers in the certificates that sign App Store data and receipts.
public enum AppleOIDs {
    /// Marks Apple's WWDR intermediate CA that issues App Store and receipt signing certificates
    /// (1.2.840.113635.100.6.2.1).
    public static let wwdrIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// Marks the App Store and receipt signing leaf (1.2.840.113635.100.6.11.1).
    public static let appStoreReceiptSigning: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
}

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
}
