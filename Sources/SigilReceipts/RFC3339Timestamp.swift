/// A time read from a receipt field as Apple signed it (RFC 3339: "2020-11-21T22:13:02.796Z",
/// "2024-02-23T17:27:16Z", "2020-07-22T18:33:15+0100"), kept whole: the text as signed, and the
/// instant it names with its fraction of a second. Printing one prints the signed text, so a
/// field never comes out rounded to the second.
public struct RFC3339Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text exactly as it was in the signed data.
    public let text: String
    /// Whole seconds since 1970-01-01T00:00:00Z (UTC, the offset applied), rounded down.
    public let secondsSinceEpoch: Int64
    /// The fraction of a second as signed: its digits after the point ("796"; "" when none).
    public let fractionDigits: String

    /// Reads `text`; nil when it is not an RFC 3339 date-time in the forms Apple writes.
    public init?(_ text: String) {
        guard let seconds = ReceiptAttribute.parseDate(text) else { return nil }
        self.text = text
        secondsSinceEpoch = seconds
        let utf8 = Array(text.utf8)
        if utf8.count > 20, utf8[19] == UInt8(ascii: ".") {
            fractionDigits = String(decoding: utf8[20...].prefix { (48...57).contains($0) }, as: UTF8.self)
        } else {
            fractionDigits = ""
        }
    }

    /// The fraction of a second in nanoseconds (digits beyond the ninth are dropped here only;
    /// ``text`` keeps them).
    public var nanoseconds: Int64 {
        let digits = Array(fractionDigits.utf8.prefix(9))
        let value = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
        return (0..<(9 - digits.count)).reduce(value) { value, _ in value * 10 }
    }

    /// Milliseconds since the epoch (the unit App Store data uses), rounded down.
    public var millisecondsSinceEpoch: Int64 { secondsSinceEpoch * 1000 + nanoseconds / 1_000_000 }

    /// The signed text.
    public var description: String { text }

    /// Orders by instant (seconds, then the fraction).
    public static func < (lhs: RFC3339Timestamp, rhs: RFC3339Timestamp) -> Bool {
        (lhs.secondsSinceEpoch, lhs.nanoseconds) < (rhs.secondsSinceEpoch, rhs.nanoseconds)
    }
}
