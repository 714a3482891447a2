import Foundation
import SigilAppStore
import SigilJOSE
import SigilTokens

/// A failed App Store Server API call: the HTTP status (0 when no response arrived), Apple's
/// errorCode as a named case (unknown codes kept raw), its message, whether trying again later can
/// succeed, and for 429 the delay Apple asked for.
public struct AppStoreServerAPIError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status of Apple's answer (0 for a transport failure).
    public let httpStatus: Int
    /// Apple's errorCode, when the body carried one.
    public let apiError: AppStoreAPIErrorCode?
    /// Apple's errorMessage, when the body carried one.
    public let errorMessage: String?
    /// Seconds from Retry-After, when the response carried one.
    public let retryAfter: Double?
    /// 429, 5xx, a transport failure, or one of Apple's "…Retryable" codes.
    public let isRetryable: Bool
    /// The error response body as parsed JSON, when it was JSON (for example the External
    /// Purchase Server API's `SendReportErrorResponse` with its per-line-item `errors`).
    public let body: JSONValue?

    static let retryableCodes: Set<AppStoreAPIErrorCode> = [
        .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable, .generalInternalRetryable,
        .rateLimitExceeded,
    ]

    init(httpStatus: Int, apiError: AppStoreAPIErrorCode?, errorMessage: String?, retryAfter: Double?, body: JSONValue? = nil) {
        self.httpStatus = httpStatus
        self.body = body
        self.apiError = apiError
        self.errorMessage = errorMessage
        self.retryAfter = retryAfter
        self.isRetryable = httpStatus == 0 || httpStatus == 429 || httpStatus >= 500 || apiError.map(Self.retryableCodes.contains) == true
    }

    /// Status, errorCode, message and whether it is retryable, for people.
    public var description: String {
        let code = apiError.map { " errorCode \($0.rawValue)" + ($0.isDocumented ? "" : " (undocumented)") } ?? ""
        return "App Store Server API: HTTP \(httpStatus)\(code)\(errorMessage.map { ": \($0)" } ?? "")\(isRetryable ? " (retryable)" : "")"
    }
}

/// The App Store Server API client (https://developer.apple.com/documentation/appstoreserverapi).
///
/// - A **fresh bearer token per request** (ES256 from the .p8 key, lifetime 300 s, `iat` from the
///   injected clock): signing costs tens of microseconds, so no token is cached and none can expire
///   between a retry and its request.
/// - Every call is bounded by `timeout` and `maximumResponseSize` (enforced by the transport).
/// - HTTP 429 with `Retry-After` (seconds or an HTTP date) is honoured: the call waits and retries,
///   up to `maximumRetries` times and only when the wait is at most `maximumRetryAfter` seconds;
///   otherwise the error carries the delay. Other errors are returned at once.
/// - Signed data in responses is returned as the JWS strings; verify them with SignedDataVerifier.
public struct AppStoreServerAPIClient: Sendable {
    /// Where requests go. Production and sandbox use the hosts Apple introduced on 2026-05-05
    /// (`api.storekit.apple.com`, `api.storekit-sandbox.apple.com`); the earlier
    /// `…itunes.apple.com` hosts, which Apple says it continues to support, are
    /// ``legacyProduction`` and ``legacySandbox``.
    public enum Environment: Sendable, Hashable {
        /// `https://api.storekit.apple.com`.
        case production
        /// `https://api.storekit-sandbox.apple.com`.
        case sandbox
        /// The StoreKit Testing in Xcode placeholder host Apple's libraries use.
        case localTesting
        /// `https://api.storekit.itunes.apple.com`, the production host before 2026-05-05.
        case legacyProduction
        /// `https://api.storekit-sandbox.itunes.apple.com`, the sandbox host before 2026-05-05.
        case legacySandbox
        /// Any base URL (a proxy, a test server); no trailing slash.
        case custom(baseURL: String)

        /// The scheme and host (and any path prefix) every request path is appended to.
        public var baseURL: String {
            switch self {
            case .production: "https://api.storekit.apple.com"
            case .sandbox: "https://api.storekit-sandbox.apple.com"
            case .localTesting: "https://local-testing-base-url"
            case .legacyProduction: "https://api.storekit.itunes.apple.com"
            case .legacySandbox: "https://api.storekit-sandbox.itunes.apple.com"
            case .custom(let url): url
            }
        }
    }

