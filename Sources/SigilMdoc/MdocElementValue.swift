import SigilASN1
import SigilBase
import SigilCBOR

/// The value of one data element (ISO/IEC 18013-5 §7.2), typed from its CBOR: text, byte strings
/// (the portrait, a signature image), integers, booleans, dates, and arrays and maps of these
/// (`driving_privileges`).
///
/// Dates are read as RFC 8943 and RFC 8949 write them: a full-date is tag 1004 around
/// "YYYY-MM-DD" (or tag 100 around a day count), a tdate is tag 0 around an RFC 3339 date-time,
/// kept with its text as signed. A tag Sigil does not interpret, or a date tag around something
/// that is not a date, is kept as ``tagged(_:_:)``: the issuer's content never makes a valid
/// document fail.
///
/// **Values are personal data.** `description`, `debugDescription` and the mirror `dump` uses
/// name the kind only ("text", "byte string", "full-date"), not even the size; the value itself is
/// printed only through ``disclosedDescription``, which a caller uses on purpose.
public indirect enum MdocElementValue: Sendable, Hashable {
    /// A text string.
    case text(String)
    /// A byte string (the portrait, a signature or fingerprint image).
    case bytes([UInt8])
    /// An integer within Int64.
    case integer(Int64)
    /// A boolean (`age_over_21`).
    case bool(Bool)
    /// A floating-point number.
    case float(Double)
    /// Null.
    case null
    /// A full-date: tag 1004 around "YYYY-MM-DD", or tag 100 around days since 1970-01-01
    /// (RFC 8943).
    case fullDate(FullDate)
    /// A tdate: tag 0 around an RFC 3339 date-time, kept as signed (RFC 8949 §3.4.1).
    case dateTime(RFC3339Timestamp)
    /// An array.
    case array([MdocElementValue])
    /// A map, entries in the order signed.
    case map([MdocElementEntry])
    /// A tag Sigil does not interpret, or a date tag around something that is not a date.
    case tagged(UInt64, MdocElementValue)
    /// An integer beyond Int64 (kept as the CBOR item).
    case otherInteger(CBORValue)

    /// The value of a decoded CBOR item.
    init(_ value: CBORValue) {
        switch value {
        case .unsigned, .negative:
            if let n = value.int64Value { self = .integer(n) } else { self = .otherInteger(value) }
        case .bytes(let b): self = .bytes(b)
        case .text(let t): self = .text(t)
        case .array(let items): self = .array(items.map(MdocElementValue.init))
        case .map(let entries):
            self = .map(entries.map { MdocElementEntry(key: MdocElementValue($0.key), value: MdocElementValue($0.value)) })
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        case .float(let f): self = .float(f)
        case .tagged(1004, .text(let text)):
            if let date = FullDate(text) { self = .fullDate(date) } else { self = .tagged(1004, .text(text)) }
        case .tagged(100, let days):
            if let n = days.int64Value, let date = FullDate(daysSinceEpoch: n) {
                self = .fullDate(date)
            } else {
                self = .tagged(100, MdocElementValue(days))
            }
        case .tagged(0, .text(let text)):
            if let time = RFC3339Timestamp(text) { self = .dateTime(time) } else { self = .tagged(0, .text(text)) }
        case .tagged(let tag, let inner): self = .tagged(tag, MdocElementValue(inner))
        }
    }

    /// The text, when this is a text string.
    public var text: String? { if case .text(let t) = self { t } else { nil } }
    /// The bytes, when this is a byte string.
    public var bytes: [UInt8]? { if case .bytes(let b) = self { b } else { nil } }
    /// The integer, when this is one within Int64.
    public var integer: Int64? { if case .integer(let n) = self { n } else { nil } }
    /// The boolean, when this is one.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The full-date, when this is one.
    public var fullDate: FullDate? { if case .fullDate(let d) = self { d } else { nil } }
    /// The tdate, when this is one.
    public var dateTime: RFC3339Timestamp? { if case .dateTime(let t) = self { t } else { nil } }
    /// The items, when this is an array.
    public var array: [MdocElementValue]? { if case .array(let a) = self { a } else { nil } }
    /// The entries, when this is a map.
    public var map: [MdocElementEntry]? { if case .map(let m) = self { m } else { nil } }

    /// The value of the text key `key`, when this is a map that has it.
    public subscript(key: String) -> MdocElementValue? {
        map?.first { $0.key == .text(key) }?.value
    }

    /// The kind of value, without the value or its size (the length of a name says something
    /// about the person): what logs and `--explain` may show.
    public var kindDescription: String {
        switch self {
        case .text: "text"
        case .bytes: "byte string"
        case .integer: "integer"
        case .bool: "boolean"
        case .float: "float"
        case .null: "null"
        case .fullDate: "full-date"
        case .dateTime: "tdate"
        case .array: "array"
        case .map: "map"
        case .tagged(let tag, let inner): "tag \(tag) around \(inner.kindDescription)"
        case .otherInteger: "integer beyond 64 bits"
        }
    }

    /// The value itself, printed: only for a caller that asked for the values (`--values`).
    public var disclosedDescription: String {
        switch self {
        case .text(let t): "\"\(t)\""
        case .bytes(let b): "h'\(Base16.encode(b))'"
        case .integer(let n): String(n)
        case .bool(let b): String(b)
        case .float(let f): String(f)
        case .null: "null"
        case .fullDate(let d): "1004(\"\(d)\")"
        case .dateTime(let t): "0(\"\(t.text)\")"
        case .array(let a): "[" + a.map { $0.disclosedDescription }.joined(separator: ", ") + "]"
        case .map(let m): "{" + m.map { "\($0.key.disclosedDescription): \($0.value.disclosedDescription)" }.joined(separator: ", ") + "}"
        case .tagged(let tag, let inner): "\(tag)(\(inner.disclosedDescription))"
        case .otherInteger(let value):
            switch value {
            case .unsigned(let n): String(n)
            case .negative(let n): "-1-\(n)"
            default: value.kindName
            }
        }
    }
}

