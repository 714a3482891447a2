import SigilASN1
import SigilBase

/// GeneralName (RFC 5280 §4.2.1.6), in the module's IMPLICIT tagging (directoryName is
/// explicit, since Name is a CHOICE):
///
/// ```
/// GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName
/// GeneralName ::= CHOICE {
///     otherName                 [0] OtherName,
///     rfc822Name                [1] IA5String,
///     dNSName                   [2] IA5String,
///     x400Address               [3] ORAddress,
///     directoryName             [4] Name,
///     ediPartyName              [5] EDIPartyName,
///     uniformResourceIdentifier [6] IA5String,
///     iPAddress                 [7] OCTET STRING,
///     registeredID              [8] OBJECT IDENTIFIER }
/// OtherName ::= SEQUENCE { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY }
/// ```
/// x400Address and ediPartyName are kept as their encoding.
public enum GeneralName: Hashable, Sendable, CustomStringConvertible {
    /// [0] otherName: its type id and its value's DER.
    case otherName(type: ASN1ObjectIdentifier, valueDER: [UInt8])
    /// [1] an email address.
    case rfc822Name(String)
    /// [2] a DNS name.
    case dnsName(String)
    /// [3] an X.400 address, kept as its encoding.
    case x400Address([UInt8])
    /// [4] a directory name.
    case directoryName(DistinguishedName)
    /// [5] an EDI party name, kept as its encoding.
    case ediPartyName([UInt8])
    /// [6] a URI.
    case uniformResourceIdentifier(String)
    /// [7] an IPv4 or IPv6 address (4 or 16 bytes), or in name constraints an address and mask (8 or 32).
    case ipAddress([UInt8])
    /// [8] a registered object identifier.
    case registeredID(ASN1ObjectIdentifier)

    init(node: ASN1Node) throws(ASN1Error) {
        let tag = node.identifier
        guard tag.tagClass == .contextSpecific else {
            throw node.error(.unexpectedTag, "GeneralName must be context-specific, found \(tag)")
        }
        switch tag.tagNumber {
        case 0:
            var reader = try ASN1SequenceReader(checking: node, identifier: .contextSpecific(0))
            let type = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
            let value = Array(try ASN1.explicitInner(reader.next(), tag: .contextSpecific(0)).encodedBytes)
            try reader.finish()
            self = .otherName(type: type, valueDER: value)
        case 1: self = .rfc822Name(try ASN1IA5String.decodeText(node, identifier: tag))
        case 2: self = .dnsName(try ASN1IA5String.decodeText(node, identifier: tag))
        case 3:
            try ASN1.expect(node, tag, constructed: true)
            self = .x400Address(Array(node.encodedBytes))
        case 4: self = .directoryName(try DistinguishedName(node: ASN1.explicitInner(node, tag: tag)))
        case 5:
            try ASN1.expect(node, tag, constructed: true)
            self = .ediPartyName(Array(node.encodedBytes))
        case 6: self = .uniformResourceIdentifier(try ASN1IA5String.decodeText(node, identifier: tag))
        case 7:
            let address = try ASN1OctetString(node: node, identifier: tag).bytes
            // 4 or 16 octets in subjectAltName; 8 or 32 (address and mask) in name constraints.
            guard [4, 16, 8, 32].contains(address.count) else {
                throw node.error(.invalidLength, "iPAddress must be 4, 8, 16 or 32 octets, not \(address.count)")
            }
            self = .ipAddress(address)
        case 8: self = .registeredID(try ASN1ObjectIdentifier(node: node, identifier: tag))
        default: throw node.error(.unexpectedTag, "GeneralName tag [\(tag.tagNumber)] does not exist")
        }
    }

    /// Every check of `init(node:)`, in the same order and with the same errors, building nothing.
    static func validate(_ node: ASN1Node) throws(ASN1Error) {
        let tag = node.identifier
        guard tag.tagClass == .contextSpecific else {
            throw node.error(.unexpectedTag, "GeneralName must be context-specific, found \(tag)")
        }
        switch tag.tagNumber {
        case 0:
            var reader = try ASN1SequenceReader(checking: node, identifier: .contextSpecific(0))
            try ASN1ObjectIdentifier.validate(reader.next(.objectIdentifier))
            _ = try ASN1.explicitInner(reader.next(), tag: .contextSpecific(0))
            try reader.finish()
        case 1, 2, 6: try ASN1IA5String.validate(node, identifier: tag)
        case 3, 5: try ASN1.expect(node, tag, constructed: true)
        case 4: try DistinguishedName.validate(ASN1.explicitInner(node, tag: tag))
        case 7:
            let count = try ASN1OctetString.content(of: node, identifier: tag).count
            guard [4, 16, 8, 32].contains(count) else {
                throw node.error(.invalidLength, "iPAddress must be 4, 8, 16 or 32 octets, not \(count)")
            }
        case 8: try ASN1ObjectIdentifier.validate(node, identifier: tag)
        default: throw node.error(.unexpectedTag, "GeneralName tag [\(tag.tagNumber)] does not exist")
        }
    }

    /// Every check of `names(_:identifier:)`, building nothing.
    static func validateNames(_ node: ASN1Node, identifier: ASN1Identifier = .sequence) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: true)
        var count = 0
        for name in node.children {
            try validate(name)
            count += 1
        }
        guard count > 0 else { throw node.error(.unexpectedElementCount, "GeneralNames must not be empty") }
    }

    /// GeneralNames: a non-empty SEQUENCE OF GeneralName (or the implicitly tagged form).
    package static func names(_ node: ASN1Node, identifier: ASN1Identifier = .sequence) throws(ASN1Error) -> [GeneralName] {
        try ASN1.expect(node, identifier, constructed: true)
        var names: [GeneralName] = []
        for child in node.children { names.append(try GeneralName(node: child)) }
        guard !names.isEmpty else { throw node.error(.unexpectedElementCount, "GeneralNames must not be empty") }
        return names
    }

    /// The name in text, for people.
    public var description: String {
        switch self {
        case .otherName(let type, _): "othername:\(type.dotted)"
        case .rfc822Name(let v): "email:\(v)"
        case .dnsName(let v): "DNS:\(v)"
        case .x400Address: "X400Name"
        case .directoryName(let name): "DirName:\(name.rfc4514String)"
        case .ediPartyName: "EdiPartyName"
        case .uniformResourceIdentifier(let v): "URI:\(v)"
        case .ipAddress(let bytes):
            bytes.count == 4 ? "IP:" + bytes.map(String.init).joined(separator: ".") : "IP:" + Base16.encode(bytes)
        case .registeredID(let oid): "RID:\(oid.dotted)"
        }
    }
}
