/// The calendar fields shared by UTCTime and GeneralizedTime, always in UTC, with conversion to
/// and from seconds since 1970-01-01T00:00:00Z (proleptic Gregorian calendar, no leap seconds).
public struct ASN1TimeComponents: Hashable, Sendable, CustomStringConvertible {
    /// The year.
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int
    /// The hour, 0–23.
    public let hour: Int
    /// The minute, 0–59.
    public let minute: Int
    /// The second, 0–59.
    public let second: Int
    /// Fractional-second digits as received (GeneralizedTime only), without trailing zeros.
    public let fraction: String

    /// The time of these fields, which must form a valid date and time.
    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        fraction: String = ""
    ) throws(ASN1Error) {
        guard (0...9999).contains(year), (1...12).contains(month),
            (1...ASN1TimeComponents.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else {
            throw ASN1Error(.invalidTime, "\(year)-\(month)-\(day) \(hour):\(minute):\(second) is not a valid UTC time")
        }
        guard fraction.utf8.allSatisfy({ (48...57).contains($0) }), fraction.utf8.last != UInt8(ascii: "0") else {
            throw ASN1Error(.invalidTime, "fractional seconds must be digits without trailing zeros")
        }
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.fraction) =
            (year, month, day, hour, minute, second, fraction)
    }

    /// The time `seconds` after the Unix epoch (whole seconds; years 0000–9999).
    public init(secondsSinceEpoch seconds: Int64) throws(ASN1Error) {
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let dayNumber = secondOfDay < 0 ? days - 1 : days
        let sod = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let (y, m, d) = ASN1TimeComponents.civil(fromDays: dayNumber)
        try self.init(
            year: Int(y), month: m, day: d, hour: Int(sod / 3600), minute: Int(sod / 60 % 60),
            second: Int(sod % 60))
    }

    /// Whole seconds since the Unix epoch (the fraction is not included).
    public var secondsSinceEpoch: Int64 {
        ASN1TimeComponents.days(year: Int64(year), month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// RFC 3339, e.g. "2025-03-01T12:00:00Z" (with the fraction when there is one).
    public var description: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let frac = fraction.isEmpty ? "" : "." + fraction
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))\(frac)Z"
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given date: count whole 400-year eras (146,097 days each) in a
    /// calendar whose year starts on March 1, so the leap day falls at the end of the year.
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``days(year:month:day:)``.
    static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Reads `count` ASCII digits at `index`.
    static func digits(_ bytes: ArraySlice<UInt8>, _ index: Int, _ count: Int) -> Int? {
        var value = 0
        for i in 0..<count {
            let position = bytes.startIndex + index + i
            guard position < bytes.endIndex else { return nil }
            let c = bytes[position]
            guard (48...57).contains(c) else { return nil }
            value = value * 10 + Int(c - 48)
        }
        return value
    }
}

/// UTCTime (X.680 47; X.690 11.8; RFC 5280 §4.1.2.5.1).
///
/// ```
/// UTCTime ::= [UNIVERSAL 23] IMPLICIT VisibleString  -- DER: "YYMMDDHHMMSSZ", exactly
/// ```
/// Years 50–99 are 1950–1999 and 00–49 are 2000–2049 (RFC 5280). No other form is accepted, in
/// DER or BER: Sigil's BER users (receipts) carry their dates as strings, not as UTCTime.
public struct ASN1UTCTime: ASN1ImplicitlyTaggable, Hashable, Sendable, CustomStringConvertible {
    /// The date and time.
    public let components: ASN1TimeComponents

    /// UTCTime.
    public static var defaultIdentifier: ASN1Identifier { .utcTime }

    /// A UTCTime of `components`: years 1950–2049, whole seconds.
    public init(_ components: ASN1TimeComponents) throws(ASN1Error) {
        guard (1950...2049).contains(components.year), components.fraction.isEmpty else {
            throw ASN1Error(.invalidTime, "UTCTime covers 1950–2049 in whole seconds")
        }
        self.components = components
    }

