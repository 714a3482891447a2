import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCipher
import SigilCore
import SigilKeys
import SigilX509

/// A merchant's payment-processing key: the private key (P-256 for EC_v1, RSA for RSA_v1), the
/// hash that names it in tokens (`publicKeyHash`: SHA-256 of its SubjectPublicKeyInfo) and the
/// merchant identifier hash the EC_v1 key derivation uses.
///
/// The merchant identifier hash comes from the merchant certificate's extension
/// 1.2.840.113635.100.6.32 (64 hexadecimal characters), or is computed from the merchant
/// identifier (`merchant.com.example`) when only that is at hand. With a certificate, the
/// certificate's key must be the private key's.
public struct MerchantKey: Sendable, CustomStringConvertible {
    /// The private key.
    public enum PrivateKey: Sendable {
        /// A P-256 key, for EC_v1.
        case ec(ECDSAPrivateKey)
        /// An RSA key, for RSA_v1.
        case rsa(RSAPrivateKey)
    }

    /// The private key.
    public let privateKey: PrivateKey
    /// SHA-256 of the public key's DER SubjectPublicKeyInfo: what a token's `publicKeyHash` names.
    public let publicKeyHash: [UInt8]
    /// SHA-256 of the merchant identifier (32 bytes).
    public let merchantIdentifierHash: [UInt8]

    /// From a private key (PEM — text before the first boundary line is skipped — or DER; SEC 1,
    /// PKCS#1 or PKCS#8) and the merchant's payment-processing certificate.
    public init(privateKey keyBytes: [UInt8], certificate: Certificate) throws(ApplePayError) {
        let key = try Self.load(keyBytes)
        guard let ext = certificate.extension(AppleOIDs.applePayMerchantIdentifier) else {
            throw Self.fail("the merchant certificate has no merchant identifier extension (\(AppleOIDs.applePayMerchantIdentifier))")
        }
        let text: String
        do throws(ASN1Error) {
            text = String(decoding: try ASN1UTF8String(node: DER.parse(ext.rawValue)).bytes, as: UTF8.self)
        } catch {
            throw Self.fail("the merchant identifier extension is not a UTF8String: \(error)")
        }
        guard text.utf8.count == 64, let hash = Base16.decode(text) else {
            throw Self.fail("the merchant identifier extension is not 64 hexadecimal characters")
        }
        let spkiHash = SHA256.hash(certificate.subjectPublicKeyInfoBytes)
        guard spkiHash == Self.publicKeyHash(of: key) else {
            throw Self.fail("the merchant certificate's public key is not the private key's")
        }
        try self.init(privateKey: key, merchantIdentifierHash: hash)
    }

    /// From a private key and the merchant identifier (`merchant.com.example`), when no
    /// certificate is at hand: the hash is SHA-256 of the identifier's UTF-8.
    public init(privateKey keyBytes: [UInt8], merchantIdentifier: String) throws(ApplePayError) {
        try self.init(privateKey: Self.load(keyBytes), merchantIdentifierHash: SHA256.hash(Array(merchantIdentifier.utf8)))
    }

    /// From a loaded private key and the merchant identifier hash (32 bytes).
    public init(privateKey: PrivateKey, merchantIdentifierHash: [UInt8]) throws(ApplePayError) {
        guard merchantIdentifierHash.count == 32 else {
            throw Self.fail("a merchant identifier hash has 32 bytes, not \(merchantIdentifierHash.count)")
        }
        if case .ec(let key) = privateKey, key.curve != .p256 {
            throw Self.fail("an EC_v1 merchant key is P-256, not \(key.curve.rawValue)")
        }
        self.privateKey = privateKey
        self.merchantIdentifierHash = merchantIdentifierHash
        self.publicKeyHash = Self.publicKeyHash(of: privateKey)
    }

    /// Never shows the key.
    public var description: String {
        let kind =
            switch privateKey {
            case .ec: "EC P-256"
            case .rsa(let key): "RSA \(key.publicKey.modulusBits)"
            }
        return "MerchantKey(\(kind), publicKeyHash \(Base16.encode(publicKeyHash).prefix(16))…, redacted)"
    }

    static func fail(_ reason: String) -> ApplePayError {
        ApplePayError(.invalidMerchantKey, reason, step: "merchant key", clause: "Payment Token Format Reference, merchant keys")
    }

    static func publicKeyHash(of key: PrivateKey) -> [UInt8] {
        switch key {
        case .ec(let ec): SHA256.hash(ec.publicKey.spkiDER)
        case .rsa(let rsa): SHA256.hash(rsa.publicKey.spkiDER)
        }
    }

    /// An EC key (SEC 1 or PKCS#8) or, failing that, an RSA key (PKCS#1 or PKCS#8).
    static func load(_ bytes: [UInt8]) throws(ApplePayError) -> PrivateKey {
        let ecKey: ECKey
        do { ecKey = try ECKey(loading: bytes) } catch {
            let ecError = "\(error)"
            do { return .rsa(try RSAPrivateKey(loading: bytes)) } catch let rsaError {
                throw fail("neither an EC private key (\(ecError)) nor an RSA private key (\(rsaError.reason))")
            }
        }
        guard case .privateKey(let key) = ecKey else {
            throw fail("a public key was given where the merchant's private key is needed")
        }
        return .ec(key)
    }
}
