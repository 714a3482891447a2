import SigilAdvancedCommerce
import SigilAppStore

// The Advanced Commerce API's server calls
// (https://developer.apple.com/documentation/advancedcommerceapi): same hosts, bearer token and
// error handling as the App Store Server API, so they are calls of the same client. Each request
// is checked against Apple's documented limits before anything is sent; the signed data in each
// response is returned as JWS strings, to be verified with SignedDataVerifier.

extension AppStoreServerAPIClient {
    /// Cancel a Subscription: turns off automatic renewal; the customer keeps access until the end
    /// of the current period. `POST /advancedCommerce/v1/subscription/cancel/{transactionId}`.
    public func cancelSubscription(transactionId: String, request: AdvancedCommerceSubscriptionCancelRequest) async throws
        -> AdvancedCommerceSubscriptionResponse
    {
        try await advancedCommerce("subscription/cancel", transactionId, request)
    }

    /// Revoke Subscription: ends the subscription and its items now, with a full or prorated
    /// refund. `POST /advancedCommerce/v1/subscription/revoke/{transactionId}`.
    public func revokeSubscription(transactionId: String, request: AdvancedCommerceSubscriptionRevokeRequest) async throws
        -> AdvancedCommerceSubscriptionResponse
    {
        try await advancedCommerce("subscription/revoke", transactionId, request)
    }

    /// Change Subscription Metadata: SKU, display name and description, without touching billing
    /// or service. `POST /advancedCommerce/v1/subscription/changeMetadata/{transactionId}`.
    public func changeSubscriptionMetadata(transactionId: String, request: AdvancedCommerceSubscriptionChangeMetadataRequest)
        async throws -> AdvancedCommerceSubscriptionResponse
    {
        try await advancedCommerce("subscription/changeMetadata", transactionId, request)
    }

    /// Change Subscription Price: the price of items from the next renewal.
    /// `POST /advancedCommerce/v1/subscription/changePrice/{transactionId}`.
    public func changeSubscriptionPrice(transactionId: String, request: AdvancedCommerceSubscriptionPriceChangeRequest) async throws
        -> AdvancedCommerceSubscriptionResponse
    {
        try await advancedCommerce("subscription/changePrice", transactionId, request)
    }

    /// Migrate a Subscription to Advanced Commerce API: an In-App Purchase subscription becomes one
    /// this app manages. `POST /advancedCommerce/v1/subscription/migrate/{transactionId}`.
    public func migrateSubscription(transactionId: String, request: AdvancedCommerceSubscriptionMigrateRequest) async throws
        -> AdvancedCommerceSubscriptionResponse
    {
        try await advancedCommerce("subscription/migrate", transactionId, request)
    }

    /// Request Transaction Refund: a refund for a one-time charge or a subscription transaction.
    /// `POST /advancedCommerce/v1/transaction/requestRefund/{transactionId}`.
    public func requestTransactionRefund(transactionId: String, request: AdvancedCommerceRequestRefundRequest) async throws
        -> AdvancedCommerceRequestRefundResponse
    {
        try await advancedCommerce("transaction/requestRefund", transactionId, request)
    }

    /// Checks `request`, then POSTs it as JSON to `/advancedCommerce/v1/{operation}/{transactionId}`.
    func advancedCommerce<Request: AdvancedCommerceServerRequest, Response: Decodable>(
        _ operation: String, _ transactionId: String, _ request: Request
    ) async throws -> Response {
        try request.validate()
        return try await call("POST", "/advancedCommerce/v1/\(operation)/\(segment(transactionId))", body: request)
    }
}
