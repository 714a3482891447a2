import Foundation
import SigilAppStore
import SigilBase
import SigilJOSE
import XCTest

/// Every field and enum value of the signed-data models in Apple's App Store Server Library
/// (Swift 6.0.0, which carries App Store Server Notifications 2.17 and App Store Server API 1.21:
/// 12-month commitment plans, Advanced Commerce parts, app data) decodes into Sigil's models.
///
/// The tables below are facts — Apple's field names, their types and every documented enum value —
/// transcribed from the reference of Apple's library; the test builds a payload with every field
/// set, decodes it, and checks through reflection that no field was dropped, then decodes every
/// enum value and checks Sigil documents it.
final class AppleModelCoverageTests: XCTestCase {
    /// Apple's model name → "field: Type; …" (Apple's names; `[T]` arrays).
    static let fields: [String: String] = [
        "JWSTransactionDecodedPayload":
            "originalTransactionId: String; transactionId: String; webOrderLineItemId: String; bundleId: String; productId: String; "
            + "subscriptionGroupIdentifier: String; purchaseDate: Date; originalPurchaseDate: Date; expiresDate: Date; quantity: Int32; "
            + "type: ProductType; appAccountToken: UUID; inAppOwnershipType: InAppOwnershipType; signedDate: Date; "
            + "revocationReason: RevocationReason; revocationDate: Date; isUpgraded: Bool; offerType: OfferType; offerIdentifier: String; "
            + "environment: AppStoreEnvironment; storefront: String; storefrontId: String; transactionReason: TransactionReason; "
            + "currency: String; price: Int64; offerDiscountType: OfferDiscountType; appTransactionId: String; offerPeriod: String; "
            + "revocationType: RevocationType; revocationPercentage: Int32; advancedCommerceInfo: AdvancedCommerceTransactionInfo; "
            + "billingPlanType: BillingPlanType; commitmentInfo: TransactionCommitmentInfo",
        "JWSRenewalInfoDecodedPayload":
            "expirationIntent: ExpirationIntent; originalTransactionId: String; autoRenewProductId: String; productId: String; "
            + "autoRenewStatus: AutoRenewStatus; isInBillingRetryPeriod: Bool; priceIncreaseStatus: PriceIncreaseStatus; "
            + "gracePeriodExpiresDate: Date; offerType: OfferType; offerIdentifier: String; signedDate: Date; "
            + "environment: AppStoreEnvironment; recentSubscriptionStartDate: Date; renewalDate: Date; currency: String; "
            + "renewalPrice: Int64; offerDiscountType: OfferDiscountType; eligibleWinBackOfferIds: [String]; appAccountToken: UUID; "
            + "appTransactionId: String; offerPeriod: String; advancedCommerceInfo: AdvancedCommerceRenewalInfo; "
            + "commitmentInfo: RenewalCommitmentInfo; renewalBillingPlanType: RenewalBillingPlanType",
        "ResponseBodyV2DecodedPayload":
            "notificationType: NotificationTypeV2; subtype: Subtype; notificationUUID: String; data: NotificationData; version: String; "
            + "signedDate: Date; summary: Summary; externalPurchaseToken: ExternalPurchaseToken; appData: AppData",
        "NotificationData":
            "environment: AppStoreEnvironment; appAppleId: Int64; bundleId: String; bundleVersion: String; signedTransactionInfo: String; "
            + "signedRenewalInfo: String; status: Status; consumptionRequestReason: ConsumptionRequestReason",
        "Summary":
            "environment: AppStoreEnvironment; appAppleId: Int64; bundleId: String; productId: String; requestIdentifier: String; "
            + "storefrontCountryCodes: [String]; succeededCount: Int64; failedCount: Int64",
        "ExternalPurchaseToken": "externalPurchaseId: String; tokenCreationDate: Int64; appAppleId: Int64; bundleId: String",
        "AppData": "appAppleId: Int64; bundleId: String; environment: AppStoreEnvironment; signedAppTransactionInfo: String",
        "AppTransaction":
            "receiptType: AppStoreEnvironment; appAppleId: Int64; bundleId: String; applicationVersion: String; "
            + "versionExternalIdentifier: Int64; receiptCreationDate: Date; originalPurchaseDate: Date; originalApplicationVersion: String; "
            + "deviceVerification: String; deviceVerificationNonce: UUID; preorderDate: Date; appTransactionId: String; "
            + "originalPlatform: PurchasePlatform",
        "DecodedRealtimeRequestBody":
            "originalTransactionId: String; appAppleId: Int64; productId: String; userLocale: String; requestIdentifier: UUID; "
            + "signedDate: Date; environment: AppStoreEnvironment",
        "TransactionCommitmentInfo":
            "billingPeriodNumber: Int32; commitmentExpiresDate: Date; commitmentPrice: Int64; totalBillingPeriods: Int32",
        "RenewalCommitmentInfo":
            "commitmentAutoRenewProductId: String; commitmentAutoRenewStatus: AutoRenewStatus; "
            + "commitmentRenewalBillingPlanType: RenewalBillingPlanType; commitmentRenewalDate: Date; commitmentRenewalPrice: Int64",
        "AdvancedCommerceTransactionInfo":
            "descriptors: AdvancedCommerceDescriptors; estimatedTax: Int64; items: [AdvancedCommerceTransactionItem]; "
            + "period: AdvancedCommercePeriod; requestReferenceId: String; taxCode: String; taxExclusivePrice: Int64; taxRate: String",
        "AdvancedCommerceTransactionItem":
            "sku: String; description: String; displayName: String; offer: AdvancedCommerceOffer; price: Int64; "
            + "refunds: [AdvancedCommerceRefund]; revocationDate: Date",
        "AdvancedCommerceRenewalInfo":
            "consistencyToken: String; descriptors: AdvancedCommerceDescriptors; items: [AdvancedCommerceRenewalItem]; "
            + "period: AdvancedCommercePeriod; requestReferenceId: String; taxCode: String",
        "AdvancedCommerceRenewalItem":
            "sku: String; description: String; displayName: String; offer: AdvancedCommerceOffer; price: Int64; "
            + "priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo",
        "AdvancedCommerceOffer":
            "period: AdvancedCommerceOfferPeriod; periodCount: Int32; price: Int64; reason: AdvancedCommerceOfferReason",
        "AdvancedCommerceRefund":
            "refundAmount: Int64; refundDate: Date; refundReason: AdvancedCommerceRefundReason; refundType: AdvancedCommerceRefundType",
        "AdvancedCommercePriceIncreaseInfo": "dependentSKUs: [String]; price: Int64; status: AdvancedCommercePriceIncreaseInfoStatus",
        "AdvancedCommerceDescriptors": "description: String; displayName: String",
    ]

