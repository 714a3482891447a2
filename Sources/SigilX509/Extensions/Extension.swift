import SigilASN1
import SigilBase

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Extension (RFC 5280 §4.1 / §4.2):
///
/// ```
/// Extension ::= SEQUENCE {
///     extnID      OBJECT IDENTIFIER,
///     critical    BOOLEAN DEFAULT FALSE,
///     extnValue   OCTET STRING }  -- the DER of the extension's own type
/// ```
/// Every extension is kept (OID, critical flag, raw value); `value` holds the decoded form for
/// the types Sigil knows. Under DER a FALSE critical flag is omitted, so an encoded FALSE is an error.
///
/// Parsing validates the value of every extension Sigil knows — the same checks as its decoder,
/// in the same order, with the same errors — without building it: `value` decodes the kept
/// octets on first access and keeps the result (shared by the extensions of one certificate,
/// behind a lock, since certificates are read from several threads). An extension that would
/// not decode makes the parse fail, exactly as when values were decoded eagerly.
public struct Extension: Hashable, Sendable {
    /// extnID.
    public let oid: ASN1ObjectIdentifier
    /// Whether the extension is marked critical.
    public let critical: Bool
    /// The extnValue OCTET STRING's content: a slice of the parsed input (no copy).
    private let content: ArraySlice<UInt8>
    /// Where the decoded value is kept once read (nil for an extension Sigil does not know).
    private let cache: ExtensionValueCache?
    private let slot: Int

    /// The extnValue OCTET STRING's content (the extension's DER; a copy of those octets).
    public var rawValue: [UInt8] { Array(content) }
    /// The extnValue content in place (no copy), for comparisons.
    var contentSlice: ArraySlice<UInt8> { content }

    /// The decoded value (`.unknown` for an extension Sigil does not know), decoded from
    /// `rawValue` on first access and kept.
    public var value: ExtensionValue {
        guard let cache else { return .unknown }
        return cache.value(at: slot) {
            // Parsing validated these octets as this extension's type, so decoding cannot fail;
            // `.unknown` would only mean a validator out of step with its decoder, which the
            // lazy-decoding tests compare on every fixture and on mutated certificates.
            (try? ExtensionValue(oid: oid, der: content)) ?? .unknown
        }
    }

    /// The Extension of `fields` (read by ``fields(of:)``), its value validated: a value its type
    /// refuses is `.invalidExtension`.
    package init(_ fields: Fields) throws(X509Error) {
        try self.init(fields, cache: nil, slot: 0)
    }

    /// Parses one Extension (RFC 5280 §4.1): extnID, critical (DEFAULT FALSE, so never encoded FALSE in DER), extnValue.
    /// A structure that is not an Extension is `.malformed`, a value its type refuses `.invalidExtension`.
    public init(node: ASN1Node) throws(X509Error) {
        let fields: Fields
        do {
            fields = try Extension.fields(of: node)
        } catch {
            throw X509Error(wrapping: error, as: .malformed, context: "extension")
        }
        try self.init(fields, cache: nil, slot: 0)
    }

    /// An Extension's three fields as read, before its value is checked.
    package struct Fields {
        let oid: ASN1ObjectIdentifier
        let critical: Bool
        let content: ArraySlice<UInt8>
        /// The kind of a known extension (nil for one Sigil does not decode).
        let kind: ExtensionValue.Kind?
    }

    /// Reads one Extension's fields (RFC 5280 §4.1): extnID, critical (DEFAULT FALSE, so never
    /// encoded FALSE in DER), extnValue; the value is not looked at.
    package static func fields(of node: ASN1Node) throws(ASN1Error) -> Fields {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        let oidNode = try reader.next(.objectIdentifier)
        let oid: ASN1ObjectIdentifier
        let knownKind: ExtensionValue.Kind?
        // The encoding of an extension Sigil knows is recognised as is (a valid OID whose arcs
        // are the constant's): no arcs array decoded and allocated for it.
        if !oidNode.isConstructed, let kind = ExtensionValue.Kind(encoding: oidNode.contentBytes) {
            knownKind = kind
            oid = ExtensionValue.known[kind.rawValue]
        } else {
            oid = try ASN1ObjectIdentifier(node: oidNode)
            knownKind = ExtensionValue.Kind(oid)
        }
        var critical = false
        if let flag = reader.nextIfPresent(.boolean) {
            critical = try Bool(node: flag)
            guard critical else {
                throw flag.error(.invalidBoolean, "extension \(oid) encodes critical FALSE, its DEFAULT (X.690 11.5)")
            }
        }
        let content = try ASN1OctetString.content(of: reader.next(.octetString))
        try reader.finish()
        return Fields(oid: oid, critical: critical, content: content, kind: knownKind)
    }

