import SigilAppStore
import SigilBase
import SigilTokens

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Advanced Commerce API request and response models
// (https://developer.apple.com/documentation/advancedcommerceapi): the in-app requests an app
// signs with `AppleTokens.advancedCommerceInAppRequest(…request:…)` and the server requests and
// responses of the subscription and refund calls. Field names are Apple's JSON names (`SKU`,
// `currentSKU` in capitals). Unknown members are ignored on decode; unknown enum values are kept.
// `validate()` applies Apple's documented limits (description ≤ 45 characters, displayName ≤ 30,
// SKU ≤ 128, periodCount 1…12, item lists not empty) before anything is signed or sent.

/// `AdvancedCommerceEffective` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceEffective: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `IMMEDIATELY`: the change applies now.
    public static let immediately = AdvancedCommerceEffective(rawValue: "IMMEDIATELY")
    /// `NEXT_BILL_CYCLE`: the change applies from the next billing period.
    public static let nextBillCycle = AdvancedCommerceEffective(rawValue: "NEXT_BILL_CYCLE")
    /// The values Apple documents.
    public static let documented: [AdvancedCommerceEffective] = [.immediately, .nextBillCycle]
}

/// `AdvancedCommerceChangeReason` values as Apple documents them; a value Apple adds later decodes and round-trips as its raw value.
public struct AdvancedCommerceChangeReason: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not (see `isDocumented`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `UPGRADE`: a move to a higher tier.
    public static let upgrade = AdvancedCommerceChangeReason(rawValue: "UPGRADE")
    /// `DOWNGRADE`: a move to a lower tier.
    public static let downgrade = AdvancedCommerceChangeReason(rawValue: "DOWNGRADE")
    /// `APPLY_OFFER`: an offer is applied.
    public static let applyOffer = AdvancedCommerceChangeReason(rawValue: "APPLY_OFFER")
    /// The values Apple documents.
    public static let documented: [AdvancedCommerceChangeReason] = [.upgrade, .downgrade, .applyOffer]
}

/// https://developer.apple.com/documentation/advancedcommerceapi/requestinfo
public struct AdvancedCommerceRequestInfo: Codable, Hashable, Sendable {
    /// The UUID of the request that made this transaction.
    public var requestReferenceId: UUID
    /// The UUID your app associated with the user at purchase, when it set one.
    public var appAccountToken: UUID?
    /// The Advanced Commerce consistency token (consistencyToken).
    public var consistencyToken: String?

    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(requestReferenceId: UUID, appAccountToken: UUID? = nil, consistencyToken: String? = nil) {
        self.requestReferenceId = requestReferenceId
        self.appAccountToken = appAccountToken
        self.consistencyToken = consistencyToken
    }

    /// UUIDs are written lowercase, as Apple's examples show (Foundation writes them uppercase).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestReferenceId.uuidString.lowercased(), forKey: .requestReferenceId)
        try c.encodeIfPresent(appAccountToken?.uuidString.lowercased(), forKey: .appAccountToken)
        try c.encodeIfPresent(consistencyToken, forKey: .consistencyToken)
    }
}

// Descriptors and Offer are the same types the decoded transaction uses
// (AdvancedCommerceDescriptors, AdvancedCommerceOffer in Transaction.swift, members optional
// there); `validate()` requires the members a request must carry.

