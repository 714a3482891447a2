/// Base64 (RFC 4648 §4) and base64url (§5), strict.
///
/// Decoding accepts only the alphabet's characters; padding is required for the standard
/// alphabet and refused for base64url unless the caller allows it; the spare bits of the last
/// character must be zero (§3.5), so every byte string has exactly one accepted encoding.
public enum Base64 {
    /// Which 64 characters encode the values.
    public enum Alphabet: Sendable {
        /// RFC 4648 §4: `+` and `/`.
        case standard
        /// RFC 4648 §5 (base64url): `-` and `_`.
        case url
    }

    /// Whether `=` padding is required, refused or optional when decoding.
    public enum Padding: Sendable {
        /// Padding must be present (standard base64 as in PEM).
        case required
        /// Padding must be absent (base64url as in JOSE).
        case forbidden
        /// Either, but if present it must be correct.
        case optional
    }

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardDecodeTable = decodeTable(standardTable)
    private static let urlDecodeTable = decodeTable(urlTable)

    private static func decodeTable(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }

    /// Encodes `bytes`; standard output is padded, base64url output is not.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, alphabet: Alphabet = .standard) -> String
    where Bytes.Element == UInt8 {
        let table = alphabet == .standard ? standardTable : urlTable
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(table[Int((n >> 18) & 63)])
            out.append(table[Int((n >> 12) & 63)])
            out.append(table[Int((n >> 6) & 63)])
            out.append(table[Int(n & 63)])
            i += 3
        }
        let rest = input.count - i
        if rest > 0 {
            let n = UInt32(input[i]) << 16 | (rest == 2 ? UInt32(input[i + 1]) << 8 : 0)
            out.append(table[Int((n >> 18) & 63)])
            out.append(table[Int((n >> 12) & 63)])
            if rest == 2 { out.append(table[Int((n >> 6) & 63)]) }
            if alphabet == .standard { out.append(contentsOf: Array(repeating: UInt8(ascii: "="), count: 3 - rest)) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` without the white space a wrapped or pasted encoding carries (space, tab, CR, LF):
    /// what every reader of base64 "as apps send it" (receipts, App Attest objects, an mdoc's
    /// DeviceResponse) decodes. Errors of ``decode(_:alphabet:padding:)`` then name offsets in the
    /// result.
    public static func removingWhiteSpace<Text: Collection>(_ text: Text) -> [UInt8] where Text.Element == UInt8 {
        text.filter { ![0x0A, 0x0D, 0x20, 0x09].contains($0) }
    }

    /// Decodes `text` strictly. Errors name the offending character's offset in `text`'s UTF-8.
    public static func decode<Text: Collection>(
        _ text: Text, alphabet: Alphabet = .standard,
        padding: Padding? = nil
    ) throws(ASN1Error) -> [UInt8]
    where Text.Element == UInt8 {
        let padding = padding ?? (alphabet == .standard ? .required : .forbidden)
        let input = Array(text)
        var end = input.count
        var padCount = 0
        while end > 0 && input[end - 1] == UInt8(ascii: "=") && padCount < 2 {
            end -= 1
            padCount += 1
        }
        if padCount > 0 {
            guard padding != .forbidden else {
                throw ASN1Error(.invalidBase64, "padding is not allowed here", offset: end)
            }
            guard input.count % 4 == 0 else {
                throw ASN1Error(.invalidBase64, "padded base64 length must be a multiple of 4", offset: input.count)
            }
        } else if padding == .required && input.count % 4 != 0 {
            throw ASN1Error(.invalidBase64, "base64 length must be a multiple of 4", offset: input.count)
        }
        guard end % 4 != 1 else {
            throw ASN1Error(.invalidBase64, "a single trailing base64 character encodes no byte", offset: end - 1)
        }
        // Whole groups of four characters through a 256-entry table (0xFF = not in the alphabet),
        // written straight into the output; the tail and any error go through the checked loop.
        // At most 3 bytes per whole group and 2 for a tail of 2–3 characters.
        let table = alphabet == .standard ? standardDecodeTable : urlDecodeTable
        var failure: ASN1Error?
        var accumulator: UInt32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: end / 4 * 3 + 2) { output, initialized in
            var written = 0
            var start = 0
            input.withUnsafeBufferPointer { buffer in
                table.withUnsafeBufferPointer { lookup in
                    while start + 4 <= end {
                        let a = lookup[Int(buffer[start])]
                        let b = lookup[Int(buffer[start + 1])]
                        let c = lookup[Int(buffer[start + 2])]
                        let d = lookup[Int(buffer[start + 3])]
                        guard (a | b | c | d) & 0xC0 == 0 else { break }
                        let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        output[written] = UInt8(truncatingIfNeeded: n >> 16)
                        output[written + 1] = UInt8(truncatingIfNeeded: n >> 8)
                        output[written + 2] = UInt8(truncatingIfNeeded: n)
                        written += 3
                        start += 4
                    }
                }
            }
            var bits = 0
            for i in start..<end {
                guard let value = sextet(input[i], alphabet) else {
                    failure = ASN1Error(
                        .invalidBase64, "character 0x\(String(input[i], radix: 16)) is not in the alphabet",
                        offset: i)
                    break
                }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                    written += 1
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
            initialized = written
        }
        if let failure { throw failure }
        // §3.5: the spare bits of the final character must be zero (canonical encoding).
        guard accumulator == 0 else {
            throw ASN1Error(.invalidBase64, "non-zero bits after the last byte", offset: end - 1)
        }
        if padCount > 0 && (end % 4 == 0 || 4 - end % 4 != padCount) {
            throw ASN1Error(.invalidBase64, "wrong amount of padding", offset: end)
        }
        return out
    }

    @inline(__always)
    private static func sextet(_ c: UInt8, _ alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "/") where alphabet == .standard: return 63
        case UInt8(ascii: "-") where alphabet == .url: return 62
        case UInt8(ascii: "_") where alphabet == .url: return 63
        default: return nil
        }
    }
}