    /// The Extension of `fields`, its value validated (the whole decoder with `decodingEagerly`,
    /// as parsing did before values became lazy, kept for the tests that compare the two) and,
    /// once read, kept in `cache` at `slot` (a new cache when nil).
    init(_ fields: Fields, cache shared: ExtensionValueCache?, slot: Int, decodingEagerly: Bool = false) throws(X509Error) {
        (oid, critical, content) = (fields.oid, fields.critical, fields.content)
        // Unknown extensions are never parsed: their bytes need not even be DER.
        guard let kind = fields.kind else {
            cache = nil
            self.slot = 0
            return
        }
        do {
            // A copy of the octets (specialised here; the generic `DER.parse` would copy through
            // unspecialised code), so offsets in errors count from the value, as before.
            let node = try DER.parse(Array(content))
            if decodingEagerly {
                _ = try ExtensionValue(kind, node: node)
            } else {
                try ExtensionValue.validate(kind, node: node)
            }
        } catch {
            throw X509Error(wrapping: error, as: .invalidExtension, context: "extension \(X509OIDs.name(oid) ?? oid.dotted)")
        }
        cache = shared ?? ExtensionValueCache()
        self.slot = slot
    }

    /// The extension's name when Sigil knows it, else its OID in dotted form.
    public var name: String { X509OIDs.name(oid) ?? oid.dotted }

    /// Extensions are equal when their OID, critical flag and value octets are (the decoded
    /// value is a function of the OID and the octets).
    public static func == (lhs: Extension, rhs: Extension) -> Bool {
        lhs.oid == rhs.oid && lhs.critical == rhs.critical && lhs.content == rhs.content
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(oid)
        hasher.combine(critical)
        hasher.combine(content)
    }
}

/// The decoded values of a certificate's extensions, each decoded on first access and kept
/// (behind a lock: certificates are shared between threads). One per certificate, shared by its
/// extensions, so parsing allocates one cache however many extensions there are.
typealias ExtensionValueCache = Locked<[ExtensionValue?]>

extension Locked where Value == [ExtensionValue?] {
    convenience init() { self.init([]) }

    /// The value in `slot`, decoded by `decode` on first use.
    func value(at slot: Int, _ decode: () -> ExtensionValue) -> ExtensionValue {
        withValue { values in
            if slot < values.count, let value = values[slot] { return value }
            let made = decode()
            if values.count <= slot { values += repeatElement(nil, count: slot + 1 - values.count) }
            values[slot] = made
            return made
        }
    }
}

/// The decoded value of an extension Sigil knows; `.unknown` for the others (kept raw in the
/// Extension).
public enum ExtensionValue: Hashable, Sendable {
    /// basicConstraints (§4.2.1.9).
    case basicConstraints(BasicConstraints)
    /// keyUsage (§4.2.1.3).
    case keyUsage(KeyUsage)
    /// extKeyUsage's purposes (§4.2.1.12).
    case extendedKeyUsage([ASN1ObjectIdentifier])
    /// subjectKeyIdentifier (§4.2.1.2).
    case subjectKeyIdentifier([UInt8])
    /// authorityKeyIdentifier (§4.2.1.1).
    case authorityKeyIdentifier(AuthorityKeyIdentifier)
    /// authorityInfoAccess (§4.2.2.1).
    case authorityInfoAccess([AccessDescription])
    /// cRLDistributionPoints (§4.2.1.13).
    case cRLDistributionPoints([DistributionPoint])
    /// certificatePolicies (§4.2.1.4).
    case certificatePolicies([PolicyInformation])
    /// subjectAltName (§4.2.1.6).
    case subjectAltName([GeneralName])
    /// issuerAltName (§4.2.1.7).
    case issuerAltName([GeneralName])
    /// nameConstraints (§4.2.1.10).
    case nameConstraints(NameConstraints)
    /// policyMappings (§4.2.1.5).
    case policyMappings(PolicyMappings)
    /// policyConstraints (§4.2.1.11).
    case policyConstraints(PolicyConstraints)
    /// inhibitAnyPolicy (§4.2.1.14).
    case inhibitAnyPolicy(InhibitAnyPolicy)
    /// An extension Sigil does not decode; its bytes stay in the `Extension`.
    case unknown

