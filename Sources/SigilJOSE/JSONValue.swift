/// A JSON value as JOSE reads it (RFC 8259), parsed by a strict, bounded parser.
///
/// Why a parser of our own for headers and claims: RFC 7515 §5.2 step 4 asks that a JOSE header
/// with duplicate member names be rejected, which general JSON libraries silently resolve; and a
/// hostile token must not be able to nest deeper than `maximumDepth` or smuggle invalid UTF-8.
/// Numbers keep their exact source text, so nothing the sender wrote is altered.
public enum JSONValue: Hashable, Sendable {
    /// JSON null.
    case null
    /// true or false.
    case bool(Bool)
    /// The number's exact text (RFC 8259 §6 grammar, already validated).
    case number(String)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// Members in the order received (names are unique: duplicates are refused while parsing).
    case object([(String, JSONValue)])

    /// Equal when of the same kind with equal content: numbers by their exact text, objects member by member in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Hashes what == compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// Member lookup on an object (nil for other kinds or a missing name).
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// An object's member names in order (empty for other kinds).
    public var objectKeys: [String] { if case .object(let o) = self { o.map { $0.0 } } else { [] } }
    /// The string, or nil for any other kind of value.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The boolean, or nil for any other kind of value.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The elements, or nil for any other kind of value.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The number as an Int64 when its text is an integer in range (no fraction, no exponent).
    public var int64Value: Int64? { if case .number(let n) = self { Int64(n) } else { nil } }
    /// The number as a Double (any valid JSON number).
    public var doubleValue: Double? { if case .number(let n) = self { JSONValue.nearestDouble(toNumber: n) } else { nil } }

    /// Deepest nesting accepted.
    public static let maximumDepth = 64

    /// The longest member name an error message quotes, in UTF-8 bytes; a longer name is cut
    /// there and ends with "…".
    public static let maximumQuotedNameLength = 64

    /// `text` as an error message quotes input it was given: in double quotes, a quote and a
    /// backslash escaped, every byte outside printable ASCII — control characters, and each byte
    /// of a character beyond ASCII — as `\xHH`, cut after ``maximumQuotedNameLength`` bytes with
    /// "…" after the closing quote. The result is one line of printable ASCII whatever `text`
    /// holds, so a message carrying a client's member name can neither forge a log line nor grow
    /// with the input; the bytes stay readable (`é` is `\xC3\xA9`).
    public static func quotedForMessage(_ text: String) -> String {
        var out = "\""
        var count = 0
        for byte in text.utf8 {
            if count == maximumQuotedNameLength { return out + "\"…" }
            count += 1
            if byte == 0x22 || byte == 0x5C { out += "\\" }
            if byte >= 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x"
                for nibble in [byte >> 4, byte & 15] {
                    out.unicodeScalars.append(Unicode.Scalar(nibble < 10 ? 0x30 + nibble : 0x37 + nibble))
                }
            }
        }
        return out + "\""
    }

    /// Parses exactly one JSON text (surrounding whitespace allowed, nothing else).
    public init<Bytes: Collection>(parsing bytes: Bytes) throws(JOSEError) where Bytes.Element == UInt8 {
        var parser = JSONParser(Array(bytes))
        self = try parser.parseDocument()
    }

    /// Compact serialization (members in stored order, strings escaped per RFC 8259 §7).
    public var serialized: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Convenience builders for token claims.
    public static func int(_ value: Int64) -> JSONValue { .number(String(value)) }
}

