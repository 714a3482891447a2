import SigilBase

// Values as Apple documents them (App Store Server API / Notifications / Advanced Commerce API).
// Open enums: a value Apple adds later decodes and round-trips as its raw value; the named
// constants are the values Apple documents.

/// `AppStoreEnvironment` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AppStoreEnvironment: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `Sandbox`: the sandbox (TestFlight, development builds, Sandbox Apple Accounts).
    public static var sandbox: AppStoreEnvironment { Self(rawValue: "Sandbox") }
    /// `Production`: the App Store.
    public static var production: AppStoreEnvironment { Self(rawValue: "Production") }
    /// `Xcode`: StoreKit testing in Xcode (signed by Xcode, not by Apple).
    public static var xcode: AppStoreEnvironment { Self(rawValue: "Xcode") }
    /// `LocalTesting`: local testing against a test server.
    public static var localTesting: AppStoreEnvironment { Self(rawValue: "LocalTesting") }
    /// The values Apple documents.
    public static let documented: [AppStoreEnvironment] = [.sandbox, .production, .xcode, .localTesting]
}

/// `ProductType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ProductType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `Auto-Renewable Subscription`: an auto-renewable subscription.
    public static var autoRenewableSubscription: ProductType { Self(rawValue: "Auto-Renewable Subscription") }
    /// `Non-Consumable`: a non-consumable in-app purchase.
    public static var nonConsumable: ProductType { Self(rawValue: "Non-Consumable") }
    /// `Consumable`: a consumable in-app purchase.
    public static var consumable: ProductType { Self(rawValue: "Consumable") }
    /// `Non-Renewing Subscription`: a non-renewing subscription.
    public static var nonRenewingSubscription: ProductType { Self(rawValue: "Non-Renewing Subscription") }
    /// The values Apple documents.
    public static let documented: [ProductType] = [.autoRenewableSubscription, .nonConsumable, .consumable, .nonRenewingSubscription]
}

/// `InAppOwnershipType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct InAppOwnershipType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `FAMILY_SHARED`: the user has access through Family Sharing.
    public static var familyShared: InAppOwnershipType { Self(rawValue: "FAMILY_SHARED") }
    /// `PURCHASED`: the user bought it.
    public static var purchased: InAppOwnershipType { Self(rawValue: "PURCHASED") }
    /// The values Apple documents.
    public static let documented: [InAppOwnershipType] = [.familyShared, .purchased]
}

/// `TransactionReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct TransactionReason: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `PURCHASE`: the user initiated the purchase.
    public static var purchase: TransactionReason { Self(rawValue: "PURCHASE") }
    /// `RENEWAL`: the App Store renewed a subscription.
    public static var renewal: TransactionReason { Self(rawValue: "RENEWAL") }
    /// The values Apple documents.
    public static let documented: [TransactionReason] = [.purchase, .renewal]
}

/// `OfferDiscountType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct OfferDiscountType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `FREE_TRIAL`: a free trial.
    public static var freeTrial: OfferDiscountType { Self(rawValue: "FREE_TRIAL") }
    /// `PAY_AS_YOU_GO`: a discounted price for each of several periods.
    public static var payAsYouGo: OfferDiscountType { Self(rawValue: "PAY_AS_YOU_GO") }
    /// `PAY_UP_FRONT`: one discounted payment for a longer period.
    public static var payUpFront: OfferDiscountType { Self(rawValue: "PAY_UP_FRONT") }
    /// `ONE_TIME`: a one-time discount.
    public static var oneTime: OfferDiscountType { Self(rawValue: "ONE_TIME") }
    /// The values Apple documents.
    public static let documented: [OfferDiscountType] = [.freeTrial, .payAsYouGo, .payUpFront, .oneTime]
}

/// `RevocationType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct RevocationType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `REFUND_FULL`: a full refund.
    public static var refundFull: RevocationType { Self(rawValue: "REFUND_FULL") }
    /// `REFUND_PRORATED`: a prorated refund.
    public static var refundProrated: RevocationType { Self(rawValue: "REFUND_PRORATED") }
    /// `FAMILY_REVOKE`: access through Family Sharing was revoked.
    public static var familyRevoke: RevocationType { Self(rawValue: "FAMILY_REVOKE") }
    /// The values Apple documents.
    public static let documented: [RevocationType] = [.refundFull, .refundProrated, .familyRevoke]
}

