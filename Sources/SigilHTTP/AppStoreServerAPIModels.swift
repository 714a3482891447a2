import Foundation
import SigilAppStore

// Request and response bodies of the App Store Server API
// (https://developer.apple.com/documentation/appstoreserverapi). Signed members (JWS strings) are
// returned as received: verify them with `SignedDataVerifier`. Unknown members are ignored and
// unknown enum values kept raw.

/// https://developer.apple.com/documentation/appstoreserverapi/transactioninforesponse
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    /// The signed transaction (a JWS).
    public var signedTransactionInfo: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/apptransactioninforesponse
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    /// The signed app transaction (a JWS).
    public var signedAppTransactionInfo: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/historyresponse
public struct HistoryResponse: Codable, Hashable, Sendable {
    /// The token for the next page of the history.
    public var revision: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's identifier in the App Store.
    public var appAppleId: Int64?
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The signed transactions (JWS), one per transaction.
    public var signedTransactions: [String]?
}

/// Query filters of Get Transaction History
/// (https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history).
public struct TransactionHistoryRequest: Hashable, Sendable {
    /// The order of the history, by modification date.
    public enum Sort: String, Sendable {
        /// Oldest first.
        case ascending = "ASCENDING"
        /// Newest first.
        case descending = "DESCENDING"
    }
    /// The product types of the history's filter.
    public enum ProductType: String, Sendable {
        /// Auto-renewable subscriptions.
        case autoRenewable = "AUTO_RENEWABLE"
        /// Non-renewing subscriptions.
        case nonRenewable = "NON_RENEWABLE"
        /// Consumables.
        case consumable = "CONSUMABLE"
        /// Non-consumables.
        case nonConsumable = "NON_CONSUMABLE"
    }

    /// Milliseconds since 1970.
    public var startDate: Int64?
    /// Milliseconds since 1970: only what is earlier.
    public var endDate: Int64?
    /// Only these products (all when empty).
    public var productIds: [String]
    /// Only these product types (all when empty).
    public var productTypes: [ProductType]
    /// The order, by modification date.
    public var sort: Sort?
    /// Only these subscription groups (all when empty).
    public var subscriptionGroupIdentifiers: [String]
    /// Only purchased, or only family-shared, transactions.
    public var inAppOwnershipType: InAppOwnershipType?
    /// Only revoked (true) or only unrevoked (false) transactions.
    public var revoked: Bool?

    /// A filter with the given criteria (none by default: every transaction).
    public init(
        startDate: Int64? = nil, endDate: Int64? = nil, productIds: [String] = [], productTypes: [ProductType] = [],
        sort: Sort? = nil, subscriptionGroupIdentifiers: [String] = [], inAppOwnershipType: InAppOwnershipType? = nil, revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// Query items in Apple's order; repeated parameters for the list filters.
    var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let startDate { items.append(("startDate", String(startDate))) }
        if let endDate { items.append(("endDate", String(endDate))) }
        items += productIds.map { ("productId", $0) }
        items += productTypes.map { ("productType", $0.rawValue) }
        if let sort { items.append(("sort", sort.rawValue)) }
        items += subscriptionGroupIdentifiers.map { ("subscriptionGroupIdentifier", $0) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType.rawValue)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }
}

/// https://developer.apple.com/documentation/appstoreserverapi/statusresponse
public struct StatusResponse: Codable, Hashable, Sendable {
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's identifier in the App Store.
    public var appAppleId: Int64?
    /// One entry per subscription group.
    public var data: [SubscriptionGroupIdentifierItem]?
}

/// The latest transactions of one subscription group.
public struct SubscriptionGroupIdentifierItem: Codable, Hashable, Sendable {
    /// The subscription group.
    public var subscriptionGroupIdentifier: String?
    /// The latest transaction of each subscription in the group, with its status.
    public var lastTransactions: [LastTransactionsItem]?
}

/// One subscription's status and its latest signed transaction and renewal info.
public struct LastTransactionsItem: Codable, Hashable, Sendable {
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int32?
    /// The transaction id of the original purchase.
    public var originalTransactionId: String?
    /// The signed transaction (a JWS).
    public var signedTransactionInfo: String?
    /// The signed renewal info (a JWS).
    public var signedRenewalInfo: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/refundhistoryresponse
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// The signed transactions (JWS), one per transaction.
    public var signedTransactions: [String]?
    /// The token for the next page of the history.
    public var revision: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
}

/// https://developer.apple.com/documentation/appstoreserverapi/extendrenewaldaterequest
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// How many days to extend by (at most 90).
    public var extendByDays: Int32
    /// 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int32
    /// A UUID you generate for the request.
    public var requestIdentifier: String
    /// A request extending by `extendByDays` days for `extendReasonCode`, identified by `requestIdentifier`.
    public init(extendByDays: Int32, extendReasonCode: Int32, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}

/// https://developer.apple.com/documentation/appstoreserverapi/extendrenewaldateresponse
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// The transaction id of the original purchase.
    public var originalTransactionId: String?
    /// The subscription's web order line item id.
    public var webOrderLineItemId: String?
    /// Whether the extension succeeded.
    public var success: Bool?
    /// The new renewal date.
    public var effectiveDate: AppStoreDate?
}

/// https://developer.apple.com/documentation/appstoreserverapi/massextendrenewaldaterequest
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// How many days to extend by (at most 90).
    public var extendByDays: Int32
    /// Why: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int32
    /// A UUID you generate for the request.
    public var requestIdentifier: String
    /// Only these storefronts (all when absent).
    public var storefrontCountryCodes: [String]?
    /// The product whose subscribers are extended.
    public var productId: String
    /// A request extending every subscriber of `productId` (in `storefrontCountryCodes`, or everywhere) by `extendByDays` days.
    public init(
        extendByDays: Int32, extendReasonCode: Int32, requestIdentifier: String, storefrontCountryCodes: [String]? = nil, productId: String
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}

