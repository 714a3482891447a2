import SigilASN1
import SigilBase

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A distinguished name (RFC 5280 §4.1.2.4):
///
/// ```
/// Name ::= CHOICE { rdnSequence RDNSequence }
/// RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
/// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
/// ```
/// The RDNs are kept in their encoded order (most significant first) and the whole encoding is
/// kept (`derBytes`) for exact comparison and for OCSP's issuerNameHash.
///
/// Parsing validates the whole Name — structure, SET OF order, every attribute's OBJECT
/// IDENTIFIER and every directory string against its type — but builds no Swift value from it:
/// `rdns` decodes the kept encoding on each access (a certificate's names are mostly compared as
/// bytes, `matches`, and printed at most once). Two names are equal when their encodings are.
public struct DistinguishedName: Hashable, Sendable, CustomStringConvertible {
    /// The encoding as received (DER, or BER inside a BER document such as CMS).
    public let derBytes: [UInt8]
    /// Whether `derBytes` came from a BER document (re-read with BER's rules).
    private let isBER: Bool
    /// The RDNs once decoded (path building compares the same names many times).
    private let decoded = DecodedRDNs()

    /// Parses a Name (RFC 5280 §4.1.2.4), keeping its encoding for exact comparisons. Throws on
    /// exactly the inputs the full decoding (`rdns`) would refuse.
    public init(node: ASN1Node) throws(ASN1Error) {
        try DistinguishedName.validate(node)
        derBytes = Array(node.encodedBytes)
        isBER = node.rules != .distinguished
    }

    /// The RelativeDistinguishedNames, decoded from `derBytes` (validated when parsed).
    public var rdns: [RelativeDistinguishedName] {
        decoded.value {
            // The bytes were validated as a Name when parsed, so neither step can fail; an empty
            // list would only mean a parser defect, which the fixture tests compare against.
            guard let node = try? (isBER ? BER.parse(derBytes) : DER.parse(derBytes)),
                let rdns = try? DistinguishedName.decodeRDNs(node)
            else { return [] }
            return rdns
        }
    }

