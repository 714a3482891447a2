import SigilBase

/// The one error type of SigilASN1.
///
/// Every rejection names what was wrong (`code`, stable, for programs; `reason`, for people) and,
/// where the input is bytes, the byte offset in the caller's input at which the fault was found.
public struct ASN1Error: ModuleError {
    /// "asn1": `asn1.code` names this module's errors across Sigil.
    public static let domain = "asn1"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The input ended inside an identifier, a length or a value.
        public static var truncated: Code { Code("truncated") }
        /// Bytes follow the last complete element.
        public static var trailingBytes: Code { Code("trailingBytes") }
        /// A length field breaks the encoding rules (non-minimal in DER, reserved 0xFF, too long).
        public static var invalidLength: Code { Code("invalidLength") }
        /// An indefinite length where the rules (DER) or the form (primitive) do not allow it.
        public static var indefiniteLength: Code { Code("indefiniteLength") }
        /// An indefinite-length value whose end-of-contents marker is missing or malformed.
        public static var missingEndOfContents: Code { Code("missingEndOfContents") }
        /// A malformed identifier: non-minimal or overflowing high tag number, or universal tag 0.
        public static var invalidIdentifier: Code { Code("invalidIdentifier") }
        /// A universal type encoded constructed where it must be primitive, or vice versa.
        public static var invalidConstruction: Code { Code("invalidConstruction") }
        /// Nesting deeper than the parser's limit.
        public static var tooDeep: Code { Code("tooDeep") }
        /// Input larger than the parser's size limit.
        public static var tooLarge: Code { Code("tooLarge") }
        /// An element has a different tag from the one the schema expects.
        public static var unexpectedTag: Code { Code("unexpectedTag") }
        /// A SEQUENCE or SET has children left over after the schema was read, or too few.
        public static var unexpectedElementCount: Code { Code("unexpectedElementCount") }
        /// A BOOLEAN that is not one byte, or (DER) not 0x00 / 0xFF.
        public static var invalidBoolean: Code { Code("invalidBoolean") }
        /// An INTEGER that is empty or not in its fewest octets (X.690 8.3.2).
        public static var invalidInteger: Code { Code("invalidInteger") }
        /// An INTEGER that does not fit the requested machine type.
        public static var integerOutOfRange: Code { Code("integerOutOfRange") }
        /// A BIT STRING with a bad unused-bits count or (DER) non-zero unused bits.
        public static var invalidBitString: Code { Code("invalidBitString") }
        /// A NULL with content.
        public static var invalidNull: Code { Code("invalidNull") }
        /// An OBJECT IDENTIFIER that is empty, non-minimal, truncated, or has an arc that overflows.
        public static var invalidObjectIdentifier: Code { Code("invalidObjectIdentifier") }
        /// A character string with bytes outside its character set or encoding.
        public static var invalidString: Code { Code("invalidString") }
        /// A UTCTime or GeneralizedTime outside its strict DER form, or naming an impossible date.
        public static var invalidTime: Code { Code("invalidTime") }
        /// A SET OF whose elements are not in DER order (X.690 11.6).
        public static var unsortedSet: Code { Code("unsortedSet") }
        /// PEM framing: missing or mismatched BEGIN/END lines, unexpected label, headers.
        public static var invalidPEM: Code { Code("invalidPEM") }
        /// Base64 text with a character outside the alphabet, bad padding or non-zero spare bits.
        public static var invalidBase64: Code { Code("invalidBase64") }
    }

    /// Why the parse failed, as a stable code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String
    /// Byte offset into the caller's input where the fault was found, when there is one.
    public let offset: Int?

    /// An error with `code` and `reason`, at no particular offset.
    public init(_ code: Code, _ reason: String) { self.init(code, reason, offset: nil) }

    /// An error with `code` and `reason`, found at byte `offset` of the caller's input.
    public init(_ code: Code, _ reason: String, offset: Int?) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// Code, reason and byte offset, for people.
    public var description: String {
        if let offset { return "\(code) at byte \(offset): \(reason)" }
        return "\(code): \(reason)"
    }

}
