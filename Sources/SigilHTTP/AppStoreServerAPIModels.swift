import Foundation
import SigilAppStore

// Request and response bodies of the App Store Server API
// (https://developer.apple.com/documentation/appstoreserverapi). Signed members (JWS strings) are
// returned as received: verify them with `SignedDataVerifier`. Unknown members are ignored and
// unknown enum values kept raw.

/// https://developer.apple.com/documentation/appstoreserverapi/transactioninforesponse
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    public var signedTransactionInfo: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/apptransactioninforesponse
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    public var signedAppTransactionInfo: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/historyresponse
public struct HistoryResponse: Codable, Hashable, Sendable {
    public var revision: String?
    public var hasMore: Bool?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var environment: AppStoreEnvironment?
    public var signedTransactions: [String]?
}

/// Query filters of Get Transaction History
/// (https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history).
public struct TransactionHistoryRequest: Hashable, Sendable {
    public enum Sort: String, Sendable {
        case ascending = "ASCENDING"
        case descending = "DESCENDING"
    }
    public enum ProductType: String, Sendable {
        case autoRenewable = "AUTO_RENEWABLE"
        case nonRenewable = "NON_RENEWABLE"
        case consumable = "CONSUMABLE"
        case nonConsumable = "NON_CONSUMABLE"
    }

    /// Milliseconds since 1970.
    public var startDate: Int64?
    public var endDate: Int64?
    public var productIds: [String]
    public var productTypes: [ProductType]
    public var sort: Sort?
    public var subscriptionGroupIdentifiers: [String]
    public var inAppOwnershipType: InAppOwnershipType?
    public var revoked: Bool?

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
    public var environment: AppStoreEnvironment?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var data: [SubscriptionGroupIdentifierItem]?
}

public struct SubscriptionGroupIdentifierItem: Codable, Hashable, Sendable {
    public var subscriptionGroupIdentifier: String?
    public var lastTransactions: [LastTransactionsItem]?
}

public struct LastTransactionsItem: Codable, Hashable, Sendable {
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int32?
    public var originalTransactionId: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/refundhistoryresponse
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    public var signedTransactions: [String]?
    public var revision: String?
    public var hasMore: Bool?
}

/// https://developer.apple.com/documentation/appstoreserverapi/extendrenewaldaterequest
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    public var extendByDays: Int32
    /// 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int32
    public var requestIdentifier: String
    public init(extendByDays: Int32, extendReasonCode: Int32, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}

/// https://developer.apple.com/documentation/appstoreserverapi/extendrenewaldateresponse
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var success: Bool?
    public var effectiveDate: AppStoreDate?
}

/// https://developer.apple.com/documentation/appstoreserverapi/massextendrenewaldaterequest
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    public var extendByDays: Int32
    public var extendReasonCode: Int32
    public var requestIdentifier: String
    public var storefrontCountryCodes: [String]?
    public var productId: String
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

public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
}

/// https://developer.apple.com/documentation/appstoreserverapi/massextendrenewaldatestatusresponse
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
    public var complete: Bool?
    public var completeDate: AppStoreDate?
    public var succeededCount: Int64?
    public var failedCount: Int64?
}

/// https://developer.apple.com/documentation/appstoreserverapi/orderlookupresponse
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    /// 0 valid, 1 invalid.
    public var status: Int32?
    public var signedTransactions: [String]?
}

public struct SendTestNotificationResponse: Codable, Hashable, Sendable {
    public var testNotificationToken: String?
}

public struct SendAttemptItem: Codable, Hashable, Sendable {
    public var attemptDate: AppStoreDate?
    public var sendAttemptResult: SendAttemptResult?
}

/// https://developer.apple.com/documentation/appstoreserverapi/checktestnotificationresponse
public struct CheckTestNotificationResponse: Codable, Hashable, Sendable {
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?
}

/// https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    /// Milliseconds since 1970.
    public var startDate: Int64
    public var endDate: Int64
    public var notificationType: NotificationTypeV2?
    public var notificationSubtype: NotificationSubtype?
    public var transactionId: String?
    public var onlyFailures: Bool?
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

public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?
}

/// https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponse
public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    public var paginationToken: String?
    public var hasMore: Bool?
    public var notificationHistory: [NotificationHistoryResponseItem]?
}

/// Send Consumption Information (v2) body
/// (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest).
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    public var customerConsented: Bool
    /// DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_WRONG_ITEM, UNDELIVERED_SERVER_OUTAGE, UNDELIVERED_OTHER.
    public var deliveryStatus: String
    public var sampleContentProvided: Bool
    public var consumptionPercentage: Int32?
    /// GRANT_FULL, GRANT_PRORATED, DECLINE, NO_PREFERENCE.
    public var refundPreference: String?
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
    public var customerConsented: Bool?
    public var consumptionStatus: Int32?
    public var platform: Int32?
    public var sampleContentProvided: Bool?
    public var deliveryStatus: Int32?
    public var appAccountToken: String
    public var accountTenure: Int32?
    public var playTime: Int32?
    public var lifetimeDollarsRefunded: Int32?
    public var lifetimeDollarsPurchased: Int32?
    public var userStatus: Int32?
    public var refundPreference: Int32?
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