extension MdocElementValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind only (``kindDescription``): a value printed by accident reveals nothing.
    public var description: String { kindDescription }
    /// The kind only.
    public var debugDescription: String { "MdocElementValue(\(kindDescription))" }
    /// A mirror without children, so `dump` shows no value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}

/// One entry of a map-valued element.
public struct MdocElementEntry: Sendable, Hashable {
    /// The key.
    public let key: MdocElementValue
    /// The value.
    public let value: MdocElementValue
}

/// A calendar date without a time (RFC 3339 full-date, RFC 8943): a birth date, an expiry date.
public struct FullDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 0000–9999.
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month.
    public let day: Int

    /// Reads "YYYY-MM-DD"; nil when it is not a valid date in that form.
    public init?(_ text: String) {
        let c = Array(text.utf8)
        guard c.count == 10, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard c[range].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return c[range].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
            (try? ASN1TimeComponents(year: y, month: m, day: d, hour: 0, minute: 0, second: 0)) != nil
        else { return nil }
        (year, month, day) = (y, m, d)
    }

    /// The date `days` after 1970-01-01 (RFC 8943's tag 100); nil outside years 0000–9999.
    public init?(daysSinceEpoch days: Int64) {
        guard days > -800_000, days < 3_000_000,
            let components = try? ASN1TimeComponents(secondsSinceEpoch: days * 86_400)
        else { return nil }
        (year, month, day) = (components.year, components.month, components.day)
    }

    /// Seconds since the epoch at midnight UTC of this date.
    public var secondsSinceEpoch: Int64 {
        (try? ASN1TimeComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0))?.secondsSinceEpoch ?? 0
    }

    /// "YYYY-MM-DD".
    public var description: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Orders by date.
    public static func < (lhs: FullDate, rhs: FullDate) -> Bool { (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day) }
}
