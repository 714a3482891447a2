/// The body Apple's deprecated `verifyReceipt` endpoint returns, as far as the receipt itself
/// proves it — computed offline by ``AppReceiptVerifier/verifyReceiptResponse(_:sentTo:requestTime:)``,
/// so a server still calling Apple's endpoint can switch by changing a URL.
///
/// Like Apple's endpoint, it checks no bundle id: `receipt.bundle_id` is for the caller to compare
/// (the drop-in's verifier is report-only by name; see
/// ``AppReceiptVerifier/verifyReceiptResponse(_:sentTo:requestTime:)``).
///
/// Statuses: 0 valid; 21002 the receipt data is malformed; 21003 the receipt could not be
/// authenticated (signature, signer chain, Apple's receipt profile); 21007 a sandbox receipt sent
/// to the production endpoint; 21008 a production receipt sent to the sandbox endpoint.
///
/// What cannot exist offline, and is therefore never in this body: `latest_receipt`,
/// `latest_receipt_info` and `pending_renewal_info` (Apple's servers' view of the subscription
/// now, not in the receipt — use the App Store Server API), `is-retryable`, and status 21004
/// (a shared secret is checked by Apple's servers only), 21005/21009 (server errors), 21010 (an
/// account that no longer exists).
public struct VerifyReceiptResponse: Sendable, Hashable {
    /// 0, 21002, 21003, 21007 or 21008.
    public var status: Int
    /// "Production" or "Sandbox" (from the receipt type), with status 0.
    public var environment: String?
    /// The receipt's fields in Apple's names and formats, with status 0.
    public var receipt: Receipt?

    /// An answer with `status` and, for a valid receipt, its environment and fields.
    public init(status: Int, environment: String? = nil, receipt: Receipt? = nil) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
    }

    /// `receipt` as Apple writes it: identifiers as JSON numbers, dates three ways (`…_date`
    /// "yyyy-MM-dd HH:mm:ss Etc/GMT", `…_date_ms` milliseconds as a string, `…_date_pst` in
    /// America/Los_Angeles).
    public struct Receipt: Sendable, Hashable {
        /// Apple's `receipt_type`.
        public var receipt_type: String?
        /// Apple's `adam_id`.
        public var adam_id: Int64?
        /// Apple's `app_item_id`.
        public var app_item_id: Int64?
        /// Apple's `bundle_id`.
        public var bundle_id: String?
        /// Apple's `application_version`.
        public var application_version: String?
        /// Apple's `original_application_version`.
        public var original_application_version: String?
        /// Apple's `receipt_creation_date`.
        public var receipt_creation_date: String?
        /// Apple's `receipt_creation_date_ms`.
        public var receipt_creation_date_ms: String?
        /// Apple's `receipt_creation_date_pst`.
        public var receipt_creation_date_pst: String?
        /// Apple's `request_date`.
        public var request_date: String
        /// Apple's `request_date_ms`.
        public var request_date_ms: String
        /// Apple's `request_date_pst`.
        public var request_date_pst: String
        /// Apple's `original_purchase_date`.
        public var original_purchase_date: String?
        /// Apple's `original_purchase_date_ms`.
        public var original_purchase_date_ms: String?
        /// Apple's `original_purchase_date_pst`.
        public var original_purchase_date_pst: String?
        /// Apple's `expiration_date`.
        public var expiration_date: String?
        /// Apple's `expiration_date_ms`.
        public var expiration_date_ms: String?
        /// Apple's `expiration_date_pst`.
        public var expiration_date_pst: String?
        /// Apple's `in_app`.
        public var in_app: [InApp]
    }

    /// One `in_app` record: every value a string, as Apple writes them.
    public struct InApp: Sendable, Hashable {
        /// Apple's `quantity`.
        public var quantity: String?
        /// Apple's `product_id`.
        public var product_id: String?
        /// Apple's `transaction_id`.
        public var transaction_id: String?
        /// Apple's `original_transaction_id`.
        public var original_transaction_id: String?
        /// Apple's `purchase_date`.
        public var purchase_date: String?
        /// Apple's `purchase_date_ms`.
        public var purchase_date_ms: String?
        /// Apple's `purchase_date_pst`.
        public var purchase_date_pst: String?
        /// Apple's `original_purchase_date`.
        public var original_purchase_date: String?
        /// Apple's `original_purchase_date_ms`.
        public var original_purchase_date_ms: String?
        /// Apple's `original_purchase_date_pst`.
        public var original_purchase_date_pst: String?
        /// Apple's `expires_date`.
        public var expires_date: String?
        /// Apple's `expires_date_ms`.
        public var expires_date_ms: String?
        /// Apple's `expires_date_pst`.
        public var expires_date_pst: String?
        /// Apple's `cancellation_date`.
        public var cancellation_date: String?
        /// Apple's `cancellation_date_ms`.
        public var cancellation_date_ms: String?
        /// Apple's `cancellation_date_pst`.
        public var cancellation_date_pst: String?
        /// Apple's `cancellation_reason`.
        public var cancellation_reason: String?
        /// Apple's `web_order_line_item_id`.
        public var web_order_line_item_id: String?
        /// Apple's `is_trial_period`.
        public var is_trial_period: String?
        /// Apple's `is_in_intro_offer_period`.
        public var is_in_intro_offer_period: String?
        /// Apple's `promotional_offer_id`.
        public var promotional_offer_id: String?
    }
}

#if !hasFeature(Embedded)
extension VerifyReceiptResponse: Codable {}
extension VerifyReceiptResponse.Receipt: Codable {}
extension VerifyReceiptResponse.InApp: Codable {}
#endif

