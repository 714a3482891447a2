import SigilAppStore
import SigilTokens

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
