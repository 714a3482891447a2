import SigilASN1
import SigilX509

/// Which of Apple's `verifyReceipt` endpoints a request was meant for.
public enum VerifyReceiptEndpoint: String, Sendable, Hashable, CaseIterable {
    /// `buy.itunes.apple.com`: receipts of type Production and ProductionVPP.
    case production
    /// `sandbox.itunes.apple.com`: every other receipt type (ProductionSandbox, ProductionVPPSandbox, …).
    case sandbox
}

extension AppReceiptVerifier {
    /// Apple's `verifyReceipt` answer for `receiptData` (the base64 `receipt-data` of Apple's
    /// request body, or the receipt's bytes) sent to `endpoint` at `requestTime` (seconds since
    /// 1970): status 0 with the receipt's fields when it is authentic (signature and signer, as
    /// ``verify(_:at:deviceGUID:trace:)``) and belongs to that endpoint's environment; 21002,
    /// 21003, 21007 or 21008 otherwise.
    ///
    /// Apple's endpoint checks no bundle id: the body carries `bundle_id` for the caller to
    /// compare. Built with ``ReceiptIdentityCheck/reportOnly`` (the drop-in's configuration), this
    /// answers exactly as Apple's endpoint does. A verifier that enforces a bundle id answers
    /// 21003 for another app's receipt, and 21003 for a receipt whose environment it does not
    /// accept (after Apple's 21007/21008, which the endpoint decides) — statuses Apple's body
    /// has, though Apple's endpoint never sends them for these reasons. No device hash is checked
    /// (Apple's request carries no device GUID).
    public func verifyReceiptResponse(_ receiptData: [UInt8], sentTo endpoint: VerifyReceiptEndpoint, requestTime: Int64)
        -> VerifyReceiptResponse
    {
        let authentic: Authentic
        do { authentic = try authenticate(receiptData, at: nil, trace: nil) } catch {
            switch error.code {
            case .malformed, .notAReceipt, .unexpectedContentType: return VerifyReceiptResponse(status: 21002)
            default: return VerifyReceiptResponse(status: 21003)
            }
        }
        let receipt = authentic.receipt
        let isProduction = receipt.receiptType == "Production" || receipt.receiptType == "ProductionVPP"
        switch (endpoint, isProduction) {
        case (.production, false): return VerifyReceiptResponse(status: 21007)
        case (.sandbox, true): return VerifyReceiptResponse(status: 21008)
        default: break
        }
        do {
            _ = try checkEnvironment(receipt, trace: nil)
            try checkBundleID(receipt, trace: nil)
        } catch {
            return VerifyReceiptResponse(status: 21003)
        }
        func dates(_ seconds: Int64?) -> (String?, String?, String?) {
            guard let seconds else { return (nil, nil, nil) }
            return (AppleDateFormat.gmt(seconds), String(seconds * 1000), AppleDateFormat.pacific(seconds))
        }
        let created = dates(receipt.creationDate)
        let original = dates(receipt.originalPurchaseDate)
        let expiration = dates(receipt.expirationDate)
        let request = dates(requestTime)
        let inApp = receipt.inAppPurchases.map { p -> VerifyReceiptResponse.InApp in
            let purchase = dates(p.purchaseDate)
            let originalPurchase = dates(p.originalPurchaseDate)
            let expires = dates(p.subscriptionExpirationDate)
            let cancelled = dates(p.cancellationDate)
            return VerifyReceiptResponse.InApp(
                quantity: p.quantity.map(String.init), product_id: p.productID, transaction_id: p.transactionID,
                original_transaction_id: p.originalTransactionID,
                purchase_date: purchase.0, purchase_date_ms: purchase.1, purchase_date_pst: purchase.2,
                original_purchase_date: originalPurchase.0, original_purchase_date_ms: originalPurchase.1,
                original_purchase_date_pst: originalPurchase.2,
                expires_date: expires.0, expires_date_ms: expires.1, expires_date_pst: expires.2,
                cancellation_date: cancelled.0, cancellation_date_ms: cancelled.1, cancellation_date_pst: cancelled.2,
                cancellation_reason: p.cancellationReason.map(String.init),
                web_order_line_item_id: p.webOrderLineItemID.map(String.init),
                is_trial_period: p.isTrialPeriod.map { $0 ? "true" : "false" },
                is_in_intro_offer_period: p.isInIntroOfferPeriod.map { $0 ? "true" : "false" },
                promotional_offer_id: p.promotionalOfferID)
        }
        return VerifyReceiptResponse(
            status: 0, environment: isProduction ? "Production" : "Sandbox",
            receipt: VerifyReceiptResponse.Receipt(
                receipt_type: receipt.receiptType, adam_id: receipt.appItemID, app_item_id: receipt.appItemID,
                bundle_id: receipt.bundleID, application_version: receipt.appVersion,
                original_application_version: receipt.originalApplicationVersion,
                receipt_creation_date: created.0, receipt_creation_date_ms: created.1, receipt_creation_date_pst: created.2,
                request_date: request.0 ?? "", request_date_ms: request.1 ?? "", request_date_pst: request.2 ?? "",
                original_purchase_date: original.0, original_purchase_date_ms: original.1, original_purchase_date_pst: original.2,
                expiration_date: expiration.0, expiration_date_ms: expiration.1, expiration_date_pst: expiration.2,
                in_app: inApp))
    }
}