    /// Decodes a UTCTime tagged `identifier`: exactly "YYMMDDHHMMSSZ".
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: false)
        let text = node.contentBytes
        guard text.count == 13, text.last == UInt8(ascii: "Z"),
            let yy = ASN1TimeComponents.digits(text, 0, 2), let month = ASN1TimeComponents.digits(text, 2, 2),
            let day = ASN1TimeComponents.digits(text, 4, 2), let hour = ASN1TimeComponents.digits(text, 6, 2),
            let minute = ASN1TimeComponents.digits(text, 8, 2), let second = ASN1TimeComponents.digits(text, 10, 2)
        else {
            throw node.error(.invalidTime, "UTCTime must be YYMMDDHHMMSSZ")
        }
        do {
            components = try ASN1TimeComponents(
                year: yy < 50 ? 2000 + yy : 1900 + yy, month: month, day: day,
                hour: hour, minute: minute, second: second)
        } catch {
            throw node.error(.invalidTime, error.reason)
        }
    }

    /// Writes "YYMMDDHHMMSSZ" under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        let c = components
        let text = [c.year % 100, c.month, c.day, c.hour, c.minute, c.second].map(twoDigits).joined() + "Z"
        writer.appendPrimitive(identifier, content: Array(text.utf8))
    }

    /// The time in RFC 3339 form.
    public var description: String { components.description }
}

/// GeneralizedTime (X.680 46; X.690 11.7; RFC 5280 §4.1.2.5.2).
///
/// ```
/// GeneralizedTime ::= [UNIVERSAL 24] IMPLICIT VisibleString
///   -- DER: "YYYYMMDDHHMMSS[.f…]Z"; the fraction, if present, has no trailing zeros and
///   -- at least one digit; no other offset than Z
/// ```
public struct ASN1GeneralizedTime: ASN1ImplicitlyTaggable, Hashable, Sendable, CustomStringConvertible {
    /// The date and time.
    public let components: ASN1TimeComponents

    /// GeneralizedTime.
    public static var defaultIdentifier: ASN1Identifier { .generalizedTime }

    /// A GeneralizedTime of `components`.
    public init(_ components: ASN1TimeComponents) { self.components = components }

    /// Decodes a GeneralizedTime tagged `identifier` in its DER form.
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: false)
        let text = node.contentBytes
        guard text.count >= 15, text.last == UInt8(ascii: "Z"),
            let year = ASN1TimeComponents.digits(text, 0, 4), let month = ASN1TimeComponents.digits(text, 4, 2),
            let day = ASN1TimeComponents.digits(text, 6, 2), let hour = ASN1TimeComponents.digits(text, 8, 2),
            let minute = ASN1TimeComponents.digits(text, 10, 2), let second = ASN1TimeComponents.digits(text, 12, 2)
        else {
            throw node.error(.invalidTime, "GeneralizedTime must be YYYYMMDDHHMMSS[.fff]Z")
        }
        var fraction = ""
        if text.count > 15 {
            let rest = text[(text.startIndex + 14)..<(text.endIndex - 1)]
            // X.690 11.7.3–11.7.4: "." then digits, at least one, the last not zero.
            guard rest.count >= 2, rest.first == UInt8(ascii: "."),
                rest.dropFirst().allSatisfy({ (48...57).contains($0) }), rest.last != UInt8(ascii: "0")
            else {
                throw node.error(.invalidTime, "GeneralizedTime fraction must be '.' and digits without trailing zeros")
            }
            fraction = String(decoding: rest.dropFirst(), as: UTF8.self)
        }
        do {
            components = try ASN1TimeComponents(
                year: year, month: month, day: day, hour: hour, minute: minute,
                second: second, fraction: fraction)
        } catch {
            throw node.error(.invalidTime, error.reason)
        }
    }

    /// Writes "YYYYMMDDHHMMSS[.f]Z" under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        let c = components
        let year = String(c.year)
        var text = String(repeating: "0", count: 4 - year.count) + year
        text += [c.month, c.day, c.hour, c.minute, c.second].map(twoDigits).joined()
        if !c.fraction.isEmpty { text += "." + c.fraction }
        writer.appendPrimitive(identifier, content: Array((text + "Z").utf8))
    }

    /// The time in RFC 3339 form.
    public var description: String { components.description }
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
