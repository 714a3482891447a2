import SigilJOSE

/// The decoded payload of signed renewal information (JWSRenewalInfoDecodedPayload).
public struct JWSRenewalInfoDecodedPayload: Hashable, Sendable {
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
public struct AdvancedCommerceRenewalInfo: Hashable, Sendable {
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
public struct AdvancedCommerceRenewalItem: Hashable, Sendable {
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
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// A pending Advanced Commerce price increase and its status.
public struct AdvancedCommercePriceIncreaseInfo: Hashable, Sendable {
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
public struct RenewalCommitmentInfo: Hashable, Sendable {
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

#if !hasFeature(Embedded)
extension JWSRenewalInfoDecodedPayload: Codable {}
extension JWSRenewalInfoDecodedPayload.CodingKeys: CodingKey {}
extension AdvancedCommerceRenewalInfo: Codable {}
extension AdvancedCommerceRenewalInfo.CodingKeys: CodingKey {}
extension AdvancedCommerceRenewalItem: Codable {}
extension AdvancedCommerceRenewalItem.CodingKeys: CodingKey {}
extension AdvancedCommercePriceIncreaseInfo: Codable {}
extension AdvancedCommercePriceIncreaseInfo.CodingKeys: CodingKey {}
extension RenewalCommitmentInfo: Codable {}
extension RenewalCommitmentInfo.CodingKeys: CodingKey {}
#endif

extension JWSRenewalInfoDecodedPayload {
    /// Reads renewal info from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The renewal info as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension JWSRenewalInfoDecodedPayload: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case expirationIntent, originalTransactionId, autoRenewProductId, productId, autoRenewStatus, isInBillingRetryPeriod
        case priceIncreaseStatus, gracePeriodExpiresDate, offerType, offerIdentifier, signedDate, environment
        case recentSubscriptionStartDate, renewalDate, currency, renewalPrice, offerDiscountType, eligibleWinBackOfferIds
        case appAccountToken, appTransactionId, offerPeriod, advancedCommerceInfo, commitmentInfo, renewalBillingPlanType
        case deviceVerification, deviceVerificationNonce
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .expirationIntent: expirationIntent = try ExpirationIntent(member: value)
        case .originalTransactionId: originalTransactionId = try String(member: value)
        case .autoRenewProductId: autoRenewProductId = try String(member: value)
        case .productId: productId = try String(member: value)
        case .autoRenewStatus: autoRenewStatus = try AutoRenewStatus(member: value)
        case .isInBillingRetryPeriod: isInBillingRetryPeriod = try Bool(member: value)
        case .priceIncreaseStatus: priceIncreaseStatus = try PriceIncreaseStatus(member: value)
        case .gracePeriodExpiresDate: gracePeriodExpiresDate = try AppStoreDate(member: value)
        case .offerType: offerType = try OfferType(member: value)
        case .offerIdentifier: offerIdentifier = try String(member: value)
        case .signedDate: signedDate = try AppStoreDate(member: value)
        case .environment: environment = try AppStoreEnvironment(member: value)
        case .recentSubscriptionStartDate: recentSubscriptionStartDate = try AppStoreDate(member: value)
        case .renewalDate: renewalDate = try AppStoreDate(member: value)
        case .currency: currency = try String(member: value)
        case .renewalPrice: renewalPrice = try Int64(member: value)
        case .offerDiscountType: offerDiscountType = try OfferDiscountType(member: value)
        case .eligibleWinBackOfferIds: eligibleWinBackOfferIds = try [String](member: value)
        case .appAccountToken: appAccountToken = try String(member: value)
        case .appTransactionId: appTransactionId = try String(member: value)
        case .offerPeriod: offerPeriod = try String(member: value)
        case .advancedCommerceInfo: advancedCommerceInfo = try AdvancedCommerceRenewalInfo(member: value)
        case .commitmentInfo: commitmentInfo = try RenewalCommitmentInfo(member: value)
        case .renewalBillingPlanType: renewalBillingPlanType = try BillingPlanType(member: value)
        case .deviceVerification: deviceVerification = try String(member: value)
        case .deviceVerificationNonce: deviceVerificationNonce = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .expirationIntent: expirationIntent?.memberJSON
        case .originalTransactionId: originalTransactionId?.memberJSON
        case .autoRenewProductId: autoRenewProductId?.memberJSON
        case .productId: productId?.memberJSON
        case .autoRenewStatus: autoRenewStatus?.memberJSON
        case .isInBillingRetryPeriod: isInBillingRetryPeriod?.memberJSON
        case .priceIncreaseStatus: priceIncreaseStatus?.memberJSON
        case .gracePeriodExpiresDate: gracePeriodExpiresDate?.memberJSON
        case .offerType: offerType?.memberJSON
        case .offerIdentifier: offerIdentifier?.memberJSON
        case .signedDate: signedDate?.memberJSON
        case .environment: environment?.memberJSON
        case .recentSubscriptionStartDate: recentSubscriptionStartDate?.memberJSON
        case .renewalDate: renewalDate?.memberJSON
        case .currency: currency?.memberJSON
        case .renewalPrice: renewalPrice?.memberJSON
        case .offerDiscountType: offerDiscountType?.memberJSON
        case .eligibleWinBackOfferIds: eligibleWinBackOfferIds?.memberJSON
        case .appAccountToken: appAccountToken?.memberJSON
        case .appTransactionId: appTransactionId?.memberJSON
        case .offerPeriod: offerPeriod?.memberJSON
        case .advancedCommerceInfo: advancedCommerceInfo?.memberJSON
        case .commitmentInfo: commitmentInfo?.memberJSON
        case .renewalBillingPlanType: renewalBillingPlanType?.memberJSON
        case .deviceVerification: deviceVerification?.memberJSON
        case .deviceVerificationNonce: deviceVerificationNonce?.memberJSON
        }
    }
}

extension AdvancedCommerceRenewalInfo: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case consistencyToken, descriptors, items, period, requestReferenceId, taxCode
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .consistencyToken: consistencyToken = try String(member: value)
        case .descriptors: descriptors = try AdvancedCommerceDescriptors(member: value)
        case .items: items = try [AdvancedCommerceRenewalItem](member: value)
        case .period: period = try AdvancedCommercePeriod(member: value)
        case .requestReferenceId: requestReferenceId = try String(member: value)
        case .taxCode: taxCode = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .consistencyToken: consistencyToken?.memberJSON
        case .descriptors: descriptors?.memberJSON
        case .items: items?.memberJSON
        case .period: period?.memberJSON
        case .requestReferenceId: requestReferenceId?.memberJSON
        case .taxCode: taxCode?.memberJSON
        }
    }
}

