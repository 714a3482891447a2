import SigilAppStore
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
public struct AdvancedCommerceEffective: AppStoreOpenEnum {
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
public struct AdvancedCommerceChangeReason: AppStoreOpenEnum {
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

// MARK: - In-app requests (signed by the app's server, passed to StoreKit)

/// A request an app signs into an Advanced Commerce in-app request JWS. Each carries a fixed
/// `operation` and `version` "1", written on encode; decoding accepts them absent (Apple's test
/// data omits them) and refuses any other value.
public protocol AdvancedCommerceInAppRequest: Codable, Hashable, Sendable {
    /// The request's operation, written in its JSON ("CREATE_SUBSCRIPTION", …).
    static var operation: String { get }
    /// Checks Apple's documented limits (lengths, counts, non-empty item lists) before anything is signed.
    func validate() throws(AppStoreError)
}

private enum InAppKeys: String, CodingKey { case operation, version }

private func checkOperation(_ decoder: any Decoder, _ expected: String) throws {
    let c = try decoder.container(keyedBy: InAppKeys.self)
    if let operation = try c.decodeIfPresent(String.self, forKey: .operation), operation != expected {
        throw DecodingError.dataCorruptedError(
            forKey: .operation, in: c, debugDescription: "operation is \(operation), expected \(expected)")
    }
    if let version = try c.decodeIfPresent(String.self, forKey: .version), version != "1" {
        throw DecodingError.dataCorruptedError(forKey: .version, in: c, debugDescription: "version is \(version), expected 1")
    }
}

private func writeOperation(_ encoder: any Encoder, _ operation: String) throws {
    var c = encoder.container(keyedBy: InAppKeys.self)
    try c.encode(operation, forKey: .operation)
    try c.encode("1", forKey: .version)
}

/// https://developer.apple.com/documentation/advancedcommerceapi/onetimechargecreaterequest
public struct AdvancedCommerceOneTimeChargeCreateRequest: AdvancedCommerceInAppRequest {
    /// "CREATE_ONE_TIME_CHARGE".
    public static let operation = "CREATE_ONE_TIME_CHARGE"
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String
    /// The item charged.
    public var item: AdvancedCommerceOneTimeChargeItem
    /// The product's tax code.
    public var taxCode: String
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    enum CodingKeys: String, CodingKey { case requestInfo, currency, item, taxCode, storefront }

    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, currency: String, item: AdvancedCommerceOneTimeChargeItem, taxCode: String,
        storefront: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.currency = currency
        self.item = item
        self.taxCode = taxCode
        self.storefront = storefront
    }

    /// Decodes the JSON form, with the checks the type's documentation lists.
    public init(from decoder: any Decoder) throws {
        try checkOperation(decoder, Self.operation)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestInfo = try c.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        currency = try c.decode(String.self, forKey: .currency)
        item = try c.decode(AdvancedCommerceOneTimeChargeItem.self, forKey: .item)
        taxCode = try c.decode(String.self, forKey: .taxCode)
        storefront = try c.decodeIfPresent(String.self, forKey: .storefront)
    }

    /// Encodes the JSON form Apple documents.
    public func encode(to encoder: any Encoder) throws {
        try writeOperation(encoder, Self.operation)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestInfo, forKey: .requestInfo)
        try c.encode(currency, forKey: .currency)
        try c.encode(item, forKey: .item)
        try c.encode(taxCode, forKey: .taxCode)
        try c.encodeIfPresent(storefront, forKey: .storefront)
    }

