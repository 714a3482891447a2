import SigilBase
import SigilX509

/// The one error type of SigilService: what was wrong with a request, before any verifier ran.
///
/// Every door (the C ABI, the Python package, the HTTP service) answers these as
/// `{"valid": false, "error": {"code": "request.<code>", "message": …, "failures": []}}`; the
/// HTTP service with 400, or 413 for `request.tooLarge`, 403 for `request.trustRefused`. A verifier's refusal is never
/// one of these: it keeps its own module's `domain.code`.
public struct ServiceError: ModuleError {
    /// "request": `request.code` names these errors across Sigil.
    public static let domain = "request"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// No request at all (a NULL pointer through the C ABI).
        public static var missing: Code { Code("missing") }
        /// The request is larger than ``VerificationRequest/maximumBytes``.
        public static var tooLarge: Code { Code("tooLarge") }
        /// Not one JSON text: invalid UTF-8, bad grammar, a duplicate member name, or nesting
        /// deeper than the JSON parser's limit; the message names the byte offset.
        public static var invalidJSON: Code { Code("invalidJSON") }
        /// JSON, but not an object.
        public static var notAnObject: Code { Code("notAnObject") }
        /// A member the schema does not name (never ignored: a misspelt option must not be
        /// dropped silently).
        public static var unknownMember: Code { Code("unknownMember") }
        /// A member the request's kind needs is absent.
        public static var missingMember: Code { Code("missingMember") }
        /// A member of the wrong type, out of range, or not valid for the request's kind.
        public static var invalidMember: Code { Code("invalidMember") }
        /// The request brought trust configuration — `roots` that are not Apple's root for the
        /// kind, `environments: ["Xcode"]`, `unpinnedTestRoot` — and the service refuses it
        /// (``RequestTrust/refused``; the HTTP service answers 403).
        public static var trustRefused: Code { Code("trustRefused") }
    }

    /// The code.
    public let code: Code
    /// What was wrong, naming the member.
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// Why the service could not answer a well-formed request, through no fault of the request:
/// `service.code` (the HTTP service sends 501 for `notConfigured`, 503 for
/// `replayStoreUnavailable`). Never a verifier's refusal, and never a request error.
public struct ServiceConfigurationError: ModuleError {
    /// "service": `service.code` names these errors across Sigil.
    public static let domain = "service"
    /// A stable code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The request's kind needs configuration this door does not have: `applepay` needs the
        /// merchant keys and a replay store (or the named relaxation that disables it), which only
        /// the HTTP verification service is given (the C ABI and the Python package answer this);
        /// `mdoc` needs IACA roots, the request's or the service's; Embedded builds have no `mdoc`.
        public static var notConfigured: Code { Code("notConfigured") }
        /// The replay store did not record the transaction (it failed or did not answer in time):
        /// nothing was accepted, the request may be sent again.
        public static var replayStoreUnavailable: Code { Code("replayStoreUnavailable") }
    }

    /// The code.
    public let code: Code
    /// What was missing or failed (never a secret).
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

extension ServiceConfigurationError {
    /// Kind applepay at a door that holds no merchant keys and no replay store: the C ABI, the
    /// Python package, sigil.wasm and the bare HTTP service answer it alike.
    static let applePayNotConfigured = ServiceConfigurationError(
        .notConfigured,
        "kind applepay needs the service's merchant keys and a replay store (the HTTP verification service's --applepay-* options)")

    /// Kind mdoc in an Embedded Swift build (sigil.wasm, the native Embedded verifier): SigilMdoc
    /// is not part of them.
    static let mdocNotInEmbeddedBuilds = ServiceConfigurationError(
        .notConfigured, "kind mdoc is not part of this build (Embedded Swift: sigil.wasm, the native Embedded verifier)")
}

/// What a verification refused, typed all the way to the answer: the service's own errors and each
/// verifier's, carried with the qualified code, the reason, the chain's typed failures and the
/// HTTP status. Made from a concrete error type by overload (no cast, no existential), so Embedded
/// Swift builds the same answers.
struct Refusal: Error {
    /// The answer's status.
    let status: VerificationAnswer.Status
    /// `domain.code`.
    let code: String
    /// What was wrong, for people.
    let reason: String
    /// The chain's failures, for a verifier's error that carries them.
    let failures: [ValidationFailure]

    /// A request refused before any verifier ran (400, or 403 / 413 as its code says).
    init(_ error: ServiceError) {
        status =
            switch error.code {
            case .tooLarge: .tooLarge
            case .trustRefused: .trustRefused
            default: .invalidRequest
            }
        code = error.qualifiedCode
        reason = error.reason
        failures = []
    }

    /// The service's configuration lacks what the kind needs (501), or its replay store did not
    /// answer (503).
    init(_ error: ServiceConfigurationError) {
        status = error.code == .notConfigured ? .notConfigured : .unavailable
        code = error.qualifiedCode
        reason = error.reason
        failures = []
    }

    /// A verifier refused the data, with the failures of the chain it validated (422).
    init<Failure: ChainFailureError>(_ error: Failure) {
        status = .refused
        code = error.qualifiedCode
        reason = error.reason
        failures = error.failures
    }

    /// Any other module's error (422).
    init<Failure: CodedError>(_ error: Failure) {
        status = .refused
        code = error.qualifiedCode
        reason = error.reason
        failures = []
    }

    /// The answer document.
    var answer: VerificationAnswer {
        VerificationAnswer(status: status, json: AnswerEncoding.failure(code: code, message: reason, failures: failures).serialized)
    }
}
