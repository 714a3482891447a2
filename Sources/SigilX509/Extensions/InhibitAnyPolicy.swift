import SigilASN1

/// InhibitAnyPolicy (RFC 5280 §4.2.1.14):
///
/// ```
/// InhibitAnyPolicy ::= SkipCerts
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
public struct InhibitAnyPolicy: Hashable, Sendable {
    /// How many further non-self-issued certificates may assert anyPolicy.
    public let skipCerts: Int

    init(node: ASN1Node) throws(ASN1Error) {
        skipCerts = try PolicyConstraints.skipCerts(node, .integer)
    }
}