    /// Checks Apple's documented limits and required fields before anything is signed or sent; the error names the offending field.
    public func validate() throws(AppStoreError) {
        try AdvancedCommerceLimits.item(item.sku, item.description, item.displayName, at: "item")
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncreaterequest
public struct AdvancedCommerceSubscriptionCreateRequest: AdvancedCommerceInAppRequest {
    /// "CREATE_SUBSCRIPTION".
    public static let operation = "CREATE_SUBSCRIPTION"
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String
    /// The display name and description shown to the customer.
    public var descriptors: AdvancedCommerceDescriptors
    /// The items, one per SKU.
    public var items: [AdvancedCommerceSubscriptionCreateItem]
    /// The subscription's billing period.
    public var period: AdvancedCommercePeriod
    /// The transaction id of a previous subscription this one follows.
    public var previousTransactionId: String?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// The product's tax code.
    public var taxCode: String
    enum CodingKeys: String, CodingKey {
        case requestInfo, currency, descriptors, items, period, previousTransactionId, storefront, taxCode
    }

    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, currency: String, descriptors: AdvancedCommerceDescriptors,
        items: [AdvancedCommerceSubscriptionCreateItem], period: AdvancedCommercePeriod, previousTransactionId: String? = nil,
        storefront: String? = nil, taxCode: String
    ) {
        self.requestInfo = requestInfo
        self.currency = currency
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.previousTransactionId = previousTransactionId
        self.storefront = storefront
        self.taxCode = taxCode
    }

    /// Decodes the JSON form, with the checks the type's documentation lists.
    public init(from decoder: any Decoder) throws {
        try checkOperation(decoder, Self.operation)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestInfo = try c.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        currency = try c.decode(String.self, forKey: .currency)
        descriptors = try c.decode(AdvancedCommerceDescriptors.self, forKey: .descriptors)
        items = try c.decode([AdvancedCommerceSubscriptionCreateItem].self, forKey: .items)
        period = try c.decode(AdvancedCommercePeriod.self, forKey: .period)
        previousTransactionId = try c.decodeIfPresent(String.self, forKey: .previousTransactionId)
        storefront = try c.decodeIfPresent(String.self, forKey: .storefront)
        taxCode = try c.decode(String.self, forKey: .taxCode)
    }

    /// Encodes the JSON form Apple documents.
    public func encode(to encoder: any Encoder) throws {
        try writeOperation(encoder, Self.operation)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestInfo, forKey: .requestInfo)
        try c.encode(currency, forKey: .currency)
        try c.encode(descriptors, forKey: .descriptors)
        try c.encode(items, forKey: .items)
        try c.encode(period, forKey: .period)
        try c.encodeIfPresent(previousTransactionId, forKey: .previousTransactionId)
        try c.encodeIfPresent(storefront, forKey: .storefront)
        try c.encode(taxCode, forKey: .taxCode)
    }

