import SigilX509

/// A reader for the old-style (OpenStep) property-list dictionaries of iOS 6-era transaction
/// receipts: `{ "key" = "value"; … }` with quoted or bare strings, `\"`, `\\`, `\n`, `\t` and
/// `\uXXXX` escapes. Only a flat dictionary of strings is accepted (that is all the format uses);
/// input size and entry count are bounded.
enum OldStylePlist {
    static let maximumSize = 1 << 20
    static let maximumEntries = 1024

    static func dictionary(_ bytes: [UInt8]) throws(ReceiptError) -> [(key: String, value: String)] {
        guard bytes.count <= maximumSize else { throw ReceiptError(.malformed, "plist of \(bytes.count) bytes is too large") }
        var i = 0
        func fail(_ reason: String) -> ReceiptError { ReceiptError(.malformed, "old-style plist: \(reason) at byte \(i)") }
        func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }
        func isBare(_ b: UInt8) -> Bool {
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || [0x2D, 0x2E, 0x5F, 0x2F, 0x3A].contains(b)
        }
        func string() throws(ReceiptError) -> String {
            skipSpace()
            guard i < bytes.count else { throw fail("a string was expected") }
            if bytes[i] != UInt8(ascii: "\"") {
                let start = i
                while i < bytes.count, isBare(bytes[i]) { i += 1 }
                guard i > start else { throw fail("a string was expected") }
                return String(decoding: bytes[start..<i], as: UTF8.self)
            }
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "\"") { break }
                if b != UInt8(ascii: "\\") {
                    out.append(b)
                    continue
                }
                guard i < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): out.append(e)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { throw fail("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    i += 4
                default: throw fail("unknown escape \\\(Character(Unicode.Scalar(e)))")
                }
            }
            guard let text = String(validating: out, as: UTF8.self) else { throw fail("string is not UTF-8") }
            return text
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw fail("a dictionary must start with {") }
        i += 1
        var entries: [(key: String, value: String)] = []
        while true {
            skipSpace()
            guard i < bytes.count else { throw fail("unterminated dictionary") }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                break
            }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw fail("= expected after key \"\(key)\"") }
            i += 1
            let value = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else { throw fail("; expected after the value of \"\(key)\"") }
            i += 1
            guard !entries.contains(where: { $0.key == key }) else { throw fail("key \"\(key)\" appears twice") }
            entries.append((key, value))
            guard entries.count <= maximumEntries else { throw fail("too many entries") }
        }
        skipSpace()
        guard i == bytes.count else { throw fail("trailing bytes after the dictionary") }
        return entries
    }
}
