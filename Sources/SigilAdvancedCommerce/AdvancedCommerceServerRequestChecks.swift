import SigilAppStore
import SigilTokens

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
