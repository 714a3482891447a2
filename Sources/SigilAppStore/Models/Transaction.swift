/// The decoded payload of a signed transaction (JWSTransactionDecodedPayload in Apple's App Store
/// Server API documentation). Every field is optional, as Apple documents; UUID-valued fields
/// stay strings so their case and form are kept exactly as signed.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    public var originalTransactionId: String?
    public var transactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: AppStoreDate?
    public var originalPurchaseDate: AppStoreDate?
    public var expiresDate: AppStoreDate?
    public var quantity: Int32?
    public var type: ProductType?
    public var appAccountToken: String?
    public var inAppOwnershipType: InAppOwnershipType?
    public var signedDate: AppStoreDate?
    public var revocationReason: RevocationReason?
    public var revocationDate: AppStoreDate?
    public var isUpgraded: Bool?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var environment: AppStoreEnvironment?
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: TransactionReason?
    public var currency: String?
    /// Price in milliunits of the currency.
    public var price: Int64?
    public var offerDiscountType: OfferDiscountType?
    public var appTransactionId: String?
    /// ISO 8601 duration of the offer.
    public var offerPeriod: String?
    public var revocationType: RevocationType?
    public var revocationPercentage: Int32?
    public var advancedCommerceInfo: AdvancedCommerceTransactionInfo?
    public var billingPlanType: BillingPlanType?
    public var commitmentInfo: TransactionCommitmentInfo?

    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// Advanced Commerce details of a transaction.
public struct AdvancedCommerceTransactionInfo: Codable, Hashable, Sendable {
    public var descriptors: AdvancedCommerceDescriptors?
    public var estimatedTax: Int64?
    public var items: [AdvancedCommerceTransactionItem]?
    public var period: AdvancedCommercePeriod?
    public var requestReferenceId: String?
    public var taxCode: String?
    public var taxExclusivePrice: Int64?
    public var taxRate: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// Description and display name of an Advanced Commerce item.
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable {
    public var description: String?
    public var displayName: String?
    /// Creates descriptors; absent members are not encoded.
    public init(description: String? = nil, displayName: String? = nil) {
        self.description = description
        self.displayName = displayName
    }
}

/// One item of an Advanced Commerce transaction.
public struct AdvancedCommerceTransactionItem: Codable, Hashable, Sendable {
    public var sku: String?
    public var description: String?
    public var displayName: String?
    public var offer: AdvancedCommerceOffer?
    public var price: Int64?
    public var refunds: [AdvancedCommerceRefund]?
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
    public var period: AdvancedCommerceOfferPeriod?
    public var periodCount: Int32?
    public var price: Int64?
    public var reason: AdvancedCommerceOfferReason?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// A refund of an Advanced Commerce item.
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable {
    public var refundAmount: Int64?
    public var refundDate: AppStoreDate?
    public var refundReason: AdvancedCommerceRefundReason?
    public var refundType: AdvancedCommerceRefundType?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The commitment (billing plan) details of a transaction.
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    public var billingPeriodNumber: Int32?
    public var commitmentExpiresDate: AppStoreDate?
    public var commitmentPrice: Int64?
    public var totalBillingPeriods: Int32?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}