    /// Apple's enum name → every raw value it documents.
    static let enums: [String: [String]] = [
        "AppStoreEnvironment": ["Sandbox", "Production", "Xcode", "LocalTesting"],
        "ProductType": ["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"],
        "InAppOwnershipType": ["FAMILY_SHARED", "PURCHASED"],
        "TransactionReason": ["PURCHASE", "RENEWAL"],
        "OfferDiscountType": ["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME"],
        "RevocationType": ["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"],
        "BillingPlanType": ["BILLED_UPFRONT", "MONTHLY"],
        "RenewalBillingPlanType": ["BILLED_UPFRONT", "MONTHLY"],
        "NotificationTypeV2": [
            "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED", "DID_RENEW", "EXPIRED",
            "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "CONSUMPTION_REQUEST",
            "RENEWAL_EXTENDED", "REVOKE", "TEST", "RENEWAL_EXTENSION", "REFUND_REVERSED", "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE",
            "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
        ],
        "Subtype": [
            "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED", "VOLUNTARY",
            "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY", "PRODUCT_NOT_FOR_SALE",
            "SUMMARY", "FAILURE", "UNREPORTED",
        ],
        "ConsumptionRequestReason": ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"],
        "PurchasePlatform": ["iOS", "macOS", "tvOS", "visionOS"],
        "AdvancedCommercePeriod": ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"],
        "AdvancedCommerceOfferPeriod": ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P9M", "P1Y"],
        "AdvancedCommerceOfferReason": ["ACQUISITION", "WIN_BACK", "RETENTION"],
        "AdvancedCommerceRefundReason": [
            "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER", "MODIFY_ITEMS_REFUND",
            "SIMULATE_REFUND_DECLINE",
        ],
        "AdvancedCommerceRefundType": ["FULL", "PRORATED", "CUSTOM"],
        "AdvancedCommercePriceIncreaseInfoStatus": ["SCHEDULED", "PENDING", "ACCEPTED"],
        "OfferType": ["1", "2", "3", "4"],
        "RevocationReason": ["0", "1"],
        "ExpirationIntent": ["1", "2", "3", "4", "5"],
        "AutoRenewStatus": ["0", "1"],
        "PriceIncreaseStatus": ["0", "1"],
        "Status": ["1", "2", "3", "4", "5"],
    ]