/// `BillingPlanType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct BillingPlanType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `BILLED_UPFRONT`: the commitment is billed in one payment.
    public static var billedUpfront: BillingPlanType { Self(rawValue: "BILLED_UPFRONT") }
    /// `MONTHLY`: the commitment is billed monthly.
    public static var monthly: BillingPlanType { Self(rawValue: "MONTHLY") }
    /// The values Apple documents.
    public static let documented: [BillingPlanType] = [.billedUpfront, .monthly]
}

/// `NotificationTypeV2` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct NotificationTypeV2: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `SUBSCRIBED`: the user subscribed (subtype INITIAL_BUY or RESUBSCRIBE).
    public static var subscribed: NotificationTypeV2 { Self(rawValue: "SUBSCRIBED") }
    /// `DID_CHANGE_RENEWAL_PREF`: the user changed the product the subscription renews to (UPGRADE or DOWNGRADE).
    public static var didChangeRenewalPref: NotificationTypeV2 { Self(rawValue: "DID_CHANGE_RENEWAL_PREF") }
    /// `DID_CHANGE_RENEWAL_STATUS`: auto-renew was turned on or off.
    public static var didChangeRenewalStatus: NotificationTypeV2 { Self(rawValue: "DID_CHANGE_RENEWAL_STATUS") }
    /// `OFFER_REDEEMED`: the user redeemed an offer.
    public static var offerRedeemed: NotificationTypeV2 { Self(rawValue: "OFFER_REDEEMED") }
    /// `DID_RENEW`: the subscription renewed.
    public static var didRenew: NotificationTypeV2 { Self(rawValue: "DID_RENEW") }
    /// `EXPIRED`: the subscription expired.
    public static var expired: NotificationTypeV2 { Self(rawValue: "EXPIRED") }
    /// `DID_FAIL_TO_RENEW`: a renewal failed for a billing issue.
    public static var didFailToRenew: NotificationTypeV2 { Self(rawValue: "DID_FAIL_TO_RENEW") }
    /// `GRACE_PERIOD_EXPIRED`: the billing grace period ended without a renewal.
    public static var gracePeriodExpired: NotificationTypeV2 { Self(rawValue: "GRACE_PERIOD_EXPIRED") }
    /// `PRICE_INCREASE`: a price increase was announced, or the user consented to it.
    public static var priceIncrease: NotificationTypeV2 { Self(rawValue: "PRICE_INCREASE") }
    /// `REFUND`: Apple refunded a transaction.
    public static var refund: NotificationTypeV2 { Self(rawValue: "REFUND") }
    /// `REFUND_DECLINED`: Apple declined a refund request.
    public static var refundDeclined: NotificationTypeV2 { Self(rawValue: "REFUND_DECLINED") }
    /// `CONSUMPTION_REQUEST`: Apple asks for consumption data about a refund request.
    public static var consumptionRequest: NotificationTypeV2 { Self(rawValue: "CONSUMPTION_REQUEST") }
    /// `RENEWAL_EXTENDED`: the subscription's renewal date was extended.
    public static var renewalExtended: NotificationTypeV2 { Self(rawValue: "RENEWAL_EXTENDED") }
    /// `REVOKE`: access through Family Sharing ended.
    public static var revoke: NotificationTypeV2 { Self(rawValue: "REVOKE") }
    /// `TEST`: a test notification you requested.
    public static var test: NotificationTypeV2 { Self(rawValue: "TEST") }
    /// `RENEWAL_EXTENSION`: a renewal-date extension for many subscribers finished (summary) or failed.
    public static var renewalExtension: NotificationTypeV2 { Self(rawValue: "RENEWAL_EXTENSION") }
    /// `REFUND_REVERSED`: Apple reversed a refund.
    public static var refundReversed: NotificationTypeV2 { Self(rawValue: "REFUND_REVERSED") }
    /// `EXTERNAL_PURCHASE_TOKEN`: an external purchase token was created but not reported.
    public static var externalPurchaseToken: NotificationTypeV2 { Self(rawValue: "EXTERNAL_PURCHASE_TOKEN") }
    /// `ONE_TIME_CHARGE`: a consumable, non-consumable or non-renewing subscription was bought.
    public static var oneTimeCharge: NotificationTypeV2 { Self(rawValue: "ONE_TIME_CHARGE") }
    /// `RESCIND_CONSENT`: a parent or guardian withdrew consent for the app (Declared Age Range).
    public static var rescindConsent: NotificationTypeV2 { Self(rawValue: "RESCIND_CONSENT") }
    /// `METADATA_UPDATE`: an Advanced Commerce subscription's metadata changed.
    public static var metadataUpdate: NotificationTypeV2 { Self(rawValue: "METADATA_UPDATE") }
    /// `MIGRATION`: a subscription was migrated to Advanced Commerce.
    public static var migration: NotificationTypeV2 { Self(rawValue: "MIGRATION") }
    /// `PRICE_CHANGE`: an Advanced Commerce subscription's price changed.
    public static var priceChange: NotificationTypeV2 { Self(rawValue: "PRICE_CHANGE") }
    /// The values Apple documents.
    public static let documented: [NotificationTypeV2] = [
        .subscribed, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didRenew, .expired, .didFailToRenew,
        .gracePeriodExpired, .priceIncrease, .refund, .refundDeclined, .consumptionRequest, .renewalExtended, .revoke, .test,
        .renewalExtension, .refundReversed, .externalPurchaseToken, .oneTimeCharge, .rescindConsent, .metadataUpdate, .migration,
        .priceChange,
    ]
}

