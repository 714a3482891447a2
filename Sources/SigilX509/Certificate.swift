import SigilASN1
import SigilBase
import SigilCore
import SigilKeys

/// An X.509 v1/v2/v3 certificate (RFC 5280 §4.1), every field decoded and the signed bytes kept.
///
/// ```
/// Certificate ::= SEQUENCE {
///     tbsCertificate       TBSCertificate,
///     signatureAlgorithm   AlgorithmIdentifier,
///     signatureValue       BIT STRING }
/// TBSCertificate ::= SEQUENCE {
///     version         [0] EXPLICIT Version DEFAULT v1,
///     serialNumber         CertificateSerialNumber,
///     signature            AlgorithmIdentifier,
///     issuer               Name,
///     validity             Validity,
///     subject              Name,
///     subjectPublicKeyInfo SubjectPublicKeyInfo,
///     issuerUniqueID  [1] IMPLICIT UniqueIdentifier OPTIONAL,  -- v2, v3
///     subjectUniqueID [2] IMPLICIT UniqueIdentifier OPTIONAL,  -- v2, v3
///     extensions      [3] EXPLICIT Extensions OPTIONAL }       -- v3
/// ```
/// Strict DER throughout; the outer and inner signature algorithms must be identical (§4.1.1.2);
/// an extension OID may appear once (§4.2); unique IDs need v2 or v3 and extensions v3.
/// Parsing never verifies anything: see `CertificateVerifier`.
public struct Certificate: Hashable, Sendable, CustomStringConvertible {
    /// The largest certificate accepted (Apple's are about 1 KiB; a real one rarely passes 16 KiB).
    public static let maximumSize = 1 << 20

    /// The parsed fields, in one immutable box: a certificate is copied by one reference count
    /// (path building and chain caches copy certificates often), not one per field.
    private let storage: Storage

    private final class Storage: Sendable {
        let derBytes: [UInt8]
        let tbsRange: Range<Int>
        let spkiRange: Range<Int>
        let version: Int
        let serialNumber: [UInt8]
        let isSerialNumberNegative: Bool
        let signatureAlgorithmIdentifier: AlgorithmIdentifier
        let signatureAlgorithm: SignatureAlgorithm
        let issuer: DistinguishedName
        let validity: Validity
        let subject: DistinguishedName
        let subjectPublicKeyInfo: SubjectPublicKeyInfo
        let publicKey: CertificatePublicKey
        let issuerUniqueID: ASN1BitString?
        let subjectUniqueID: ASN1BitString?
        let extensions: [Extension]
        let signature: [UInt8]

        init(derBytes: [UInt8], fields: Fields, signature: [UInt8]) throws(X509Error) {
            self.derBytes = derBytes
            tbsRange = fields.tbsRange
            version = fields.version
            serialNumber = fields.serial.twosComplementBytes
            isSerialNumberNegative = fields.serial.isNegative
            signatureAlgorithmIdentifier = fields.algorithm
            signatureAlgorithm = try SignatureAlgorithm(fields.algorithm)
            issuer = fields.issuer
            validity = fields.validity
            subject = fields.subject
            subjectPublicKeyInfo = fields.spki
            spkiRange = fields.spkiRange
            publicKey = try CertificatePublicKey(spki: fields.spki)
            issuerUniqueID = fields.issuerUniqueID
            subjectUniqueID = fields.subjectUniqueID
            extensions = fields.extensions
            self.signature = signature
        }
    }