    /// Names are equal when their encodings are (the RDNs are a function of them).
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool { lhs.derBytes == rhs.derBytes }
    /// Hashes the encoding (equal names by `==` have equal encodings).
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }

    /// The full decoding of a Name: SEQUENCE OF non-empty SET OF AttributeTypeAndValue.
    static func decodeRDNs(_ node: ASN1Node) throws(ASN1Error) -> [RelativeDistinguishedName] {
        try ASN1.expect(node, .sequence, constructed: true)
        var rdns: [RelativeDistinguishedName] = []
        for rdnNode in node.children {
            try ASN1.checkSetOf(rdnNode, identifier: .set)
            var attributes: [AttributeTypeAndValue] = []
            for attribute in rdnNode.children { attributes.append(try AttributeTypeAndValue(node: attribute)) }
            guard !attributes.isEmpty else {
                throw rdnNode.error(.unexpectedElementCount, "a RelativeDistinguishedName must hold at least one attribute")
            }
            rdns.append(RelativeDistinguishedName(attributes: attributes))
        }
        return rdns
    }

    /// Every check of `decodeRDNs`, in the same order and with the same errors, building nothing.
    static func validate(_ node: ASN1Node) throws(ASN1Error) {
        try ASN1.expect(node, .sequence, constructed: true)
        for rdnNode in node.children {
            try ASN1.checkSetOf(rdnNode, identifier: .set)
            var count = 0
            for attribute in rdnNode.children {
                try AttributeTypeAndValue.validate(attribute)
                count += 1
            }
            guard count > 0 else {
                throw rdnNode.error(.unexpectedElementCount, "a RelativeDistinguishedName must hold at least one attribute")
            }
        }
    }

    /// All values of one attribute type, in order (e.g. every OU).
    public func values(of type: ASN1ObjectIdentifier) -> [String] {
        rdns.flatMap { $0.attributes.filter { $0.type == type }.compactMap { $0.stringValue } }
    }

    /// The last common name (CN) of the name, when it has one.
    public var commonName: String? { values(of: AttributeTypeAndValue.commonName).last }

    /// RFC 4514 string form: RDNs in reverse order, separated by commas; multi-valued RDNs joined
    /// by "+"; known types by short name, others as the dotted OID with "#" and the value's DER in hex.
    public var rfc4514String: String {
        rdns.reversed().map { rdn in rdn.attributes.map { $0.rfc4514String }.joined(separator: "+") }.joined(separator: ",")
    }

    /// The name in RFC 4514 form.
    public var description: String { rfc4514String }

    /// Name matching for path building (RFC 5280 §7.1, simplified as most verifiers do): equal
    /// encodings match; otherwise the same RDN structure with string values equal after
    /// case-folding and collapsing runs of white space.
    public func matches(_ other: DistinguishedName) -> Bool {
        if derBytes == other.derBytes { return true }
        // Decoded once per side (each `rdns` access decodes the kept encoding).
        let mine = rdns
        let theirs = other.rdns
        guard mine.count == theirs.count else { return false }
        return zip(mine, theirs).allSatisfy { rdnMatches($0, $1) }
    }

    /// Whether `base`'s RDNs, matched as in ``matches(_:)``, are the first RDNs of this name: the
    /// directoryName subtree test of name constraints (RFC 5280 §4.2.1.10, §7.1). An empty base
    /// contains every name.
    public func isWithin(_ base: DistinguishedName) -> Bool {
        let mine = rdns
        let prefix = base.rdns
        guard prefix.count <= mine.count else { return false }
        return zip(mine, prefix).allSatisfy { rdnMatches($0, $1) }
    }

    /// One RDN against another: the same attribute types in order, string values equal after
    /// folding ASCII case and collapsing spaces, other values equal as encoded.
    ///
    /// RFC 5280 §7.1 asks for RFC 4518's string preparation; like OpenSSL, Sigil folds the case
    /// of ASCII letters only and compares every other character by its UTF-8 bytes, so names
    /// that differ in the case of a non-ASCII letter do not match.
    private func rdnMatches(_ a: RelativeDistinguishedName, _ b: RelativeDistinguishedName) -> Bool {
        guard a.attributes.count == b.attributes.count else { return false }
        for (x, y) in zip(a.attributes, b.attributes) {
            guard x.type == y.type else { return false }
            // Equal encodings match without building normalised strings.
            if x.valueBytes == y.valueBytes { continue }
            guard let xs = x.stringValue, let ys = y.stringValue else {
                if x.valueBytes != y.valueBytes { return false }
                continue
            }
            if normalized(xs) != normalized(ys) { return false }
        }
        return true
    }

    /// The UTF-8 bytes with ASCII letters lowered, leading and trailing spaces removed, and each
    /// run of spaces inside made one.
    private func normalized(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(0x20) }
            pendingSpace = false
            out.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
        }
        return out
    }
}

/// A name's RDNs, decoded on first access and kept (a lock, since names are shared between threads).
private typealias DecodedRDNs = Locked<[RelativeDistinguishedName]?>

extension Locked where Value == [RelativeDistinguishedName]? {
    convenience init() { self.init(nil) }

    /// The RDNs, decoded by `decode` on first use.
    func value(_ decode: () -> [RelativeDistinguishedName]) -> [RelativeDistinguishedName] {
        withValue { rdns in
            if let rdns { return rdns }
            let made = decode()
            rdns = made
            return made
        }
    }
}

/// One RelativeDistinguishedName: a SET OF AttributeTypeAndValue.
public struct RelativeDistinguishedName: Hashable, Sendable {
    /// The attributes of the RDN, as received.
    public let attributes: [AttributeTypeAndValue]
}

/// AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
/// (RFC 5280 §4.1.2.4). The value is kept encoded (`valueBytes`) and decoded when it is one of
/// the directory string types.
public struct AttributeTypeAndValue: Hashable, Sendable {
    /// The attribute type (CN, O, C, …).
    public let type: ASN1ObjectIdentifier
    /// The value's complete DER encoding (tag, length, content).
    public let valueBytes: [UInt8]
    /// The decoded text for UTF8String, PrintableString, IA5String, BMPString, TeletexString
    /// (read as Latin-1), UniversalString and VisibleString; nil for other value types.
    public let stringValue: String?
    /// The value's universal tag number (12 UTF8String, 19 PrintableString, …).
    public let valueTag: ASN1Identifier

    /// CN (2.5.4.3).
    public static let commonName: ASN1ObjectIdentifier = [2, 5, 4, 3]
    /// C (2.5.4.6).
    public static let countryName: ASN1ObjectIdentifier = [2, 5, 4, 6]
    /// O (2.5.4.10).
    public static let organizationName: ASN1ObjectIdentifier = [2, 5, 4, 10]
    /// OU (2.5.4.11).
    public static let organizationalUnitName: ASN1ObjectIdentifier = [2, 5, 4, 11]

