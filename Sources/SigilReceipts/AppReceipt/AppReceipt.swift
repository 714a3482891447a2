import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore

/// An app receipt's payload, every field (Apple, "Validating receipts on the device": Receipt
/// Fields and In-App Purchase Receipt Fields). Known fields are typed; every attribute, known or
/// not, is also kept in `attributes` as (type, version, raw bytes).
///
/// Field types: ``ReceiptFieldType``.
public struct AppReceipt: Sendable {
    /// Every attribute of the payload, known or not, in the order received.
    public let attributes: [ReceiptAttribute]
    /// The receipt type (field 0): "Production", "ProductionSandbox", "Xcode", ….
    public let receiptType: String?
    /// The app item id (field 1); 0 outside the App Store.
    public let appItemID: Int64?
    /// The bundle id (field 2).
    public let bundleID: String?
    /// The bundle id attribute's raw value (its DER UTF8String), which the hash covers.
    public let bundleIDBytes: [UInt8]?
    /// The app version (field 3).
    public let appVersion: String?
    /// The opaque value (field 4), an input of the device hash.
    public let opaqueValue: [UInt8]?
    /// The SHA-1 device hash (field 5) that `matchesDevice(guid:)` checks.
    public let sha1Hash: [UInt8]?
    /// The age rating (field 10).
    public let ageRating: String?
    /// When the receipt was created (field 12), seconds since 1970.
    public let creationDate: Int64?
    /// When the app was first purchased (field 18), seconds since 1970.
    public let originalPurchaseDate: Int64?
    /// The app version the user first bought (field 19).
    public let originalApplicationVersion: String?
    /// When the receipt expires (field 21; Volume Purchase Program receipts), seconds since 1970.
    public let expirationDate: Int64?
    /// The in-app purchase records (field 17), in the order received.
    public let inAppPurchases: [InAppPurchase]

    /// Reads a receipt payload (the SignedData's content): a SET OF ReceiptAttribute, BER.
    public init(payload: [UInt8]) throws(ReceiptError) {
        do throws(ASN1Error) {
            let attributes = try ReceiptAttribute.payload(payload)
            self.attributes = attributes
            func first(_ type: ReceiptFieldType) -> ReceiptAttribute? { attributes.first { $0.type == type.rawValue } }
            receiptType = first(.receiptType)?.string
            appItemID = first(.appItemID)?.integer
            bundleID = first(.bundleID)?.string
            bundleIDBytes = first(.bundleID)?.value
            appVersion = first(.appVersion)?.string
            opaqueValue = first(.opaqueValue)?.value
            sha1Hash = first(.sha1Hash)?.value
            ageRating = first(.ageRating)?.string
            creationDate = first(.creationDate)?.date ?? nil
            originalPurchaseDate = first(.originalPurchaseDate)?.date ?? nil
            originalApplicationVersion = first(.originalApplicationVersion)?.string
            expirationDate = first(.expirationDate)?.date ?? nil
            var inAppPurchases: [InAppPurchase] = []
            for attribute in attributes where attribute.type == ReceiptFieldType.inAppPurchase.rawValue {
                inAppPurchases.append(try InAppPurchase(payload: attribute.value))
            }
            self.inAppPurchases = inAppPurchases
        } catch {
            throw ReceiptError(wrapping: error, as: .malformed, context: "receipt payload")
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
        let ids = inAppPurchases.compactMap { $0.transactionID }
        return choice == .first ? ids.first : ids.last
    }

    /// The device check (Apple: "Validate the receipt hash"): SHA-1(device GUID ‖ opaque value ‖
    /// bundle id bytes) must equal the receipt's SHA-1 hash. Constant-time comparison.
    /// The receipt's own bundle id is used: a receipt another app got on the same device matches
    /// too — ``matchesDevice(guid:bundleID:)`` binds the check to the app.
    public func matchesDevice(guid: [UInt8]) -> Bool {
        guard let bundleIDBytes else { return false }
        return matchesDevice(guid: guid, bundleIDBytes: bundleIDBytes)
    }

    /// The device check bound to an app: SHA-1(device GUID ‖ opaque value ‖ `bundleID` as a DER
    /// UTF8String, as Apple writes field 2) must equal the receipt's SHA-1 hash. A receipt of
    /// another app from the same device does not match. Constant-time comparison.
    public func matchesDevice(guid: [UInt8], bundleID: String) -> Bool {
        var encoded = DERWriter()
        encoded.appendPrimitive(.utf8String, content: Array(bundleID.utf8))
        return matchesDevice(guid: guid, bundleIDBytes: encoded.bytes)
    }

    func matchesDevice(guid: [UInt8], bundleIDBytes: [UInt8]) -> Bool {
        guard let opaqueValue, let sha1Hash else { return false }
        return ConstantTime.equals(SHA1.hash(guid + opaqueValue + bundleIDBytes), sha1Hash)
    }
}

/// One in-app purchase record (``ReceiptFieldType`` 1701–1721): quantity, product id,
/// transaction ids, dates, web order line item id, introductory-offer and trial flags,
/// cancellation reason, promotional offer id.
public struct InAppPurchase: Sendable {
    /// Every attribute of the record, known or not, in the order received.
    public let attributes: [ReceiptAttribute]
    /// The quantity (field 1701).
    public let quantity: Int64?
    /// The product id (field 1702).
    public let productID: String?
    /// The transaction id (field 1703).
    public let transactionID: String?
    /// The original transaction id (field 1705).
    public let originalTransactionID: String?
    /// The purchase date (field 1704), seconds since 1970.
    public let purchaseDate: Int64?
    /// The original purchase date (field 1706), seconds since 1970.
    public let originalPurchaseDate: Int64?
    /// The subscription expiration date (field 1708), seconds since 1970.
    public let subscriptionExpirationDate: Int64?
    /// The cancellation (refund) date (field 1712), seconds since 1970.
    public let cancellationDate: Int64?
    /// The web order line item id (field 1711).
    public let webOrderLineItemID: Int64?
    /// Whether the period is a free trial (field 1713).
    public let isTrialPeriod: Bool?
    /// Whether the period is an introductory offer (field 1719).
    public let isInIntroOfferPeriod: Bool?
    /// Why a refunded transaction was refunded: 1 an issue in the app, 0 another reason.
    public let cancellationReason: Int64?
    /// The promotional offer's id (field 1721).
    public let promotionalOfferID: String?

    init(payload: [UInt8]) throws(ASN1Error) {
        let attributes = try ReceiptAttribute.payload(payload)
        self.attributes = attributes
        func first(_ type: ReceiptFieldType) -> ReceiptAttribute? { attributes.first { $0.type == type.rawValue } }
        quantity = first(.quantity)?.integer
        productID = first(.productID)?.string
        transactionID = first(.transactionID)?.string
        purchaseDate = first(.purchaseDate)?.date ?? nil
        originalTransactionID = first(.originalTransactionID)?.string
        originalPurchaseDate = first(.inAppOriginalPurchaseDate)?.date ?? nil
        subscriptionExpirationDate = first(.subscriptionExpirationDate)?.date ?? nil
        webOrderLineItemID = first(.webOrderLineItemID)?.integer
        cancellationDate = first(.cancellationDate)?.date ?? nil
        isTrialPeriod = first(.isTrialPeriod)?.integer.map { $0 != 0 }
        isInIntroOfferPeriod = first(.isInIntroOfferPeriod)?.integer.map { $0 != 0 }
        cancellationReason = first(.cancellationReason)?.integer
        promotionalOfferID = first(.promotionalOfferID)?.string
    }
}
