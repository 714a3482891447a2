import SigilBase

// SigilHTTP's errors in the library's one error shape (`CodedError`): each names its domain and a
// code a program can compare, so the CLI (and any caller) reports them as `domain.code`.

extension AppStoreServerAPIError: CodedError {
    /// "api": `api.http404`, `api.transport`.
    public static let domain = "api"
    /// `http` and the status, or `transport` when no response arrived.
    public var code: ErrorCodeName { ErrorCodeName(httpStatus == 0 ? "transport" : "http\(httpStatus)") }
    /// What Apple answered, with the error body when there was one.
    public var reason: String { description + (body.map { " " + $0.serialized } ?? "") }
}

extension AppleAPIRequestError: CodedError {
    /// "api": `api.request`.
    public static let domain = "api"
    /// `request`: Sigil refused to send a request that breaks one of Apple's rules.
    public var code: ErrorCodeName { ErrorCodeName("request") }
}

extension SignInWithAppleError: CodedError {
    /// "siwa": `siwa.invalid_grant`, `siwa.http503`, `siwa.transport`.
    public static let domain = "siwa"
    /// Apple's `error` when the body carried one, else `http` and the status, or `transport`.
    public var code: ErrorCodeName {
        ErrorCodeName(httpStatus == 0 ? "transport" : error?.rawValue ?? "http\(httpStatus)")
    }
    /// The description.
    public var reason: String { description }
}

extension HTTPTransportError: CodedError {
    /// "http": `http.transport`.
    public static let domain = "http"
    /// `transport`: no usable response.
    public var code: ErrorCodeName { ErrorCodeName("transport") }
    /// The description.
    public var reason: String { description }
}
