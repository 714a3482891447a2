import SigilAppStore
import SigilTokens

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Server requests and responses

/// SubscriptionCancelRequest.
public struct AdvancedCommerceSubscriptionCancelRequest: Codable, Hashable, Sendable {
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.storefront = storefront
    }
}

/// SubscriptionRevokeRequest.
public struct AdvancedCommerceSubscriptionRevokeRequest: Codable, Hashable, Sendable {
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// Why the refund was requested.
    public var refundReason: AdvancedCommerceRefundReason
    /// Apple's refundRiskingPreference flag of the refund request.
    public var refundRiskingPreference: Bool
    /// How the refund amount was computed.
    public var refundType: AdvancedCommerceRefundType
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, refundReason: AdvancedCommerceRefundReason, refundRiskingPreference: Bool,
        refundType: AdvancedCommerceRefundType, storefront: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.refundReason = refundReason
        self.refundRiskingPreference = refundRiskingPreference
        self.refundType = refundType
        self.storefront = storefront
    }
}

/// SubscriptionChangeMetadataRequest.
public struct AdvancedCommerceSubscriptionChangeMetadataRequest: Codable, Hashable, Sendable {
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The display name and description shown to the customer.
    public var descriptors: AdvancedCommerceSubscriptionModifyDescriptors?
    /// The items, one per SKU.
    public var items: [AdvancedCommerceSubscriptionChangeMetadataItem]?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// The product's tax code.
    public var taxCode: String?
    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, descriptors: AdvancedCommerceSubscriptionModifyDescriptors? = nil,
        items: [AdvancedCommerceSubscriptionChangeMetadataItem]? = nil, storefront: String? = nil, taxCode: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.descriptors = descriptors
        self.items = items
        self.storefront = storefront
        self.taxCode = taxCode
    }
}

/// SubscriptionMigrateRequest.
public struct AdvancedCommerceSubscriptionMigrateRequest: Codable, Hashable, Sendable {
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The display name and description shown to the customer.
    public var descriptors: AdvancedCommerceDescriptors
    /// The items, one per SKU.
    public var items: [AdvancedCommerceSubscriptionMigrateItem]
    /// The items the subscription renews with.
    public var renewalItems: [AdvancedCommerceSubscriptionMigrateItem]?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// The product id the subscription migrates to.
    public var targetProductId: String
    /// The product's tax code.
    public var taxCode: String
    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, descriptors: AdvancedCommerceDescriptors,
        items: [AdvancedCommerceSubscriptionMigrateItem],
        renewalItems: [AdvancedCommerceSubscriptionMigrateItem]? = nil, storefront: String? = nil, targetProductId: String, taxCode: String
    ) {
        self.requestInfo = requestInfo
        self.descriptors = descriptors
        self.items = items
        self.renewalItems = renewalItems
        self.storefront = storefront
        self.targetProductId = targetProductId
        self.taxCode = taxCode
    }
}

/// SubscriptionPriceChangeRequest.
public struct AdvancedCommerceSubscriptionPriceChangeRequest: Codable, Hashable, Sendable {
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The items, one per SKU.
    public var items: [AdvancedCommerceSubscriptionPriceChangeItem]
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, items: [AdvancedCommerceSubscriptionPriceChangeItem], currency: String? = nil,
        storefront: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.items = items
        self.currency = currency
        self.storefront = storefront
    }
}

/// RequestRefundRequest.
public struct AdvancedCommerceRequestRefundRequest: Codable, Hashable, Sendable {
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The items, one per SKU.
    public var items: [AdvancedCommerceRequestRefundItem]
    /// Apple's refundRiskingPreference flag of the refund request.
    public var refundRiskingPreference: Bool
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, items: [AdvancedCommerceRequestRefundItem], refundRiskingPreference: Bool,
        currency: String? = nil, storefront: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.items = items
        self.refundRiskingPreference = refundRiskingPreference
        self.currency = currency
        self.storefront = storefront
    }
}

