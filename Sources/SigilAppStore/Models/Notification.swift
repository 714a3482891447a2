/// The body Apple POSTs to a notification URL (responseBodyV2).
public struct ResponseBodyV2: Codable, Hashable, Sendable {
    /// The signed notification (a JWS), as Apple posts it.
    public var signedPayload: String?
    /// A notification request body carrying `signedPayload`.
    public init(signedPayload: String? = nil) { self.signedPayload = signedPayload }
}

/// The decoded payload of an App Store Server Notification V2 (responseBodyV2DecodedPayload).
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` is expected.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    /// What happened.
    public var notificationType: NotificationTypeV2?
    /// Details of what happened, for the types that have them.
    public var subtype: NotificationSubtype?
    /// The notification's unique identifier: a redelivery carries the same one.
    public var notificationUUID: String?
    /// The app and the signed transaction and renewal info, for notifications about a purchase.
    public var data: NotificationData?
    /// The notification format version ("2.0").
    public var version: String?
    /// When the App Store signed the data.
    public var signedDate: AppStoreDate?
    /// The outcome of a renewal-date extension for many subscribers.
    public var summary: NotificationSummary?
    /// The external purchase token, for EXTERNAL_PURCHASE_TOKEN notifications.
    public var externalPurchaseToken: ExternalPurchaseTokenPayload?
    /// The app and its signed app transaction, for notifications about the app itself.
    public var appData: NotificationAppData?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The app and signed transaction data of a notification.
public struct NotificationData: Codable, Hashable, Sendable {
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The signed transaction (a JWS).
    public var signedTransactionInfo: String?
    /// The signed subscription renewal info (a JWS).
    public var signedRenewalInfo: String?
    /// The subscription's status.
    public var status: SubscriptionStatus?
    /// Why the customer asked for a refund, for CONSUMPTION_REQUEST notifications.
    public var consumptionRequestReason: ConsumptionRequestReason?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The summary of a mass renewal-date extension (RENEWAL_EXTENSION / SUMMARY).
public struct NotificationSummary: Codable, Hashable, Sendable {
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The in-app purchase's product identifier.
    public var productId: String?
    /// The request's UUID.
    public var requestIdentifier: String?
    /// The storefronts the extension applied to.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many subscriptions could not be extended.
    public var failedCount: Int64?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The external purchase token inside an EXTERNAL_PURCHASE_TOKEN notification.
public struct ExternalPurchaseTokenPayload: Codable, Hashable, Sendable {
    /// The external purchase token's unique identifier.
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: AppStoreDate?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The kind of custom-link token, when it is one.
    public var tokenType: ExternalPurchaseTokenType?
    /// When a custom-link token expires.
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
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The signed app transaction (a JWS).
    public var signedAppTransactionInfo: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}
