/// A time as it was signed (RFC 3339 date-time: a receipt field's "2020-11-21T22:13:02.796Z",
/// "2024-02-23T17:27:16Z", "2020-07-22T18:33:15+0100"; an mdoc's tdate), kept whole: the text as
/// signed, and the instant it names with its fraction of a second. Printing one prints the signed
/// text, so a time never comes out rounded to the second.
public struct RFC3339Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text exactly as it was in the signed data.
    public let text: String
    /// Whole seconds since 1970-01-01T00:00:00Z (UTC, the offset applied), rounded down.
    public let secondsSinceEpoch: Int64
    /// The fraction of a second as signed: its digits after the point ("796"; "" when none).
    public let fractionDigits: String

    /// Reads `text`; nil when it is not an RFC 3339 date-time (``secondsSinceEpoch(of:)``).
    public init?(_ text: String) {
        guard let seconds = RFC3339Timestamp.secondsSinceEpoch(of: text) else { return nil }
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

    /// Whole seconds since the epoch of an RFC 3339 date-time (§5.6): "2024-02-23T17:27:16Z",
    /// "2026-04-21T18:13:12.153Z", "2020-07-22T18:33:15+01:00", "t" and "z" in lower case, and the
    /// "+0100" form Apple's receipts write; the fraction is read and dropped (``fractionDigits`` keeps it). Nil when the
    /// text is not one, or names no valid date and time.
    public static func secondsSinceEpoch(of text: String) -> Int64? {
        let c = Array(text.utf8)
        guard c.count >= 20 else { return nil }
        func number(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= c.count, c[at..<(at + n)].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(String(decoding: c[at..<(at + n)], as: UTF8.self))
        }
        // RFC 3339 §5.6: "T" and "Z" may be written in lower case.
        guard let y = number(0, 4), c[4] == UInt8(ascii: "-"), let mo = number(5, 2), c[7] == UInt8(ascii: "-"), let d = number(8, 2),
            c[10] == UInt8(ascii: "T") || c[10] == UInt8(ascii: "t"), let h = number(11, 2), c[13] == UInt8(ascii: ":"),
            let mi = number(14, 2),
            c[16] == UInt8(ascii: ":"), let s = number(17, 2),
            let base = try? ASN1TimeComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s).secondsSinceEpoch
        else { return nil }
        var i = 19
        if i < c.count, c[i] == UInt8(ascii: ".") {
            i += 1
            while i < c.count, (48...57).contains(c[i]) { i += 1 }
        }
        guard i < c.count else { return nil }
        if c[i] == UInt8(ascii: "Z") || c[i] == UInt8(ascii: "z") { return i + 1 == c.count ? base : nil }
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