/// `NotificationSubtype` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct NotificationSubtype: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `INITIAL_BUY`: the first purchase in the subscription group.
    public static var initialBuy: NotificationSubtype { Self(rawValue: "INITIAL_BUY") }
    /// `RESUBSCRIBE`: a new purchase in a group the user subscribed to before.
    public static var resubscribe: NotificationSubtype { Self(rawValue: "RESUBSCRIBE") }
    /// `DOWNGRADE`: a downgrade, effective at the next renewal.
    public static var downgrade: NotificationSubtype { Self(rawValue: "DOWNGRADE") }
    /// `UPGRADE`: an upgrade, effective immediately.
    public static var upgrade: NotificationSubtype { Self(rawValue: "UPGRADE") }
    /// `AUTO_RENEW_ENABLED`: auto-renew turned on.
    public static var autoRenewEnabled: NotificationSubtype { Self(rawValue: "AUTO_RENEW_ENABLED") }
    /// `AUTO_RENEW_DISABLED`: auto-renew turned off.
    public static var autoRenewDisabled: NotificationSubtype { Self(rawValue: "AUTO_RENEW_DISABLED") }
    /// `VOLUNTARY`: expired after the user turned auto-renew off.
    public static var voluntary: NotificationSubtype { Self(rawValue: "VOLUNTARY") }
    /// `BILLING_RETRY`: expired after the billing retry period ended.
    public static var billingRetry: NotificationSubtype { Self(rawValue: "BILLING_RETRY") }
    /// `PRICE_INCREASE`: expired because the user did not consent to a price increase.
    public static var priceIncrease: NotificationSubtype { Self(rawValue: "PRICE_INCREASE") }
    /// `GRACE_PERIOD`: a failed renewal inside a billing grace period.
    public static var gracePeriod: NotificationSubtype { Self(rawValue: "GRACE_PERIOD") }
    /// `PENDING`: a price increase awaits the user's consent.
    public static var pending: NotificationSubtype { Self(rawValue: "PENDING") }
    /// `ACCEPTED`: the user consented to a price increase, or none was needed.
    public static var accepted: NotificationSubtype { Self(rawValue: "ACCEPTED") }
    /// `BILLING_RECOVERY`: a renewal succeeded after earlier failures.
    public static var billingRecovery: NotificationSubtype { Self(rawValue: "BILLING_RECOVERY") }
    /// `PRODUCT_NOT_FOR_SALE`: expired because the product was not for sale at renewal.
    public static var productNotForSale: NotificationSubtype { Self(rawValue: "PRODUCT_NOT_FOR_SALE") }
    /// `SUMMARY`: a renewal-date extension for many subscribers finished.
    public static var summary: NotificationSubtype { Self(rawValue: "SUMMARY") }
    /// `FAILURE`: a renewal-date extension failed for one subscription.
    public static var failure: NotificationSubtype { Self(rawValue: "FAILURE") }
    /// `UNREPORTED`: an external purchase token was not reported in time.
    public static var unreported: NotificationSubtype { Self(rawValue: "UNREPORTED") }
    /// The values Apple documents.
    public static let documented: [NotificationSubtype] = [
        .initialBuy, .resubscribe, .downgrade, .upgrade, .autoRenewEnabled, .autoRenewDisabled, .voluntary, .billingRetry, .priceIncrease,
        .gracePeriod, .pending, .accepted, .billingRecovery, .productNotForSale, .summary, .failure, .unreported,
    ]
}

