/// A stable error code: a string for programs to compare, never shown alone to people.
public protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The code as a string ("malformed", "INVALID_JWT_FORMAT").
    var rawValue: String { get }
}

extension ErrorCode {
    /// The raw value.
    public var description: String { rawValue }
}

/// The one shape of every Sigil error: a domain naming the module, a stable code, and a reason for
/// people. `domain.code` (``qualifiedCode``) names an error across the library, which is how the
/// CLI reports any of them.
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    /// The code type: a struct of static codes, open to new ones without breaking callers.
    associatedtype Code: ErrorCode
    /// The module's domain: "asn1", "core", "keys", "x509", "ocsp", "pkcs7", "jose", "appstore", "api", …
    static var domain: String { get }
    /// The stable code.
    var code: Code { get }
    /// What was wrong, for people.
    var reason: String { get }
}

extension CodedError {
    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    /// `domain.code`, the error's name across Sigil ("x509.malformed").
    public var qualifiedCode: String { "\(Self.domain).\(code.rawValue)" }
}

/// A module's own error type: a ``CodedError`` made from a code and a reason, compared and
/// hashed by code (the reason is prose), able to wrap what a lower layer threw.
public protocol ModuleError: CodedError, Hashable {
    /// An error with `code` and `reason`.
    init(_ code: Code, _ reason: String)
}

extension ModuleError {
    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, as == compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Another module's error as this one's, with `code`: the reason is `context: ` followed by the
    /// lower error's `domain.code` and reason, so nothing the lower layer said is lost. Typed: no
    /// cast, no existential (what Embedded Swift and typed `throws` need).
    public init<Lower: CodedError>(wrapping error: Lower, as code: Code, context: String) {
        self.init(code, "\(context): \(error.qualifiedCode): \(error.reason)")
    }

    /// An error of this very type passes through unchanged.
    public init(wrapping error: Self, as code: Code, context: String) {
        self = error
    }

    #if !hasFeature(Embedded)
    /// `error` itself when it is already of this type; otherwise an error with `code` whose reason
    /// is `context: ` followed by what `error` says (its `domain.code` and reason when it is a
    /// Sigil error), so nothing the lower layer said is lost. For errors whose type is not known
    /// statically (a caller's closure); the typed overloads above serve everything else (and win
    /// overload resolution whenever the error's type is known).
    @_disfavoredOverload
    public init(wrapping error: any Error, as code: Code, context: String) {
        if let same = error as? Self {
            self = same
        } else if let coded = error as? any CodedError {
            self.init(code, "\(context): \(coded.qualifiedCode): \(coded.reason)")
        } else {
            self.init(code, "\(context): \(error)")
        }
    }
    #endif
}
