/// The restricted character string types Sigil reads (X.680 41; X.690 8.23).
///
/// ```
/// UTF8String      ::= [UNIVERSAL 12] IMPLICIT OCTET STRING  -- UTF-8 (RFC 3629)
/// NumericString   ::= [UNIVERSAL 18] IMPLICIT OCTET STRING  -- digits and space
/// PrintableString ::= [UNIVERSAL 19] IMPLICIT OCTET STRING  -- A–Z a–z 0–9 space ' ( ) + , - . / : = ?
/// IA5String       ::= [UNIVERSAL 22] IMPLICIT OCTET STRING  -- 7-bit ASCII
/// VisibleString   ::= [UNIVERSAL 26] IMPLICIT OCTET STRING  -- printable ASCII 0x20–0x7E
/// BMPString       ::= [UNIVERSAL 30] IMPLICIT OCTET STRING  -- UCS-2 big-endian, no surrogates
/// ```
/// Each keeps the octets received (`bytes`) and exposes the decoded `value`; decoding rejects any
/// octet outside the type's repertoire. Under BER the string may be constructed (segmented).
public protocol ASN1CharacterString: ASN1ImplicitlyTaggable, Hashable, Sendable, CustomStringConvertible {
    /// The string's octets, as received or encoded.
    var bytes: [UInt8] { get }
    /// Wraps octets already checked against the repertoire.
    init(validatedBytes: [UInt8])
    /// Checks `bytes` against the repertoire and decodes them.
    static func decode(_ bytes: [UInt8]) -> String?
    /// Encodes `value`, or nil when it has characters outside the repertoire.
    static func encode(_ value: String) -> [UInt8]?
    /// Whether `content` is within the repertoire (what `decode` accepts), without keeping anything.
    static func isValidContent(_ content: ArraySlice<UInt8>) -> Bool
    /// The text of content already checked by `isValidContent`.
    static func text(ofValidContent content: ArraySlice<UInt8>) -> String
}

extension ASN1CharacterString {
    /// Decodes a string tagged `identifier`, refusing any octet outside the repertoire.
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        self.init(validatedBytes: Array(try Self.validatedContent(node, identifier: identifier)))
    }

    /// Checks `node` as this string type — tag, form, repertoire: exactly what `init(node:)`
    /// checks, with the same errors — without copying or decoding it.
    public static func validate(_ node: ASN1Node, identifier: ASN1Identifier = Self.defaultIdentifier) throws(ASN1Error) {
        _ = try validatedContent(node, identifier: identifier)
    }

    static func validatedContent(_ node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) -> ArraySlice<UInt8> {
        guard node.identifier == identifier else {
            throw node.error(.unexpectedTag, "expected \(identifier), found \(node.identifier)")
        }
        let content = try ASN1.stringContent(node, segmentTag: Self.defaultIdentifier)
        guard Self.isValidContent(content) else {
            throw node.error(.invalidString, "\(Self.defaultIdentifier) has characters outside its repertoire")
        }
        return content
    }

    public static func isValidContent(_ content: ArraySlice<UInt8>) -> Bool { decode(Array(content)) != nil }

    public static func text(ofValidContent content: ArraySlice<UInt8>) -> String { decode(Array(content)) ?? "" }

    /// The text of `node` as this string type: the checks and errors of `init(node:)`, then the
    /// `value`, without keeping a copy of the octets.
    public static func decodeText(_ node: ASN1Node, identifier: ASN1Identifier = Self.defaultIdentifier) throws(ASN1Error) -> String {
        text(ofValidContent: try validatedContent(node, identifier: identifier))
    }

    /// Encodes `value`, throwing when it has characters outside the type's repertoire.
    public init(_ value: String) throws(ASN1Error) {
        guard let bytes = Self.encode(value) else {
            throw ASN1Error(.invalidString, "\"\(value)\" has characters outside \(Self.defaultIdentifier)")
        }
        self.init(validatedBytes: bytes)
    }

    /// Writes the octets under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: bytes)
    }

    /// The decoded text (the bytes were validated on construction).
    public var value: String { Self.decode(bytes) ?? "" }
    /// The decoded text.
    public var description: String { value }
}

/// Strings whose repertoire is a set of single octets.
protocol ASN1ByteCharacterString: ASN1CharacterString {
    static func allows(_ octet: UInt8) -> Bool
}

extension ASN1ByteCharacterString {
    public static func isValidContent(_ content: ArraySlice<UInt8>) -> Bool { content.allSatisfy(allows) }

    public static func text(ofValidContent content: ArraySlice<UInt8>) -> String { String(decoding: content, as: UTF8.self) }

