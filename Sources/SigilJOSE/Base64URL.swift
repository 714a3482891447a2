import SigilASN1

/// base64url (RFC 4648 §5) as JOSE uses it (RFC 7515 §2): never padded on output; on input
/// strict by default (no padding, no whitespace, canonical final bits), with padding and one
/// trailing newline tolerated only when the caller opts in (Apple's example external purchase
/// tokens carry both).
public enum Base64URL {
    /// base64url without padding (RFC 7515 §2).
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base64.encode(bytes, alphabet: .url)
    }

    /// Strict base64url (RFC 4648 §5): no padding, no whitespace, canonical final bits. `lenient` also accepts `=` padding and one trailing newline, as Apple's example tokens carry them.
    public static func decode<Text: StringProtocol>(_ text: Text, lenient: Bool = false) throws(JOSEError) -> [UInt8] {
        try decode(ArraySlice(text.utf8), lenient: lenient)
    }

    /// Decodes base64url bytes (ASCII).
    public static func decode(_ text: ArraySlice<UInt8>, lenient: Bool = false) throws(JOSEError) -> [UInt8] {
        var bytes = text
        if lenient {
            if bytes.last == 0x0A { bytes.removeLast() }
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        do {
            return try Base64.decode(bytes, alphabet: .url, padding: lenient ? .optional : .forbidden)
        } catch {
            throw JOSEError(.malformed, "base64url: \(error.reason)")
        }
    }
}
