import SigilASN1
import SigilCore
import SigilJOSE
import SigilKeys
import SigilPKCS7
import SigilX509

/// A certificate shaped like Xcode's StoreKit-testing ones, generated in memory: self-signed, a
/// CA (basicConstraints critical, keyUsage digitalSignature and keyCertSign) without
/// subjectKeyIdentifier or authorityKeyIdentifier, whose P-256 key signs data directly — as Xcode
/// signs StoreKit-testing receipts (its "StoreKit" certificate, RSA in Xcode) and StoreKit 2 JWS
/// (its "StoreKit Testing in Xcode" certificate, alone in x5c). For tests of the Xcode paths of
/// `AppReceiptVerifier` and `SignedDataVerifier` on data no Xcode signed (another bundle, an app
/// transaction without receiptType).
public struct XcodeShapedTestCertificate: Sendable {
    /// The signing key.
    public let key: ECDSAPrivateKey
    /// The self-signed certificate.
    public let certificate: Certificate

    /// A fresh certificate named `commonName` (also its organization), valid from `notBefore` to
    /// `notAfter` (seconds since 1970).
    public static func generate(
        commonName: String = "StoreKit Testing in Xcode", notBefore: Int64, notAfter: Int64
    ) throws(X509Error) -> XcodeShapedTestCertificate {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let name = CertificateBuilder.name([
            (AttributeTypeAndValue.commonName, commonName), (AttributeTypeAndValue.organizationName, commonName),
        ])
        let certificate = try CertificateBuilder(
            serialNumber: [0x01], issuer: name, subject: name, notBefore: notBefore, notAfter: notAfter,
            subjectPublicKeyInfo: key.publicKey.spkiDER,
            extensions: [.basicConstraints(ca: true, pathLength: 0), .keyUsage([0, 5])]
        ).sign(with: key)
        return XcodeShapedTestCertificate(key: key, certificate: certificate)
    }

    /// An ES256 JWS over `payload` (JSON bytes) with `x5c` holding this certificate alone and
    /// Xcode's key id, as Xcode signs StoreKit 2 transactions, renewal info and app transactions.
    public func signedData(payload: [UInt8]) throws(JOSEError) -> String {
        try JWS.sign(
            header: .object([
                ("alg", .string("ES256")), ("kid", .string("Apple_Xcode_Key")),
                ("x5c", .array([.string(Base64.encode(certificate.derBytes))])),
            ]),
            payload: payload, key: key)
    }

    /// A receipt (ContentInfo(SignedData)) over `builder`'s payload signed by this certificate,
    /// which the receipt carries, as Xcode signs StoreKit-testing receipts.
    public func receipt(_ builder: AppReceiptBuilder) throws(PKCS7Error) -> [UInt8] {
        try AppReceiptBuilder.signedData(content: try builder.payload(), signer: certificate, signerKey: key, certificates: [certificate])
    }
}
