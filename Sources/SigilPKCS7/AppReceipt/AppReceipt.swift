import SigilASN1
import SigilCore

/// An app receipt's payload, every field (Apple, "Validating receipts on the device": Receipt
/// Fields and In-App Purchase Receipt Fields). Known fields are typed; every attribute, known or
/// not, is also kept in `attributes` as (type, version, raw bytes).
///
/// Field types: 0 receipt type, 1 app item id, 2 bundle id, 3 app version, 4 opaque value,
/// 5 SHA-1 hash, 10 age rating, 12 creation date, 17 in-app purchase, 18 original purchase date,
/// 19 original application version, 21 expiration date.
public struct AppReceipt: Sendable {
    public let attributes: [ReceiptAttribute]
    public let receiptType: String?
    public let appItemID: Int64?
    public let bundleID: String?
    /// The bundle id attribute's raw value (its DER UTF8String), which the hash covers.
    public let bundleIDBytes: [UInt8]?
    public let appVersion: String?
    public let opaqueValue: [UInt8]?
    public let sha1Hash: [UInt8]?
    public let ageRating: String?
    public let creationDate: Int64?
    public let originalPurchaseDate: Int64?
    public let originalApplicationVersion: String?
    public let expirationDate: Int64?
    public let inAppPurchases: [InAppPurchase]

    public init(payload: [UInt8]) throws(PKCS7Error) {
        do {
            let attributes = try ReceiptAttribute.payload(payload)
            self.attributes = attributes
            func first(_ type: Int) -> ReceiptAttribute? { attributes.first { $0.type == type } }
            receiptType = first(0)?.string
            appItemID = first(1)?.integer
            bundleID = first(2)?.string
            bundleIDBytes = first(2)?.value
            appVersion = first(3)?.string
            opaqueValue = first(4)?.value
            sha1Hash = first(5)?.value
            ageRating = first(10)?.string
            creationDate = first(12)?.date ?? nil
            originalPurchaseDate = first(18)?.date ?? nil
            originalApplicationVersion = first(19)?.string
            expirationDate = first(21)?.date ?? nil
            inAppPurchases = try attributes.filter { $0.type == 17 }.map { try InAppPurchase(payload: $0.value) }
        } catch {
            throw pkcs7Error(error, context: "receipt payload")
        }
    }

    /// Which in-app record's transaction id to report.
    public enum TransactionIDChoice: Sendable {
        /// The first in-app record (what Apple's Python, Java and Node libraries return).
        case first
        /// The last one (what Apple's Swift library returns: it keeps overwriting while scanning).
        case last
    }

    /// The transaction id of the first (default) or last in-app record; nil when there is none
    /// (an empty receipt is not an error).
    public func transactionID(_ choice: TransactionIDChoice = .first) -> String? {
        let ids = inAppPurchases.compactMap(\.transactionID)
        return choice == .first ? ids.first : ids.last
    }

    /// The device check (Apple: "Validate the receipt hash"): SHA-1(device GUID ‖ opaque value ‖
    /// bundle id bytes) must equal the receipt's SHA-1 hash. Constant-time comparison.
    public func matchesDevice(guid: [UInt8]) -> Bool {
        guard let opaqueValue, let bundleIDBytes, let sha1Hash else { return false }
        return ConstantTime.equals(SHA1.hash(guid + opaqueValue + bundleIDBytes), sha1Hash)
    }
}

/// One in-app purchase record (types 1701–1721): quantity, product id, transaction ids, dates,
/// web order line item id, introductory-offer and trial flags, promotional offer id.
public struct InAppPurchase: Sendable {
    public let attributes: [ReceiptAttribute]
    public let quantity: Int64?
    public let productID: String?
    public let transactionID: String?
    public let originalTransactionID: String?
    public let purchaseDate: Int64?
    public let originalPurchaseDate: Int64?
    public let subscriptionExpirationDate: Int64?
    public let cancellationDate: Int64?
    public let webOrderLineItemID: Int64?
    public let isTrialPeriod: Bool?
    public let isInIntroOfferPeriod: Bool?
    public let promotionalOfferID: String?

    init(payload: [UInt8]) throws {
        let attributes = try ReceiptAttribute.payload(payload)
        self.attributes = attributes
        func first(_ type: Int) -> ReceiptAttribute? { attributes.first { $0.type == type } }
        quantity = first(1701)?.integer
        productID = first(1702)?.string
        transactionID = first(1703)?.string
        purchaseDate = first(1704)?.date ?? nil
        originalTransactionID = first(1705)?.string
        originalPurchaseDate = first(1706)?.date ?? nil
        subscriptionExpirationDate = first(1708)?.date ?? nil
        webOrderLineItemID = first(1711)?.integer
        cancellationDate = first(1712)?.date ?? nil
        isTrialPeriod = first(1713)?.integer.map { $0 != 0 }
        isInIntroOfferPeriod = first(1719)?.integer.map { $0 != 0 }
        promotionalOfferID = first(1721)?.string
    }
}
