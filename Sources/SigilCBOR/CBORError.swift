import SigilBase

/// The one error type of SigilCBOR.
///
/// Every refusal names what was wrong (`code`, stable, for programs; `reason`, for people) and the
/// byte offset in the caller's input where the offending data item (or its head) starts.
public struct CBORError: ModuleError {
    /// "cbor": `cbor.code` names this module's errors across Sigil.
    public static let domain = "cbor"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code as a string.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The input ended inside a head, an argument or a value.
        public static var truncated: Code { Code("truncated") }
        /// Bytes follow the one top-level data item.
        public static var trailingBytes: Code { Code("trailingBytes") }
        /// An argument not in its shortest form (RFC 8949 §4.2.1, preferred serialization).
        public static var nonMinimalArgument: Code { Code("nonMinimalArgument") }
        /// Additional information 28, 29 or 30, reserved (RFC 8949 §3).
        public static var reservedAdditionalInfo: Code { Code("reservedAdditionalInfo") }
        /// An indefinite length, which the caller did not opt in to (or which the major type cannot have).
        public static var indefiniteLength: Code { Code("indefiniteLength") }
        /// A "break" stop code outside an indefinite-length item, or a chunk of the wrong type inside one.
        public static var invalidIndefiniteItem: Code { Code("invalidIndefiniteItem") }
        /// A tag (major type 6), which the caller did not opt in to.
        public static var tagNotAllowed: Code { Code("tagNotAllowed") }
        /// A floating-point value (major type 7, 25–27), which the caller did not opt in to.
        public static var floatNotAllowed: Code { Code("floatNotAllowed") }
        /// A simple value other than false, true and null, or one in the two-byte form below 32.
        public static var unsupportedSimpleValue: Code { Code("unsupportedSimpleValue") }
        /// A text string that is not valid UTF-8.
        public static var invalidUTF8: Code { Code("invalidUTF8") }
        /// A map with the same key twice (RFC 8949 §5.6).
        public static var duplicateMapKey: Code { Code("duplicateMapKey") }
        /// Map keys not in the core deterministic order (RFC 8949 §4.2.1), when the caller asks for it.
        public static var unsortedMapKeys: Code { Code("unsortedMapKeys") }
        /// A length larger than the rest of the input, or than Int.
        public static var invalidLength: Code { Code("invalidLength") }
        /// Nesting deeper than the decoder's limit.
        public static var tooDeep: Code { Code("tooDeep") }
        /// More data items than the decoder's limit.
        public static var tooManyItems: Code { Code("tooManyItems") }
        /// Input larger than the decoder's size limit.
        public static var tooLarge: Code { Code("tooLarge") }
        /// A data item of another type than the schema expects (accessors of ``CBORValue``).
        public static var unexpectedType: Code { Code("unexpectedType") }
    }

    /// The stable code.
    public let code: Code
    /// What was wrong, for people.
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

    /// `code at byte n: reason`, or `code: reason` without an offset.
    public var description: String {
        if let offset { return "\(code) at byte \(offset): \(reason)" }
        return "\(code): \(reason)"
    }
}
