// Values as Apple documents them (App Store Server API / Notifications / Advanced Commerce API).
// Open enums: a value Apple adds later decodes and round-trips as its raw value; the named
// constants are the values Apple documents.

/// What every open enum shares: the raw value Apple sent, kept whatever it is; the values Apple
/// documents; and whether this one is among them.
public protocol AppStoreOpenEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    init(rawValue: RawValue)
    static var documented: [Self] { get }
}

extension AppStoreOpenEnum {
    public var isDocumented: Bool { Self.documented.contains(self) }
    public var description: String { rawValue.description }
}

/// `AppStoreEnvironment` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AppStoreEnvironment: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let sandbox = AppStoreEnvironment(rawValue: "Sandbox")
    public static let production = AppStoreEnvironment(rawValue: "Production")
    public static let xcode = AppStoreEnvironment(rawValue: "Xcode")
    public static let localTesting = AppStoreEnvironment(rawValue: "LocalTesting")
    public static let documented: [AppStoreEnvironment] = [.sandbox, .production, .xcode, .localTesting]
}

/// `ProductType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ProductType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let autoRenewableSubscription = ProductType(rawValue: "Auto-Renewable Subscription")
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    public static let consumable = ProductType(rawValue: "Consumable")
    public static let nonRenewingSubscription = ProductType(rawValue: "Non-Renewing Subscription")
    public static let documented: [ProductType] = [.autoRenewableSubscription, .nonConsumable, .consumable, .nonRenewingSubscription]
}

/// `InAppOwnershipType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct InAppOwnershipType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")
    public static let documented: [InAppOwnershipType] = [.familyShared, .purchased]
}

/// `TransactionReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct TransactionReason: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    public static let renewal = TransactionReason(rawValue: "RENEWAL")
    public static let documented: [TransactionReason] = [.purchase, .renewal]
}

/// `OfferDiscountType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct OfferDiscountType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")
    public static let documented: [OfferDiscountType] = [.freeTrial, .payAsYouGo, .payUpFront, .oneTime]
}

/// `RevocationType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct RevocationType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")
    public static let documented: [RevocationType] = [.refundFull, .refundProrated, .familyRevoke]
}

/// `BillingPlanType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct BillingPlanType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let billedUpfront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")
    public static let documented: [BillingPlanType] = [.billedUpfront, .monthly]
}

/// `NotificationTypeV2` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct NotificationTypeV2: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")
    public static let refund = NotificationTypeV2(rawValue: "REFUND")
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")
    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")
    public static let test = NotificationTypeV2(rawValue: "TEST")
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")
    public static let metadataUpdate = NotificationTypeV2(rawValue: "METADATA_UPDATE")
    public static let migration = NotificationTypeV2(rawValue: "MIGRATION")
    public static let priceChange = NotificationTypeV2(rawValue: "PRICE_CHANGE")
    public static let documented: [NotificationTypeV2] = [
        .subscribed, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didRenew, .expired, .didFailToRenew,
        .gracePeriodExpired, .priceIncrease, .refund, .refundDeclined, .consumptionRequest, .renewalExtended, .revoke, .test,
        .renewalExtension, .refundReversed, .externalPurchaseToken, .oneTimeCharge, .rescindConsent, .metadataUpdate, .migration,
        .priceChange,
    ]
}

/// `NotificationSubtype` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct NotificationSubtype: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let initialBuy = NotificationSubtype(rawValue: "INITIAL_BUY")
    public static let resubscribe = NotificationSubtype(rawValue: "RESUBSCRIBE")
    public static let downgrade = NotificationSubtype(rawValue: "DOWNGRADE")
    public static let upgrade = NotificationSubtype(rawValue: "UPGRADE")
    public static let autoRenewEnabled = NotificationSubtype(rawValue: "AUTO_RENEW_ENABLED")
    public static let autoRenewDisabled = NotificationSubtype(rawValue: "AUTO_RENEW_DISABLED")
    public static let voluntary = NotificationSubtype(rawValue: "VOLUNTARY")
    public static let billingRetry = NotificationSubtype(rawValue: "BILLING_RETRY")
    public static let priceIncrease = NotificationSubtype(rawValue: "PRICE_INCREASE")
    public static let gracePeriod = NotificationSubtype(rawValue: "GRACE_PERIOD")
    public static let pending = NotificationSubtype(rawValue: "PENDING")
    public static let accepted = NotificationSubtype(rawValue: "ACCEPTED")
    public static let billingRecovery = NotificationSubtype(rawValue: "BILLING_RECOVERY")
    public static let productNotForSale = NotificationSubtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    public static let summary = NotificationSubtype(rawValue: "SUMMARY")
    public static let failure = NotificationSubtype(rawValue: "FAILURE")
    public static let unreported = NotificationSubtype(rawValue: "UNREPORTED")
    public static let documented: [NotificationSubtype] = [
        .initialBuy, .resubscribe, .downgrade, .upgrade, .autoRenewEnabled, .autoRenewDisabled, .voluntary, .billingRetry, .priceIncrease,
        .gracePeriod, .pending, .accepted, .billingRecovery, .productNotForSale, .summary, .failure, .unreported,
    ]
}