// Written straight to JSON text (no `Encoder`, so in Embedded Swift too), exactly as JSONEncoder
// writes the `Codable` conformances with `.sortedKeys` and `.withoutEscapingSlashes` (the CLI's
// and the notification receiver's settings; VerifyReceiptResponseJSONTests compares the bytes).

extension VerifyReceiptResponse {
    /// The body as JSON text, as Apple's endpoint answers: members in name order, absent members
    /// left out, strings escaped as RFC 8259 §7 asks (`/` not escaped).
    public var jsonText: String {
        ReceiptJSONText.object([
            ("status", ReceiptJSONText.integer(status)),
            ("environment", ReceiptJSONText.string(environment)),
            ("receipt", receipt?.jsonText),
        ])
    }
}

extension VerifyReceiptResponse.Receipt {
    /// The receipt as JSON text: members in name order, absent members left out.
    public var jsonText: String {
        ReceiptJSONText.object([
            ("receipt_type", ReceiptJSONText.string(receipt_type)),
            ("adam_id", ReceiptJSONText.integer(adam_id)),
            ("app_item_id", ReceiptJSONText.integer(app_item_id)),
            ("bundle_id", ReceiptJSONText.string(bundle_id)),
            ("application_version", ReceiptJSONText.string(application_version)),
            ("original_application_version", ReceiptJSONText.string(original_application_version)),
            ("receipt_creation_date", ReceiptJSONText.string(receipt_creation_date)),
            ("receipt_creation_date_ms", ReceiptJSONText.string(receipt_creation_date_ms)),
            ("receipt_creation_date_pst", ReceiptJSONText.string(receipt_creation_date_pst)),
            ("request_date", ReceiptJSONText.string(request_date)),
            ("request_date_ms", ReceiptJSONText.string(request_date_ms)),
            ("request_date_pst", ReceiptJSONText.string(request_date_pst)),
            ("original_purchase_date", ReceiptJSONText.string(original_purchase_date)),
            ("original_purchase_date_ms", ReceiptJSONText.string(original_purchase_date_ms)),
            ("original_purchase_date_pst", ReceiptJSONText.string(original_purchase_date_pst)),
            ("expiration_date", ReceiptJSONText.string(expiration_date)),
            ("expiration_date_ms", ReceiptJSONText.string(expiration_date_ms)),
            ("expiration_date_pst", ReceiptJSONText.string(expiration_date_pst)),
            ("in_app", ReceiptJSONText.array(in_app.map { $0.jsonText })),
        ])
    }
}

extension VerifyReceiptResponse.InApp {
    /// The record as JSON text: members in name order, absent members left out.
    public var jsonText: String {
        ReceiptJSONText.object([
            ("quantity", ReceiptJSONText.string(quantity)),
            ("product_id", ReceiptJSONText.string(product_id)),
            ("transaction_id", ReceiptJSONText.string(transaction_id)),
            ("original_transaction_id", ReceiptJSONText.string(original_transaction_id)),
            ("purchase_date", ReceiptJSONText.string(purchase_date)),
            ("purchase_date_ms", ReceiptJSONText.string(purchase_date_ms)),
            ("purchase_date_pst", ReceiptJSONText.string(purchase_date_pst)),
            ("original_purchase_date", ReceiptJSONText.string(original_purchase_date)),
            ("original_purchase_date_ms", ReceiptJSONText.string(original_purchase_date_ms)),
            ("original_purchase_date_pst", ReceiptJSONText.string(original_purchase_date_pst)),
            ("expires_date", ReceiptJSONText.string(expires_date)),
            ("expires_date_ms", ReceiptJSONText.string(expires_date_ms)),
            ("expires_date_pst", ReceiptJSONText.string(expires_date_pst)),
            ("cancellation_date", ReceiptJSONText.string(cancellation_date)),
            ("cancellation_date_ms", ReceiptJSONText.string(cancellation_date_ms)),
            ("cancellation_date_pst", ReceiptJSONText.string(cancellation_date_pst)),
            ("cancellation_reason", ReceiptJSONText.string(cancellation_reason)),
            ("web_order_line_item_id", ReceiptJSONText.string(web_order_line_item_id)),
            ("is_trial_period", ReceiptJSONText.string(is_trial_period)),
            ("is_in_intro_offer_period", ReceiptJSONText.string(is_in_intro_offer_period)),
            ("promotional_offer_id", ReceiptJSONText.string(promotional_offer_id)),
        ])
    }
}

/// The pieces of `verifyReceipt` answers' JSON text.
enum ReceiptJSONText {
    /// An object of the members whose value is present (JSON text), in name order.
    static func object(_ members: [(String, String?)]) -> String {
        var present: [(String, String)] = []
        for (name, value) in members { if let value { present.append((name, value)) } }
        present.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        var out = "{"
        for (index, (name, value)) in present.enumerated() {
            if index > 0 { out += "," }
            out += quoted(name) + ":" + value
        }
        return out + "}"
    }

    static func array(_ elements: [String]) -> String {
        var out = "["
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            out += element
        }
        return out + "]"
    }

    static func string(_ text: String?) -> String? { text.map(quoted) }

    static func integer<T: BinaryInteger>(_ value: T?) -> String? { value.map { String($0) } }

    /// `text` in quotes: `"` and `\` escaped, control characters as JSONEncoder writes them
    /// (\b \f \n \r \t, the others \u00xx), everything else as it is.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20:
                let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
                out += "\\u00"
                out.append(digits[Int(scalar.value >> 4)])
                out.append(digits[Int(scalar.value & 15)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
