import SigilASN1
import SigilCore
import SigilKeys
import SigilX509

/// CMS SignedData (RFC 5652 §5), read through the BER entry point (app receipts are often BER
/// with indefinite lengths; DER input is BER too):
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType ContentType, content [0] EXPLICIT ANY }
/// SignedData ::= SEQUENCE {
///     version CMSVersion,
///     digestAlgorithms SET OF DigestAlgorithmIdentifier,
///     encapContentInfo EncapsulatedContentInfo,
///     certificates [0] IMPLICIT CertificateSet OPTIONAL,
///     crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///     signerInfos SET OF SignerInfo }
/// EncapsulatedContentInfo ::= SEQUENCE {
///     eContentType ContentType,
///     eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
/// eContent may be primitive or constructed (segments concatenated). Xcode's StoreKit receipts
/// wrap the payload in a second OCTET STRING; `content` is the OCTET STRING's value as signed,
/// and `payload` removes that extra wrapper when the value is itself exactly one OCTET STRING.
public struct SignedData: Sendable {
    /// The SignedData version (CMSVersion, 1 to 5).
    public let version: Int
    /// The digest algorithms the signers use, as listed.
    public let digestAlgorithms: [AlgorithmIdentifier]
    /// eContentType: what the content is (id-data for receipts).
    public let contentType: ASN1ObjectIdentifier
    /// The encapsulated content's octets (what the message digest covers); nil when detached.
    public let content: [UInt8]?
    /// The certificates the message carries (signer and intermediates, typically).
    public let certificates: [Certificate]
    /// One SignerInfo per signer.
    public let signerInfos: [SignerInfo]

    /// The largest message accepted.
    public static let maximumSize = 16 << 20

    /// Parses a ContentInfo holding SignedData, BER (as Apple and Xcode write receipts), at most `maximumSize` bytes; nothing is verified here.
    public init<Bytes: Collection>(berEncoded bytes: Bytes) throws(PKCS7Error) where Bytes.Element == UInt8 {
        let data = Array(bytes)
        guard data.count <= SignedData.maximumSize else {
            throw PKCS7Error(.malformed, "CMS message of \(data.count) bytes exceeds \(SignedData.maximumSize)")
        }
        do {
            let root = try BER.parse(data)
            var parsed: (Int, [AlgorithmIdentifier], ASN1ObjectIdentifier, [UInt8]?, [Certificate], [SignerInfo])?
            try ASN1.sequence(root) { reader in
                let type = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
                guard type == CMSOIDs.signedData else {
                    throw PKCS7Error(.unexpectedContentType, "ContentInfo type \(type) is not signedData")
                }
                parsed = try ASN1.explicit(reader.next(.contextSpecific(0)), tag: .contextSpecific(0)) { try SignedData.fields($0) }
            }
            guard let parsed else { throw PKCS7Error(.malformed, "ContentInfo") }
            (version, digestAlgorithms, contentType, content, certificates, signerInfos) = parsed
            payload = SignedData.unwrap(parsed.3)
        } catch {
            throw PKCS7Error(wrapping: error, as: .malformed, context: "CMS SignedData")
        }
    }

    private static func fields(_ node: ASN1Node) throws -> (
        Int, [AlgorithmIdentifier], ASN1ObjectIdentifier, [UInt8]?, [Certificate], [SignerInfo]
    ) {
        try ASN1.sequence(node) { reader in
            let version = try ASN1Integer(node: reader.next(.integer)).intValue()
            guard (1...5).contains(version) else { throw PKCS7Error(.malformed, "SignedData version \(version) is not 1–5") }
            let digests = try ASN1.setOf(reader.next(.set)) { try AlgorithmIdentifier(node: $0) }
            let (type, content): (ASN1ObjectIdentifier, [UInt8]?) = try ASN1.sequence(reader.next(.sequence)) { r in
                let type = try ASN1ObjectIdentifier(node: r.next(.objectIdentifier))
                var content: [UInt8]?
                if let tagged = r.nextIfPresent(.contextSpecific(0)) {
                    content = try ASN1.explicit(tagged, tag: .contextSpecific(0)) { try ASN1OctetString(node: $0).bytes }
                }
                return (type, content)
            }
            var certificates: [Certificate] = []
            if let set = reader.nextIfPresent(.contextSpecific(0)) {
                try ASN1.expect(set, .contextSpecific(0), constructed: true)
                for child in set.children {
                    // CertificateChoices: only the plain Certificate (a SEQUENCE) is read; the
                    // obsolete and attribute-certificate alternatives are skipped.
                    guard child.identifier == .sequence else { continue }
                    certificates.append(try Certificate(derEncoded: child.encodedBytes))
                }
            }
            _ = reader.nextIfPresent(.contextSpecific(1))  // crls: not used for receipts
            let signers = try ASN1.setOf(reader.next(.set)) { try SignerInfo(node: $0) }
            return (version, digests, type, content, certificates, signers)
        }
    }

