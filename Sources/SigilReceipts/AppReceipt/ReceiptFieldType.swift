/// The attribute types of an app receipt's payload and of its in-app purchase records, as Apple
/// documents them ("Validating receipts on the device": Receipt Fields, In-App Purchase Receipt
/// Fields) and as Apple's receipts carry them (0, 1, 10 and 18 are not in the field list but are
/// in every receipt and in `verifyReceipt`'s answer). The one place these numbers are written.
public enum ReceiptFieldType: Int, Sendable, Hashable, CaseIterable {
    // The receipt (payload) fields.
    /// Receipt type: Production, ProductionSandbox, ProductionVPP, ProductionVPPSandbox, Xcode (UTF8String).
    case receiptType = 0
    /// App item id (the app's Apple id; 0 outside the App Store) (INTEGER).
    case appItemID = 1
    /// Bundle identifier (UTF8String; its DER also enters the SHA-1 device hash).
    case bundleID = 2
    /// App version (CFBundleVersion) (UTF8String).
    case appVersion = 3
    /// Opaque value used in the device hash (bytes).
    case opaqueValue = 4
    /// SHA-1 hash of device GUID ‖ opaque value ‖ bundle id (20 bytes).
    case sha1Hash = 5
    /// Age rating (UTF8String).
    case ageRating = 10
    /// Receipt creation date (IA5String, RFC 3339).
    case creationDate = 12
    /// One in-app purchase record (a SET of attributes of the in-app types below).
    case inAppPurchase = 17
    /// Original purchase date of the app (IA5String, RFC 3339).
    case originalPurchaseDate = 18
    /// Original application version (UTF8String).
    case originalApplicationVersion = 19
    /// Receipt expiration date, Volume Purchase Program receipts only (IA5String, RFC 3339).
    case expirationDate = 21

    // The in-app purchase record fields.
    /// Quantity (INTEGER).
    case quantity = 1701
    /// Product identifier (UTF8String).
    case productID = 1702
    /// Transaction identifier (UTF8String).
    case transactionID = 1703
    /// Purchase date (IA5String, RFC 3339).
    case purchaseDate = 1704
    /// Original transaction identifier (UTF8String).
    case originalTransactionID = 1705
    /// Original purchase date (IA5String, RFC 3339).
    case inAppOriginalPurchaseDate = 1706
    /// Subscription expiration date (IA5String, RFC 3339).
    case subscriptionExpirationDate = 1708
    /// Web order line item id (INTEGER).
    case webOrderLineItemID = 1711
    /// Cancellation date, for a refunded transaction (IA5String, RFC 3339).
    case cancellationDate = 1712
    /// Whether the subscription is in its free trial period (INTEGER 0/1).
    case isTrialPeriod = 1713
    /// Whether the subscription is in an introductory price period (INTEGER 0/1).
    case isInIntroOfferPeriod = 1719
    /// Why a transaction was refunded: 1 an issue in the app, 0 another reason (INTEGER).
    case cancellationReason = 1720
    /// Promotional offer identifier (UTF8String).
    case promotionalOfferID = 1721

    /// The fields of the receipt itself (type 17's records hold the in-app fields).
    public static let receiptFields: Set<ReceiptFieldType> = Set(allCases.filter { $0.rawValue < 1000 })
    /// The fields of an in-app purchase record.
    public static let inAppFields: Set<ReceiptFieldType> = Set(allCases.filter { $0.rawValue >= 1000 })
}