    public static func decode(_ bytes: [UInt8]) -> String? {
        bytes.allSatisfy(allows) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    public static func encode(_ value: String) -> [UInt8]? {
        let bytes = Array(value.utf8)
        return bytes.allSatisfy(allows) ? bytes : nil
    }
}

/// UTF8String: any Unicode text in UTF-8.
public struct ASN1UTF8String: ASN1CharacterString {
    /// The octets, as received or encoded.
    public let bytes: [UInt8]
    /// Wraps octets already checked against the repertoire.
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    /// UTF8String.
    public static var defaultIdentifier: ASN1Identifier { .utf8String }

    public static func decode(_ bytes: [UInt8]) -> String? {
        // Strict UTF-8: String(validating:) refuses overlongs, surrogates and truncated sequences.
        String(validating: bytes, as: UTF8.self)
    }

    /// Well-formed UTF-8 (RFC 3629 §4; Unicode 15 Table 3-7): the sequences `String(validating:)`
    /// accepts — no overlong forms, no surrogates (U+D800–DFFF), nothing above U+10FFFF, no
    /// truncated sequence — checked in place: no String is built and no generic metadata looked
    /// up, which made the standard library's check the largest single cost of validating a name.
    public static func isValidContent(_ content: ArraySlice<UInt8>) -> Bool {
        var i = content.startIndex
        let end = content.endIndex
        while i < end {
            let lead = content[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The allowed range of the second octet, and how many octets the sequence has.
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0  // E0 80–9F would be overlong
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F  // ED A0–BF would be a surrogate
            case 0xF0:
                length = 4
                low = 0x90  // F0 80–8F would be overlong
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F  // F4 90+ would be above U+10FFFF
            default: return false  // 80–C1 (continuation or overlong lead), F5–FF
            }
            guard end - i >= length else { return false }
            let second = content[i + 1]
            guard second >= low && second <= high else { return false }
            var k = 2
            while k < length {
                guard content[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += length
        }
        return true
    }

    public static func text(ofValidContent content: ArraySlice<UInt8>) -> String { String(decoding: content, as: UTF8.self) }

    public static func encode(_ value: String) -> [UInt8]? { Array(value.utf8) }
}

/// PrintableString: A–Z a–z 0–9 space and ' ( ) + , - . / : = ?.
public struct ASN1PrintableString: ASN1ByteCharacterString {
    /// The octets, as received or encoded.
    public let bytes: [UInt8]
    /// Wraps octets already checked against the repertoire.
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    /// PrintableString.
    public static var defaultIdentifier: ASN1Identifier { .printableString }

    static func allows(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return " '()+,-./:=?".utf8.contains(c)
        }
    }
}

/// IA5String: 7-bit ASCII.
public struct ASN1IA5String: ASN1ByteCharacterString {
    /// The octets, as received or encoded.
    public let bytes: [UInt8]
    /// Wraps octets already checked against the repertoire.
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    /// IA5String.
    public static var defaultIdentifier: ASN1Identifier { .ia5String }
    static func allows(_ c: UInt8) -> Bool { c < 0x80 }
}

/// VisibleString: printable ASCII, 0x20–0x7E.
public struct ASN1VisibleString: ASN1ByteCharacterString {
    /// The octets, as received or encoded.
    public let bytes: [UInt8]
    /// Wraps octets already checked against the repertoire.
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    /// VisibleString.
    public static var defaultIdentifier: ASN1Identifier { .visibleString }
    static func allows(_ c: UInt8) -> Bool { (0x20...0x7E).contains(c) }
}

/// NumericString: digits and space.
public struct ASN1NumericString: ASN1ByteCharacterString {
    /// The octets, as received or encoded.
    public let bytes: [UInt8]
    /// Wraps octets already checked against the repertoire.
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    /// NumericString.
    public static var defaultIdentifier: ASN1Identifier { .numericString }
    static func allows(_ c: UInt8) -> Bool { c == 0x20 || (0x30...0x39).contains(c) }
}

/// BMPString: UCS-2 big-endian without surrogates.
public struct ASN1BMPString: ASN1CharacterString {
    /// The octets, as received or encoded.
    public let bytes: [UInt8]
    /// Wraps octets already checked against the repertoire.
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    /// BMPString.
    public static var defaultIdentifier: ASN1Identifier { .bmpString }

    public static func decode(_ bytes: [UInt8]) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var scalars = String.UnicodeScalarView()
        for i in stride(from: 0, to: bytes.count, by: 2) {
            // UCS-2: one code unit per character; surrogate code units are not characters.
            let unit = UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])
            guard let scalar = Unicode.Scalar(unit) else { return nil }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    public static func encode(_ value: String) -> [UInt8]? {
        var out: [UInt8] = []
        for scalar in value.unicodeScalars {
            guard scalar.value <= 0xFFFF else { return nil }
            out.append(UInt8(scalar.value >> 8))
            out.append(UInt8(scalar.value & 0xFF))
        }
        return out
    }
}