/// `ConsumptionRequestReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ConsumptionRequestReason: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `UNINTENDED_PURCHASE`: the customer did not mean to buy.
    public static var unintendedPurchase: ConsumptionRequestReason { Self(rawValue: "UNINTENDED_PURCHASE") }
    /// `FULFILLMENT_ISSUE`: the customer did not receive the content or it did not work.
    public static var fulfillmentIssue: ConsumptionRequestReason { Self(rawValue: "FULFILLMENT_ISSUE") }
    /// `UNSATISFIED_WITH_PURCHASE`: the customer is not satisfied with the purchase.
    public static var unsatisfiedWithPurchase: ConsumptionRequestReason { Self(rawValue: "UNSATISFIED_WITH_PURCHASE") }
    /// `LEGAL`: a legal reason.
    public static var legal: ConsumptionRequestReason { Self(rawValue: "LEGAL") }
    /// `OTHER`: another reason.
    public static var other: ConsumptionRequestReason { Self(rawValue: "OTHER") }
    /// The values Apple documents.
    public static let documented: [ConsumptionRequestReason] = [
        .unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other,
    ]
}

/// `PurchasePlatform` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct PurchasePlatform: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `iOS`: bought on iOS or iPadOS.
    public static var iOS: PurchasePlatform { Self(rawValue: "iOS") }
    /// `macOS`: bought on macOS.
    public static var macOS: PurchasePlatform { Self(rawValue: "macOS") }
    /// `tvOS`: bought on tvOS.
    public static var tvOS: PurchasePlatform { Self(rawValue: "tvOS") }
    /// `visionOS`: bought on visionOS.
    public static var visionOS: PurchasePlatform { Self(rawValue: "visionOS") }
    /// The values Apple documents.
    public static let documented: [PurchasePlatform] = [.iOS, .macOS, .tvOS, .visionOS]
}

/// `AdvancedCommercePeriod` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommercePeriod: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `P1W`: one week.
    public static var p1W: AdvancedCommercePeriod { Self(rawValue: "P1W") }
    /// `P1M`: one month.
    public static var p1M: AdvancedCommercePeriod { Self(rawValue: "P1M") }
    /// `P2M`: two months.
    public static var p2M: AdvancedCommercePeriod { Self(rawValue: "P2M") }
    /// `P3M`: three months.
    public static var p3M: AdvancedCommercePeriod { Self(rawValue: "P3M") }
    /// `P6M`: six months.
    public static var p6M: AdvancedCommercePeriod { Self(rawValue: "P6M") }
    /// `P1Y`: one year.
    public static var p1Y: AdvancedCommercePeriod { Self(rawValue: "P1Y") }
    /// The values Apple documents.
    public static let documented: [AdvancedCommercePeriod] = [.p1W, .p1M, .p2M, .p3M, .p6M, .p1Y]
}

/// `AdvancedCommerceOfferPeriod` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceOfferPeriod: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `P3D`: three days.
    public static var p3D: AdvancedCommerceOfferPeriod { Self(rawValue: "P3D") }
    /// `P1W`: one week.
    public static var p1W: AdvancedCommerceOfferPeriod { Self(rawValue: "P1W") }
    /// `P2W`: two weeks.
    public static var p2W: AdvancedCommerceOfferPeriod { Self(rawValue: "P2W") }
    /// `P1M`: one month.
    public static var p1M: AdvancedCommerceOfferPeriod { Self(rawValue: "P1M") }
    /// `P2M`: two months.
    public static var p2M: AdvancedCommerceOfferPeriod { Self(rawValue: "P2M") }
    /// `P3M`: three months.
    public static var p3M: AdvancedCommerceOfferPeriod { Self(rawValue: "P3M") }
    /// `P6M`: six months.
    public static var p6M: AdvancedCommerceOfferPeriod { Self(rawValue: "P6M") }
    /// `P9M`: nine months.
    public static var p9M: AdvancedCommerceOfferPeriod { Self(rawValue: "P9M") }
    /// `P1Y`: one year.
    public static var p1Y: AdvancedCommerceOfferPeriod { Self(rawValue: "P1Y") }
    /// The values Apple documents.
    public static let documented: [AdvancedCommerceOfferPeriod] = [.p3D, .p1W, .p2W, .p1M, .p2M, .p3M, .p6M, .p9M, .p1Y]
}

/// `AdvancedCommerceOfferReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceOfferReason: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `ACQUISITION`: an offer to win a new customer.
    public static var acquisition: AdvancedCommerceOfferReason { Self(rawValue: "ACQUISITION") }
    /// `WIN_BACK`: an offer to win back a former customer.
    public static var winBack: AdvancedCommerceOfferReason { Self(rawValue: "WIN_BACK") }
    /// `RETENTION`: an offer to keep a current customer.
    public static var retention: AdvancedCommerceOfferReason { Self(rawValue: "RETENTION") }
    /// The values Apple documents.
    public static let documented: [AdvancedCommerceOfferReason] = [.acquisition, .winBack, .retention]
}

/// `AdvancedCommerceRefundReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceRefundReason: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `UNINTENDED_PURCHASE`: the customer did not mean to buy.
    public static var unintendedPurchase: AdvancedCommerceRefundReason { Self(rawValue: "UNINTENDED_PURCHASE") }
    /// `FULFILLMENT_ISSUE`: the content was not delivered or did not work.
    public static var fulfillmentIssue: AdvancedCommerceRefundReason { Self(rawValue: "FULFILLMENT_ISSUE") }
    /// `UNSATISFIED_WITH_PURCHASE`: the customer is not satisfied with the purchase.
    public static var unsatisfiedWithPurchase: AdvancedCommerceRefundReason { Self(rawValue: "UNSATISFIED_WITH_PURCHASE") }
    /// `LEGAL`: a legal reason.
    public static var legal: AdvancedCommerceRefundReason { Self(rawValue: "LEGAL") }
    /// `OTHER`: another reason.
    public static var other: AdvancedCommerceRefundReason { Self(rawValue: "OTHER") }
    /// `MODIFY_ITEMS_REFUND`: a refund for items changed in a subscription modification.
    public static var modifyItemsRefund: AdvancedCommerceRefundReason { Self(rawValue: "MODIFY_ITEMS_REFUND") }
    /// `SIMULATE_REFUND_DECLINE`: in the sandbox, makes the refund request decline (for testing).
    public static var simulateRefundDecline: AdvancedCommerceRefundReason { Self(rawValue: "SIMULATE_REFUND_DECLINE") }
    /// The values Apple documents.
    public static let documented: [AdvancedCommerceRefundReason] = [
        .unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other, .modifyItemsRefund, .simulateRefundDecline,
    ]
}

/// `AdvancedCommerceRefundType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceRefundType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `FULL`: the whole amount.
    public static var full: AdvancedCommerceRefundType { Self(rawValue: "FULL") }
    /// `PRORATED`: the unused part of the period.
    public static var prorated: AdvancedCommerceRefundType { Self(rawValue: "PRORATED") }
    /// `CUSTOM`: an amount the developer gives.
    public static var custom: AdvancedCommerceRefundType { Self(rawValue: "CUSTOM") }
    /// The values Apple documents.
    public static let documented: [AdvancedCommerceRefundType] = [.full, .prorated, .custom]
}

/// `AdvancedCommercePriceIncreaseInfoStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommercePriceIncreaseInfoStatus: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `SCHEDULED`: the increase is scheduled.
    public static var scheduled: AdvancedCommercePriceIncreaseInfoStatus { Self(rawValue: "SCHEDULED") }
    /// `PENDING`: the increase awaits the customer's consent.
    public static var pending: AdvancedCommercePriceIncreaseInfoStatus { Self(rawValue: "PENDING") }
    /// `ACCEPTED`: the customer consented.
    public static var accepted: AdvancedCommercePriceIncreaseInfoStatus { Self(rawValue: "ACCEPTED") }
    /// The values Apple documents.
    public static let documented: [AdvancedCommercePriceIncreaseInfoStatus] = [.scheduled, .pending, .accepted]
}

/// `ExternalPurchaseTokenType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ExternalPurchaseTokenType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `ACQUISITION`: a customer acquired through the link-out.
    public static var acquisition: ExternalPurchaseTokenType { Self(rawValue: "ACQUISITION") }
    /// `SERVICES`: services bought through the link-out.
    public static var services: ExternalPurchaseTokenType { Self(rawValue: "SERVICES") }
    /// The values Apple documents.
    public static let documented: [ExternalPurchaseTokenType] = [.acquisition, .services]
}

