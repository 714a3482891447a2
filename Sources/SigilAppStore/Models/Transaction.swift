/// The decoded payload of a signed transaction (JWSTransactionDecodedPayload in Apple's App Store
/// Server API documentation). Every field is optional, as Apple documents; UUID-valued fields
/// stay strings so their case and form are kept exactly as signed.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
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
public struct AdvancedCommerceTransactionInfo: Codable, Hashable, Sendable {
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
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable {
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
public struct AdvancedCommerceTransactionItem: Codable, Hashable, Sendable {
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
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case description, displayName, offer, price, refunds, revocationDate
    }
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// An offer applied to an Advanced Commerce item.
public struct AdvancedCommerceOffer: Codable, Hashable, Sendable {
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
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable {
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
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
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
