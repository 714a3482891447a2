import SigilASN1
import SigilCore
import SigilKeys
import SigilPKCS7
import SigilReceipts
import SigilX509

/// Writes app receipts in Apple's layout (a SET OF ReceiptAttribute inside CMS SignedData,
/// RFC 5652), signed with ECDSA P-256 / SHA-256 without signed attributes, as Apple's receipts
/// are signed directly over the content. For test fixtures and `sigil demo`: a receipt this
/// builder writes is read back by `SignedData(berEncoded:)` and `AppReceipt(payload:)` like any
/// other. Signing is constant time (the ECDSA signer); the rest is public data.
public struct AppReceiptBuilder: Sendable {
    /// One in-app purchase record (attribute 17).
    public struct InAppPurchase: Sendable {
        /// The quantity (field 1701).
        public var quantity: Int64
        /// The product id (field 1702).
        public var productID: String
        /// The transaction id (field 1703).
        public var transactionID: String
        /// The original transaction id (field 1705).
        public var originalTransactionID: String
        /// Seconds since 1970.
        public var purchaseDate: Int64
        /// The original purchase date (field 1706), seconds since 1970.
        public var originalPurchaseDate: Int64
        /// The subscription expiration date (field 1708), seconds since 1970; written only when set.
        public var subscriptionExpirationDate: Int64?
        /// The web order line item id (field 1711); written only when set.
        public var webOrderLineItemID: Int64?
        /// A record with these fields.
        public init(
            quantity: Int64 = 1, productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Int64,
            originalPurchaseDate: Int64, subscriptionExpirationDate: Int64? = nil, webOrderLineItemID: Int64? = nil
        ) {
            self.quantity = quantity
            self.productID = productID
            self.transactionID = transactionID
            self.originalTransactionID = originalTransactionID
            self.purchaseDate = purchaseDate
            self.originalPurchaseDate = originalPurchaseDate
            self.subscriptionExpirationDate = subscriptionExpirationDate
            self.webOrderLineItemID = webOrderLineItemID
        }
    }

    /// The receipt type (field 0; "ProductionSandbox" by default).
    public var receiptType: String
    /// The app item id (field 1).
    public var appItemID: Int64
    /// The bundle id (field 2).
    public var bundleID: String
    /// The app version (field 3).
    public var appVersion: String
    /// The original application version (field 19).
    public var originalApplicationVersion: String
    /// Seconds since 1970.
    public var creationDate: Int64
    /// The opaque value (field 4), an input of the device hash.
    public var opaqueValue: [UInt8]
    /// The device identifier the SHA-1 hash (attribute 5) binds the receipt to.
    public var deviceGUID: [UInt8]
    /// The in-app purchase records (field 17, one each).
    public var inAppPurchases: [InAppPurchase]

    /// A receipt with these fields; field 5 (the device hash) is computed from `deviceGUID`.
    public init(
        receiptType: String = "ProductionSandbox", appItemID: Int64 = 0, bundleID: String, appVersion: String,
        originalApplicationVersion: String, creationDate: Int64, opaqueValue: [UInt8], deviceGUID: [UInt8],
        inAppPurchases: [InAppPurchase] = []
    ) {
        self.receiptType = receiptType
        self.appItemID = appItemID
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.originalApplicationVersion = originalApplicationVersion
        self.creationDate = creationDate
        self.opaqueValue = opaqueValue
        self.deviceGUID = deviceGUID
        self.inAppPurchases = inAppPurchases
    }

    static func utf8(_ text: String) -> [UInt8] {
        var w = DERWriter()
        w.appendPrimitive(.utf8String, content: Array(text.utf8))
        return w.bytes
    }

    static func integer(_ value: Int64) -> [UInt8] { DER.encode(ASN1Integer(value)) }

    /// RFC 3339 in Apple's form ("2024-02-23T17:27:16Z") as an IA5String.
    static func date(_ seconds: Int64) throws(PKCS7Error) -> [UInt8] {
        let c: ASN1TimeComponents
        do { c = try ASN1TimeComponents(secondsSinceEpoch: seconds) } catch {
            throw PKCS7Error(.malformed, "receipt date \(seconds): \(error)")
        }
        var w = DERWriter()
        w.appendPrimitive(.ia5String, content: Array(c.description.utf8))  // whole seconds: no fraction
        return w.bytes
    }

