import Foundation
import SigilAppStore
import SigilTokens

/// Apple's production-then-sandbox lookup, as one client: a call goes to the production App Store
/// Server API, and **only** when Apple answers that it does not know the transaction id
/// (errorCode 4040010, ``AppStoreAPIErrorCode/transactionIdNotFound``) is it made again against
/// the sandbox. Every other answer — success, another error, a transport failure, a 429 — is the
/// answer. The result says which environment answered.
///
/// This is what a production server needs for App Review, which buys in the sandbox against the
/// production build: the transaction ids the app sends are then sandbox ids, unknown to
/// production. Pair it with a `SignedDataVerifier` of
/// `AcceptedEnvironments.productionAndSandbox` for the signed data the answers carry.
public struct ProductionThenSandboxAPIClient: Sendable {
    /// The client asked first.
    public let production: AppStoreServerAPIClient
    /// The client asked after production answered 4040010.
    public let sandbox: AppStoreServerAPIClient

    /// An answer and the environment whose API gave it.
    public struct Answer<Value: Sendable>: Sendable {
        /// What the call returned.
        public let value: Value
        /// Production, or Sandbox when production did not know the transaction id.
        public let environment: AppStoreEnvironment
    }

    /// The policy over two clients built by the caller: `production` asked first, `sandbox` after
    /// a 4040010 (for tests, both may point at any base URL).
    public init(production: AppStoreServerAPIClient, sandbox: AppStoreServerAPIClient) {
        self.production = production
        self.sandbox = sandbox
    }

    /// The policy over Apple's production and sandbox hosts, one signing key, issuer and bundle
    /// id, and the same transport and limits for both (as ``AppStoreServerAPIClient``'s
    /// initializer).
    public init(
        signingKey: AppleSigningKey, issuerID: String, bundleID: String,
        transport: any HTTPTransport = URLSessionHTTPTransport(), timeout: Double = 30, maximumResponseSize: Int = 4 << 20,
        maximumRetries: Int = 1, maximumRetryAfter: Double = 30
    ) {
        func client(_ environment: AppStoreServerAPIClient.Environment) -> AppStoreServerAPIClient {
            AppStoreServerAPIClient(
                signingKey: signingKey, issuerID: issuerID, bundleID: bundleID, environment: environment, transport: transport,
                timeout: timeout, maximumResponseSize: maximumResponseSize, maximumRetries: maximumRetries,
                maximumRetryAfter: maximumRetryAfter)
        }
        self.init(production: client(.production), sandbox: client(.sandbox))
    }

    /// `request` made with the production client, and again with the sandbox client only when
    /// production answered errorCode 4040010 (transaction id not found). Any other error is
    /// thrown as it came.
    public func call<Value: Sendable>(_ request: @Sendable (AppStoreServerAPIClient) async throws -> Value) async throws
        -> Answer<Value>
    {
        do {
            return Answer(value: try await request(production), environment: .production)
        } catch let error as AppStoreServerAPIError where error.apiError == .transactionIdNotFound {
            return Answer(value: try await request(sandbox), environment: .sandbox)
        }
    }

    /// GET /inApps/v1/transactions/{transactionId}, production then sandbox.
    public func getTransactionInfo(transactionId: String) async throws -> Answer<TransactionInfoResponse> {
        try await call { try await $0.getTransactionInfo(transactionId: transactionId) }
    }

    /// GET /inApps/v1/transactions/appTransactions/{transactionId}, production then sandbox.
    public func getAppTransactionInfo(transactionId: String) async throws -> Answer<AppTransactionInfoResponse> {
        try await call { try await $0.getAppTransactionInfo(transactionId: transactionId) }
    }

    /// GET /inApps/{v1|v2}/history/{transactionId} (one page), production then sandbox.
    public func getTransactionHistory(
        transactionId: String, revision: String? = nil, filters: TransactionHistoryRequest = .init(),
        version: AppStoreServerAPIClient.HistoryVersion = .v2
    ) async throws -> Answer<HistoryResponse> {
        try await call {
            try await $0.getTransactionHistory(transactionId: transactionId, revision: revision, filters: filters, version: version)
        }
    }

    /// GET /inApps/v1/subscriptions/{transactionId}, production then sandbox.
    public func getAllSubscriptionStatuses(transactionId: String, status: [Int32] = []) async throws -> Answer<StatusResponse> {
        try await call { try await $0.getAllSubscriptionStatuses(transactionId: transactionId, status: status) }
    }

    /// GET /inApps/v2/refund/lookup/{transactionId} (one page), production then sandbox.
    public func getRefundHistory(transactionId: String, revision: String? = nil) async throws -> Answer<RefundHistoryResponse> {
        try await call { try await $0.getRefundHistory(transactionId: transactionId, revision: revision) }
    }
}
