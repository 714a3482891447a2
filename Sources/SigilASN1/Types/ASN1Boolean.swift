/// BOOLEAN (X.680 18; X.690 8.2, 11.1).
///
/// ```
/// BOOLEAN ::= [UNIVERSAL 1] IMPLICIT BOOLEAN  -- one content octet
/// ```
/// DER: FALSE is 0x00 and TRUE is 0xFF, nothing else. BER: any non-zero octet is TRUE.
extension Bool: ASN1ImplicitlyTaggable {
    /// BOOLEAN.
    public static var defaultIdentifier: ASN1Identifier { .boolean }

    /// Decodes a BOOLEAN tagged `identifier`: 0x00 or 0xFF under DER, any non-zero octet as TRUE under BER.
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: false)
        let content = node.contentBytes
        guard content.count == 1, let octet = content.first else {
            throw node.error(.invalidBoolean, "BOOLEAN has \(content.count) content octets, needs 1")
        }
        switch octet {
        case 0x00: self = false
        case 0xFF: self = true
        default:
            guard node.rules.allowsAnyNonZeroTrue else {
                throw node.error(.invalidBoolean, "DER BOOLEAN must be 0x00 or 0xFF")
            }
            self = true
        }
    }

    /// Writes 0xFF or 0x00 under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: [self ? 0xFF : 0x00])
    }
}
