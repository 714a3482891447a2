/// NULL (X.680 24; X.690 8.8).
///
/// ```
/// NULL ::= [UNIVERSAL 5] IMPLICIT NULL  -- no content octets
/// ```
public struct ASN1Null: ASN1ImplicitlyTaggable, Hashable, Sendable {
    /// NULL.
    public static var defaultIdentifier: ASN1Identifier { .null }

    /// NULL.
    public init() {}

    /// Decodes a NULL tagged `identifier`: primitive, no content.
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: false)
        guard node.contentBytes.isEmpty else {
            throw node.error(.invalidNull, "NULL has \(node.contentBytes.count) content octets")
        }
    }

    /// Writes an empty element under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: EmptyCollection<UInt8>())
    }
}
