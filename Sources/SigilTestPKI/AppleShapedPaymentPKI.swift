import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCipher
import SigilCore
import SigilKeys
import SigilPKCS7
import SigilX509

/// Apple Pay test material: a chain shaped like Apple's payment-token signer (P-384 root, an
/// intermediate marked 1.2.840.113635.100.6.2.14, a P-256 leaf marked 1.2.840.113635.100.6.29),
/// merchant certificates with the merchant identifier extension, and EC_v1 and RSA_v1 tokens
/// encrypted as Apple encrypts them and signed as Apple signs them (detached CMS SignedData with
/// content-type, signing-time and message-digest attributes), `applicationData` included when
/// given. For tests and demos only: the root is never Apple's.
public struct AppleShapedPaymentPKI: Sendable {
    /// The test root (trust it in place of Apple Root CA - G3).
    public let root: Certificate
    /// The intermediate, marked as Apple's Application Integration CA - G3.
    public let intermediate: Certificate
    /// The payment-processing leaf that signs tokens.
    public let leaf: Certificate
    /// The leaf's key.
    public let leafKey: ECDSAPrivateKey
    let intermediateKey: ECDSAPrivateKey

    /// A PKI valid from `notBefore` to `notAfter`, keys from `generator`.
    public static func generate<R: RandomNumberGenerator>(notBefore: Int64, notAfter: Int64, using generator: inout R) throws(X509Error)
        -> AppleShapedPaymentPKI
    {
        let rootKey = ECDSAPrivateKey.generate(curve: .p384, using: &generator)
        let intermediateKey = ECDSAPrivateKey.generate(curve: .p384, using: &generator)
        let leafKey = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let rootName = CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Sigil Test Payment Root CA - G3")])
        let intermediateName = CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Sigil Test Application Integration CA - G3")])
        let root = try AppleShapedAttestationPKI.ca(
            name: rootName, key: rootKey, issuer: rootName, issuerKey: rootKey, serial: [0x51], notBefore, notAfter)
        let intermediate = try AppleShapedAttestationPKI.ca(
            name: intermediateName, key: intermediateKey, issuer: rootName, issuerKey: rootKey, serial: [0x52], notBefore, notAfter,
            marker: AppleOIDs.applicationIntegrationG3Intermediate)
        let leaf = try CertificateBuilder(
            serialNumber: [0x53, 0x01], issuer: intermediateName,
            subject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, "sigil-test-smp-broker-sign")]),
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: leafKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: false), .keyUsage([0]),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(intermediateKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(leafKey.publicKey)),
                .marker(AppleOIDs.applePayPaymentProcessing),
            ]
        ).sign(with: intermediateKey)
        return AppleShapedPaymentPKI(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey, intermediateKey: intermediateKey)
    }

    /// A merchant payment-processing certificate for `subjectPublicKeyInfo` carrying the merchant
    /// identifier extension (UTF8String of the uppercase hex SHA-256 of `merchantIdentifier`).
    public func merchantCertificate(
        subjectPublicKeyInfo: [UInt8], merchantIdentifier: String, notBefore: Int64, notAfter: Int64
    ) throws(X509Error) -> Certificate {
        let hash = Base16.encode(SHA256.hash(Array(merchantIdentifier.utf8))).uppercased()
        return try CertificateBuilder(
            serialNumber: [0x54, 0x02], issuer: intermediate.subject.derBytes,
            subject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Apple Pay Payment Processing:\(merchantIdentifier)")]),
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: subjectPublicKeyInfo,
            extensions: [
                .basicConstraints(ca: false),
                .init(
                    oid: AppleOIDs.applePayMerchantIdentifier, critical: false,
                    value: (try? ASN1UTF8String(hash)).map { DER.encode($0) } ?? []),
            ]
        ).sign(with: intermediateKey)
    }

    /// An EC_v1 token (JSON) carrying `payment` for the merchant key `merchant` under
    /// `merchantIdentifier`, with the ephemeral key `ephemeral`, signed at `signingTime`.
    public func ecToken(
        payment: [UInt8], merchant: ECDSAPublicKey, merchantIdentifier: String, ephemeral: ECDSAPrivateKey,
        transactionId: [UInt8], applicationData: [UInt8]? = nil, signingTime: Int64
    ) throws -> [UInt8] {
        let z = try ephemeral.sharedSecret(with: merchant)
        let info = [0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8) + SHA256.hash(Array(merchantIdentifier.utf8))
        let key = try ConcatKDF.deriveKey(sharedSecret: z, fixedInfo: info, length: 32)
        let sealed = try AESGCM(key: key).seal(payment, iv: [UInt8](repeating: 0, count: 16))
        return try token(
            version: "EC_v1", keyMember: ("ephemeralPublicKey", ephemeral.publicKey.spkiDER), data: sealed.ciphertext + sealed.tag,
            publicKeyHash: SHA256.hash(merchant.spkiDER), transactionId: transactionId, applicationData: applicationData,
            signingTime: signingTime)
    }

    /// An RSA_v1 token (JSON) carrying `payment`, its symmetric key `symmetricKey` (32 bytes)
    /// wrapped for `merchant` with RSA-OAEP (SHA-256, MGF1-SHA-256) and the OAEP seed `seed`.
    public func rsaToken(
        payment: [UInt8], merchant: RSAPublicKey, symmetricKey: [UInt8], seed: [UInt8], transactionId: [UInt8],
        applicationData: [UInt8]? = nil, signingTime: Int64
    ) throws -> [UInt8] {
        let sealed = try AESGCM(key: symmetricKey).seal(payment, iv: [UInt8](repeating: 0, count: 16))
        let wrapped = try Self.oaepEncrypt(symmetricKey, for: merchant, seed: seed)
        return try token(
            version: "RSA_v1", keyMember: ("wrappedKey", wrapped), data: sealed.ciphertext + sealed.tag,
            publicKeyHash: SHA256.hash(merchant.spkiDER), transactionId: transactionId, applicationData: applicationData,
            signingTime: signingTime)
    }

    /// RSAES-OAEP encryption (RFC 8017 §7.1.1), SHA-256 and MGF1-SHA-256, empty label, with the
    /// given 32-byte seed; public data only (a test helper's variable-time GMP arithmetic).
    static func oaepEncrypt(_ message: [UInt8], for key: RSAPublicKey, seed: [UInt8]) throws -> [UInt8] {
        let k = key.modulusByteCount
        let hLen = 32
        func mgf1(_ input: [UInt8], _ length: Int) -> [UInt8] {
            var out: [UInt8] = []
            var counter: UInt32 = 0
            while out.count < length {
                out += SHA256.hash(
                    input + [UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)])
                counter += 1
            }
            return Array(out.prefix(length))
        }
        let db = SHA256.hash([UInt8]()) + [UInt8](repeating: 0, count: k - message.count - 2 * hLen - 2) + [1] + message
        let maskedDB = zip(db, mgf1(seed, k - hLen - 1)).map { $0 ^ $1 }
        let maskedSeed = zip(seed, mgf1(maskedDB, hLen)).map { $0 ^ $1 }
        let em = BigNum(magnitude: [0] + maskedSeed + maskedDB)
        return try em.power(BigNum(magnitude: key.exponent), modulo: BigNum(magnitude: key.modulus)).bytes(width: k)
    }

    /// The token JSON, with its detached CMS signature over the signed fields.
    func token(
        version: String, keyMember: (String, [UInt8]), data: [UInt8], publicKeyHash: [UInt8], transactionId: [UInt8],
        applicationData: [UInt8]?, signingTime: Int64
    ) throws -> [UInt8] {
        let content = keyMember.1 + data + transactionId + (applicationData ?? [])
        let signature = try detachedSignature(content, signingTime: signingTime)
        var header = [
            "\"\(keyMember.0)\":\"\(Base64.encode(keyMember.1))\"", "\"publicKeyHash\":\"\(Base64.encode(publicKeyHash))\"",
            "\"transactionId\":\"\(Base16.encode(transactionId))\"",
        ]
        if let applicationData { header.append("\"applicationData\":\"\(Base16.encode(applicationData))\"") }
        let json =
            "{\"version\":\"\(version)\",\"data\":\"\(Base64.encode(data))\",\"signature\":\"\(Base64.encode(signature))\","
            + "\"header\":{\(header.joined(separator: ","))}}"
        return Array(json.utf8)
    }

    /// SignedData (DER, a subset of BER) with no encapsulated content, the leaf and intermediate
    /// in certificates, one SignerInfo with content-type, signing-time and message-digest attributes.
    func detachedSignature(_ content: [UInt8], signingTime: Int64) throws -> [UInt8] {
        let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
        let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
        func attribute(_ oid: ASN1ObjectIdentifier, _ value: [UInt8]) -> [UInt8] {
            var w = DERWriter()
            w.appendSequence { a in
                a.append(oid)
                a.appendSetOf([value])
            }
            return w.bytes
        }
        let time = try ASN1UTCTime(ASN1TimeComponents(secondsSinceEpoch: signingTime))
        let attributes = [
            attribute(CMSOIDs.contentType, DER.encode(CMSOIDs.data)),
            attribute(CMSOIDs.signingTime, DER.encode(time)),
            attribute(CMSOIDs.messageDigest, DER.encode(ASN1OctetString(SHA256.hash(content)))),
        ]
        var set = DERWriter()
        set.appendSetOf(attributes)
        let signature = leafKey.signature(for: set.bytes, hash: .sha256).derRepresentation
        var w = DERWriter()
        w.appendSequence { contentInfo in
            contentInfo.append(CMSOIDs.signedData)
            contentInfo.appendExplicit(.contextSpecific(0)) { explicit in
                explicit.appendSequence { sd in
                    sd.append(ASN1Integer(1))
                    sd.appendConstructed(.set) { $0.appendSequence { $0.append(sha256) } }
                    sd.appendSequence { $0.append(CMSOIDs.data) }
                    sd.appendConstructed(.contextSpecific(0)) { certs in
                        certs.appendEncoded(leaf.derBytes)
                        certs.appendEncoded(intermediate.derBytes)
                    }
                    sd.appendConstructed(.set) { infos in
                        infos.appendSequence { si in
                            si.append(ASN1Integer(1))
                            si.appendSequence { ias in
                                ias.appendEncoded(leaf.issuer.derBytes)
                                ias.append(ASN1Integer(unsignedMagnitude: leaf.serialNumber))
                            }
                            si.appendSequence { $0.append(sha256) }
                            si.appendSetOf(attributes, identifier: .contextSpecific(0))
                            si.appendSequence { $0.append(ecdsaWithSHA256) }
                            si.appendPrimitive(.octetString, content: signature)
                        }
                    }
                }
            }
        }
        return w.bytes
    }
}