    /// The content without Xcode's extra OCTET STRING wrapper (when the content is exactly one
    /// OCTET STRING, its value; otherwise the content itself). Computed once, when parsed.
    public let payload: [UInt8]?

    private static func unwrap(_ content: [UInt8]?) -> [UInt8]? {
        guard let content else { return nil }
        if content.first == 0x04, let node = try? BER.parse(content), node.identifier == .octetString,
            let inner = try? ASN1OctetString(node: node)
        {
            return inner.bytes
        }
        return content
    }
}

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
public struct SignerInfo: Sendable {
    /// How a SignerInfo names its signer's certificate.
    public enum Identifier: Sendable {
        /// By the certificate's issuer and serial number.
        case issuerAndSerialNumber(issuer: DistinguishedName, serial: [UInt8])
        /// By the certificate's subjectKeyIdentifier.
        case subjectKeyIdentifier([UInt8])
    }

    /// A signed attribute: its type and values.
    public struct Attribute: Sendable {
        /// The attribute's type.
        public let type: ASN1ObjectIdentifier
        /// Each value's encoding.
        public let values: [[UInt8]]
    }

    /// The SignerInfo version (CMSVersion: 1 with an issuer and serial number, 3 with a key identifier), as received.
    public let version: Int
    /// The signer's certificate, by issuer and serial or by key identifier.
    public let signerIdentifier: Identifier
    /// The digest of the content (and of the signed attributes).
    public let digestAlgorithm: HashAlgorithm
    /// The signed attributes, when present.
    public let signedAttributes: [Attribute]?
    /// The DER the signature covers when signed attributes are present: the attributes as a
    /// SET (tag 0x31), re-encoded from the received [0] (RFC 5652 §5.4).
    public let signedAttributesDER: [UInt8]?
    /// The signature algorithm as encoded.
    public let signatureAlgorithmIdentifier: AlgorithmIdentifier
    /// The signature's bytes.
    public let signature: [UInt8]

    init(node: ASN1Node) throws {
        var fields: (Int, Identifier, HashAlgorithm, [Attribute]?, [UInt8]?, AlgorithmIdentifier, [UInt8])?
        try ASN1.sequence(node) { reader in
            let version = try ASN1Integer(node: reader.next(.integer)).intValue()
            let sidNode = try reader.next()
            let sid: Identifier
            if sidNode.identifier == .sequence {
                sid = try ASN1.sequence(sidNode) { r in
                    .issuerAndSerialNumber(
                        issuer: try DistinguishedName(node: r.next(.sequence)),
                        serial: try ASN1Integer(node: r.next(.integer)).twosComplementBytes)
                }
            } else if sidNode.identifier == .contextSpecific(0) {
                sid = .subjectKeyIdentifier(try ASN1OctetString(node: sidNode, identifier: .contextSpecific(0)).bytes)
            } else {
                throw sidNode.error(.unexpectedTag, "SignerIdentifier must be issuerAndSerialNumber or [0] subjectKeyIdentifier")
            }
            let digest = try AlgorithmIdentifier(node: reader.next(.sequence))
            guard let hash = KeyOIDs.hash(digest.algorithm) else {
                throw PKCS7Error(.unsupportedAlgorithm, "digest algorithm \(digest.algorithm) is not SHA-1/256/384/512")
            }
            var attributes: [Attribute]?
            var attributesDER: [UInt8]?
            if let signed = reader.nextIfPresent(.contextSpecific(0)) {
                try ASN1.expect(signed, .contextSpecific(0), constructed: true)
                var encodings: [[UInt8]] = []
                var list: [Attribute] = []
                for child in signed.children {
                    encodings.append(Array(child.encodedBytes))
                    list.append(
                        try ASN1.sequence(child) { r in
                            let type = try ASN1ObjectIdentifier(node: r.next(.objectIdentifier))
                            let values = try ASN1.sequenceOf(r.next(.set), identifier: .set) { Array($0.encodedBytes) }
                            return Attribute(type: type, values: values)
                        })
                }
                guard !list.isEmpty else { throw signed.error(.unexpectedElementCount, "signedAttrs must not be empty") }
                // The DER SET OF: the received order when it is already DER, else sorted.
                var writer = DERWriter()
                writer.appendSetOf(encodings)
                attributes = list
                attributesDER = writer.bytes
            }
            let algorithm = try AlgorithmIdentifier(node: reader.next(.sequence))
            let signature = try ASN1OctetString(node: reader.next(.octetString)).bytes
            _ = reader.nextIfPresent(.contextSpecific(1))  // unsignedAttrs
            fields = (version, sid, hash, attributes, attributesDER, algorithm, signature)
        }
        guard let fields else { throw PKCS7Error(.malformed, "SignerInfo") }
        (version, signerIdentifier, digestAlgorithm, signedAttributes, signedAttributesDER, signatureAlgorithmIdentifier, signature) =
            fields
    }

    /// The signed attribute of `type`, when present.
    public func attribute(_ type: ASN1ObjectIdentifier) -> Attribute? { signedAttributes?.first { $0.type == type } }

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
