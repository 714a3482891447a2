/// The decoded payload of a signed app transaction (AppTransaction).
public struct AppTransaction: Codable, Hashable, Sendable {
    /// The environment the app transaction was made in.
    public var receiptType: AppStoreEnvironment?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the app transaction is for (CFBundleVersion on iOS).
    public var applicationVersion: String?
    /// The identifier of the app version in the App Store.
    public var versionExternalIdentifier: Int64?
    /// When the App Store signed the app transaction.
    public var receiptCreationDate: AppStoreDate?
    /// When the original purchase was made.
    public var originalPurchaseDate: AppStoreDate?
    /// The app version the user first bought.
    public var originalApplicationVersion: String?
    /// The device verification value (base64), for checking the app transaction belongs to the device.
    public var deviceVerification: String?
    /// The UUID mixed into the device verification value.
    public var deviceVerificationNonce: String?
    /// When the user pre-ordered the app, when they did.
    public var preorderDate: AppStoreDate?
    /// The app transaction's identifier: one per user and app, across devices.
    public var appTransactionId: String?
    /// The platform the user first bought the app on.
    public var originalPlatform: PurchasePlatform?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The decoded payload of a Retention Messaging realtime request (DecodedRealtimeRequestBody).
/// Apple documents every field as required; a payload missing one is refused.
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    /// The transaction id of the original purchase, the same for every renewal and restore.
    public var originalTransactionId: String
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64
    /// The in-app purchase's product identifier.
    public var productId: String
    /// The user's locale.
    public var userLocale: String
    /// The request's UUID.
    public var requestIdentifier: String
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment
    /// When the App Store signed the data.
    public var signedDate: AppStoreDate
}