extension AdvancedCommerceRenewalItem: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case sku = "SKU"
        case description, displayName, offer, price, priceIncreaseInfo
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
        case .priceIncreaseInfo: priceIncreaseInfo = try AdvancedCommercePriceIncreaseInfo(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .sku: sku?.memberJSON
        case .description: description?.memberJSON
        case .displayName: displayName?.memberJSON
        case .offer: offer?.memberJSON
        case .price: price?.memberJSON
        case .priceIncreaseInfo: priceIncreaseInfo?.memberJSON
        }
    }
}

extension AdvancedCommercePriceIncreaseInfo: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case dependentSKUs, price, status
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .dependentSKUs: dependentSKUs = try [String](member: value)
        case .price: price = try Int64(member: value)
        case .status: status = try AdvancedCommercePriceIncreaseInfoStatus(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .dependentSKUs: dependentSKUs?.memberJSON
        case .price: price?.memberJSON
        case .status: status?.memberJSON
        }
    }
}

extension RenewalCommitmentInfo: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case commitmentAutoRenewProductId, commitmentAutoRenewStatus, commitmentRenewalBillingPlanType, commitmentRenewalDate
        case commitmentRenewalPrice
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .commitmentAutoRenewProductId: commitmentAutoRenewProductId = try String(member: value)
        case .commitmentAutoRenewStatus: commitmentAutoRenewStatus = try AutoRenewStatus(member: value)
        case .commitmentRenewalBillingPlanType: commitmentRenewalBillingPlanType = try BillingPlanType(member: value)
        case .commitmentRenewalDate: commitmentRenewalDate = try AppStoreDate(member: value)
        case .commitmentRenewalPrice: commitmentRenewalPrice = try Int64(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .commitmentAutoRenewProductId: commitmentAutoRenewProductId?.memberJSON
        case .commitmentAutoRenewStatus: commitmentAutoRenewStatus?.memberJSON
        case .commitmentRenewalBillingPlanType: commitmentRenewalBillingPlanType?.memberJSON
        case .commitmentRenewalDate: commitmentRenewalDate?.memberJSON
        case .commitmentRenewalPrice: commitmentRenewalPrice?.memberJSON
        }
    }
}
