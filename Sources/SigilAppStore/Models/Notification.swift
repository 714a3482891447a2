/// The body Apple POSTs to a notification URL (responseBodyV2).
public struct ResponseBodyV2: Codable, Hashable, Sendable {
    public var signedPayload: String?
    /// A notification request body carrying `signedPayload`.
    public init(signedPayload: String? = nil) { self.signedPayload = signedPayload }
}

/// The decoded payload of an App Store Server Notification V2 (responseBodyV2DecodedPayload).
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` is expected.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    public var notificationType: NotificationTypeV2?
    public var subtype: NotificationSubtype?
    public var notificationUUID: String?
    public var data: NotificationData?
    public var version: String?
    public var signedDate: AppStoreDate?
    public var summary: NotificationSummary?
    public var externalPurchaseToken: ExternalPurchaseTokenPayload?
    public var appData: NotificationAppData?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The app and signed transaction data of a notification.
public struct NotificationData: Codable, Hashable, Sendable {
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?
    public var status: SubscriptionStatus?
    public var consumptionRequestReason: ConsumptionRequestReason?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The summary of a mass renewal-date extension (RENEWAL_EXTENSION / SUMMARY).
public struct NotificationSummary: Codable, Hashable, Sendable {
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    public var requestIdentifier: String?
    public var storefrontCountryCodes: [String]?
    public var succeededCount: Int64?
    public var failedCount: Int64?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The external purchase token inside an EXTERNAL_PURCHASE_TOKEN notification.
public struct ExternalPurchaseTokenPayload: Codable, Hashable, Sendable {
    public var externalPurchaseId: String?
    public var tokenCreationDate: AppStoreDate?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var tokenType: ExternalPurchaseTokenType?
    public var tokenExpirationDate: AppStoreDate?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}

    /// Sandbox tokens are recognised by the SANDBOX prefix of their externalPurchaseId.
    public var environment: AppStoreEnvironment? {
        externalPurchaseId.map { $0.hasPrefix("SANDBOX") ? .sandbox : .production }
    }
}

/// App data of notifications about the app itself (for example RESCIND_CONSENT).
public struct NotificationAppData: Codable, Hashable, Sendable {
    public var appAppleId: Int64?
    public var bundleId: String?
    public var environment: AppStoreEnvironment?
    public var signedAppTransactionInfo: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}
