import SigilBase

/// The one error type of SigilCore.
///
/// `code` is stable and meant for programs; `reason` is for people. Neither ever carries secret
/// bytes (key material, nonces, intermediate values): only lengths, positions and public facts.
public struct SigilCoreError: ModuleError {
    /// "core": `core.code` names this module's errors across Sigil.
    public static let domain = "core"
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A number string had a character outside its base, a misplaced sign, or was empty.
        public static var invalidNumberString: Code { Code("invalidNumberString") }
        /// A value does not fit the requested width or type.
        public static var valueDoesNotFit: Code { Code("valueDoesNotFit") }
        /// A negative value was given where only non-negative ones are meaningful.
        public static var negativeValue: Code { Code("negativeValue") }
        /// Division or reduction by zero, or by a modulus that is not positive.
        public static var invalidModulus: Code { Code("invalidModulus") }
        /// The value has no inverse modulo the given modulus.
        public static var notInvertible: Code { Code("notInvertible") }
        /// A point encoding that is malformed, off the curve, or the point at infinity.
        public static var invalidPoint: Code { Code("invalidPoint") }
        /// A private key outside [1, n − 1] or otherwise unusable.
        public static var invalidKey: Code { Code("invalidKey") }
        /// A size or length argument is outside what the operation supports.
        public static var invalidLength: Code { Code("invalidLength") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people (never secret bytes).
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}
