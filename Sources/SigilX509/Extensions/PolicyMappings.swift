import SigilASN1

/// PolicyMappings (RFC 5280 §4.2.1.5):
///
/// ```
/// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE {
///     issuerDomainPolicy      CertPolicyId,
///     subjectDomainPolicy     CertPolicyId }
/// ```
/// Kept in the order received. anyPolicy on either side is parsed (it is a path-validation
/// failure, RFC 5280 §6.1.4 (a), not a syntax error).
public struct PolicyMappings: Hashable, Sendable {
    /// One mapping: the issuer's policy is considered equivalent to the subject's.
    public struct Mapping: Hashable, Sendable {
        /// The issuer's policy.
        public let issuerDomainPolicy: ASN1ObjectIdentifier
        /// The subject's policy it is equivalent to.
        public let subjectDomainPolicy: ASN1ObjectIdentifier
    }

    /// The mappings, in order.
    public let mappings: [Mapping]

    init(node: ASN1Node) throws(ASN1Error) {
        try ASN1.expect(node, .sequence, constructed: true)
        var mappings: [Mapping] = []
        for pair in node.children {
            var reader = try ASN1SequenceReader(checking: pair, identifier: .sequence)
            let issuer = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
            let subject = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
            try reader.finish()
            mappings.append(Mapping(issuerDomainPolicy: issuer, subjectDomainPolicy: subject))
        }
        self.mappings = mappings
        guard !mappings.isEmpty else { throw node.error(.unexpectedElementCount, "PolicyMappings must not be empty (RFC 5280 §4.2.1.5)") }
    }
}
