import SigilASN1
import SigilX509

/// The issuingDistributionPoint CRL extension (RFC 5280 §5.2.5), always critical, implicit tags:
///
/// ```
/// id-ce-issuingDistributionPoint OBJECT IDENTIFIER ::= { id-ce 28 }
/// IssuingDistributionPoint ::= SEQUENCE {
///     distributionPoint          [0] DistributionPointName OPTIONAL,
///     onlyContainsUserCerts      [1] BOOLEAN DEFAULT FALSE,
///     onlyContainsCACerts        [2] BOOLEAN DEFAULT FALSE,
///     onlySomeReasons            [3] ReasonFlags OPTIONAL,
///     indirectCRL                [4] BOOLEAN DEFAULT FALSE,
///     onlyContainsAttributeCerts [5] BOOLEAN DEFAULT FALSE }
///     -- at most one of onlyContainsUserCerts, onlyContainsCACerts,
///     -- and onlyContainsAttributeCerts may be set to TRUE.
/// DistributionPointName ::= CHOICE {
///     fullName                [0] GeneralNames,
///     nameRelativeToCRLIssuer [1] RelativeDistinguishedName }
/// ```
/// DER: a BOOLEAN equal to its DEFAULT FALSE is never encoded, and the extension is not empty.
public struct IssuingDistributionPoint: Hashable, Sendable {
    /// distributionPoint's fullName, when given.
    public let fullName: [GeneralName]?
    /// nameRelativeToCRLIssuer as its encoding ([1] IMPLICIT SET OF AttributeTypeAndValue).
    public let nameRelativeToCRLIssuer: [UInt8]?
    /// The CRL lists end-entity certificates only.
    public let onlyContainsUserCerts: Bool
    /// The CRL lists CA certificates only.
    public let onlyContainsCACerts: Bool
    /// The reasons the CRL covers, when not all.
    public let onlySomeReasons: ReasonFlags?
    /// The CRL may list certificates of other issuers (an indirect CRL).
    public let indirectCRL: Bool
    /// The CRL lists attribute certificates only.
    public let onlyContainsAttributeCerts: Bool
    /// The extension's DER (delta and complete CRLs must carry the same one, §5.2.4).
    public let derBytes: [UInt8]

    init(node: ASN1Node) throws(ASN1Error) {
        derBytes = Array(node.encodedBytes)
        var full: [GeneralName]?
        var relative: [UInt8]?
        var flags = [false, false, false, false, false, false]
        var reasons: ReasonFlags?
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        if let point = reader.nextIfPresent(.contextSpecific(0)) {
            (full, relative) = try IssuingDistributionPoint.distributionPointName(point)
        }
        for tag: UInt32 in [1, 2, 3, 4, 5] {
            guard let field = reader.nextIfPresent(.contextSpecific(tag)) else { continue }
            if tag == 3 {
                reasons = try ReasonFlags(node: field, identifier: .contextSpecific(3))
                continue
            }
            guard try Bool(node: field, identifier: .contextSpecific(tag)) else {
                throw field.error(.invalidBoolean, "issuingDistributionPoint [\(tag)] encodes FALSE, its DEFAULT (X.690 11.5)")
            }
            flags[Int(tag)] = true
        }
        try reader.finish()
        guard full != nil || relative != nil || flags.contains(true) || reasons != nil else {
            throw node.error(.unexpectedElementCount, "issuingDistributionPoint is empty (RFC 5280 §5.2.5)")
        }
        guard [flags[1], flags[2], flags[5]].filter({ $0 }).count <= 1 else {
            throw node.error(
                .unexpectedElementCount,
                "at most one of onlyContainsUserCerts, onlyContainsCACerts, onlyContainsAttributeCerts may be TRUE (RFC 5280 §5.2.5)")
        }
        fullName = full
        nameRelativeToCRLIssuer = relative
        onlyContainsUserCerts = flags[1]
        onlyContainsCACerts = flags[2]
        onlySomeReasons = reasons
        indirectCRL = flags[4]
        onlyContainsAttributeCerts = flags[5]
    }

    /// `[0] DistributionPointName` (explicit, as DistributionPointName is a CHOICE): the full
    /// name, or the relative name kept as its encoding.
    static func distributionPointName(_ node: ASN1Node) throws(ASN1Error) -> ([GeneralName]?, [UInt8]?) {
        let choice = try ASN1.explicitInner(node, tag: .contextSpecific(0))
        switch choice.identifier {
        case .contextSpecific(0): return (try GeneralName.names(choice, identifier: .contextSpecific(0)), nil)
        case .contextSpecific(1):
            try ASN1.checkSetOf(choice, identifier: .contextSpecific(1))
            for attribute in choice.children { _ = try AttributeTypeAndValue(node: attribute) }
            guard choice.children.count > 0 else {
                throw choice.error(.unexpectedElementCount, "nameRelativeToCRLIssuer must not be empty")
            }
            return (nil, Array(choice.encodedBytes))
        default: throw choice.error(.unexpectedTag, "DistributionPointName must be [0] or [1]")
        }
    }
}

extension DistinguishedName {
    /// This name with one more RDN appended (RFC 5280 §4.2.1.13: nameRelativeToCRLIssuer is
    /// appended to the CRL issuer's name), from the RDN's `[1] IMPLICIT` encoding; nil when the
    /// result does not parse.
    public func appending(relativeName encoded: [UInt8]) -> DistinguishedName? {
        guard let rdnNode = try? DER.parse(encoded), let nameNode = try? DER.parse(derBytes) else { return nil }
        var writer = DERWriter()
        writer.appendSequence { sequence in
            sequence.appendEncoded(nameNode.contentBytes)
            sequence.appendConstructed(.set) { $0.appendEncoded(rdnNode.contentBytes) }
        }
        guard let node = try? DER.parse(writer.bytes) else { return nil }
        return try? DistinguishedName(node: node)
    }
}
