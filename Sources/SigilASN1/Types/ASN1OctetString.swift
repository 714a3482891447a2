/// OCTET STRING (X.680 23; X.690 8.7).
///
/// ```
/// OCTET STRING ::= [UNIVERSAL 4] IMPLICIT OCTET STRING
/// ```
/// DER: primitive only. BER: also constructed, the segments (OCTET STRINGs, possibly nested)
/// concatenated in order.
public struct ASN1OctetString: ASN1ImplicitlyTaggable, Hashable, Sendable {
    /// The octets (segments concatenated, under BER).
    public let bytes: [UInt8]

    /// OCTET STRING.
    public static var defaultIdentifier: ASN1Identifier { .octetString }

    /// An OCTET STRING of `bytes`.
    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    /// Decodes an OCTET STRING tagged `identifier` (under BER also constructed).
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        bytes = Array(try ASN1OctetString.content(of: node, identifier: identifier))
    }

    /// The octets of `node` as an OCTET STRING under `identifier` — the checks and errors of
    /// `init(node:identifier:)` — without copying them: a slice of the parsed input (or, for a
    /// segmented BER string, of the concatenated segments).
    public static func content(of node: ASN1Node, identifier: ASN1Identifier = .octetString) throws(ASN1Error) -> ArraySlice<UInt8> {
        guard node.identifier == identifier else {
            throw node.error(.unexpectedTag, "expected \(identifier), found \(node.identifier)")
        }
        return try ASN1.stringContent(node, segmentTag: .octetString)
    }

    /// Writes the OCTET STRING, primitive, under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: bytes)
    }
}