/// The response of the subscription calls (cancel, revoke, change metadata, migrate, change
/// price): the updated signed renewal info and transaction, each a JWS to verify with
/// `SignedDataVerifier`.
public struct AdvancedCommerceSubscriptionResponse: Codable, Hashable, Sendable {
    /// The signed subscription renewal info (a JWS).
    public var signedRenewalInfo: String
    /// The signed transaction (a JWS).
    public var signedTransactionInfo: String
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(signedRenewalInfo: String, signedTransactionInfo: String) {
        self.signedRenewalInfo = signedRenewalInfo
        self.signedTransactionInfo = signedTransactionInfo
    }
}

/// RequestRefundResponse.
public struct AdvancedCommerceRequestRefundResponse: Codable, Hashable, Sendable {
    /// The signed transaction (a JWS).
    public var signedTransactionInfo: String
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(signedTransactionInfo: String) { self.signedTransactionInfo = signedTransactionInfo }
}

/// Apple's documented field limits for Advanced Commerce requests, checked before signing.
public enum AdvancedCommerceLimits {
    /// The longest description Apple accepts, in characters.
    public static let maximumDescriptionLength = 45
    /// The longest display name Apple accepts, in characters.
    public static let maximumDisplayNameLength = 30
    /// The longest SKU Apple accepts, in characters.
    public static let maximumSKULength = 128
    /// The offer period counts Apple accepts.
    public static let periodCountRange: ClosedRange<Int32> = 1...12

    static func fail(_ path: String, _ reason: String) -> AppStoreError {
        AppStoreError(.invalidConfiguration, "Advanced Commerce request: \(path) \(reason)")
    }

    static func descriptors(_ description: String?, _ displayName: String?, at path: String) throws(AppStoreError) {
        if let description, description.count > maximumDescriptionLength {
            throw fail("\(path).description", "is \(description.count) characters, more than \(maximumDescriptionLength)")
        }
        if let displayName, displayName.count > maximumDisplayNameLength {
            throw fail("\(path).displayName", "is \(displayName.count) characters, more than \(maximumDisplayNameLength)")
        }
    }

    static func sku(_ sku: String, at path: String) throws(AppStoreError) {
        if sku.count > maximumSKULength { throw fail(path, "is \(sku.count) characters, more than \(maximumSKULength)") }
    }

    static func item(_ sku: String, _ description: String, _ displayName: String, at path: String) throws(AppStoreError) {
        try self.sku(sku, at: "\(path).SKU")
        try descriptors(description, displayName, at: path)
    }

    static func requiredDescriptors(_ descriptors: AdvancedCommerceDescriptors, at path: String) throws(AppStoreError) {
        guard descriptors.description != nil else { throw fail("\(path).description", "is missing") }
        guard descriptors.displayName != nil else { throw fail("\(path).displayName", "is missing") }
        try self.descriptors(descriptors.description, descriptors.displayName, at: path)
    }

    static func offer(_ offer: AdvancedCommerceOffer, at path: String) throws(AppStoreError) {
        guard offer.period != nil else { throw fail("\(path).period", "is missing") }
        guard offer.price != nil else { throw fail("\(path).price", "is missing") }
        guard offer.reason != nil else { throw fail("\(path).reason", "is missing") }
        guard let count = offer.periodCount else { throw fail("\(path).periodCount", "is missing") }
        if !periodCountRange.contains(count) {
            throw fail("\(path).periodCount", "is \(count), outside \(periodCountRange.lowerBound)…\(periodCountRange.upperBound)")
        }
    }

    static func nonEmpty<T>(_ list: [T], at path: String) throws(AppStoreError) {
        if list.isEmpty { throw fail(path, "is empty") }
    }
}

extension AdvancedCommerceOffer {
    /// An offer for a request, every member set.
    public init(period: AdvancedCommerceOfferPeriod, periodCount: Int32, price: Int64, reason: AdvancedCommerceOfferReason) {
        self.init()
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.reason = reason
    }
}