    /// Checks Apple's documented limits and required fields before anything is signed or sent; the error names the offending field.
    public func validate() throws(AppStoreError) {
        try AdvancedCommerceLimits.requiredDescriptors(descriptors, at: "descriptors")
        try AdvancedCommerceLimits.nonEmpty(items, at: "items")
        for (i, item) in items.enumerated() {
            try AdvancedCommerceLimits.item(item.sku, item.description, item.displayName, at: "items[\(i)]")
            if let offer = item.offer { try AdvancedCommerceLimits.offer(offer, at: "items[\(i)].offer") }
        }
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyinapprequest
public struct AdvancedCommerceSubscriptionModifyInAppRequest: AdvancedCommerceInAppRequest {
    /// "MODIFY_SUBSCRIPTION".
    public static let operation = "MODIFY_SUBSCRIPTION"
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The transaction's unique identifier.
    public var transactionId: String
    /// Whether the subscription keeps its billing cycle.
    public var retainBillingCycle: Bool
    /// Items to add.
    public var addItems: [AdvancedCommerceSubscriptionModifyAddItem]?
    /// Items to change.
    public var changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]?
    /// Items to remove.
    public var removeItems: [AdvancedCommerceSKUItem]?
    /// The three-letter currency code of the price (ISO 4217).
    public var currency: String?
    /// The display name and description shown to the customer.
    public var descriptors: AdvancedCommerceSubscriptionModifyDescriptors?
    /// A change of billing period.
    public var periodChange: AdvancedCommerceSubscriptionModifyPeriodChange?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// The product's tax code.
    public var taxCode: String?
    enum CodingKeys: String, CodingKey {
        case requestInfo, transactionId, retainBillingCycle, addItems, changeItems, removeItems, currency, descriptors, periodChange,
            storefront, taxCode
    }

    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, transactionId: String, retainBillingCycle: Bool,
        addItems: [AdvancedCommerceSubscriptionModifyAddItem]? = nil, changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]? = nil,
        removeItems: [AdvancedCommerceSKUItem]? = nil, currency: String? = nil,
        descriptors: AdvancedCommerceSubscriptionModifyDescriptors? = nil,
        periodChange: AdvancedCommerceSubscriptionModifyPeriodChange? = nil, storefront: String? = nil, taxCode: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.transactionId = transactionId
        self.retainBillingCycle = retainBillingCycle
        self.addItems = addItems
        self.changeItems = changeItems
        self.removeItems = removeItems
        self.currency = currency
        self.descriptors = descriptors
        self.periodChange = periodChange
        self.storefront = storefront
        self.taxCode = taxCode
    }

    /// Decodes the JSON form, with the checks the type's documentation lists.
    public init(from decoder: any Decoder) throws {
        try checkOperation(decoder, Self.operation)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestInfo = try c.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        retainBillingCycle = try c.decode(Bool.self, forKey: .retainBillingCycle)
        addItems = try c.decodeIfPresent([AdvancedCommerceSubscriptionModifyAddItem].self, forKey: .addItems)
        changeItems = try c.decodeIfPresent([AdvancedCommerceSubscriptionModifyChangeItem].self, forKey: .changeItems)
        removeItems = try c.decodeIfPresent([AdvancedCommerceSKUItem].self, forKey: .removeItems)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        descriptors = try c.decodeIfPresent(AdvancedCommerceSubscriptionModifyDescriptors.self, forKey: .descriptors)
        periodChange = try c.decodeIfPresent(AdvancedCommerceSubscriptionModifyPeriodChange.self, forKey: .periodChange)
        storefront = try c.decodeIfPresent(String.self, forKey: .storefront)
        taxCode = try c.decodeIfPresent(String.self, forKey: .taxCode)
    }

    /// Encodes the JSON form Apple documents.
    public func encode(to encoder: any Encoder) throws {
        try writeOperation(encoder, Self.operation)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestInfo, forKey: .requestInfo)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encode(retainBillingCycle, forKey: .retainBillingCycle)
        try c.encodeIfPresent(addItems, forKey: .addItems)
        try c.encodeIfPresent(changeItems, forKey: .changeItems)
        try c.encodeIfPresent(removeItems, forKey: .removeItems)
        try c.encodeIfPresent(currency, forKey: .currency)
        try c.encodeIfPresent(descriptors, forKey: .descriptors)
        try c.encodeIfPresent(periodChange, forKey: .periodChange)
        try c.encodeIfPresent(storefront, forKey: .storefront)
        try c.encodeIfPresent(taxCode, forKey: .taxCode)
    }

    /// Checks Apple's documented limits and required fields before anything is signed or sent; the error names the offending field.
    public func validate() throws(AppStoreError) {
        if let descriptors { try AdvancedCommerceLimits.descriptors(descriptors.description, descriptors.displayName, at: "descriptors") }
        for (i, item) in (addItems ?? []).enumerated() {
            try AdvancedCommerceLimits.item(item.sku, item.description, item.displayName, at: "addItems[\(i)]")
            if let offer = item.offer { try AdvancedCommerceLimits.offer(offer, at: "addItems[\(i)].offer") }
        }
        for (i, item) in (changeItems ?? []).enumerated() {
            try AdvancedCommerceLimits.item(item.sku, item.description, item.displayName, at: "changeItems[\(i)]")
            try AdvancedCommerceLimits.sku(item.currentSKU, at: "changeItems[\(i)].currentSKU")
            if let offer = item.offer { try AdvancedCommerceLimits.offer(offer, at: "changeItems[\(i)].offer") }
        }
        for (i, item) in (removeItems ?? []).enumerated() { try AdvancedCommerceLimits.sku(item.sku, at: "removeItems[\(i)].SKU") }
        for (name, list) in [("addItems", addItems?.count), ("changeItems", changeItems?.count), ("removeItems", removeItems?.count)]
        where list == 0 {
            throw AppStoreError(.invalidConfiguration, "Advanced Commerce request: \(name) is present but empty")
        }
    }
}

/// https://developer.apple.com/documentation/advancedcommerceapi/subscriptionreactivateinapprequest
public struct AdvancedCommerceSubscriptionReactivateInAppRequest: AdvancedCommerceInAppRequest {
    /// "REACTIVATE_SUBSCRIPTION".
    public static let operation = "REACTIVATE_SUBSCRIPTION"
    /// The request's reference id, app account token and consistency token.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The transaction's unique identifier.
    public var transactionId: String
    /// The items, one per SKU.
    public var items: [AdvancedCommerceSKUItem]?
    /// The App Store storefront's three-letter country code (ISO 3166-1 alpha-3).
    public var storefront: String?
    enum CodingKeys: String, CodingKey { case requestInfo, transactionId, items, storefront }

    /// Creates the request; `validate()` checks Apple's limits before it is signed or sent.
    public init(
        requestInfo: AdvancedCommerceRequestInfo, transactionId: String, items: [AdvancedCommerceSKUItem]? = nil, storefront: String? = nil
    ) {
        self.requestInfo = requestInfo
        self.transactionId = transactionId
        self.items = items
        self.storefront = storefront
    }