    /// The App Store Connect key every request's bearer token is signed with.
    public let signingKey: AppleSigningKey
    /// The issuer id of the key (App Store Connect, Users and Access, Integrations).
    public let issuerID: String
    /// The app's bundle id, the tokens' bid claim.
    public let bundleID: String
    /// Where requests go.
    public let environment: Environment
    /// The HTTP transport (URLSession by default; AsyncHTTPClient with the package trait).
    public let transport: any HTTPTransport
    /// Seconds before a call is abandoned.
    public let timeout: Double
    /// The largest response body accepted, in bytes.
    public let maximumResponseSize: Int
    /// How many times a 429 answer is retried after its Retry-After delay.
    public let maximumRetries: Int
    /// The longest Retry-After delay waited for, in seconds; a longer one is returned as an error.
    public let maximumRetryAfter: Double
    let clock: @Sendable () -> Int64
    let sleep: @Sendable (Double) async throws -> Void
    /// Built once: token minting, transport, limits, 429 handling.
    let requester: AppleAPIRequester

    /// A client for `environment` signing with `signingKey` (issuer `issuerID`, app `bundleID`),
    /// over `transport`, with the limits and the 429 policy given; `clock` and `sleep` are for tests.
    public init(
        signingKey: AppleSigningKey, issuerID: String, bundleID: String, environment: Environment,
        transport: any HTTPTransport = URLSessionHTTPTransport(), timeout: Double = 30, maximumResponseSize: Int = 4 << 20,
        maximumRetries: Int = 1, maximumRetryAfter: Double = 30,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1e9)) }
    ) {
        self.signingKey = signingKey
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.environment = environment
        self.transport = transport
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.maximumRetries = max(0, maximumRetries)
        self.maximumRetryAfter = maximumRetryAfter
        self.clock = clock
        self.sleep = sleep
        requester = AppleAPIRequester(
            baseURL: environment.baseURL, transport: transport, timeout: timeout,
            maximumResponseSize: maximumResponseSize, maximumRetries: max(0, maximumRetries),
            maximumRetryAfter: maximumRetryAfter, clock: clock, sleep: sleep,
            token: { now in
                try AppleTokens.appStoreServerAPI(key: signingKey, issuerID: issuerID, bundleID: bundleID, issuedAt: now)
            })
    }

    // MARK: - Transactions

    /// GET /inApps/v1/transactions/{transactionId}
    public func getTransactionInfo(transactionId: String) async throws -> TransactionInfoResponse {
        try await call("GET", "/inApps/v1/transactions/\(segment(transactionId))")
    }

    /// GET /inApps/v1/transactions/appTransactions/{transactionId}
    public func getAppTransactionInfo(transactionId: String) async throws -> AppTransactionInfoResponse {
        try await call("GET", "/inApps/v1/transactions/appTransactions/\(segment(transactionId))")
    }

    /// Which Get Transaction History version to call: v1 (deprecated by Apple) or v2.
    /// The Get Transaction History version: v2 (the current one) or the deprecated v1.
    public enum HistoryVersion: String, Sendable {
        /// `/inApps/v1/history` (deprecated by Apple).
        case v1
        /// `/inApps/v2/history`.
        case v2
    }

    /// GET /inApps/{v1|v2}/history/{transactionId}: one page.
    public func getTransactionHistory(
        transactionId: String, revision: String? = nil, filters: TransactionHistoryRequest = .init(),
        version: HistoryVersion = .v2
    ) async throws -> HistoryResponse {
        var query = filters.queryItems
        if let revision { query.insert(("revision", revision), at: 0) }
        return try await call("GET", "/inApps/\(version.rawValue)/history/\(segment(transactionId))", query: query)
    }

    /// Every page of the transaction history, following `revision` while `hasMore` is true.
    public func transactionHistory(
        transactionId: String, filters: TransactionHistoryRequest = .init(),
        version: HistoryVersion = .v2
    ) -> AsyncThrowingStream<HistoryResponse, Error> {
        pages { revision in
            let page = try await getTransactionHistory(transactionId: transactionId, revision: revision, filters: filters, version: version)
            return (page, page.hasMore == true ? page.revision : nil)
        }
    }

    /// PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken
    public func setAppAccountToken(originalTransactionId: String, appAccountToken: UUID) async throws {
        struct Body: Encodable { let appAccountToken: String }
        try await callVoid(
            "PUT", "/inApps/v1/transactions/\(segment(originalTransactionId))/appAccountToken",
            body: Body(appAccountToken: appAccountToken.uuidString.lowercased()))
    }

    /// POST /inApps/v1/transactions/{transactionId}/finish
    public func finishTransaction(transactionId: String) async throws {
        try await callVoid("POST", "/inApps/v1/transactions/\(segment(transactionId))/finish")
    }

    /// GET /inApps/v1/lookup/{orderId}
    public func lookUpOrderId(orderId: String) async throws -> OrderLookupResponse {
        try await call("GET", "/inApps/v1/lookup/\(segment(orderId))")
    }

    // MARK: - Subscriptions

    /// GET /inApps/v1/subscriptions/{transactionId}[?status=…]
    public func getAllSubscriptionStatuses(transactionId: String, status: [Int32] = []) async throws -> StatusResponse {
        try await call("GET", "/inApps/v1/subscriptions/\(segment(transactionId))", query: status.map { ("status", String($0)) })
    }

    /// PUT /inApps/v1/subscriptions/extend/{originalTransactionId}
    public func extendSubscriptionRenewalDate(originalTransactionId: String, request: ExtendRenewalDateRequest) async throws
        -> ExtendRenewalDateResponse
    {
        try await call("PUT", "/inApps/v1/subscriptions/extend/\(segment(originalTransactionId))", body: request)
    }

    /// POST /inApps/v1/subscriptions/extend/mass
    public func extendRenewalDateForAllActiveSubscribers(request: MassExtendRenewalDateRequest) async throws
        -> MassExtendRenewalDateResponse
    {
        try await call("POST", "/inApps/v1/subscriptions/extend/mass", body: request)
    }

    /// GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}
    public func getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: String, productId: String) async throws
        -> MassExtendRenewalDateStatusResponse
    {
        try await call("GET", "/inApps/v1/subscriptions/extend/mass/\(segment(productId))/\(segment(requestIdentifier))")
    }

    // MARK: - Refunds and consumption

    /// GET /inApps/v2/refund/lookup/{transactionId}: one page.
    public func getRefundHistory(transactionId: String, revision: String? = nil) async throws -> RefundHistoryResponse {
        try await call("GET", "/inApps/v2/refund/lookup/\(segment(transactionId))", query: revision.map { [("revision", $0)] } ?? [])
    }

    /// Every page of the refund history.
    public func refundHistory(transactionId: String) -> AsyncThrowingStream<RefundHistoryResponse, Error> {
        pages { revision in
            let page = try await getRefundHistory(transactionId: transactionId, revision: revision)
            return (page, page.hasMore == true ? page.revision : nil)
        }
    }

    /// PUT /inApps/v2/transactions/consumption/{transactionId}
    public func sendConsumptionInformation(transactionId: String, request: ConsumptionRequest) async throws {
        try await callVoid("PUT", "/inApps/v2/transactions/consumption/\(segment(transactionId))", body: request)
    }

    /// PUT /inApps/v1/transactions/consumption/{transactionId} (deprecated by Apple; v2 above).
    public func sendConsumptionData(transactionId: String, request: ConsumptionRequestV1) async throws {
        try await callVoid("PUT", "/inApps/v1/transactions/consumption/\(segment(transactionId))", body: request)
    }

    // MARK: - Notifications

    /// POST /inApps/v1/notifications/test
    public func requestTestNotification() async throws -> SendTestNotificationResponse {
        try await call("POST", "/inApps/v1/notifications/test")
    }

    /// GET /inApps/v1/notifications/test/{testNotificationToken}
    public func getTestNotificationStatus(testNotificationToken: String) async throws -> CheckTestNotificationResponse {
        try await call("GET", "/inApps/v1/notifications/test/\(segment(testNotificationToken))")
    }

    /// POST /inApps/v1/notifications/history[?paginationToken=…]: one page.
    public func getNotificationHistory(paginationToken: String? = nil, request: NotificationHistoryRequest) async throws
        -> NotificationHistoryResponse
    {
        try await call(
            "POST", "/inApps/v1/notifications/history", query: paginationToken.map { [("paginationToken", $0)] } ?? [], body: request)
    }

    /// Every page of the notification history, following `paginationToken` while `hasMore`.
    public func notificationHistory(request: NotificationHistoryRequest) -> AsyncThrowingStream<NotificationHistoryResponse, Error> {
        pages { token in
            let page = try await getNotificationHistory(paginationToken: token, request: request)
            return (page, page.hasMore == true ? page.paginationToken : nil)
        }
    }

    // MARK: - Machinery

    func segment(_ value: String) -> String { AppleAPIRequester.segment(value) }

    func call<Response: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [],
        body: (any Encodable)? = nil
    ) async throws -> Response {
        try await requester.call(method, path, query: query, body: body)
    }

    func callVoid(_ method: String, _ path: String, query: [(String, String)] = [], body: (any Encodable)? = nil) async throws {
        _ = try await requester.send(method, path, query: query, body: try body.map(AppleAPIRequester.json))
    }

    func pages<Page: Sendable>(_ fetch: @escaping @Sendable (String?) async throws -> (Page, String?)) -> AsyncThrowingStream<Page, Error> {
        AppleAPIRequester.pages(fetch)
    }

}