/// `ConsumptionRequestReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ConsumptionRequestReason: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unintendedPurchase = ConsumptionRequestReason(rawValue: "UNINTENDED_PURCHASE")
    public static let fulfillmentIssue = ConsumptionRequestReason(rawValue: "FULFILLMENT_ISSUE")
    public static let unsatisfiedWithPurchase = ConsumptionRequestReason(rawValue: "UNSATISFIED_WITH_PURCHASE")
    public static let legal = ConsumptionRequestReason(rawValue: "LEGAL")
    public static let other = ConsumptionRequestReason(rawValue: "OTHER")
    public static let documented: [ConsumptionRequestReason] = [
        .unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other,
    ]
}

/// `PurchasePlatform` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct PurchasePlatform: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let iOS = PurchasePlatform(rawValue: "iOS")
    public static let macOS = PurchasePlatform(rawValue: "macOS")
    public static let tvOS = PurchasePlatform(rawValue: "tvOS")
    public static let visionOS = PurchasePlatform(rawValue: "visionOS")
    public static let documented: [PurchasePlatform] = [.iOS, .macOS, .tvOS, .visionOS]
}

/// `AdvancedCommercePeriod` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommercePeriod: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let p1W = AdvancedCommercePeriod(rawValue: "P1W")
    public static let p1M = AdvancedCommercePeriod(rawValue: "P1M")
    public static let p2M = AdvancedCommercePeriod(rawValue: "P2M")
    public static let p3M = AdvancedCommercePeriod(rawValue: "P3M")
    public static let p6M = AdvancedCommercePeriod(rawValue: "P6M")
    public static let p1Y = AdvancedCommercePeriod(rawValue: "P1Y")
    public static let documented: [AdvancedCommercePeriod] = [.p1W, .p1M, .p2M, .p3M, .p6M, .p1Y]
}

/// `AdvancedCommerceOfferPeriod` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceOfferPeriod: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let p3D = AdvancedCommerceOfferPeriod(rawValue: "P3D")
    public static let p1W = AdvancedCommerceOfferPeriod(rawValue: "P1W")
    public static let p2W = AdvancedCommerceOfferPeriod(rawValue: "P2W")
    public static let p1M = AdvancedCommerceOfferPeriod(rawValue: "P1M")
    public static let p2M = AdvancedCommerceOfferPeriod(rawValue: "P2M")
    public static let p3M = AdvancedCommerceOfferPeriod(rawValue: "P3M")
    public static let p6M = AdvancedCommerceOfferPeriod(rawValue: "P6M")
    public static let p9M = AdvancedCommerceOfferPeriod(rawValue: "P9M")
    public static let p1Y = AdvancedCommerceOfferPeriod(rawValue: "P1Y")
    public static let documented: [AdvancedCommerceOfferPeriod] = [.p3D, .p1W, .p2W, .p1M, .p2M, .p3M, .p6M, .p9M, .p1Y]
}

/// `AdvancedCommerceOfferReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceOfferReason: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let acquisition = AdvancedCommerceOfferReason(rawValue: "ACQUISITION")
    public static let winBack = AdvancedCommerceOfferReason(rawValue: "WIN_BACK")
    public static let retention = AdvancedCommerceOfferReason(rawValue: "RETENTION")
    public static let documented: [AdvancedCommerceOfferReason] = [.acquisition, .winBack, .retention]
}

/// `AdvancedCommerceRefundReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceRefundReason: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unintendedPurchase = AdvancedCommerceRefundReason(rawValue: "UNINTENDED_PURCHASE")
    public static let fulfillmentIssue = AdvancedCommerceRefundReason(rawValue: "FULFILLMENT_ISSUE")
    public static let unsatisfiedWithPurchase = AdvancedCommerceRefundReason(rawValue: "UNSATISFIED_WITH_PURCHASE")
    public static let legal = AdvancedCommerceRefundReason(rawValue: "LEGAL")
    public static let other = AdvancedCommerceRefundReason(rawValue: "OTHER")
    public static let modifyItemsRefund = AdvancedCommerceRefundReason(rawValue: "MODIFY_ITEMS_REFUND")
    public static let simulateRefundDecline = AdvancedCommerceRefundReason(rawValue: "SIMULATE_REFUND_DECLINE")
    public static let documented: [AdvancedCommerceRefundReason] = [
        .unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other, .modifyItemsRefund, .simulateRefundDecline,
    ]
}

/// `AdvancedCommerceRefundType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceRefundType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let full = AdvancedCommerceRefundType(rawValue: "FULL")
    public static let prorated = AdvancedCommerceRefundType(rawValue: "PRORATED")
    public static let custom = AdvancedCommerceRefundType(rawValue: "CUSTOM")
    public static let documented: [AdvancedCommerceRefundType] = [.full, .prorated, .custom]
}

/// `AdvancedCommercePriceIncreaseInfoStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommercePriceIncreaseInfoStatus: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let scheduled = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "SCHEDULED")
    public static let pending = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "PENDING")
    public static let accepted = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "ACCEPTED")
    public static let documented: [AdvancedCommercePriceIncreaseInfoStatus] = [.scheduled, .pending, .accepted]
}

/// `ExternalPurchaseTokenType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ExternalPurchaseTokenType: AppStoreOpenEnum {
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let acquisition = ExternalPurchaseTokenType(rawValue: "ACQUISITION")
    public static let services = ExternalPurchaseTokenType(rawValue: "SERVICES")
    public static let documented: [ExternalPurchaseTokenType] = [.acquisition, .services]
}

/// `OfferType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct OfferType: AppStoreOpenEnum {
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let introductoryOffer = OfferType(rawValue: 1)
    public static let promotionalOffer = OfferType(rawValue: 2)
    public static let offerCode = OfferType(rawValue: 3)
    public static let winBackOffer = OfferType(rawValue: 4)
    public static let documented: [OfferType] = [.introductoryOffer, .promotionalOffer, .offerCode, .winBackOffer]
}

/// `RevocationReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct RevocationReason: AppStoreOpenEnum {
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let refundedForOtherReason = RevocationReason(rawValue: 0)
    public static let refundedDueToIssue = RevocationReason(rawValue: 1)
    public static let documented: [RevocationReason] = [.refundedForOtherReason, .refundedDueToIssue]
}

/// `ExpirationIntent` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ExpirationIntent: AppStoreOpenEnum {
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    public static let billingError = ExpirationIntent(rawValue: 2)
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    public static let other = ExpirationIntent(rawValue: 5)
    public static let documented: [ExpirationIntent] = [
        .customerCancelled, .billingError, .customerDidNotConsentToPriceIncrease, .productNotAvailable, .other,
    ]
}

/// `AutoRenewStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AutoRenewStatus: AppStoreOpenEnum {
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let off = AutoRenewStatus(rawValue: 0)
    public static let on = AutoRenewStatus(rawValue: 1)
    public static let documented: [AutoRenewStatus] = [.off, .on]
}

/// `PriceIncreaseStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct PriceIncreaseStatus: AppStoreOpenEnum {
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = PriceIncreaseStatus(rawValue: 1)
    public static let documented: [PriceIncreaseStatus] = [.customerHasNotResponded, .customerConsentedOrWasNotifiedWithoutNeedingConsent]
}

/// `SubscriptionStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct SubscriptionStatus: AppStoreOpenEnum {
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let active = SubscriptionStatus(rawValue: 1)
    public static let expired = SubscriptionStatus(rawValue: 2)
    public static let billingRetry = SubscriptionStatus(rawValue: 3)
    public static let billingGracePeriod = SubscriptionStatus(rawValue: 4)
    public static let revoked = SubscriptionStatus(rawValue: 5)
    public static let documented: [SubscriptionStatus] = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]
}