    /// The extensions Sigil decodes, in the order of ``ExtensionValue/known``.
    enum Kind: Int {
        case basicConstraints, keyUsage, extendedKeyUsage, subjectKeyIdentifier, authorityKeyIdentifier
        case authorityInfoAccess, cRLDistributionPoints, certificatePolicies, subjectAltName, issuerAltName
        case nameConstraints, policyMappings, policyConstraints, inhibitAnyPolicy

        /// The kind whose OID is encoded as `content` (the content octets of a primitive OBJECT
        /// IDENTIFIER), or nil: id-ce extensions are 55 1D n (2.5.29.n, n < 128), authorityInfoAccess
        /// its eight octets. Any other encoding — including a non-minimal one of the same arcs,
        /// which decoding refuses — is left to the full decoder.
        init?(encoding content: ArraySlice<UInt8>) {
            if content.count == 3 {
                let i = content.startIndex
                guard content[i] == 0x55, content[i + 1] == 0x1D, content[i + 2] < 0x80 else { return nil }
                self.init(idCE: content[i + 2])
            } else if content.elementsEqual(ExtensionValue.authorityInfoAccessContent) {
                self = .authorityInfoAccess
            } else {
                return nil
            }
        }

        /// The kind of id-ce extension 2.5.29.`arc`, or nil.
        init?<Arc: BinaryInteger>(idCE arc: Arc) {
            switch arc {
            case 14: self = .subjectKeyIdentifier
            case 15: self = .keyUsage
            case 17: self = .subjectAltName
            case 18: self = .issuerAltName
            case 19: self = .basicConstraints
            case 30: self = .nameConstraints
            case 31: self = .cRLDistributionPoints
            case 32: self = .certificatePolicies
            case 33: self = .policyMappings
            case 35: self = .authorityKeyIdentifier
            case 36: self = .policyConstraints
            case 37: self = .extendedKeyUsage
            case 54: self = .inhibitAnyPolicy
            default: return nil
            }
        }

        /// The kind of `oid`, or nil when Sigil does not decode it: by the arcs (every known
        /// extension but authorityInfoAccess is id-ce, 2.5.29.x), with no list to search.
        init?(_ oid: ASN1ObjectIdentifier) {
            let arcs = oid.arcs
            guard arcs.count == 4, arcs[0] == 2, arcs[1] == 5, arcs[2] == 29 else {
                guard oid == X509OIDs.authorityInfoAccess else { return nil }
                self = .authorityInfoAccess
                return
            }
            self.init(idCE: arcs[3])
        }
    }

