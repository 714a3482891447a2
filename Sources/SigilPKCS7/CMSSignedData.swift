import SigilASN1
import SigilBase
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
        var reader: ASN1SequenceReader
        let type: ASN1ObjectIdentifier
        do {
            reader = try ASN1SequenceReader(checking: BER.parse(data), identifier: .sequence)
            type = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
        } catch {
            throw CMSSignedData.malformed(error)
        }
        guard type == CMSOIDs.signedData else {
            throw PKCS7Error(.unexpectedContentType, "ContentInfo type \(type) is not signedData")
        }
        let signedData: ASN1Node
        do {
            signedData = try ASN1.explicitInner(reader.next(.contextSpecific(0)), tag: .contextSpecific(0))
        } catch {
            throw CMSSignedData.malformed(error)
        }
        let fields = try CMSSignedData.fields(signedData)
        do {
            try reader.finish()
        } catch {
            throw CMSSignedData.malformed(error)
        }
        (version, digestAlgorithms, contentType, content, certificates, signerInfos) = fields
        payload = CMSSignedData.unwrap(fields.3)
    }

    /// A lower layer's error met while reading the message (ASN.1, a certificate), as this
    /// module's: `.malformed`, with the lower error's code and reason.
    static func malformed<Lower: CodedError>(_ error: Lower) -> PKCS7Error {
        PKCS7Error(wrapping: error, as: .malformed, context: "CMS SignedData")
    }

    private static func fields(_ node: ASN1Node) throws(PKCS7Error) -> (
        Int, [AlgorithmIdentifier], ASN1ObjectIdentifier, [UInt8]?, [Certificate], [CMSSignerInfo]
    ) {
        var reader: ASN1SequenceReader
        let version: Int
        do {
            reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
            version = try ASN1Integer(node: reader.next(.integer)).intValue()
        } catch {
            throw malformed(error)
        }
        guard (1...5).contains(version) else { throw PKCS7Error(.malformed, "SignedData version \(version) is not 1–5") }
        var digests: [AlgorithmIdentifier] = []
        let type: ASN1ObjectIdentifier
        var content: [UInt8]?
        do {
            let digestSet = try reader.next(.set)
            try ASN1.checkSetOf(digestSet, identifier: .set)
            for child in digestSet.children { digests.append(try AlgorithmIdentifier(node: child)) }
            var r = try ASN1SequenceReader(checking: reader.next(.sequence), identifier: .sequence)
            type = try ASN1ObjectIdentifier(node: r.next(.objectIdentifier))
            if let tagged = r.nextIfPresent(.contextSpecific(0)) {
                content = try ASN1OctetString(node: ASN1.explicitInner(tagged, tag: .contextSpecific(0))).bytes
            }
            try r.finish()
        } catch {
            throw malformed(error)
        }
        var certificates: [Certificate] = []
        if let set = reader.nextIfPresent(.contextSpecific(0)) {
            do {
                try ASN1.expect(set, .contextSpecific(0), constructed: true)
            } catch {
                throw malformed(error)
            }
            for child in set.children {
                // CertificateChoices: only the plain Certificate (a SEQUENCE) is read; the
                // obsolete and attribute-certificate alternatives are skipped.
                guard child.identifier == .sequence else { continue }
                do {
                    certificates.append(try Certificate(derEncoded: child.encodedBytes))
                } catch {
                    throw malformed(error)
                }
            }
        }
        _ = reader.nextIfPresent(.contextSpecific(1))  // crls: not used for receipts
        let signerSet: ASN1Node
        do {
            signerSet = try reader.next(.set)
            try ASN1.checkSetOf(signerSet, identifier: .set)
        } catch {
            throw malformed(error)
        }
        var signers: [CMSSignerInfo] = []
        for child in signerSet.children { signers.append(try CMSSignerInfo(node: child)) }
        do {
            try reader.finish()
        } catch {
            throw malformed(error)
        }
        return (version, digests, type, content, certificates, signers)
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
