import SigilBase

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
        public static let missing = Code("missing")
        /// The request is larger than ``VerificationRequest/maximumBytes``.
        public static let tooLarge = Code("tooLarge")
        /// Not one JSON text: invalid UTF-8, bad grammar, a duplicate member name, or nesting
        /// deeper than the JSON parser's limit; the message names the byte offset.
        public static let invalidJSON = Code("invalidJSON")
        /// JSON, but not an object.
        public static let notAnObject = Code("notAnObject")
        /// A member the schema does not name (never ignored: a misspelt option must not be
        /// dropped silently).
        public static let unknownMember = Code("unknownMember")
        /// A member the request's kind needs is absent.
        public static let missingMember = Code("missingMember")
        /// A member of the wrong type, out of range, or not valid for the request's kind.
        public static let invalidMember = Code("invalidMember")
        /// The request brought trust configuration — `roots` that are not Apple's root for the
        /// kind, `environments: ["Xcode"]`, `unpinnedTestRoot` — and the service refuses it
        /// (``RequestTrust/refused``; the HTTP service answers 403).
        public static let trustRefused = Code("trustRefused")
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
        /// the HTTP verification service is given (the C ABI and the Python package answer this).
        public static let notConfigured = Code("notConfigured")
        /// The replay store did not record the transaction (it failed or did not answer in time):
        /// nothing was accepted, the request may be sent again.
        public static let replayStoreUnavailable = Code("replayStoreUnavailable")
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