/// RFC 8259 parser over bytes: strict grammar, UTF-8 validated, duplicate names refused,
/// depth-bounded. Every error names the byte offset.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JOSEError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("trailing bytes after the JSON value") }
        return value
    }

    func fail(_ reason: String) -> JOSEError { JOSEError(.malformed, "JSON at byte \(index): \(reason)") }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: StaticString) throws(JOSEError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw fail("unexpected token") }
        let text = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != text[offset] { throw fail("unexpected token") }
        index += count
    }

    /// The end of the run of plain string bytes starting at `start` — the first quote, backslash
    /// or control character, or the end of the input — and whether the run is all ASCII. Eight
    /// bytes at a time: a word goes to the byte loop only when one of its bytes may end the run.
    func plainRun(from start: Int) -> (end: Int, ascii: Bool) {
        bytes.withUnsafeBytes { raw in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var index = start
            var seen: UInt64 = 0
            while raw.count - index >= 8 {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                // A byte of `quote` or `backslash` is zero, or a byte of `word` is below 0x20.
                let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                if special & highs != 0 { break }
                seen |= word
                index += 8
            }
            while index < raw.count {
                let b = raw[index]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                seen |= UInt64(b)
                index += 1
            }
            return (index, seen & highs == 0)
        }
    }

    mutating func parseValue(depth: Int) throws(JOSEError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw fail("nested deeper than \(JSONValue.maximumDepth)") }
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw fail("unterminated array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                throw fail("expected , or ] in an array")
            }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default: return .number(try parseNumber())
        }
    }

    mutating func parseObject(depth: Int) throws(JOSEError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        // Duplicate detection: the first `hashedMembers` names by their FNV-1a hashes (on the
        // stack; a hash match is confirmed by comparing the names), any later ones in a set.
        let hashedMembers = 32
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: hashedMembers) { (hashes) throws(JOSEError) -> JSONValue in
            var names = Set<String>()
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let name = try parseString()
                let count = members.count
                // Room for eight members at the first: an App Store payload's two dozen take
                // three allocations instead of six.
                if count == 0 { members.reserveCapacity(8) }
                let duplicate: Bool
                if count < hashedMembers {
                    let hash = MemberNames.hash(name)
                    var found = false
                    for i in 0..<count where hashes[i] == hash && members[i].0 == name {
                        found = true
                        break
                    }
                    duplicate = found
                    hashes[count] = hash
                } else {
                    if names.isEmpty { names = Set(members.map { $0.0 }) }
                    duplicate = !names.insert(name).inserted
                }
                guard !duplicate else { throw fail("duplicate member name \(JSONValue.quotedForMessage(name))") }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected :") }
                index += 1
                skipWhitespace()
                members.append((name, try parseValue(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw fail("unterminated object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                throw fail("expected , or } in an object")
            }
        }
    }

    mutating func parseNumber() throws(JOSEError) -> String {
        let start = index
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid value") }
        if bytes[index] == 0x30 {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a fraction needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("an exponent needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard index - start <= 64 else { throw fail("a number longer than 64 characters") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func parseHex4() throws(JOSEError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseString() throws(JOSEError) -> String {
        index += 1  // opening quote
        // The common case first: no escape before the closing quote. The same checks, in the same
        // order, as the loop below (a control character, the end, then UTF-8 at the quote).
        let (end, ascii) = plainRun(from: index)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = index
            index = end
            let text: String
            if ascii {
                // All bytes below 0x80: valid UTF-8 as they are.
                text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
            } else {
                guard let valid = String(validating: bytes[start..<end], as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
                text = valid
            }
            index += 1
            return text
        }
        if end < bytes.count, bytes[end] < 0x20 {
            index = end
            throw fail("control character in a string")
        }
        var runStart = index
        var out = ""
        func flush(_ parser: JSONParser, upTo end: Int, into out: inout String) throws(JOSEError) {
            guard runStart < end else { return }
            guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                throw parser.fail("invalid UTF-8 in a string")
            }
            out += text
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                if out.isEmpty {
                    // No escape met: the run is the whole string (the common case).
                    guard let text = String(validating: bytes[runStart..<index], as: UTF8.self) else {
                        throw fail("invalid UTF-8 in a string")
                    }
                    index += 1
                    return text
                }
                try flush(self, upTo: index, into: &out)
                index += 1
                return out
            }
            if b < 0x20 { throw fail("control character in a string") }
            if b == UInt8(ascii: "\\") {
                try flush(self, upTo: index, into: &out)
                index += 1
                guard index < bytes.count else { throw fail("truncated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out += "\""
                case UInt8(ascii: "\\"): out += "\\"
                case UInt8(ascii: "/"): out += "/"
                case UInt8(ascii: "b"): out += "\u{08}"
                case UInt8(ascii: "f"): out += "\u{0C}"
                case UInt8(ascii: "n"): out += "\n"
                case UInt8(ascii: "r"): out += "\r"
                case UInt8(ascii: "t"): out += "\t"
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw fail("unpaired surrogate")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                    out.unicodeScalars.append(scalar)
                default: throw fail("invalid escape")
                }
                runStart = index
                continue
            }
            index += 1
        }
    }
}
