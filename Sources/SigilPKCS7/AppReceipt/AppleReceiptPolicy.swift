import SigilASN1
import SigilX509

extension MarkerExtensionPolicy {
    /// Apple's receipt profile: the receipt signer → an Apple WWDR intermediate → the trusted Apple
    /// root, exactly three certificates; the signer carries 1.2.840.113635.100.6.11.1 (receipt
    /// signing) and the intermediate 1.2.840.113635.100.6.2.1 (the marker of Apple's WWDR CAs).
    /// Without it any certificate Apple issued to anyone under the same root would sign receipts.
    public static let appleReceipt = MarkerExtensionPolicy(
        name: "Apple receipt", chainLength: 3,
        requirements: [
            .init(position: 1, oid: [1, 2, 840, 113635, 100, 6, 2, 1], role: "the WWDR intermediate"),
            .init(position: 0, oid: [1, 2, 840, 113635, 100, 6, 11, 1], role: "the receipt signer"),
        ])
}
