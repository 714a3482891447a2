import SigilASN1
import SigilBase
import SigilX509

/// An iOS 6-era transaction receipt (SKPaymentTransaction.transactionReceipt): base64 of an
/// old-style plist whose "purchase-info" is base64 of another old-style plist with the purchase
/// ("transaction-id", "original-transaction-id", "product-id", "bid", "purchase-date-ms", …), and
/// whose "signature" is base64 of a blob: a version byte, the RSA signature (128 bytes for
/// version 2, 256 for version 3), a 4-byte big-endian length, and the signing certificate (DER).
/// Every key of both dictionaries is kept. Parsing does not verify the signature (Apple's
/// servers did); the blob's structure is reported.
public struct LegacyTransactionReceipt: Sendable {
    /// The decoded "signature" blob.
    public struct SignatureBlob: Sendable {
        /// The blob's version byte (2 or 3).
        public let version: UInt8
        /// The RSA signature's bytes.
        public let signature: [UInt8]
        /// The signing certificate, when its bytes parsed.
        public let certificate: Certificate?
        /// Set when the certificate bytes did not parse (kept, not fatal).
        public let certificateError: String?
    }

    /// The outer dictionary, in order.
    public let outer: [(key: String, value: String)]
    /// The purchase-info dictionary, in order.
    public let purchaseInfo: [(key: String, value: String)]
    /// The signature blob, when the receipt has one.
    public let signature: SignatureBlob?

    /// The value of `key` in the outer dictionary.
    public func outerValue(_ key: String) -> String? { outer.first { $0.key == key }?.value }
    /// The value of `key` in the purchase-info dictionary.
    public func purchaseValue(_ key: String) -> String? { purchaseInfo.first { $0.key == key }?.value }

    /// purchase-info's "transaction-id".
    public var transactionID: String? { purchaseValue("transaction-id") }
    /// purchase-info's "original-transaction-id".
    public var originalTransactionID: String? { purchaseValue("original-transaction-id") }
    /// purchase-info's "product-id".
    public var productID: String? { purchaseValue("product-id") }
    /// purchase-info's "bid" (the bundle id).
    public var bundleID: String? { purchaseValue("bid") }
    /// purchase-info's "purchase-date-ms", milliseconds since 1970.
    public var purchaseDateMilliseconds: Int64? { purchaseValue("purchase-date-ms").flatMap { Int64($0) } }
    /// "Sandbox" when present (absent for production receipts).
    public var environment: String? { outerValue("environment") }

    /// From the receipt as apps sent it: base64, line breaks and spaces tolerated.
    public init<Bytes: Collection>(base64 bytes: Bytes) throws(ReceiptError) where Bytes.Element == UInt8 {
        let compact = Base64.removingWhiteSpace(bytes)
        guard let plist = try? Base64.decode(compact, alphabet: .standard, padding: .optional) else {
            throw ReceiptError(.malformed, "the transaction receipt is not base64")
        }
        outer = try OldStylePlist.dictionary(plist)
        guard let info = outer.first(where: { $0.key == "purchase-info" })?.value else {
            throw ReceiptError(.malformed, "no purchase-info in the transaction receipt")
        }
        guard let infoBytes = try? Base64.decode(Array(info.utf8), alphabet: .standard, padding: .optional) else {
            throw ReceiptError(.malformed, "purchase-info is not base64")
        }
        purchaseInfo = try OldStylePlist.dictionary(infoBytes)
        if let blobText = outer.first(where: { $0.key == "signature" })?.value {
            guard let blob = try? Base64.decode(Array(blobText.utf8), alphabet: .standard, padding: .optional) else {
                throw ReceiptError(.malformed, "signature is not base64")
            }
            signature = try LegacyTransactionReceipt.signatureBlob(blob)
        } else {
            signature = nil
        }
    }

    static func signatureBlob(_ blob: [UInt8]) throws(ReceiptError) -> SignatureBlob {
        guard let version = blob.first else { throw ReceiptError(.malformed, "empty signature blob") }
        let signatureLength: Int
        switch version {
        case 2: signatureLength = 128
        case 3: signatureLength = 256
        default: throw ReceiptError(.malformed, "signature blob version \(version) is not 2 or 3")
        }
        guard blob.count >= 1 + signatureLength + 4 else { throw ReceiptError(.malformed, "signature blob is truncated") }
        let signature = Array(blob[1..<(1 + signatureLength)])
        let lengthAt = 1 + signatureLength
        let length = blob[lengthAt..<(lengthAt + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length == blob.count - lengthAt - 4 else {
            throw ReceiptError(
                .malformed, "signature blob certificate length \(length) does not match the \(blob.count - lengthAt - 4) bytes present")
        }
        let certificateBytes = Array(blob[(lengthAt + 4)...])
        do {
            return SignatureBlob(
                version: version, signature: signature, certificate: try Certificate(derEncoded: certificateBytes), certificateError: nil)
        } catch {
            return SignatureBlob(version: version, signature: signature, certificate: nil, certificateError: error.description)
        }
    }
}