/// `OfferType` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct OfferType: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `1`: an introductory offer.
    public static let introductoryOffer = OfferType(rawValue: 1)
    /// `2`: a promotional offer.
    public static let promotionalOffer = OfferType(rawValue: 2)
    /// `3`: an offer code.
    public static let offerCode = OfferType(rawValue: 3)
    /// `4`: a win-back offer.
    public static let winBackOffer = OfferType(rawValue: 4)
    /// The values Apple documents.
    public static let documented: [OfferType] = [.introductoryOffer, .promotionalOffer, .offerCode, .winBackOffer]
}

/// `RevocationReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct RevocationReason: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `0`: refunded for another reason.
    public static let refundedForOtherReason = RevocationReason(rawValue: 0)
    /// `1`: refunded for an actual or perceived issue in the app.
    public static let refundedDueToIssue = RevocationReason(rawValue: 1)
    /// The values Apple documents.
    public static let documented: [RevocationReason] = [.refundedForOtherReason, .refundedDueToIssue]
}

/// `ExpirationIntent` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct ExpirationIntent: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `1`: the customer canceled.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    /// `2`: a billing error.
    public static let billingError = ExpirationIntent(rawValue: 2)
    /// `3`: the customer did not consent to a price increase.
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    /// `4`: the product was not for sale at renewal.
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    /// `5`: another reason.
    public static let other = ExpirationIntent(rawValue: 5)
    /// The values Apple documents.
    public static let documented: [ExpirationIntent] = [
        .customerCancelled, .billingError, .customerDidNotConsentToPriceIncrease, .productNotAvailable, .other,
    ]
}

/// `AutoRenewStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AutoRenewStatus: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `0`: auto-renew is off.
    public static let off = AutoRenewStatus(rawValue: 0)
    /// `1`: auto-renew is on.
    public static let on = AutoRenewStatus(rawValue: 1)
    /// The values Apple documents.
    public static let documented: [AutoRenewStatus] = [.off, .on]
}

/// `PriceIncreaseStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct PriceIncreaseStatus: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `0`: the customer has not yet responded to the price increase.
    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)
    /// `1`: the customer consented, or the increase needs no consent.
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = PriceIncreaseStatus(rawValue: 1)
    /// The values Apple documents.
    public static let documented: [PriceIncreaseStatus] = [.customerHasNotResponded, .customerConsentedOrWasNotifiedWithoutNeedingConsent]
}

/// `SubscriptionStatus` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct SubscriptionStatus: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: Int32
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `1`: active.
    public static let active = SubscriptionStatus(rawValue: 1)
    /// `2`: expired.
    public static let expired = SubscriptionStatus(rawValue: 2)
    /// `3`: in the billing retry period.
    public static let billingRetry = SubscriptionStatus(rawValue: 3)
    /// `4`: in the billing grace period.
    public static let billingGracePeriod = SubscriptionStatus(rawValue: 4)
    /// `5`: revoked.
    public static let revoked = SubscriptionStatus(rawValue: 5)
    /// The values Apple documents.
    public static let documented: [SubscriptionStatus] = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]
}

// Read and written by the direct model readers as their raw values.
extension AppStoreEnvironment: ModelValue {}
extension ProductType: ModelValue {}
extension InAppOwnershipType: ModelValue {}
extension TransactionReason: ModelValue {}
extension OfferDiscountType: ModelValue {}
extension RevocationType: ModelValue {}
extension BillingPlanType: ModelValue {}
extension NotificationTypeV2: ModelValue {}
extension NotificationSubtype: ModelValue {}
extension ConsumptionRequestReason: ModelValue {}
extension PurchasePlatform: ModelValue {}
extension AdvancedCommercePeriod: ModelValue {}
extension AdvancedCommerceOfferPeriod: ModelValue {}
extension AdvancedCommerceOfferReason: ModelValue {}
extension AdvancedCommerceRefundReason: ModelValue {}
extension AdvancedCommerceRefundType: ModelValue {}
extension AdvancedCommercePriceIncreaseInfoStatus: ModelValue {}
extension ExternalPurchaseTokenType: ModelValue {}
extension OfferType: ModelValue {}
extension RevocationReason: ModelValue {}
extension ExpirationIntent: ModelValue {}
extension AutoRenewStatus: ModelValue {}
extension PriceIncreaseStatus: ModelValue {}
extension SubscriptionStatus: ModelValue {}