/// The date texts of Apple's `verifyReceipt` answers.
enum AppleDateFormat {
    /// "2024-02-23 17:27:16 Etc/GMT".
    static func gmt(_ seconds: Int64) -> String { text(seconds) + " Etc/GMT" }

    /// The same instant in America/Los_Angeles, "2024-02-23 09:27:16 America/Los_Angeles": UTC−8,
    /// or UTC−7 while daylight saving time is in force (US rules: since 2007 from the second Sunday
    /// of March, 2:00 local standard time, to the first Sunday of November, 2:00 local daylight
    /// time; 1987–2006 from the first Sunday of April to the last Sunday of October).
    static func pacific(_ seconds: Int64) -> String {
        text(seconds + (isPacificDaylightTime(seconds) ? -7 * 3600 : -8 * 3600)) + " America/Los_Angeles"
    }

    static func isPacificDaylightTime(_ seconds: Int64) -> Bool {
        guard let year = try? ASN1TimeComponents(secondsSinceEpoch: seconds).year else { return false }
        // Transitions in UTC: 2:00 PST = 10:00 UTC (start), 2:00 PDT = 9:00 UTC (end).
        let start: Int64?
        let end: Int64?
        if year >= 2007 {
            start = sunday(year: year, month: 3, nth: 2).map { $0 + 10 * 3600 }
            end = sunday(year: year, month: 11, nth: 1).map { $0 + 9 * 3600 }
        } else {
            start = sunday(year: year, month: 4, nth: 1).map { $0 + 10 * 3600 }
            end = lastSunday(year: year, month: 10).map { $0 + 9 * 3600 }
        }
        guard let start, let end else { return false }
        return seconds >= start && seconds < end
    }

    /// Midnight UTC of the `nth` Sunday of `month`.
    static func sunday(year: Int, month: Int, nth: Int) -> Int64? {
        guard let first = try? ASN1TimeComponents(year: year, month: month, day: 1, hour: 0, minute: 0, second: 0).secondsSinceEpoch
        else { return nil }
        let weekday = ((first / 86_400 + 4) % 7 + 7) % 7  // 0 = Sunday (1970-01-01 was a Thursday)
        return first + ((7 - weekday) % 7 + 7 * Int64(nth - 1)) * 86_400
    }

    /// Midnight UTC of the last Sunday of `month`.
    static func lastSunday(year: Int, month: Int) -> Int64? {
        guard let next = sunday(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, nth: 1) else { return nil }
        // One week before the first Sunday on or after the next month's 1st is this month's last Sunday.
        return next - 7 * 86_400
    }

    static func text(_ seconds: Int64) -> String {
        guard let c = try? ASN1TimeComponents(secondsSinceEpoch: seconds) else { return String(seconds) }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }
}