    /// Decodes `json` as every Sigil type standing for one of Apple's enums, by Apple's name.
    static func documented(_ enumName: String, _ raw: String) throws -> Bool {
        let json = Array((Int64(raw) != nil ? raw : "\"\(raw)\"").utf8)
        func check<T: AppleOpenEnum>(_ type: T.Type) throws -> Bool {
            try JSONValueDecoder().decode(T.self, fromJSON: json).isDocumented
        }
        switch enumName {
        case "AppStoreEnvironment": return try check(AppStoreEnvironment.self)
        case "ProductType": return try check(ProductType.self)
        case "InAppOwnershipType": return try check(InAppOwnershipType.self)
        case "TransactionReason": return try check(TransactionReason.self)
        case "OfferDiscountType": return try check(OfferDiscountType.self)
        case "RevocationType": return try check(RevocationType.self)
        case "BillingPlanType", "RenewalBillingPlanType": return try check(BillingPlanType.self)
        case "NotificationTypeV2": return try check(NotificationTypeV2.self)
        case "Subtype": return try check(NotificationSubtype.self)
        case "ConsumptionRequestReason": return try check(ConsumptionRequestReason.self)
        case "PurchasePlatform": return try check(PurchasePlatform.self)
        case "AdvancedCommercePeriod": return try check(AdvancedCommercePeriod.self)
        case "AdvancedCommerceOfferPeriod": return try check(AdvancedCommerceOfferPeriod.self)
        case "AdvancedCommerceOfferReason": return try check(AdvancedCommerceOfferReason.self)
        case "AdvancedCommerceRefundReason": return try check(AdvancedCommerceRefundReason.self)
        case "AdvancedCommerceRefundType": return try check(AdvancedCommerceRefundType.self)
        case "AdvancedCommercePriceIncreaseInfoStatus": return try check(AdvancedCommercePriceIncreaseInfoStatus.self)
        case "OfferType": return try check(OfferType.self)
        case "RevocationReason": return try check(RevocationReason.self)
        case "ExpirationIntent": return try check(ExpirationIntent.self)
        case "AutoRenewStatus": return try check(AutoRenewStatus.self)
        case "PriceIncreaseStatus": return try check(PriceIncreaseStatus.self)
        case "Status": return try check(SubscriptionStatus.self)
        default: throw NSError(domain: "no Sigil type for Apple's enum \(enumName)", code: 1)
        }
    }

    /// A JSON value with every field of Apple's `model` set (enums to their first documented value).
    static func sample(_ type: String) -> Any {
        if type.hasPrefix("[") { return [sample(String(type.dropFirst().dropLast()))] }
        switch type {
        case "String": return "s"
        case "Int32", "Int64": return 7
        case "Bool": return true
        case "Date": return 1_698_148_900_000
        case "UUID": return "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        default:
            if let values = enums[type] { return Int(values[0]).map { $0 as Any } ?? values[0] }
            guard let spec = fields[type] else { return "unknown type \(type)" }
            var object: [String: Any] = [:]
            for (name, fieldType) in parse(spec) { object[name == "sku" ? "SKU" : name] = sample(fieldType) }
            return object
        }
    }

    static func parse(_ spec: String) -> [(String, String)] {
        spec.split(separator: ";").map {
            let parts = $0.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            return (parts[0], parts[1])
        }
    }

