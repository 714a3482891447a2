import SigilX509

/// Which certificate signs Xcode's StoreKit-testing data, as the caller trusts it. Xcode signs its
/// signed transactions (P-256, "StoreKit Testing in Xcode") and its app receipts (RSA-2048,
/// "StoreKit") with a self-signed certificate never issued by Apple, carried alone in the data.
/// Both the App Store signed-data verifier and the receipt verifier take this one type.
public indirect enum XcodeCertificate: Sendable, Hashable {
    /// The certificate the caller has: the one Xcode saves from a StoreKit configuration
    /// (Editor ▸ Save Public Certificate, `StoreKitTestCertificate.cer`), or one taken from data
    /// the caller trusts. The data's signer must be this certificate.
    case given(Certificate)
    /// The self-signed certificate the data itself carries. This proves the data intact and
    /// self-consistent, not who made it — anyone can make such data — so it is a named choice, for
    /// inspecting Xcode data when Xcode's certificate is not at hand.
    case carriedByTheData
}
