/// The decoded payload of signed renewal information (JWSRenewalInfoDecodedPayload).
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    /// Why the subscription expired, when it did.
    public var expirationIntent: ExpirationIntent?
    /// The transaction id of the original purchase, the same for every renewal and restore.
    public var originalTransactionId: String?
    /// The product the subscription renews to.
    public var autoRenewProductId: String?
    /// The in-app purchase's product identifier.
    public var productId: String?
    /// Whether the subscription renews automatically.
    public var autoRenewStatus: AutoRenewStatus?
    /// Whether the App Store is still trying to renew after a billing failure.
    public var isInBillingRetryPeriod: Bool?
    /// Whether the user consented to a price increase, when there is one.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: AppStoreDate?
    /// The kind of offer applied, when one was.
    public var offerType: OfferType?
    /// The offer code or promotional offer identifier.
    public var offerIdentifier: String?
    /// When the App Store signed the data.
    public var signedDate: AppStoreDate?
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// When the latest run of the subscription began, ignoring lapses of 60 days or less.
    public var recentSubscriptionStartDate: AppStoreDate?
    /// When the subscription renews next.
    public var renewalDate: AppStoreDate?
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String?
    /// The next renewal's price, in milliunits of the currency.
    public var renewalPrice: Int64?
    /// The payment mode of the offer applied.
    public var offerDiscountType: OfferDiscountType?
    /// The win-back offers the customer may redeem.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID your app associated with the user at purchase, when it set one.
    public var appAccountToken: String?
    /// The app transaction's identifier: one per user and app, across devices.
    public var appTransactionId: String?
    /// The offer's duration, as an ISO 8601 duration.
    public var offerPeriod: String?
    /// The Advanced Commerce API data, for a product sold through it.
    public var advancedCommerceInfo: AdvancedCommerceRenewalInfo?
    /// The commitment of a subscription with one.
    public var commitmentInfo: RenewalCommitmentInfo?
    /// How the next renewal is billed.
    public var renewalBillingPlanType: BillingPlanType?
    /// Client side only (StoreKit's `RenewalInfo.jwsRepresentation`): base64 of
    /// SHA-384(lowercased ``deviceVerificationNonce`` ‖ the device's lowercased
    /// `AppStore.deviceVerificationID`).
    public var deviceVerification: String?
    /// Client side only: the UUID mixed into ``deviceVerification``.
    public var deviceVerificationNonce: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// Advanced Commerce details of a renewal (`advancedCommerceInfo` of JWSRenewalInfoDecodedPayload).
public struct AdvancedCommerceRenewalInfo: Codable, Hashable, Sendable {
    /// The Advanced Commerce consistency token (consistencyToken).
    public var consistencyToken: String?
    /// The display name and description shown to the customer.
    public var descriptors: AdvancedCommerceDescriptors?
    /// The items, one per SKU.
    public var items: [AdvancedCommerceRenewalItem]?
    /// The subscription's billing period.
    public var period: AdvancedCommercePeriod?
    /// The UUID of the request that made this transaction.
    public var requestReferenceId: String?
    /// The product's tax code.
    public var taxCode: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// One item of an Advanced Commerce renewal.
public struct AdvancedCommerceRenewalItem: Codable, Hashable, Sendable {
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
    /// A price increase of the item, when one is scheduled or pending.
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
    /// The dependent SKUs, as Apple's dependentSKUs lists them.
    public var dependentSKUs: [String]?
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64?
    /// The price increase's status.
    public var status: AdvancedCommercePriceIncreaseInfoStatus?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The commitment (billing plan) details of a renewal.
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    /// The product the commitment renews to.
    public var commitmentAutoRenewProductId: String?
    /// Whether the commitment renews automatically.
    public var commitmentAutoRenewStatus: AutoRenewStatus?
    /// How the commitment's renewal is billed.
    public var commitmentRenewalBillingPlanType: BillingPlanType?
    /// When the commitment renews.
    public var commitmentRenewalDate: AppStoreDate?
    /// The commitment renewal's price, in milliunits of the currency.
    public var commitmentRenewalPrice: Int64?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}
