import SigilASN1

/// AccessDescription of authorityInfoAccess (RFC 5280 §4.2.2.1):
///
/// ```
/// AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription
/// AccessDescription ::= SEQUENCE { accessMethod OBJECT IDENTIFIER, accessLocation GeneralName }
/// ```
/// id-ad-ocsp gives the OCSP responder, id-ad-caIssuers where the issuer's certificate is.
public struct AccessDescription: Hashable, Sendable {
    /// accessMethod: id-ad-ocsp or id-ad-caIssuers, typically.
    public let method: ASN1ObjectIdentifier
    /// accessLocation: a URI, typically.
    public let location: GeneralName

    init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        method = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
        location = try GeneralName(node: reader.next())
        try reader.finish()
    }

    /// Every check of `init(node:)`, building nothing.
    static func validate(_ node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        try ASN1ObjectIdentifier.validate(reader.next(.objectIdentifier))
        try GeneralName.validate(reader.next())
        try reader.finish()
    }

    /// The location as a URI, when it is one.
    public var uri: String? {
        if case .uniformResourceIdentifier(let uri) = location { return uri }
        return nil
    }
}
