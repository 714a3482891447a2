import SigilASN1

#if !hasFeature(Embedded)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// A date as Apple's signed data writes it: milliseconds since 1970-01-01T00:00:00Z, as a JSON
/// number. The exact value received is kept (Xcode's StoreKit testing writes fractional
/// milliseconds such as 1697680122257.447), so decoding then encoding changes nothing.
///
/// The model holds the number itself; the Foundation `Date` view (``date``, ``init(_:)``) exists
/// only in the regular build, not in Embedded Swift.
public struct AppStoreDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since the epoch, exactly as received.
    public let millisecondsSince1970: Double

    /// A date from milliseconds since 1970 (fractions kept).
    public init(millisecondsSince1970: Double) { self.millisecondsSince1970 = millisecondsSince1970 }
    /// A date from whole milliseconds since 1970.
    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = Double(millisecondsSince1970) }

    /// Whole seconds since the epoch, rounded down (the X.509 validation time).
    public var secondsSince1970: Int64 { Int64((millisecondsSince1970 / 1000).rounded(.down)) }

    /// Whether a number of milliseconds is a date Apple's data can carry: finite and under 10¹⁷
    /// in magnitude (about ±3 million years), as both readers check.
    static func isInRange(_ milliseconds: Double) -> Bool { milliseconds.isFinite && abs(milliseconds) < 1e17 }

    /// The refusal of a date outside ``isInRange(_:)``, one text for both readers (the number
    /// itself is the caller's, in the member the refusal names).
    static var outOfRange: String { "a date 10¹⁷ ms or more from 1970 is out of range" }

    /// Earlier dates order first.
    public static func < (lhs: AppStoreDate, rhs: AppStoreDate) -> Bool { lhs.millisecondsSince1970 < rhs.millisecondsSince1970 }
    /// RFC 3339 in UTC to the second, e.g. "2025-10-01T07:08:38Z" (the fraction of a second is
    /// dropped); a date outside years 0000–9999 prints as its milliseconds.
    public var description: String {
        guard let components = try? ASN1TimeComponents(secondsSinceEpoch: secondsSince1970) else {
            return "\(millisecondsSince1970) ms since 1970"
        }
        return components.description
    }
}

#if !hasFeature(Embedded)
extension AppStoreDate {
    /// A date from a Foundation `Date`, rounded toward zero to the millisecond.
    public init(_ date: Date) { self.init(millisecondsSince1970: (date.timeIntervalSince1970 * 1000).rounded(.towardZero)) }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: millisecondsSince1970 / 1000) }
}

extension AppStoreDate: Codable {
    /// Decodes a JSON number of milliseconds since 1970 (a fraction is accepted, as Apple's libraries accept it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard AppStoreDate.isInRange(value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: AppStoreDate.outOfRange)
        }
        self.init(millisecondsSince1970: value)
    }

    /// Encodes milliseconds since 1970 as a JSON integer when whole, else as a number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if millisecondsSince1970.rounded() == millisecondsSince1970, let whole = Int64(exactly: millisecondsSince1970) {
            try container.encode(whole)
        } else {
            try container.encode(millisecondsSince1970)
        }
    }
}
#endif
