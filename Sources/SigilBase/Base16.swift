/// RFC 4648 §8 base16 (hexadecimal) text, lowercase: fingerprints, serial numbers, digests and
/// RFC 4514 `#hex` values. The one hex formatter of the library modules (they use no
/// `String(format:)`, which would pull in Foundation's internationalization layer).
public enum Base16 {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, most significant nibble first.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`: an even number of hex digits, either case; nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count / 2)
        var i = 0
        while i < characters.count {
            guard let high = value(characters[i]), let low = value(characters[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}

/// An error code known only at run time (an HTTP status, a code from a server's answer), for
/// errors whose codes are not a fixed list.
public struct ErrorCodeName: ErrorCode {
    /// The code as a string.
    public let rawValue: String
    /// The code `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}