/// https://developer.apple.com/documentation/advancedcommerceapi/onetimechargeitem
public struct AdvancedCommerceOneTimeChargeItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The description shown to the customer.
    public var description: String
    /// The name shown to the customer.
    public var displayName: String
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case description, displayName, price
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(sku: String, description: String, displayName: String, price: Int64) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.price = price
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncreateitem
public struct AdvancedCommerceSubscriptionCreateItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The description shown to the customer.
    public var description: String
    /// The name shown to the customer.
    public var displayName: String
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64
    /// The offer applied to the item, when one is.
    public var offer: AdvancedCommerceOffer?
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case description, displayName, price, offer
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(sku: String, description: String, displayName: String, price: Int64, offer: AdvancedCommerceOffer? = nil) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.price = price
        self.offer = offer
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyadditem
public struct AdvancedCommerceSubscriptionModifyAddItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The description shown to the customer.
    public var description: String
    /// The name shown to the customer.
    public var displayName: String
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64
    /// The offer applied to the item, when one is.
    public var offer: AdvancedCommerceOffer?
    /// The price for the rest of the current period, in milliunits of the currency.
    public var proratedPrice: Int64?
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case description, displayName, price, offer, proratedPrice
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(
        sku: String, description: String, displayName: String, price: Int64, offer: AdvancedCommerceOffer? = nil,
        proratedPrice: Int64? = nil
    ) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
        self.price = price
        self.offer = offer
        self.proratedPrice = proratedPrice
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifychangeitem
public struct AdvancedCommerceSubscriptionModifyChangeItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The SKU the item replaces.
    public var currentSKU: String
    /// The description shown to the customer.
    public var description: String
    /// The name shown to the customer.
    public var displayName: String
    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64
    /// Why the item changes: an upgrade, a downgrade or an offer.
    public var reason: AdvancedCommerceChangeReason
    /// The offer applied to the item, when one is.
    public var offer: AdvancedCommerceOffer?
    /// The price for the rest of the current period, in milliunits of the currency.
    public var proratedPrice: Int64?
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case currentSKU, description, displayName, effective, price, reason, offer, proratedPrice
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(
        sku: String, currentSKU: String, description: String, displayName: String, effective: AdvancedCommerceEffective,
        price: Int64, reason: AdvancedCommerceChangeReason, offer: AdvancedCommerceOffer? = nil, proratedPrice: Int64? = nil
    ) {
        self.sku = sku
        self.currentSKU = currentSKU
        self.description = description
        self.displayName = displayName
        self.effective = effective
        self.price = price
        self.reason = reason
        self.offer = offer
        self.proratedPrice = proratedPrice
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifydescriptors
public struct AdvancedCommerceSubscriptionModifyDescriptors: Codable, Hashable, Sendable {
    /// The description shown to the customer.
    public var description: String?
    /// The name shown to the customer.
    public var displayName: String?
    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(description: String? = nil, displayName: String? = nil, effective: AdvancedCommerceEffective) {
        self.description = description
        self.displayName = displayName
        self.effective = effective
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyperiodchange
public struct AdvancedCommerceSubscriptionModifyPeriodChange: Codable, Hashable, Sendable {
    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective
    /// The subscription's billing period.
    public var period: AdvancedCommercePeriod
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(effective: AdvancedCommerceEffective, period: AdvancedCommercePeriod) {
        self.effective = effective
        self.period = period
    }
}

/// An item named by SKU only: SubscriptionModifyRemoveItem and SubscriptionReactivateItem.
public struct AdvancedCommerceSKUItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    enum CodingKeys: String, CodingKey { case sku = "SKU" }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(sku: String) { self.sku = sku }
}

/// SubscriptionChangeMetadataItem (server request).
public struct AdvancedCommerceSubscriptionChangeMetadataItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The SKU the item replaces.
    public var currentSKU: String
    /// The description shown to the customer.
    public var description: String?
    /// The name shown to the customer.
    public var displayName: String?
    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case currentSKU, description, displayName, effective
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(
        sku: String, currentSKU: String, description: String? = nil, displayName: String? = nil, effective: AdvancedCommerceEffective
    ) {
        self.sku = sku
        self.currentSKU = currentSKU
        self.description = description
        self.displayName = displayName
        self.effective = effective
    }
}

/// SubscriptionMigrateItem and SubscriptionMigrateRenewalItem (same members).
public struct AdvancedCommerceSubscriptionMigrateItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The description shown to the customer.
    public var description: String
    /// The name shown to the customer.
    public var displayName: String
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case description, displayName
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(sku: String, description: String, displayName: String) {
        self.sku = sku
        self.description = description
        self.displayName = displayName
    }
}

/// SubscriptionPriceChangeItem.
public struct AdvancedCommerceSubscriptionPriceChangeItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// The price in milliunits of the currency (the price × 1000).
    public var price: Int64
    /// The dependent SKUs, as Apple's dependentSKUs lists them.
    public var dependentSKUs: [String]?
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case price, dependentSKUs
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(sku: String, price: Int64, dependentSKUs: [String]? = nil) {
        self.sku = sku
        self.price = price
        self.dependentSKUs = dependentSKUs
    }
}

/// RequestRefundItem.
public struct AdvancedCommerceRequestRefundItem: Codable, Hashable, Sendable {
    /// The item's SKU.
    public var sku: String
    /// Why the refund was requested.
    public var refundReason: AdvancedCommerceRefundReason
    /// How the refund amount was computed.
    public var refundType: AdvancedCommerceRefundType
    /// Whether the item's access is revoked with the refund.
    public var revoke: Bool
    /// The amount refunded, in milliunits of the currency.
    public var refundAmount: Int64?
    enum CodingKeys: String, CodingKey {
        case sku = "SKU"
        case refundReason, refundType, revoke, refundAmount
    }
    /// Creates the item with the members Apple's Advanced Commerce API requires; optional members default to nil and are not encoded.
    public init(
        sku: String, refundReason: AdvancedCommerceRefundReason, refundType: AdvancedCommerceRefundType, revoke: Bool,
        refundAmount: Int64? = nil
    ) {
        self.sku = sku
        self.refundReason = refundReason
        self.refundType = refundType
        self.revoke = revoke
        self.refundAmount = refundAmount
    }
}
