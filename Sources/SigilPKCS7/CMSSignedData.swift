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
public struct CMSSignedData: Sendable {
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
    public let signerInfos: [CMSSignerInfo]

    /// The largest message accepted.
    public static let maximumSize = 16 << 20

    /// Parses a ContentInfo holding SignedData, BER (as Apple and Xcode write receipts), at most `maximumSize` bytes; nothing is verified here.
    public init<Bytes: Collection>(berEncoded bytes: Bytes) throws(PKCS7Error) where Bytes.Element == UInt8 {
        let data = Array(bytes)
        guard data.count <= CMSSignedData.maximumSize else {
            throw PKCS7Error(.malformed, "CMS message of \(data.count) bytes exceeds \(CMSSignedData.maximumSize)")
        }
        do {
            let root = try BER.parse(data)
            var parsed: (Int, [AlgorithmIdentifier], ASN1ObjectIdentifier, [UInt8]?, [Certificate], [CMSSignerInfo])?
            try ASN1.sequence(root) { reader in
                let type = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
                guard type == CMSOIDs.signedData else {
                    throw PKCS7Error(.unexpectedContentType, "ContentInfo type \(type) is not signedData")
                }
                parsed = try ASN1.explicit(reader.next(.contextSpecific(0)), tag: .contextSpecific(0)) { try CMSSignedData.fields($0) }
            }
            guard let parsed else { throw PKCS7Error(.malformed, "ContentInfo") }
            (version, digestAlgorithms, contentType, content, certificates, signerInfos) = parsed
            payload = CMSSignedData.unwrap(parsed.3)
        } catch {
            throw PKCS7Error(wrapping: error, as: .malformed, context: "CMS SignedData")
        }
    }

    private static func fields(_ node: ASN1Node) throws -> (
        Int, [AlgorithmIdentifier], ASN1ObjectIdentifier, [UInt8]?, [Certificate], [CMSSignerInfo]
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
            let signers = try ASN1.setOf(reader.next(.set)) { try CMSSignerInfo(node: $0) }
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