    /// The fields of Apple's `model` that are nil (or absent) after decoding the full sample into `T`.
    func dropped<T: Decodable>(_ model: String, as type: T.Type) throws -> [String] {
        let json = try JSONSerialization.data(withJSONObject: Self.sample(model), options: [.sortedKeys])
        let decoded = try JSONValueDecoder().decode(T.self, fromJSON: Array(json))
        let children = Dictionary(Mirror(reflecting: decoded).children.compactMap { c in c.label.map { ($0, c.value) } }) { a, _ in a }
        return Self.parse(try XCTUnwrap(Self.fields[model])).map(\.0).filter { name in
            guard let value = children[name] else { return true }
            let mirror = Mirror(reflecting: value)
            return mirror.displayStyle == .optional && mirror.children.isEmpty
        }
    }

    func testEveryFieldOfApplesModelsDecodes() throws {
        let checks: [(String, [String])] = [
            ("JWSTransactionDecodedPayload", try dropped("JWSTransactionDecodedPayload", as: JWSTransactionDecodedPayload.self)),
            ("JWSRenewalInfoDecodedPayload", try dropped("JWSRenewalInfoDecodedPayload", as: JWSRenewalInfoDecodedPayload.self)),
            ("ResponseBodyV2DecodedPayload", try dropped("ResponseBodyV2DecodedPayload", as: ResponseBodyV2DecodedPayload.self)),
            ("NotificationData", try dropped("NotificationData", as: NotificationData.self)),
            ("Summary", try dropped("Summary", as: NotificationSummary.self)),
            ("ExternalPurchaseToken", try dropped("ExternalPurchaseToken", as: ExternalPurchaseTokenPayload.self)),
            ("AppData", try dropped("AppData", as: NotificationAppData.self)),
            ("AppTransaction", try dropped("AppTransaction", as: AppTransaction.self)),
            ("DecodedRealtimeRequestBody", try dropped("DecodedRealtimeRequestBody", as: DecodedRealtimeRequestBody.self)),
            ("TransactionCommitmentInfo", try dropped("TransactionCommitmentInfo", as: TransactionCommitmentInfo.self)),
            ("RenewalCommitmentInfo", try dropped("RenewalCommitmentInfo", as: RenewalCommitmentInfo.self)),
            ("AdvancedCommerceTransactionInfo", try dropped("AdvancedCommerceTransactionInfo", as: AdvancedCommerceTransactionInfo.self)),
            ("AdvancedCommerceTransactionItem", try dropped("AdvancedCommerceTransactionItem", as: AdvancedCommerceTransactionItem.self)),
            ("AdvancedCommerceRenewalInfo", try dropped("AdvancedCommerceRenewalInfo", as: AdvancedCommerceRenewalInfo.self)),
            ("AdvancedCommerceRenewalItem", try dropped("AdvancedCommerceRenewalItem", as: AdvancedCommerceRenewalItem.self)),
            ("AdvancedCommerceOffer", try dropped("AdvancedCommerceOffer", as: AdvancedCommerceOffer.self)),
            ("AdvancedCommerceRefund", try dropped("AdvancedCommerceRefund", as: AdvancedCommerceRefund.self)),
            (
                "AdvancedCommercePriceIncreaseInfo",
                try dropped("AdvancedCommercePriceIncreaseInfo", as: AdvancedCommercePriceIncreaseInfo.self)
            ),
            ("AdvancedCommerceDescriptors", try dropped("AdvancedCommerceDescriptors", as: AdvancedCommerceDescriptors.self)),
        ]
        XCTAssertEqual(Set(checks.map(\.0)), Set(Self.fields.keys), "every model of the table is checked")
        for (model, missing) in checks { XCTAssertEqual(missing, [], "\(model) drops \(missing)") }
    }

    func testEveryEnumValueOfApplesModelsIsDocumented() throws {
        var count = 0
        for (name, values) in Self.enums {
            for value in values {
                XCTAssertTrue(try Self.documented(name, value), "\(name).\(value) decodes but Sigil does not document it")
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 120)
        // The checker is not vacuous: a value Apple has not documented decodes, and is reported as such.
        XCTAssertFalse(try Self.documented("NotificationTypeV2", "SOMETHING_NEW"))
    }
}
