import SigilJOSE

/// The decoded payload of a signed transaction (JWSTransactionDecodedPayload in Apple's App Store
/// Server API documentation). Every field is optional, as Apple documents; UUID-valued fields
/// stay strings so their case and form are kept exactly as signed.
public struct JWSTransactionDecodedPayload: Hashable, Sendable {
    /// The transaction id of the original purchase, the same for every renewal and restore.
    public var originalTransactionId: String?
    /// The transaction's unique identifier.
    public var transactionId: String?
    /// The id of the subscription purchase events across devices, including renewals.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The in-app purchase's product identifier.
    public var productId: String?
    /// The subscription group the product belongs to.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the user (for a renewal, when it renewed).
    public var purchaseDate: AppStoreDate?
    /// When the original purchase was made.
    public var originalPurchaseDate: AppStoreDate?
    /// When the subscription expires or renews.
    public var expiresDate: AppStoreDate?
    /// How many of the consumable product were bought.
    public var quantity: Int32?
    /// The product type.
    public var type: ProductType?
    /// The UUID your app associated with the user at purchase, when it set one.
    public var appAccountToken: String?
    /// Whether the user bought the product or has it through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType?
    /// When the App Store signed the data.
    public var signedDate: AppStoreDate?
    /// Why the App Store refunded or revoked the transaction, when it did.
    public var revocationReason: RevocationReason?
    /// When the App Store refunded or revoked the transaction.
    public var revocationDate: AppStoreDate?
    /// Whether the user upgraded to another subscription (this one then ends).
    public var isUpgraded: Bool?
    /// The kind of offer applied, when one was.
    public var offerType: OfferType?
    /// The offer code or promotional offer identifier.
    public var offerIdentifier: String?
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// The App Store storefront's identifier.
    public var storefrontId: String?
    /// Whether the user purchased or the subscription renewed.
    public var transactionReason: TransactionReason?
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String?
    /// Price in milliunits of the currency.
    public var price: Int64?
    /// The payment mode of the offer applied.
    public var offerDiscountType: OfferDiscountType?
    /// The app transaction's identifier: one per user and app, across devices.
    public var appTransactionId: String?
    /// ISO 8601 duration of the offer.
    public var offerPeriod: String?
    /// How the transaction was revoked: a full or prorated refund, or the end of Family Sharing.
    public var revocationType: RevocationType?
    /// For a prorated refund, the share refunded, in thousandths of a percent.
    public var revocationPercentage: Int32?
    /// The Advanced Commerce API data, for a product sold through it.
    public var advancedCommerceInfo: AdvancedCommerceTransactionInfo?
    /// How a subscription with a commitment is billed.
    public var billingPlanType: BillingPlanType?
    /// The commitment of a subscription with one.
    public var commitmentInfo: TransactionCommitmentInfo?
    /// Client side only (StoreKit's `Transaction.jwsRepresentation`, not the App Store Server
    /// API): base64 of SHA-384(lowercased ``deviceVerificationNonce`` ‖ the device's lowercased
    /// `AppStore.deviceVerificationID`), binding the transaction to the device that received it
    /// (``DeviceVerifiablePayload/checkDeviceVerification(deviceVerificationID:)``).
    public var deviceVerification: String?
    /// Client side only: the UUID mixed into ``deviceVerification``.
    public var deviceVerificationNonce: String?

    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// Advanced Commerce details of a transaction.
public struct AdvancedCommerceTransactionInfo: Hashable, Sendable {
    /// The display name and description shown to the customer.
    public var descriptors: AdvancedCommerceDescriptors?
    /// The estimated tax, in milliunits of the currency.
    public var estimatedTax: Int64?
    /// The items, one per SKU.
    public var items: [AdvancedCommerceTransactionItem]?
    /// The subscription's billing period.
    public var period: AdvancedCommercePeriod?
    /// The UUID of the request that made this transaction.
    public var requestReferenceId: String?
    /// The product's tax code.
    public var taxCode: String?
    /// The price before tax, in milliunits of the currency.
    public var taxExclusivePrice: Int64?
    /// The tax rate applied, as a decimal string.
    public var taxRate: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// Description and display name of an Advanced Commerce item.
public struct AdvancedCommerceDescriptors: Hashable, Sendable {
    /// The description shown to the customer.
    public var description: String?
    /// The name shown to the customer.
    public var displayName: String?
    /// Creates descriptors; absent members are not encoded.
    public init(description: String? = nil, displayName: String? = nil) {
        self.description = description
        self.displayName = displayName
    }
}

/// One item of an Advanced Commerce transaction.
public struct AdvancedCommerceTransactionItem: Hashable, Sendable {
    /// The item's SKU.
    public var sku: String?
    /// The description shown to the customer.
    public var description: String?
    /// The name shown to the customer.
    public var displayName: String?
    /// The offer applied to the item, when one is.
    public var offer: AdvancedCommerceOffer?
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64?
    /// The refunds made for the item.
    public var refunds: [AdvancedCommerceRefund]?
    /// When the App Store refunded or revoked the transaction.
    public var revocationDate: AppStoreDate?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// An offer applied to an Advanced Commerce item.
public struct AdvancedCommerceOffer: Hashable, Sendable {
    /// The length of one offer period.
    public var period: AdvancedCommerceOfferPeriod?
    /// How many periods the offer lasts.
    public var periodCount: Int32?
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64?
    /// Why the offer is given.
    public var reason: AdvancedCommerceOfferReason?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// A refund of an Advanced Commerce item.
public struct AdvancedCommerceRefund: Hashable, Sendable {
    /// The amount refunded, in milliunits of the currency.
    public var refundAmount: Int64?
    /// When the refund was made.
    public var refundDate: AppStoreDate?
    /// Why the refund was requested.
    public var refundReason: AdvancedCommerceRefundReason?
    /// How the refund amount was computed.
    public var refundType: AdvancedCommerceRefundType?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The commitment (billing plan) details of a transaction.
public struct TransactionCommitmentInfo: Hashable, Sendable {
    /// The number of the current billing period within the commitment.
    public var billingPeriodNumber: Int32?
    /// When the commitment ends.
    public var commitmentExpiresDate: AppStoreDate?
    /// The commitment's total price, in milliunits of the currency.
    public var commitmentPrice: Int64?
    /// How many billing periods the commitment has.
    public var totalBillingPeriods: Int32?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

#if !hasFeature(Embedded)
extension JWSTransactionDecodedPayload: Codable {}
extension JWSTransactionDecodedPayload.CodingKeys: CodingKey {}
extension AdvancedCommerceTransactionInfo: Codable {}
extension AdvancedCommerceTransactionInfo.CodingKeys: CodingKey {}
extension AdvancedCommerceDescriptors: Codable {}
extension AdvancedCommerceDescriptors.CodingKeys: CodingKey {}
extension AdvancedCommerceTransactionItem: Codable {}
extension AdvancedCommerceTransactionItem.CodingKeys: CodingKey {}
extension AdvancedCommerceOffer: Codable {}
extension AdvancedCommerceOffer.CodingKeys: CodingKey {}
extension AdvancedCommerceRefund: Codable {}
extension AdvancedCommerceRefund.CodingKeys: CodingKey {}
extension TransactionCommitmentInfo: Codable {}
extension TransactionCommitmentInfo.CodingKeys: CodingKey {}
#endif

extension JWSTransactionDecodedPayload {
    /// Reads a transaction from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The transaction as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension JWSTransactionDecodedPayload: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId, subscriptionGroupIdentifier
        case purchaseDate, originalPurchaseDate, expiresDate, quantity, type, appAccountToken, inAppOwnershipType, signedDate
        case revocationReason, revocationDate, isUpgraded, offerType, offerIdentifier, environment, storefront, storefrontId
        case transactionReason, currency, price, offerDiscountType, appTransactionId, offerPeriod, revocationType
        case revocationPercentage, advancedCommerceInfo, billingPlanType, commitmentInfo, deviceVerification
        case deviceVerificationNonce
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .originalTransactionId: originalTransactionId = try String(member: value)
        case .transactionId: transactionId = try String(member: value)
        case .webOrderLineItemId: webOrderLineItemId = try String(member: value)
        case .bundleId: bundleId = try String(member: value)
        case .productId: productId = try String(member: value)
        case .subscriptionGroupIdentifier: subscriptionGroupIdentifier = try String(member: value)
        case .purchaseDate: purchaseDate = try AppStoreDate(member: value)
        case .originalPurchaseDate: originalPurchaseDate = try AppStoreDate(member: value)
        case .expiresDate: expiresDate = try AppStoreDate(member: value)
        case .quantity: quantity = try Int32(member: value)
        case .type: type = try ProductType(member: value)
        case .appAccountToken: appAccountToken = try String(member: value)
        case .inAppOwnershipType: inAppOwnershipType = try InAppOwnershipType(member: value)
        case .signedDate: signedDate = try AppStoreDate(member: value)
        case .revocationReason: revocationReason = try RevocationReason(member: value)
        case .revocationDate: revocationDate = try AppStoreDate(member: value)
        case .isUpgraded: isUpgraded = try Bool(member: value)
        case .offerType: offerType = try OfferType(member: value)
        case .offerIdentifier: offerIdentifier = try String(member: value)
        case .environment: environment = try AppStoreEnvironment(member: value)
        case .storefront: storefront = try String(member: value)
        case .storefrontId: storefrontId = try String(member: value)
        case .transactionReason: transactionReason = try TransactionReason(member: value)
        case .currency: currency = try String(member: value)
        case .price: price = try Int64(member: value)
        case .offerDiscountType: offerDiscountType = try OfferDiscountType(member: value)
        case .appTransactionId: appTransactionId = try String(member: value)
        case .offerPeriod: offerPeriod = try String(member: value)
        case .revocationType: revocationType = try RevocationType(member: value)
        case .revocationPercentage: revocationPercentage = try Int32(member: value)
        case .advancedCommerceInfo: advancedCommerceInfo = try AdvancedCommerceTransactionInfo(member: value)
        case .billingPlanType: billingPlanType = try BillingPlanType(member: value)
        case .commitmentInfo: commitmentInfo = try TransactionCommitmentInfo(member: value)
        case .deviceVerification: deviceVerification = try String(member: value)
        case .deviceVerificationNonce: deviceVerificationNonce = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .originalTransactionId: originalTransactionId?.memberJSON
        case .transactionId: transactionId?.memberJSON
        case .webOrderLineItemId: webOrderLineItemId?.memberJSON
        case .bundleId: bundleId?.memberJSON
        case .productId: productId?.memberJSON
        case .subscriptionGroupIdentifier: subscriptionGroupIdentifier?.memberJSON
        case .purchaseDate: purchaseDate?.memberJSON
        case .originalPurchaseDate: originalPurchaseDate?.memberJSON
        case .expiresDate: expiresDate?.memberJSON
        case .quantity: quantity?.memberJSON
        case .type: type?.memberJSON
        case .appAccountToken: appAccountToken?.memberJSON
        case .inAppOwnershipType: inAppOwnershipType?.memberJSON
        case .signedDate: signedDate?.memberJSON
        case .revocationReason: revocationReason?.memberJSON
        case .revocationDate: revocationDate?.memberJSON
        case .isUpgraded: isUpgraded?.memberJSON
        case .offerType: offerType?.memberJSON
        case .offerIdentifier: offerIdentifier?.memberJSON
        case .environment: environment?.memberJSON
        case .storefront: storefront?.memberJSON
        case .storefrontId: storefrontId?.memberJSON
        case .transactionReason: transactionReason?.memberJSON
        case .currency: currency?.memberJSON
        case .price: price?.memberJSON
        case .offerDiscountType: offerDiscountType?.memberJSON
        case .appTransactionId: appTransactionId?.memberJSON
        case .offerPeriod: offerPeriod?.memberJSON
        case .revocationType: revocationType?.memberJSON
        case .revocationPercentage: revocationPercentage?.memberJSON
        case .advancedCommerceInfo: advancedCommerceInfo?.memberJSON
        case .billingPlanType: billingPlanType?.memberJSON
        case .commitmentInfo: commitmentInfo?.memberJSON
        case .deviceVerification: deviceVerification?.memberJSON
        case .deviceVerificationNonce: deviceVerificationNonce?.memberJSON
        }
    }
}

extension AdvancedCommerceTransactionInfo: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case descriptors, estimatedTax, items, period, requestReferenceId, taxCode, taxExclusivePrice, taxRate
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .descriptors: descriptors = try AdvancedCommerceDescriptors(member: value)
        case .estimatedTax: estimatedTax = try Int64(member: value)
        case .items: items = try [AdvancedCommerceTransactionItem](member: value)
        case .period: period = try AdvancedCommercePeriod(member: value)
        case .requestReferenceId: requestReferenceId = try String(member: value)
        case .taxCode: taxCode = try String(member: value)
        case .taxExclusivePrice: taxExclusivePrice = try Int64(member: value)
        case .taxRate: taxRate = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .descriptors: descriptors?.memberJSON
        case .estimatedTax: estimatedTax?.memberJSON
        case .items: items?.memberJSON
        case .period: period?.memberJSON
        case .requestReferenceId: requestReferenceId?.memberJSON
        case .taxCode: taxCode?.memberJSON
        case .taxExclusivePrice: taxExclusivePrice?.memberJSON
        case .taxRate: taxRate?.memberJSON
        }
    }
}

extension AdvancedCommerceDescriptors: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case description, displayName
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(description: nil, displayName: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .description: description = try String(member: value)
        case .displayName: displayName = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .description: description?.memberJSON
        case .displayName: displayName?.memberJSON
        }
    }
}