    /// Decodes the JSON form, with the checks the type's documentation lists.
    public init(from decoder: any Decoder) throws {
        try checkOperation(decoder, Self.operation)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestInfo = try c.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        items = try c.decodeIfPresent([AdvancedCommerceSKUItem].self, forKey: .items)
        storefront = try c.decodeIfPresent(String.self, forKey: .storefront)
    }

    /// Encodes the JSON form Apple documents.
    public func encode(to encoder: any Encoder) throws {
        try writeOperation(encoder, Self.operation)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestInfo, forKey: .requestInfo)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encodeIfPresent(items, forKey: .items)
        try c.encodeIfPresent(storefront, forKey: .storefront)
    }

    /// Checks Apple's documented limits and required fields before anything is signed or sent; the error names the offending field.
    public func validate() throws(AppStoreError) {
        for (i, item) in (items ?? []).enumerated() { try AdvancedCommerceLimits.sku(item.sku, at: "items[\(i)].SKU") }
    }
}

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

// MARK: - Checks before a server request is sent

/// A server request of the Advanced Commerce API that can be checked against Apple's documented
/// limits before it is sent (the App Store would answer 400 with the code the error names).
public protocol AdvancedCommerceServerRequest: Codable, Hashable, Sendable {
    /// Throws `invalidConfiguration` naming the offending field when a documented limit is broken.
    func validate() throws(AppStoreError)
}

extension AdvancedCommerceSubscriptionCancelRequest: AdvancedCommerceServerRequest {
    /// Nothing beyond the types: the request info carries its own identifiers.
    public func validate() throws(AppStoreError) {}
}

extension AdvancedCommerceSubscriptionRevokeRequest: AdvancedCommerceServerRequest {
    /// Nothing beyond the types: the refund reason and type are Apple's open enums.
    public func validate() throws(AppStoreError) {}
}

extension AdvancedCommerceSubscriptionChangeMetadataRequest: AdvancedCommerceServerRequest {
    /// Descriptor lengths, and each item's SKU and current SKU within 128 characters.
    public func validate() throws(AppStoreError) {
        if let descriptors { try AdvancedCommerceLimits.descriptors(descriptors.description, descriptors.displayName, at: "descriptors") }
        for (i, item) in (items ?? []).enumerated() {
            try AdvancedCommerceLimits.sku(item.sku, at: "items[\(i)].SKU")
            try AdvancedCommerceLimits.sku(item.currentSKU, at: "items[\(i)].currentSKU")
            try AdvancedCommerceLimits.descriptors(item.description, item.displayName, at: "items[\(i)]")
        }
    }
}

extension AdvancedCommerceSubscriptionMigrateRequest: AdvancedCommerceServerRequest {
    /// Descriptors present and within their lengths, at least one item, each item's SKU and texts.
    public func validate() throws(AppStoreError) {
        try AdvancedCommerceLimits.requiredDescriptors(descriptors, at: "descriptors")
        try AdvancedCommerceLimits.nonEmpty(items, at: "items")
        for (i, item) in items.enumerated() {
            try AdvancedCommerceLimits.item(item.sku, item.description, item.displayName, at: "items[\(i)]")
        }
        for (i, item) in (renewalItems ?? []).enumerated() {
            try AdvancedCommerceLimits.item(item.sku, item.description, item.displayName, at: "renewalItems[\(i)]")
        }
    }
}

extension AdvancedCommerceSubscriptionPriceChangeRequest: AdvancedCommerceServerRequest {
    /// At least one item, each SKU (and dependent SKU) within 128 characters, no negative price.
    public func validate() throws(AppStoreError) {
        try AdvancedCommerceLimits.nonEmpty(items, at: "items")
        for (i, item) in items.enumerated() {
            try AdvancedCommerceLimits.sku(item.sku, at: "items[\(i)].SKU")
            for (j, dependent) in (item.dependentSKUs ?? []).enumerated() {
                try AdvancedCommerceLimits.sku(dependent, at: "items[\(i)].dependentSKUs[\(j)]")
            }
            guard item.price >= 0 else { throw AdvancedCommerceLimits.fail("items[\(i)].price", "a price is not negative") }
        }
    }
}

extension AdvancedCommerceRequestRefundRequest: AdvancedCommerceServerRequest {
    /// At least one item, each SKU within 128 characters.
    public func validate() throws(AppStoreError) {
        try AdvancedCommerceLimits.nonEmpty(items, at: "items")
        for (i, item) in items.enumerated() { try AdvancedCommerceLimits.sku(item.sku, at: "items[\(i)].SKU") }
    }
}
