import SigilASN1

/// PolicyConstraints (RFC 5280 §4.2.1.11), implicit tags:
///
/// ```
/// PolicyConstraints ::= SEQUENCE {
///     requireExplicitPolicy   [0] SkipCerts OPTIONAL,
///     inhibitPolicyMapping    [1] SkipCerts OPTIONAL }
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
/// (§4.2.1.11: conforming CAs MUST NOT issue an empty sequence; one is refused.)
public struct PolicyConstraints: Hashable, Sendable {
    /// requireExplicitPolicy: certificates after this many must carry an acceptable policy.
    public let requireExplicitPolicy: Int?
    /// inhibitPolicyMapping: certificates after this many may not map policies.
    public let inhibitPolicyMapping: Int?

    init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        var require: Int?
        if let tagged = reader.nextIfPresent(.contextSpecific(0)) { require = try PolicyConstraints.skipCerts(tagged, .contextSpecific(0)) }
        var inhibit: Int?
        if let tagged = reader.nextIfPresent(.contextSpecific(1)) { inhibit = try PolicyConstraints.skipCerts(tagged, .contextSpecific(1)) }
        guard require != nil || inhibit != nil else {
            throw node.error(.unexpectedElementCount, "PolicyConstraints must not be empty (RFC 5280 §4.2.1.11)")
        }
        try reader.finish()
        (requireExplicitPolicy, inhibitPolicyMapping) = (require, inhibit)
    }

    /// SkipCerts ::= INTEGER (0..MAX), in its implicit tag.
    static func skipCerts(_ node: ASN1Node, _ tag: ASN1Identifier) throws(ASN1Error) -> Int {
        let value = try ASN1Integer(node: node, identifier: tag).intValue()
        guard value >= 0 else { throw node.error(.integerOutOfRange, "SkipCerts is negative") }
        return value
    }
}