extension AdvancedCommerceTransactionItem: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case sku = "SKU"
        case description, displayName, offer, price, refunds, revocationDate
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .sku: sku = try String(member: value)
        case .description: description = try String(member: value)
        case .displayName: displayName = try String(member: value)
        case .offer: offer = try AdvancedCommerceOffer(member: value)
        case .price: price = try Int64(member: value)
        case .refunds: refunds = try [AdvancedCommerceRefund](member: value)
        case .revocationDate: revocationDate = try AppStoreDate(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .sku: sku?.memberJSON
        case .description: description?.memberJSON
        case .displayName: displayName?.memberJSON
        case .offer: offer?.memberJSON
        case .price: price?.memberJSON
        case .refunds: refunds?.memberJSON
        case .revocationDate: revocationDate?.memberJSON
        }
    }
}

extension AdvancedCommerceOffer: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case period, periodCount, price, reason
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .period: period = try AdvancedCommerceOfferPeriod(member: value)
        case .periodCount: periodCount = try Int32(member: value)
        case .price: price = try Int64(member: value)
        case .reason: reason = try AdvancedCommerceOfferReason(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .period: period?.memberJSON
        case .periodCount: periodCount?.memberJSON
        case .price: price?.memberJSON
        case .reason: reason?.memberJSON
        }
    }
}