    /// A SET OF ReceiptAttribute, in the order given (Apple does not sort its SET OF either).
    static func set(_ attributes: [(Int, [UInt8])]) -> [UInt8] {
        var w = DERWriter()
        w.appendConstructed(.set) { set in
            for (type, value) in attributes {
                set.appendSequence { a in
                    a.append(ASN1Integer(type))
                    a.append(ASN1Integer(1))
                    a.appendPrimitive(.octetString, content: value)
                }
            }
        }
        return w.bytes
    }

    /// The receipt payload.
    public func payload() throws(PKCS7Error) -> [UInt8] {
        let bundle = Self.utf8(bundleID)
        var attributes: [(ReceiptFieldType, [UInt8])] = [
            (.receiptType, Self.utf8(receiptType)), (.appItemID, Self.integer(appItemID)), (.bundleID, bundle),
            (.appVersion, Self.utf8(appVersion)), (.opaqueValue, opaqueValue), (.sha1Hash, SHA1.hash(deviceGUID + opaqueValue + bundle)),
            (.creationDate, try Self.date(creationDate)), (.originalApplicationVersion, Self.utf8(originalApplicationVersion)),
        ]
        for purchase in inAppPurchases {
            var record: [(ReceiptFieldType, [UInt8])] = [
                (.quantity, Self.integer(purchase.quantity)), (.productID, Self.utf8(purchase.productID)),
                (.transactionID, Self.utf8(purchase.transactionID)), (.purchaseDate, try Self.date(purchase.purchaseDate)),
                (.originalTransactionID, Self.utf8(purchase.originalTransactionID)),
                (.inAppOriginalPurchaseDate, try Self.date(purchase.originalPurchaseDate)),
            ]
            if let expiry = purchase.subscriptionExpirationDate { record.append((.subscriptionExpirationDate, try Self.date(expiry))) }
            if let line = purchase.webOrderLineItemID { record.append((.webOrderLineItemID, Self.integer(line))) }
            attributes.append((.inAppPurchase, Self.set(record.map { ($0.0.rawValue, $0.1) })))
        }
        return Self.set(attributes.map { ($0.0.rawValue, $0.1) })
    }

    /// ContentInfo(SignedData) over `content` (id-data), signed by `signerKey` whose certificate
    /// is `signer` (SignerInfo names it by issuer and serial number); `certificates` (the signer
    /// first, then its intermediates) go in the certificates field.
    public static func signedData(
        content: [UInt8], signer: Certificate, signerKey: ECDSAPrivateKey,
        certificates: [Certificate]
    ) throws(PKCS7Error) -> [UInt8] {
        guard signerKey.publicKey.curve == .p256 else {
            throw PKCS7Error(.unsupportedAlgorithm, "the receipt builder signs with P-256 keys")
        }
        let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
        let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
        let signature = signerKey.signature(for: content, hash: .sha256).derRepresentation
        var w = DERWriter()
        w.appendSequence { contentInfo in
            contentInfo.append(CMSOIDs.signedData)
            contentInfo.appendExplicit(.contextSpecific(0)) { explicit in
                explicit.appendSequence { sd in
                    sd.append(ASN1Integer(1))
                    sd.appendConstructed(.set) { $0.appendSequence { $0.append(sha256) } }
                    sd.appendSequence { eci in
                        eci.append(CMSOIDs.data)
                        eci.appendExplicit(.contextSpecific(0)) { $0.appendPrimitive(.octetString, content: content) }
                    }
                    sd.appendConstructed(.contextSpecific(0)) { certs in for c in certificates { certs.appendEncoded(c.derBytes) } }
                    sd.appendConstructed(.set) { infos in
                        infos.appendSequence { si in
                            si.append(ASN1Integer(1))
                            si.appendSequence { ias in
                                ias.appendEncoded(signer.issuer.derBytes)
                                ias.append(ASN1Integer(unsignedMagnitude: signer.serialNumber))
                            }
                            si.appendSequence { $0.append(sha256) }
                            si.appendSequence { $0.append(ecdsaWithSHA256) }
                            si.appendPrimitive(.octetString, content: signature)
                        }
                    }
                }
            }
        }
        return w.bytes
    }
}