    /// The whole certificate as received.
    public var derBytes: [UInt8] { storage.derBytes }
    /// The TBSCertificate's encoding: what the issuer signed (a copy of that part of `derBytes`).
    public var tbsBytes: [UInt8] { Array(storage.derBytes[storage.tbsRange]) }
    /// 1, 2 or 3.
    public var version: Int { storage.version }
    /// The serial number's two's-complement bytes (any length, as received).
    public var serialNumber: [UInt8] { storage.serialNumber }
    /// RFC 5280 §4.1.2.2 requires a positive serial; a negative one is parsed and flagged here.
    public var isSerialNumberNegative: Bool { storage.isSerialNumberNegative }
    /// The signature algorithm as encoded.
    public var signatureAlgorithmIdentifier: AlgorithmIdentifier { storage.signatureAlgorithmIdentifier }
    /// The signature algorithm, decoded.
    public var signatureAlgorithm: SignatureAlgorithm { storage.signatureAlgorithm }
    /// Who issued the certificate.
    public var issuer: DistinguishedName { storage.issuer }
    /// When the certificate is valid.
    public var validity: Validity { storage.validity }
    /// Who the certificate is for.
    public var subject: DistinguishedName { storage.subject }
    /// The subject's public key as encoded.
    public var subjectPublicKeyInfo: SubjectPublicKeyInfo { storage.subjectPublicKeyInfo }
    /// The SubjectPublicKeyInfo's encoding (a copy of that part of `derBytes`).
    public var subjectPublicKeyInfoBytes: [UInt8] { Array(storage.derBytes[storage.spkiRange]) }
    /// The DER SubjectPublicKeyInfo as a slice of `derBytes` (no copy).
    var subjectPublicKeyInfoSlice: ArraySlice<UInt8> { storage.derBytes[storage.spkiRange] }
    /// The subject's public key, decoded when Sigil can verify with it.
    public var publicKey: CertificatePublicKey { storage.publicKey }
    /// issuerUniqueID, when present (v2 and v3 only).
    public var issuerUniqueID: ASN1BitString? { storage.issuerUniqueID }
    /// subjectUniqueID, when present (v2 and v3 only).
    public var subjectUniqueID: ASN1BitString? { storage.subjectUniqueID }
    /// The extensions, in the order received (v3 only).
    public var extensions: [Extension] { storage.extensions }
    /// The signatureValue BIT STRING's bytes (no unused bits allowed).
    public var signature: [UInt8] { storage.signature }

    /// Parses a DER certificate (RFC 5280 §4.1) strictly: every field, every extension it knows, trailing bytes refused.
    ///
    /// The value of every extension Sigil knows is validated here (the parse fails on any value
    /// its decoder would refuse) and decoded on first access (``Extension/value``).
    public init<Bytes: Collection>(derEncoded bytes: Bytes) throws(X509Error) where Bytes.Element == UInt8 {
        try self.init(derEncoded: bytes, decodingExtensionsEagerly: false)
    }

    /// `init(derEncoded:)`, or with `decodingExtensionsEagerly` every known extension checked by
    /// its full decoder, as parsing did before values became lazy (for the tests comparing the two).
    init<Bytes: Collection>(derEncoded bytes: Bytes, decodingExtensionsEagerly: Bool) throws(X509Error)
    where Bytes.Element == UInt8 {
        let data = Array(bytes)
        guard data.count <= Certificate.maximumSize else {
            throw X509Error(.malformed, "certificate of \(data.count) bytes exceeds \(Certificate.maximumSize)")
        }
        var reader: ASN1SequenceReader
        let tbsNode: ASN1Node
        do {
            reader = try ASN1SequenceReader(checking: DER.parse(data), identifier: .sequence)
            tbsNode = try reader.next(.sequence)
        } catch {
            throw Certificate.malformed(error)
        }
        // The fields move into the certificate.
        let fields = try Fields(node: tbsNode, decodingExtensionsEagerly: decodingExtensionsEagerly)
        let outerAlgorithmBytes: ArraySlice<UInt8>
        let signatureBits: ASN1BitString
        do {
            outerAlgorithmBytes = try reader.next(.sequence).encodedBytes
            signatureBits = try ASN1BitString(node: reader.next(.bitString))
            try reader.finish()
        } catch {
            throw Certificate.malformed(error)
        }
        guard outerAlgorithmBytes.elementsEqual(fields.innerAlgorithmBytes) else {
            throw X509Error(.algorithmMismatch, "signatureAlgorithm differs from the TBSCertificate signature field (RFC 5280 §4.1.1.2)")
        }
        guard signatureBits.unusedBits == 0 else {
            throw X509Error(.malformed, "signatureValue has unused bits")
        }
        storage = try Storage(derBytes: data, fields: fields, signature: signatureBits.bytes)
    }

    /// An ASN.1 error met while reading a certificate, as the certificate's error.
    static func malformed(_ error: ASN1Error) -> X509Error {
        X509Error(wrapping: error, as: .malformed, context: "certificate")
    }

