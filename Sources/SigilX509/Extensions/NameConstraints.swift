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

    init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        var permitted: [Subtree] = []
        if let tagged = reader.nextIfPresent(.contextSpecific(0)) { permitted = try NameConstraints.subtrees(tagged, .contextSpecific(0)) }
        var excluded: [Subtree] = []
        if let tagged = reader.nextIfPresent(.contextSpecific(1)) { excluded = try NameConstraints.subtrees(tagged, .contextSpecific(1)) }
        guard !permitted.isEmpty || !excluded.isEmpty else {
            throw node.error(.unexpectedElementCount, "NameConstraints must have permitted or excluded subtrees (RFC 5280 §4.2.1.10)")
        }
        try reader.finish()
        (self.permitted, self.excluded) = (permitted, excluded)
    }

    static func subtrees(_ node: ASN1Node, _ tag: ASN1Identifier) throws(ASN1Error) -> [Subtree] {
        try ASN1.expect(node, tag, constructed: true)
        var trees: [Subtree] = []
        for tree in node.children {
            var reader = try ASN1SequenceReader(checking: tree, identifier: .sequence)
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
            try reader.finish()
            trees.append(Subtree(base: base, minimum: minimum, maximum: maximum))
        }
        guard !trees.isEmpty else { throw node.error(.unexpectedElementCount, "GeneralSubtrees must not be empty") }
        return trees
    }
}
