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

    init(node: ASN1Node) throws {
        mappings = try ASN1.sequenceOf(node) { pair in
            try ASN1.sequence(pair) { reader in
                let issuer = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
                let subject = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
                return Mapping(issuerDomainPolicy: issuer, subjectDomainPolicy: subject)
            }
        }
        guard !mappings.isEmpty else { throw node.error(.unexpectedElementCount, "PolicyMappings must not be empty (RFC 5280 §4.2.1.5)") }
    }
}
