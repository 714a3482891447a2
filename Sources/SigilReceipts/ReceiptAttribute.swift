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
    /// it is not one.
    public static func parseDate(_ text: String) -> Int64? {
        let c = Array(text.utf8)
        guard c.count >= 20 else { return nil }
        func number(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= c.count, c[at..<(at + n)].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(String(decoding: c[at..<(at + n)], as: UTF8.self))
        }
        guard let y = number(0, 4), c[4] == UInt8(ascii: "-"), let mo = number(5, 2), c[7] == UInt8(ascii: "-"), let d = number(8, 2),
            c[10] == UInt8(ascii: "T"), let h = number(11, 2), c[13] == UInt8(ascii: ":"), let mi = number(14, 2),
            c[16] == UInt8(ascii: ":"), let s = number(17, 2),
            let base = try? ASN1TimeComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s).secondsSinceEpoch
        else { return nil }
        var i = 19
        if i < c.count, c[i] == UInt8(ascii: ".") {
            i += 1
            while i < c.count, (48...57).contains(c[i]) { i += 1 }
        }
        guard i < c.count else { return nil }
        if c[i] == UInt8(ascii: "Z") { return i + 1 == c.count ? base : nil }
        guard c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-") else { return nil }
        // "+hhmm" or "+hh:mm".
        let rest = Array(c[(i + 1)...]).filter { $0 != UInt8(ascii: ":") }
        guard rest.count == 4, rest.allSatisfy({ (48...57).contains($0) }),
            let oh = Int(String(decoding: rest[0..<2], as: UTF8.self)), let om = Int(String(decoding: rest[2..<4], as: UTF8.self))
        else { return nil }
        let offset = Int64(oh * 3600 + om * 60)
        return c[i] == UInt8(ascii: "+") ? base - offset : base + offset
    }
}