    /// RFC 4514 §3 short names (plus a few that openssl also prints by name).
    static let shortNames: [ASN1ObjectIdentifier: String] = [
        [2, 5, 4, 3]: "CN", [2, 5, 4, 7]: "L", [2, 5, 4, 8]: "ST", [2, 5, 4, 10]: "O", [2, 5, 4, 11]: "OU",
        [2, 5, 4, 6]: "C", [2, 5, 4, 9]: "STREET", [0, 9, 2342, 19200300, 100, 1, 25]: "DC",
        [0, 9, 2342, 19200300, 100, 1, 1]: "UID", [2, 5, 4, 5]: "serialNumber", [2, 5, 4, 4]: "SN",
        [2, 5, 4, 42]: "GN", [2, 5, 4, 12]: "title", [1, 2, 840, 113549, 1, 9, 1]: "emailAddress",
    ]

    /// Parses one AttributeTypeAndValue, decoding the string types RFC 5280 allows.
    public init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        type = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
        let value = try reader.next()
        valueBytes = Array(value.encodedBytes)
        stringValue = try AttributeTypeAndValue.decodeString(value)
        valueTag = value.identifier
        try reader.finish()
    }

    /// Every check of `init(node:)`, building nothing.
    static func validate(_ node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        try ASN1ObjectIdentifier.validate(reader.next(.objectIdentifier))
        try AttributeTypeAndValue.validateString(reader.next())
        try reader.finish()
    }

    /// Every check of `decodeString`, building nothing.
    static func validateString(_ node: ASN1Node) throws(ASN1Error) {
        switch node.identifier {
        case .utf8String: try ASN1UTF8String.validate(node)
        case .printableString: try ASN1PrintableString.validate(node)
        case .ia5String: try ASN1IA5String.validate(node)
        case .bmpString: try ASN1BMPString.validate(node)
        case .visibleString: try ASN1VisibleString.validate(node)
        case .teletexString, .universalString: _ = try decodeString(node)
        default: return
        }
    }

    static func decodeString(_ node: ASN1Node) throws(ASN1Error) -> String? {
        switch node.identifier {
        case .utf8String: return try ASN1UTF8String.decodeText(node)
        case .printableString: return try ASN1PrintableString.decodeText(node)
        case .ia5String: return try ASN1IA5String.decodeText(node)
        case .bmpString: return try ASN1BMPString.decodeText(node)
        case .visibleString: return try ASN1VisibleString.decodeText(node)
        case .teletexString:
            guard !node.isConstructed else { throw node.error(.invalidConstruction, "TeletexString must be primitive") }
            return String(node.contentBytes.map { Character(Unicode.Scalar($0)) })
        case .universalString:
            guard !node.isConstructed, node.contentBytes.count % 4 == 0 else {
                throw node.error(.invalidString, "UniversalString must be primitive, four octets per character")
            }
            var scalars = String.UnicodeScalarView()
            var bytes = node.contentBytes.makeIterator()
            while let a = bytes.next(), let b = bytes.next(), let c = bytes.next(), let d = bytes.next() {
                guard let scalar = Unicode.Scalar(UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)) else {
                    throw node.error(.invalidString, "UniversalString holds a value that is not a Unicode scalar")
                }
                scalars.append(scalar)
            }
            return String(scalars)
        default: return nil
        }
    }

    /// "type=value" per RFC 4514 §2.3–2.4.
    public var rfc4514String: String {
        guard let name = AttributeTypeAndValue.shortNames[type], let text = stringValue else {
            return "\(type.dotted)=#" + Base16.encode(valueBytes)
        }
        return "\(name)=\(AttributeTypeAndValue.escape(text))"
    }

    /// RFC 4514 §2.4 escaping: `"+,;<>\` anywhere, a leading space or "#", a trailing space, NUL.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (i, c) in scalars.enumerated() {
            switch c {
            case "\"", "+", ",", ";", "<", ">", "\\": out += ["\\", c]
            case " " where i == 0 || i == scalars.count - 1: out += ["\\", " "]
            case "#" where i == 0: out += ["\\", "#"]
            case "\u{0}": out += ["\\", "0", "0"]
            default: out.append(c)
            }
        }
        return String(out)
    }
}