extension AdvancedCommerceRefund: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case refundAmount, refundDate, refundReason, refundType
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .refundAmount: refundAmount = try Int64(member: value)
        case .refundDate: refundDate = try AppStoreDate(member: value)
        case .refundReason: refundReason = try AdvancedCommerceRefundReason(member: value)
        case .refundType: refundType = try AdvancedCommerceRefundType(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .refundAmount: refundAmount?.memberJSON
        case .refundDate: refundDate?.memberJSON
        case .refundReason: refundReason?.memberJSON
        case .refundType: refundType?.memberJSON
        }
    }
}

extension TransactionCommitmentInfo: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case billingPeriodNumber, commitmentExpiresDate, commitmentPrice, totalBillingPeriods
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .billingPeriodNumber: billingPeriodNumber = try Int32(member: value)
        case .commitmentExpiresDate: commitmentExpiresDate = try AppStoreDate(member: value)
        case .commitmentPrice: commitmentPrice = try Int64(member: value)
        case .totalBillingPeriods: totalBillingPeriods = try Int32(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .billingPeriodNumber: billingPeriodNumber?.memberJSON
        case .commitmentExpiresDate: commitmentExpiresDate?.memberJSON
        case .commitmentPrice: commitmentPrice?.memberJSON
        case .totalBillingPeriods: totalBillingPeriods?.memberJSON
        }
    }
}