    /// The DER content octets of authorityInfoAccess (1.3.6.1.5.5.7.1.1).
    private static let authorityInfoAccessContent: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x01]

    /// The OIDs of the extensions Sigil decodes, in the order of ``Kind`` (``Kind/init(_:)``
    /// recognises exactly these; a test checks the two agree).
    static let known: [ASN1ObjectIdentifier] = [
        X509OIDs.basicConstraints, X509OIDs.keyUsage, X509OIDs.extKeyUsage, X509OIDs.subjectKeyIdentifier,
        X509OIDs.authorityKeyIdentifier, X509OIDs.authorityInfoAccess, X509OIDs.cRLDistributionPoints,
        X509OIDs.certificatePolicies, X509OIDs.subjectAltName, X509OIDs.issuerAltName, X509OIDs.nameConstraints,
        X509OIDs.policyMappings, X509OIDs.policyConstraints, X509OIDs.inhibitAnyPolicy,
    ]

    /// Decodes the value of extension `oid` from its DER (`.unknown` when Sigil does not know it).
    init<Bytes: Collection>(oid: ASN1ObjectIdentifier, der: Bytes) throws(ASN1Error) where Bytes.Element == UInt8 {
        // Unknown extensions are never parsed: their bytes need not even be DER.
        guard let kind = Kind(oid) else {
            self = .unknown
            return
        }
        self = try ExtensionValue(kind, node: DER.parse(Array(der)))
    }

    /// The full decoder of each extension type.
    init(_ kind: Kind, node: ASN1Node) throws(ASN1Error) {
        switch kind {
        case .basicConstraints: self = .basicConstraints(try BasicConstraints(node: node))
        case .keyUsage: self = .keyUsage(try KeyUsage(node: node))
        case .extendedKeyUsage:
            try ASN1.expect(node, .sequence, constructed: true)
            var purposes: [ASN1ObjectIdentifier] = []
            for child in node.children { purposes.append(try ASN1ObjectIdentifier(node: child)) }
            guard !purposes.isEmpty else { throw node.error(.unexpectedElementCount, "extKeyUsage must not be empty") }
            self = .extendedKeyUsage(purposes)
        case .subjectKeyIdentifier: self = .subjectKeyIdentifier(try ASN1OctetString(node: node).bytes)
        case .authorityKeyIdentifier: self = .authorityKeyIdentifier(try AuthorityKeyIdentifier(node: node))
        case .authorityInfoAccess:
            try ASN1.expect(node, .sequence, constructed: true)
            var descriptions: [AccessDescription] = []
            for child in node.children { descriptions.append(try AccessDescription(node: child)) }
            guard !descriptions.isEmpty else { throw node.error(.unexpectedElementCount, "authorityInfoAccess must not be empty") }
            self = .authorityInfoAccess(descriptions)
        case .cRLDistributionPoints:
            try ASN1.expect(node, .sequence, constructed: true)
            var points: [DistributionPoint] = []
            for child in node.children { points.append(try DistributionPoint(node: child)) }
            guard !points.isEmpty else { throw node.error(.unexpectedElementCount, "cRLDistributionPoints must not be empty") }
            self = .cRLDistributionPoints(points)
        case .certificatePolicies:
            try ASN1.expect(node, .sequence, constructed: true)
            var policies: [PolicyInformation] = []
            for child in node.children { policies.append(try PolicyInformation(node: child)) }
            guard !policies.isEmpty else { throw node.error(.unexpectedElementCount, "certificatePolicies must not be empty") }
            guard Set(policies.map { $0.identifier }).count == policies.count else {
                throw node.error(.unexpectedElementCount, "a policy identifier appears twice (RFC 5280 §4.2.1.4)")
            }
            self = .certificatePolicies(policies)
        case .subjectAltName: self = .subjectAltName(try GeneralName.names(node))
        case .issuerAltName: self = .issuerAltName(try GeneralName.names(node))
        case .nameConstraints: self = .nameConstraints(try NameConstraints(node: node))
        case .policyMappings: self = .policyMappings(try PolicyMappings(node: node))
        case .policyConstraints: self = .policyConstraints(try PolicyConstraints(node: node))
        case .inhibitAnyPolicy: self = .inhibitAnyPolicy(try InhibitAnyPolicy(node: node))
        }
    }

    /// Every check of ``init(_:node:)``, in the same order and with the same errors, building as
    /// little as possible: the validators walk the tree in place (OIDs, strings and names checked
    /// without decoding them). The few rare types whose decoder allocates little or nothing are
    /// checked by decoding them.
    static func validate(_ kind: Kind, node: ASN1Node) throws(ASN1Error) {
        switch kind {
        case .basicConstraints: _ = try BasicConstraints(node: node)
        case .keyUsage: _ = try KeyUsage(node: node)
        case .extendedKeyUsage:
            try ASN1.expect(node, .sequence, constructed: true)
            var count = 0
            for purpose in node.children {
                try ASN1ObjectIdentifier.validate(purpose)
                count += 1
            }
            guard count > 0 else { throw node.error(.unexpectedElementCount, "extKeyUsage must not be empty") }
        case .subjectKeyIdentifier: _ = try ASN1OctetString.content(of: node)
        case .authorityKeyIdentifier: try AuthorityKeyIdentifier.validate(node)
        case .authorityInfoAccess:
            try ASN1.expect(node, .sequence, constructed: true)
            var count = 0
            for description in node.children {
                try AccessDescription.validate(description)
                count += 1
            }
            guard count > 0 else { throw node.error(.unexpectedElementCount, "authorityInfoAccess must not be empty") }
        case .cRLDistributionPoints:
            try ASN1.expect(node, .sequence, constructed: true)
            var count = 0
            for point in node.children {
                try DistributionPoint.validate(point)
                count += 1
            }
            guard count > 0 else { throw node.error(.unexpectedElementCount, "cRLDistributionPoints must not be empty") }
        case .certificatePolicies: try PolicyInformation.validatePolicies(node)
        case .subjectAltName, .issuerAltName: try GeneralName.validateNames(node)
        case .nameConstraints: _ = try NameConstraints(node: node)
        case .policyMappings: _ = try PolicyMappings(node: node)
        case .policyConstraints: _ = try PolicyConstraints(node: node)
        case .inhibitAnyPolicy: _ = try InhibitAnyPolicy(node: node)
        }
    }
}
