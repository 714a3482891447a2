import SigilASN1

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
