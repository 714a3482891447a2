import SigilASN1

/// One attribute of an app receipt payload (Apple, "Receipt Fields"; the payload is BER, as Xcode
/// writes it, and Apple's SET OF is not sorted, so it is read through the BER entry point):
///
/// ```
/// Payload ::= SET OF ReceiptAttribute
/// ReceiptAttribute ::= SEQUENCE {
///     type    INTEGER,
///     version INTEGER,
///     value   OCTET STRING }   -- itself DER of the field's type (UTF8String, IA5String, INTEGER, SET)
/// ```
public struct ReceiptAttribute: Hashable, Sendable {
    /// The field number (``ReceiptFieldType`` for the known ones).
    public let type: Int
    /// The attribute's version, as Apple wrote it.
    public let version: Int
    /// The OCTET STRING's content, as received.
    public let value: [UInt8]

    package init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        type = try ASN1Integer(node: reader.next(.integer)).intValue()
        version = try ASN1Integer(node: reader.next(.integer)).intValue()
        value = try ASN1OctetString(node: reader.next(.octetString)).bytes
        try reader.finish()
    }

    /// The attributes of a payload (a SET OF ReceiptAttribute, BER): app receipts, and App Attest
    /// fraud-metric receipts, which use the same layout with raw values.
    public static func payload(_ bytes: [UInt8]) throws(ASN1Error) -> [ReceiptAttribute] {
        let node = try BER.parse(bytes)
        try ASN1.checkSetOf(node, identifier: .set)
        var attributes: [ReceiptAttribute] = []
        for child in node.children { attributes.append(try ReceiptAttribute(node: child)) }
        return attributes
    }

    /// The value decoded as a UTF8String or IA5String; nil if it is neither.
    package var string: String? {
        guard let node = try? BER.parse(value) else { return nil }
        switch node.identifier {
        case .utf8String: return try? ASN1UTF8String(node: node).value
        case .ia5String: return try? ASN1IA5String(node: node).value
        default: return nil
        }
    }

    /// The value decoded as an INTEGER that fits an Int64.
    package var integer: Int64? {
        guard let node = try? BER.parse(value), node.identifier == .integer else { return nil }
        return (try? ASN1Integer(node: node))?.int64Value
    }

    /// An RFC 3339 date as Apple writes it: "2024-02-23T17:27:16Z", "2020-07-22T18:33:15+0100",
    /// with optional fractional seconds; nil for an empty string. Seconds since the epoch.
    package var date: Int64?? {
        guard let text = string else { return .none }
        if text.isEmpty { return .some(nil) }
        guard let seconds = ReceiptAttribute.parseDate(text) else { return .none }
        return .some(seconds)
    }

    /// Seconds since the epoch of an RFC 3339 date as Apple writes it in receipts
    /// ("2024-02-23T17:27:16Z", "2026-04-21T18:13:12.153Z", "2020-07-22T18:33:15+0100"); nil when
    /// it is not one (`RFC3339Timestamp.secondsSinceEpoch(of:)`, SigilASN1).
    public static func parseDate(_ text: String) -> Int64? { RFC3339Timestamp.secondsSinceEpoch(of: text) }
}