/// The answer to Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// A UUID you generate for the request.
    public var requestIdentifier: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/massextendrenewaldatestatusresponse
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    /// A UUID you generate for the request.
    public var requestIdentifier: String?
    /// Whether the extension finished.
    public var complete: Bool?
    /// When it finished.
    public var completeDate: AppStoreDate?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many could not be.
    public var failedCount: Int64?
}

/// https://developer.apple.com/documentation/appstoreserverapi/orderlookupresponse
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    /// 0 valid, 1 invalid.
    public var status: Int32?
    /// The signed transactions (JWS), one per transaction.
    public var signedTransactions: [String]?
}

/// The answer to Request a Test Notification.
public struct SendTestNotificationResponse: Codable, Hashable, Sendable {
    /// The token to ask for the test notification's status with.
    public var testNotificationToken: String?
}

/// One attempt to deliver a notification.
public struct SendAttemptItem: Codable, Hashable, Sendable {
    /// When Apple tried to deliver.
    public var attemptDate: AppStoreDate?
    /// What happened.
    public var sendAttemptResult: SendAttemptResult?
}

/// https://developer.apple.com/documentation/appstoreserverapi/checktestnotificationresponse
public struct CheckTestNotificationResponse: Codable, Hashable, Sendable {
    /// The notification as Apple sent it (a JWS).
    public var signedPayload: String?
    /// Each delivery attempt.
    public var sendAttempts: [SendAttemptItem]?
}

/// https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    /// Milliseconds since 1970.
    public var startDate: Int64
    /// Milliseconds since 1970: only what is earlier.
    public var endDate: Int64
    /// Only this notification type.
    public var notificationType: NotificationTypeV2?
    /// Only this subtype.
    public var notificationSubtype: NotificationSubtype?
    /// Only notifications about this transaction.
    public var transactionId: String?
    /// Only notifications Apple could not deliver.
    public var onlyFailures: Bool?
    /// A request for the notifications from `startDate` to `endDate` (milliseconds since 1970), optionally filtered.
    public init(
        startDate: Int64, endDate: Int64, notificationType: NotificationTypeV2? = nil, notificationSubtype: NotificationSubtype? = nil,
        transactionId: String? = nil, onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}

/// One notification of the history and its delivery attempts.
public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    /// The notification as Apple sent it (a JWS).
    public var signedPayload: String?
    /// Each delivery attempt.
    public var sendAttempts: [SendAttemptItem]?
}

/// https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponse
public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    /// The token for the next page.
    public var paginationToken: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
    /// The notifications of this page.
    public var notificationHistory: [NotificationHistoryResponseItem]?
}

/// Send Consumption Information (v2) body
/// (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest).
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// Whether the customer consented to sharing consumption data.
    public var customerConsented: Bool
    /// DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_WRONG_ITEM, UNDELIVERED_SERVER_OUTAGE, UNDELIVERED_OTHER.
    public var deliveryStatus: String
    /// Whether the app gives a free sample or trial of the content.
    public var sampleContentProvided: Bool
    /// How much of the content was consumed, in thousandths of a percent (0–100,000).
    public var consumptionPercentage: Int32?
    /// GRANT_FULL, GRANT_PRORATED, DECLINE, NO_PREFERENCE.
    public var refundPreference: String?
    /// A consumption answer with the given fields.
    public init(
        customerConsented: Bool, deliveryStatus: String, sampleContentProvided: Bool, consumptionPercentage: Int32? = nil,
        refundPreference: String? = nil
    ) {
        self.customerConsented = customerConsented
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }
}

/// The deprecated v1 consumption body (`PUT /inApps/v1/transactions/consumption/{id}`). As in
/// Apple's libraries, appAccountToken is always sent ("" when absent).
public struct ConsumptionRequestV1: Codable, Hashable, Sendable {
    /// Whether the customer consented to sharing consumption data.
    public var customerConsented: Bool?
    /// How much of the purchase was consumed (0 undeclared … 3 fully consumed).
    public var consumptionStatus: Int32?
    /// The platform the customer consumed on (0 undeclared, 1 Apple, 2 non-Apple).
    public var platform: Int32?
    /// Whether the app gives a free sample or trial of the content.
    public var sampleContentProvided: Bool?
    /// Whether the content was delivered and works (0 delivered and working).
    public var deliveryStatus: Int32?
    /// The app account token of the customer ("" when none).
    public var appAccountToken: String
    /// How long the customer has had an account, as Apple's range code.
    public var accountTenure: Int32?
    /// How long the customer used the app, as Apple's range code.
    public var playTime: Int32?
    /// What the customer was refunded across platforms, as Apple's range code.
    public var lifetimeDollarsRefunded: Int32?
    /// What the customer spent across platforms, as Apple's range code.
    public var lifetimeDollarsPurchased: Int32?
    /// The customer's account status (0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited).
    public var userStatus: Int32?
    /// Your preference for the refund decision.
    public var refundPreference: Int32?
    /// A v1 consumption answer with the given fields (`appAccountToken` written lowercase, "" when nil).
    public init(
        customerConsented: Bool? = nil, consumptionStatus: Int32? = nil, platform: Int32? = nil, sampleContentProvided: Bool? = nil,
        deliveryStatus: Int32? = nil, appAccountToken: UUID? = nil, accountTenure: Int32? = nil, playTime: Int32? = nil,
        lifetimeDollarsRefunded: Int32? = nil, lifetimeDollarsPurchased: Int32? = nil, userStatus: Int32? = nil,
        refundPreference: Int32? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken?.uuidString.lowercased() ?? ""
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }
}
