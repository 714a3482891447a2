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
}
