/// The decoded payload of a signed app transaction (AppTransaction).
public struct AppTransaction: Codable, Hashable, Sendable {
    public var receiptType: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: AppStoreDate?
    public var originalPurchaseDate: AppStoreDate?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var preorderDate: AppStoreDate?
    public var appTransactionId: String?
    public var originalPlatform: PurchasePlatform?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The decoded payload of a Retention Messaging realtime request (DecodedRealtimeRequestBody).
/// Apple documents every field as required; a payload missing one is refused.
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    public var originalTransactionId: String
    public var appAppleId: Int64
    public var productId: String
    public var userLocale: String
    public var requestIdentifier: String
    public var environment: AppStoreEnvironment
    public var signedDate: AppStoreDate
}
