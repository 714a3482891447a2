import SigilASN1

/// NameConstraints (RFC 5280 §4.2.1.10), parsed (enforcement is a policy's job):
///
/// ```
/// NameConstraints ::= SEQUENCE {
///     permittedSubtrees [0] GeneralSubtrees OPTIONAL,
///     excludedSubtrees  [1] GeneralSubtrees OPTIONAL }
/// GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree
/// GeneralSubtree ::= SEQUENCE {
///     base    GeneralName,
///     minimum [0] BaseDistance DEFAULT 0,
///     maximum [1] BaseDistance OPTIONAL }
/// ```
/// (§4.2.1.10: minimum MUST be zero and maximum MUST be absent; they are read and kept.)
public struct NameConstraints: Hashable, Sendable {
    /// One GeneralSubtree: a base name and its minimum and maximum (RFC 5280 §4.2.1.10).
    public struct Subtree: Hashable, Sendable {
        /// The subtree's base name.
        public let base: GeneralName
        /// minimum (0 in every conforming certificate).
        public let minimum: Int
        /// maximum (absent in every conforming certificate).
        public let maximum: Int?
    }

    /// permittedSubtrees: names below the CA must lie in one of these, per name form.
    public let permitted: [Subtree]
    /// excludedSubtrees: names below the CA must lie in none of these.
    public let excluded: [Subtree]

    init(node: ASN1Node) throws {
        (permitted, excluded) = try ASN1.sequence(node) { reader in
            let permitted =
                try reader.nextIfPresent(.contextSpecific(0)).map { try NameConstraints.subtrees($0, .contextSpecific(0)) } ?? []
            let excluded = try reader.nextIfPresent(.contextSpecific(1)).map { try NameConstraints.subtrees($0, .contextSpecific(1)) } ?? []
            guard !permitted.isEmpty || !excluded.isEmpty else {
                throw node.error(.unexpectedElementCount, "NameConstraints must have permitted or excluded subtrees (RFC 5280 §4.2.1.10)")
            }
            return (permitted, excluded)
        }
    }

    static func subtrees(_ node: ASN1Node, _ tag: ASN1Identifier) throws -> [Subtree] {
        let trees = try ASN1.sequenceOf(node, identifier: tag) { tree in
            try ASN1.sequence(tree) { reader in
                let base = try GeneralName(node: reader.next())
                var minimum = 0
                var maximum: Int?
                if let m = reader.nextIfPresent(.contextSpecific(0)) {
                    minimum = try ASN1Integer(node: m, identifier: .contextSpecific(0)).intValue()
                    guard minimum != 0 else { throw m.error(.integerOutOfRange, "minimum encodes its DEFAULT 0") }
                }
                if let m = reader.nextIfPresent(.contextSpecific(1)) {
                    maximum = try ASN1Integer(node: m, identifier: .contextSpecific(1)).intValue()
                }
                return Subtree(base: base, minimum: minimum, maximum: maximum)
            }
        }
        guard !trees.isEmpty else { throw node.error(.unexpectedElementCount, "GeneralSubtrees must not be empty") }
        return trees
    }
}
