import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// SignerInfo (RFC 5652 §5.3):
///
/// ```
/// SignerInfo ::= SEQUENCE {
///     version CMSVersion,
///     sid SignerIdentifier,   -- issuerAndSerialNumber SEQUENCE | subjectKeyIdentifier [0] IMPLICIT
///     digestAlgorithm DigestAlgorithmIdentifier,
///     signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL,
///     signatureAlgorithm SignatureAlgorithmIdentifier,
///     signature SignatureValue,
///     unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
/// ```
public struct CMSSignerInfo: Sendable {
    /// The SignerInfo version (CMSVersion: 1 with an issuer and serial number, 3 with a key identifier), as received.
    public let version: Int
    /// The signer's certificate, by issuer and serial or by key identifier.
    public let signerIdentifier: CMSSignerIdentifier
    /// The digest of the content (and of the signed attributes).
    public let digestAlgorithm: HashAlgorithm
    /// The signed attributes, when present.
    public let signedAttributes: [CMSAttribute]?
    /// The DER the signature covers when signed attributes are present: the attributes as a
    /// SET (tag 0x31), re-encoded from the received [0] (RFC 5652 §5.4).
    public let signedAttributesDER: [UInt8]?
    /// The signature algorithm as encoded.
    public let signatureAlgorithmIdentifier: AlgorithmIdentifier
    /// The signature's bytes.
    public let signature: [UInt8]

    init(node: ASN1Node) throws(PKCS7Error) {
        var reader: ASN1SequenceReader
        let sid: CMSSignerIdentifier
        let digest: AlgorithmIdentifier
        do throws(ASN1Error) {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            version = try ASN1Integer(node: reader.next(.integer)).intValue()
            let sidNode = try reader.next()
            if sidNode.identifier == .sequence {
                var r = try ASN1SequenceReader(checking: sidNode, identifier: .sequence)
                let issuer = try DistinguishedName(node: r.next(.sequence))
                let serial = try ASN1Integer(node: r.next(.integer)).twosComplementBytes
                try r.finish()
                sid = .issuerAndSerialNumber(issuer: issuer, serial: serial)
            } else if sidNode.identifier == .contextSpecific(0) {
                sid = .subjectKeyIdentifier(try ASN1OctetString(node: sidNode, identifier: .contextSpecific(0)).bytes)
            } else {
                throw sidNode.error(.unexpectedTag, "SignerIdentifier must be issuerAndSerialNumber or [0] subjectKeyIdentifier")
            }
            digest = try AlgorithmIdentifier(node: reader.next(.sequence))
        } catch {
            throw CMSSignedData.malformed(error)
        }
        signerIdentifier = sid
        guard let hash = KeyOIDs.hash(digest.algorithm) else {
            throw PKCS7Error(.unsupportedAlgorithm, "digest algorithm \(digest.algorithm) is not SHA-1/256/384/512")
        }
        digestAlgorithm = hash
        do throws(ASN1Error) {
            var attributes: [CMSAttribute]?
            var attributesDER: [UInt8]?
            if let signed = reader.nextIfPresent(.contextSpecific(0)) {
                try ASN1.expect(signed, .contextSpecific(0), constructed: true)
                var encodings: [[UInt8]] = []
                var list: [CMSAttribute] = []
                for child in signed.children {
                    encodings.append(Array(child.encodedBytes))
                    var r = try ASN1SequenceReader(checking: child, identifier: .sequence)
                    let type = try ASN1ObjectIdentifier(node: r.next(.objectIdentifier))
                    let set = try r.next(.set)
                    try ASN1.expect(set, .set, constructed: true)
                    var values: [[UInt8]] = []
                    for value in set.children { values.append(Array(value.encodedBytes)) }
                    try r.finish()
                    list.append(CMSAttribute(type: type, values: values))
                }
                guard !list.isEmpty else { throw signed.error(.unexpectedElementCount, "signedAttrs must not be empty") }
                // The DER SET OF: the received order when it is already DER, else sorted.
                var writer = DERWriter()
                writer.appendSetOf(encodings)
                attributes = list
                attributesDER = writer.bytes
            }
            (signedAttributes, signedAttributesDER) = (attributes, attributesDER)
            signatureAlgorithmIdentifier = try AlgorithmIdentifier(node: reader.next(.sequence))
            signature = try ASN1OctetString(node: reader.next(.octetString)).bytes
            _ = reader.nextIfPresent(.contextSpecific(1))  // unsignedAttrs
            try reader.finish()
        } catch {
            throw CMSSignedData.malformed(error)
        }
    }

    /// The signed attribute of `type`, when present.
    public func attribute(_ type: ASN1ObjectIdentifier) -> CMSAttribute? { signedAttributes?.first { $0.type == type } }

    /// The signature algorithm: rsaEncryption means PKCS#1 v1.5 with the SignerInfo's digest
    /// (RFC 5652 §10.1.2 / RFC 3370 §3.2); otherwise the identifier's own algorithm.
    /// ecdsa-with-SHA1 (RFC 3279 §2.2.3) and a bare id-ecPublicKey (RFC 5753 §2.1.1 allows it)
    /// mean ECDSA with the SignerInfo's digest.
    public var signatureAlgorithm: SignatureAlgorithm? {
        switch signatureAlgorithmIdentifier.algorithm {
        case CMSOIDs.rsaEncryption: return .rsaPKCS1v15(digestAlgorithm)
        case CMSOIDs.ecdsaWithSHA1: return digestAlgorithm == .sha1 ? .ecdsa(.sha1) : nil
        case CMSOIDs.ecPublicKey: return .ecdsa(digestAlgorithm)
        default: return try? SignatureAlgorithm(signatureAlgorithmIdentifier)
        }
    }

    /// Whether `certificate` is the one this SignerInfo names.
    public func identifies(_ certificate: Certificate) -> Bool {
        switch signerIdentifier {
        case .issuerAndSerialNumber(let issuer, let serial): certificate.issuer.matches(issuer) && certificate.serialNumber == serial
        case .subjectKeyIdentifier(let id): certificate.subjectKeyIdentifier == id
        }
    }
}
