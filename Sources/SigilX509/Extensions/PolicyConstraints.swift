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

    init(node: ASN1Node) throws {
        (requireExplicitPolicy, inhibitPolicyMapping) = try ASN1.sequence(node) { reader in
            let require = try reader.nextIfPresent(.contextSpecific(0)).map { try PolicyConstraints.skipCerts($0, .contextSpecific(0)) }
            let inhibit = try reader.nextIfPresent(.contextSpecific(1)).map { try PolicyConstraints.skipCerts($0, .contextSpecific(1)) }
            guard require != nil || inhibit != nil else {
                throw node.error(.unexpectedElementCount, "PolicyConstraints must not be empty (RFC 5280 §4.2.1.11)")
            }
            return (require, inhibit)
        }
    }

    /// SkipCerts ::= INTEGER (0..MAX), in its implicit tag.
    static func skipCerts(_ node: ASN1Node, _ tag: ASN1Identifier) throws -> Int {
        let value = try ASN1Integer(node: node, identifier: tag).intValue()
        guard value >= 0 else { throw node.error(.integerOutOfRange, "SkipCerts is negative") }
        return value
    }
}
