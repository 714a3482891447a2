/// The decoded payload of signed renewal information (JWSRenewalInfoDecodedPayload).
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    public var expirationIntent: ExpirationIntent?
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    public var autoRenewStatus: AutoRenewStatus?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    public var gracePeriodExpiresDate: AppStoreDate?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var signedDate: AppStoreDate?
    public var environment: AppStoreEnvironment?
    public var recentSubscriptionStartDate: AppStoreDate?
    public var renewalDate: AppStoreDate?
    public var currency: String?
    public var renewalPrice: Int64?
    public var offerDiscountType: OfferDiscountType?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var offerPeriod: String?
    public var advancedCommerceInfo: AdvancedCommerceRenewalInfo?
    public var commitmentInfo: RenewalCommitmentInfo?
    public var renewalBillingPlanType: BillingPlanType?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// Advanced Commerce details of a renewal (`advancedCommerceInfo` of JWSRenewalInfoDecodedPayload).
public struct AdvancedCommerceRenewalInfo: Codable, Hashable, Sendable {
    public var consistencyToken: String?
    public var descriptors: AdvancedCommerceDescriptors?
    public var items: [AdvancedCommerceRenewalItem]?
    public var period: AdvancedCommercePeriod?
    public var requestReferenceId: String?
    public var taxCode: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// One item of an Advanced Commerce renewal.
public struct AdvancedCommerceRenewalItem: Codable, Hashable, Sendable {
    public var sku: String?
    public var description: String?
    public var displayName: String?
    public var offer: AdvancedCommerceOffer?
    public var price: Int64?
    public var priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo?
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case description, displayName, offer, price, priceIncreaseInfo
    }
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// A pending Advanced Commerce price increase and its status.
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable {
    public var dependentSKUs: [String]?
    public var price: Int64?
    public var status: AdvancedCommercePriceIncreaseInfoStatus?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The commitment (billing plan) details of a renewal.
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    public var commitmentAutoRenewProductId: String?
    public var commitmentAutoRenewStatus: AutoRenewStatus?
    public var commitmentRenewalBillingPlanType: BillingPlanType?
    public var commitmentRenewalDate: AppStoreDate?
    public var commitmentRenewalPrice: Int64?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}