    /// The TBSCertificate's fields, in order.
    fileprivate struct Fields {
        var tbsRange: Range<Int>
        var version: Int
        var serial: ASN1Integer
        var algorithm: AlgorithmIdentifier
        var innerAlgorithmBytes: ArraySlice<UInt8>
        var issuer: DistinguishedName
        var validity: Validity
        var subject: DistinguishedName
        var spki: SubjectPublicKeyInfo
        var spkiRange: Range<Int>
        var issuerUniqueID: ASN1BitString?
        var subjectUniqueID: ASN1BitString?
        var extensions: [Extension]

        init(node: ASN1Node, decodingExtensionsEagerly: Bool) throws(X509Error) {
            // Node slices index the parsed array, which the certificate keeps as derBytes.
            tbsRange = node.encodedBytes.indices
            var reader: ASN1SequenceReader
            var version = 1
            do throws(ASN1Error) {
                reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
                if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
                    let value = try ASN1Integer(node: ASN1.explicitInner(tagged, tag: .contextSpecific(0))).intValue()
                    guard value == 1 || value == 2 else {
                        throw tagged.error(
                            .integerOutOfRange,
                            value == 0
                                ? "version v1 is encoded although it is the DEFAULT (X.690 11.5)"
                                : "version \(value) is not v1, v2 or v3")
                    }
                    version = value + 1
                }
                serial = try ASN1Integer(node: reader.next(.integer))
                let algorithmNode = try reader.next(.sequence)
                innerAlgorithmBytes = algorithmNode.encodedBytes
                algorithm = try AlgorithmIdentifier(node: algorithmNode)
                issuer = try DistinguishedName(node: reader.next(.sequence))
                validity = try Validity(node: reader.next(.sequence))
                subject = try DistinguishedName(node: reader.next(.sequence))
                let spkiNode = try reader.next(.sequence)
                spkiRange = spkiNode.encodedBytes.indices
                spki = try SubjectPublicKeyInfo(node: spkiNode)
                issuerUniqueID = nil
                if let uid = reader.nextIfPresent(.contextSpecific(1)) {
                    issuerUniqueID = try ASN1BitString(node: uid, identifier: .contextSpecific(1))
                }
                subjectUniqueID = nil
                if let uid = reader.nextIfPresent(.contextSpecific(2)) {
                    subjectUniqueID = try ASN1BitString(node: uid, identifier: .contextSpecific(2))
                }
            } catch {
                throw Certificate.malformed(error)
            }
            var extensions: [Extension] = []
            if let tagged = reader.nextIfPresent(.contextSpecific(3)) {
                let list: ASN1Node
                do {
                    list = try ASN1.explicitInner(tagged, tag: .contextSpecific(3))
                    try ASN1.expect(list, .sequence, constructed: true)
                } catch {
                    throw Certificate.malformed(error)
                }
                // One cache for the decoded values of all the extensions, each in its slot.
                let cache = ExtensionValueCache()
                extensions.reserveCapacity(list.children.count)
                for node in list.children {
                    let fields: Extension.Fields
                    do { fields = try Extension.fields(of: node) } catch { throw Certificate.malformed(error) }
                    extensions.append(
                        try Extension(fields, cache: cache, slot: extensions.count, decodingEagerly: decodingExtensionsEagerly))
                }
                guard !extensions.isEmpty else {
                    throw Certificate.malformed(tagged.error(.unexpectedElementCount, "extensions must not be empty (RFC 5280 §4.1)"))
                }
                guard version == 3 else { throw X509Error(.unsupportedVersion, "extensions need version v3, found v\(version)") }
            }
            do {
                try reader.finish()
            } catch {
                throw Certificate.malformed(error)
            }
            guard (issuerUniqueID == nil && subjectUniqueID == nil) || version >= 2 else {
                throw X509Error(.unsupportedVersion, "unique identifiers need version v2 or v3")
            }
            // Pairwise (a handful of extensions; no set to build and hash into).
            for (index, e) in extensions.enumerated() where extensions[..<index].contains(where: { $0.oid == e.oid }) {
                throw X509Error(.duplicateExtension, "extension \(e.name) appears more than once (RFC 5280 §4.2)")
            }
            self.version = version
            self.extensions = extensions
        }
    }

    // MARK: - Loading

    /// The PEM labels of a certificate: "CERTIFICATE" (RFC 7468 §5.1) and the legacy
    /// "X509 CERTIFICATE" and "X.509 CERTIFICATE" that RFC 7468 §5.3 lets parsers accept.
    public static let pemLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE", "X.509 CERTIFICATE"]

    /// Every certificate in a PEM text (certificate blocks; any other block is an error), in order.
    public static func certificates(pem text: String) throws(X509Error) -> [Certificate] {
        let (certificates, skipped) = try certificates(pem: text, skippingForeignBlocks: false)
        if let label = skipped.first { throw X509Error(.invalidPEM, "PEM block \"\(label)\" is not a certificate") }
        return certificates
    }

    /// The certificates in a PEM text, in order, and the labels of the other blocks (a private
    /// key beside its certificate, a CRL…), which are skipped when `skippingForeignBlocks` and
    /// an error otherwise. At least one certificate is required.
    public static func certificates(pem text: String, skippingForeignBlocks: Bool) throws(X509Error) -> (
        certificates: [Certificate], skipped: [String]
    ) {
        let blocks: [PEMDocument]
        do {
            blocks = try PEMDocument.parseAll(text)
        } catch {
            throw X509Error(.invalidPEM, "\(error)")
        }
        guard !blocks.isEmpty else { throw X509Error(.invalidPEM, "no PEM block found") }
        var result: [Certificate] = []
        var skipped: [String] = []
        for (index, block) in blocks.enumerated() {
            guard pemLabels.contains(block.label) else {
                guard skippingForeignBlocks else {
                    throw X509Error(.invalidPEM, "PEM block \(index + 1) is \"\(block.label)\", not CERTIFICATE")
                }
                skipped.append(block.label)
                continue
            }
            result.append(try Certificate(derEncoded: block.derBytes))
        }
        guard !result.isEmpty else {
            throw X509Error(.invalidPEM, "no CERTIFICATE block found (found \(skipped.map { "\"\($0)\"" }.joined(separator: ", ")))")
        }
        return (result, skipped)
    }

    /// Certificates from a file's bytes: a PEM bundle (one or more blocks) or a single DER certificate.
    public static func load<Bytes: Collection>(_ bytes: Bytes) throws(X509Error) -> [Certificate] where Bytes.Element == UInt8 {
        let (certificates, _) = try load(bytes, skippingForeignBlocks: false)
        return certificates
    }

    /// `load`, skipping PEM blocks that are not certificates (their labels returned) when
    /// `skippingForeignBlocks`: for showing what a mixed PEM file (certificate plus key) holds.
    public static func load<Bytes: Collection>(_ bytes: Bytes, skippingForeignBlocks: Bool) throws(X509Error)
        -> (certificates: [Certificate], skipped: [String]) where Bytes.Element == UInt8
    {
        let data = Array(bytes)
        if PEMDocument.containsBeginLine(data), let text = String(validating: data, as: UTF8.self) {
            return try certificates(pem: text, skippingForeignBlocks: skippingForeignBlocks)
        }
        return ([try Certificate(derEncoded: data)], [])
    }

    /// The certificate as PEM ("CERTIFICATE").
    public var pemRepresentation: String { PEMDocument(label: "CERTIFICATE", derBytes: derBytes).pemString }

    // MARK: - Convenience views of the extensions

    /// The extension with `oid`, or nil.
    public func `extension`(_ oid: ASN1ObjectIdentifier) -> Extension? { extensions.first { $0.oid == oid } }

    /// basicConstraints, when present.
    public var basicConstraints: BasicConstraints? {
        if case .basicConstraints(let v)? = self.extension(X509OIDs.basicConstraints)?.value { return v }
        return nil
    }

    /// keyUsage, when present.
    public var keyUsage: KeyUsage? {
        if case .keyUsage(let v)? = self.extension(X509OIDs.keyUsage)?.value { return v }
        return nil
    }

    /// extKeyUsage's purposes, when present.
    public var extendedKeyUsage: [ASN1ObjectIdentifier]? {
        if case .extendedKeyUsage(let v)? = self.extension(X509OIDs.extKeyUsage)?.value { return v }
        return nil
    }

    /// subjectKeyIdentifier, when present.
    public var subjectKeyIdentifier: [UInt8]? {
        if case .subjectKeyIdentifier(let v)? = self.extension(X509OIDs.subjectKeyIdentifier)?.value { return v }
        return nil
    }

    /// authorityKeyIdentifier, when present.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        if case .authorityKeyIdentifier(let v)? = self.extension(X509OIDs.authorityKeyIdentifier)?.value { return v }
        return nil
    }

    /// authorityInfoAccess's entries; empty when absent.
    public var authorityInfoAccess: [AccessDescription] {
        if case .authorityInfoAccess(let v)? = self.extension(X509OIDs.authorityInfoAccess)?.value { return v }
        return []
    }

    /// OCSP responder URLs from authorityInfoAccess (RFC 5280 §4.2.2.1).
    public var ocspURLs: [String] { authorityInfoAccess.filter { $0.method == X509OIDs.accessOCSP }.compactMap { $0.uri } }
    /// CA issuer URLs from authorityInfoAccess (where the issuer's certificate can be fetched).
    public var caIssuerURLs: [String] { authorityInfoAccess.filter { $0.method == X509OIDs.accessCAIssuers }.compactMap { $0.uri } }

    /// cRLDistributionPoints's entries; empty when absent.
    public var crlDistributionPoints: [DistributionPoint] {
        if case .cRLDistributionPoints(let v)? = self.extension(X509OIDs.cRLDistributionPoints)?.value { return v }
        return []
    }

    /// certificatePolicies's entries; empty when absent.
    public var certificatePolicies: [PolicyInformation] {
        if case .certificatePolicies(let v)? = self.extension(X509OIDs.certificatePolicies)?.value { return v }
        return []
    }

    /// subjectAltName's names; empty when absent.
    public var subjectAlternativeNames: [GeneralName] {
        if case .subjectAltName(let v)? = self.extension(X509OIDs.subjectAltName)?.value { return v }
        return []
    }

    /// nameConstraints, when present.
    public var nameConstraints: NameConstraints? {
        if case .nameConstraints(let v)? = self.extension(X509OIDs.nameConstraints)?.value { return v }
        return nil
    }

    /// policyMappings, when present.
    public var policyMappings: PolicyMappings? {
        if case .policyMappings(let v)? = self.extension(X509OIDs.policyMappings)?.value { return v }
        return nil
    }

    /// policyConstraints, when present.
    public var policyConstraints: PolicyConstraints? {
        if case .policyConstraints(let v)? = self.extension(X509OIDs.policyConstraints)?.value { return v }
        return nil
    }

    /// inhibitAnyPolicy, when present.
    public var inhibitAnyPolicy: InhibitAnyPolicy? {
        if case .inhibitAnyPolicy(let v)? = self.extension(X509OIDs.inhibitAnyPolicy)?.value { return v }
        return nil
    }

    /// The serial number in lowercase hex, as received (two's complement).
    public var serialNumberHex: String { Base16.encode(serialNumber) }

    /// SHA-256 of the DER encoding.
    public var sha256Fingerprint: [UInt8] { SHA256.hash(derBytes) }

    /// Whether subject and issuer name the same entity (a self-issued certificate, §3.2).
    public var isSelfIssued: Bool { subject.matches(issuer) }

    /// Whether `other` stands for the same CA in a path: same subject, same SubjectPublicKeyInfo
    /// and same subjectAltName (RFC 4158 §5.2). Path building never uses such a pair twice in one
    /// path, which also stops loops through cross-signed certificates (different DER, same CA).
    /// Compares bytes in place, without copying.
    func isSameEntity(as other: Certificate) -> Bool {
        guard subject.derBytes == other.subject.derBytes, subjectPublicKeyInfoSlice == other.subjectPublicKeyInfoSlice else {
            return false
        }
        let mine = self.extension(X509OIDs.subjectAltName)
        let theirs = other.extension(X509OIDs.subjectAltName)
        switch (mine, theirs) {
        case (nil, nil): return true
        case (let a?, let b?): return a.contentSlice == b.contentSlice
        default: return false
        }
    }

    /// Subject, issuer and serial number, for people.
    public var description: String { "Certificate(subject: \(subject), issuer: \(issuer), serial: \(serialNumberHex))" }

    /// Certificates are equal when their DER encodings are.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.storage === rhs.storage || lhs.derBytes == rhs.derBytes }
    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}
