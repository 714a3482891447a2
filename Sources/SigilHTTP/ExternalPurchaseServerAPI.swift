import Foundation
import SigilAppStore
import SigilBase
import SigilJOSE
import SigilTokens

// The External Purchase Server API (https://developer.apple.com/documentation/externalpurchaseserverapi):
//   PUT /externalPurchase/v1/reports                       Send External Purchase Report
//       (https://developer.apple.com/documentation/externalpurchaseserverapi/send-external-purchase-report)
//   GET /externalPurchase/v1/reports/{requestIdentifier}   Retrieve External Purchase Report
//       (https://developer.apple.com/documentation/externalpurchaseserverapi/retrieve-external-purchase-report)
// on https://api.storekit.apple.com (sandbox: https://api.storekit-sandbox.apple.com, for tokens
// whose externalPurchaseId starts with SANDBOX). Line items follow OneTimeBuyLineItem,
// SubscriptionBuyLineItem and RefundLineItem of the same documentation.

/// https://developer.apple.com/documentation/externalpurchaseserverapi/status
public struct ExternalPurchaseReportStatus: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The report lists the token's transactions in lineItems.
    public static let lineItem = ExternalPurchaseReportStatus(rawValue: "LINE_ITEM")
    /// The token led to no transaction.
    public static let noLineItem = ExternalPurchaseReportStatus(rawValue: "NO_LINE_ITEM")
    /// A notification named a token this system does not know.
    public static let unrecognizedToken = ExternalPurchaseReportStatus(rawValue: "UNRECOGNIZED_TOKEN")
    /// Transactions are reported under another active token (SERVICES and ACQUISITION tokens only).
    public static let duplicateToken = ExternalPurchaseReportStatus(rawValue: "DUPLICATE_TOKEN")
    /// The values Apple documents.
    public static let documented: [ExternalPurchaseReportStatus] = [.lineItem, .noLineItem, .unrecognizedToken, .duplicateToken]
}

/// https://developer.apple.com/documentation/externalpurchaseserverapi/subscriptionevent
public struct ExternalPurchaseSubscriptionEvent: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `SUBSCRIPTION_START`: the first paid period.
    public static let subscriptionStart = ExternalPurchaseSubscriptionEvent(rawValue: "SUBSCRIPTION_START")
    /// `RENEWAL`: a renewal.
    public static let renewal = ExternalPurchaseSubscriptionEvent(rawValue: "RENEWAL")
    /// The two values the reporting guide names; Apple's other events are sent as raw values.
    public static let documented: [ExternalPurchaseSubscriptionEvent] = [.subscriptionStart, .renewal]
}

/// One transaction or correction of an external purchase report. The three documented kinds
/// (OneTimeBuyLineItem, SubscriptionBuyLineItem, RefundLineItem) share most fields, so one struct
/// carries them all; build one with `oneTimeBuy`, `subscriptionBuy` or `refund`, which take exactly
/// the fields each kind requires. Amounts are milli-units of `reportingCurrency`; dates are
/// milliseconds since 1970.
public struct ExternalPurchaseLineItem: Codable, Hashable, Sendable {
    /// Your unique identifier of the line item.
    public var lineItemId: String
    /// The line item a refund or correction refers to.
    public var referenceLineItemId: String?
    /// When the transaction happened, milliseconds since 1970.
    public var creationDate: Int64
    /// Whether the line item restates one sent before.
    public var restatement: Bool?
    /// Whether the line item was sent by mistake and is withdrawn.
    public var erroneouslySubmitted: Bool?
    /// The subscription event the line item records.
    public var subscriptionEvent: ExternalPurchaseSubscriptionEvent?
    /// The start of the paid period, milliseconds since 1970.
    public var subscriptionStartDate: Int64?
    /// The end of the paid period, milliseconds since 1970.
    public var subscriptionEndDate: Int64?
    /// The days of paid service in the period.
    public var subscriptionDaysOfPaidService: Int64?
    /// The currency the customer paid in (ISO 4217).
    public var pricingCurrency: String
    /// The currency the amounts are reported in (ISO 4217).
    public var reportingCurrency: String
    /// Pricing → reporting currency; required when the two differ.
    public var exchangeRate: Double?
    /// The amount before tax, in milliunits of the reporting currency.
    public var amountTaxExclusive: Int64
    /// The amount with tax, in milliunits of the reporting currency.
    public var amountTaxInclusive: Int64
    /// The net amount before tax, in milliunits of the reporting currency.
    public var netAmountTaxExclusive: Int64
    /// The tax, in milliunits of the reporting currency.
    public var taxAmount: Int64
    /// ISO 3166-1 alpha-3.
    public var taxCountry: String
    /// Your identifier of the product.
    public var productIdentifier: String?
    /// How many were bought.
    public var quantity: Int64?
    /// BUY or REFUND.
    public var eventType: String
    /// ONE_TIME_BUY or SUBSCRIPTION (absent for refunds).
    public var productType: String?

    /// The amounts of a line item, in milli-units of the reporting currency.
    public struct Amounts: Hashable, Sendable {
        /// The currency the customer paid in (ISO 4217).
        public var pricingCurrency: String
        /// The currency the amounts are reported in (ISO 4217).
        public var reportingCurrency: String
        /// The exchange rate from the pricing to the reporting currency; required when they differ.
        public var exchangeRate: Double?
        /// The amount before tax, in milliunits of the reporting currency.
        public var amountTaxExclusive: Int64
        /// The amount with tax, in milliunits of the reporting currency.
        public var amountTaxInclusive: Int64
        /// The net amount before tax, in milliunits of the reporting currency.
        public var netAmountTaxExclusive: Int64
        /// The tax, in milliunits of the reporting currency.
        public var taxAmount: Int64
        /// The country the tax is due in (ISO 3166-1 alpha-3).
        public var taxCountry: String
        /// Amounts with the given values.
        public init(
            pricingCurrency: String, reportingCurrency: String, exchangeRate: Double? = nil, amountTaxExclusive: Int64,
            amountTaxInclusive: Int64, netAmountTaxExclusive: Int64, taxAmount: Int64, taxCountry: String
        ) {
            self.pricingCurrency = pricingCurrency
            self.reportingCurrency = reportingCurrency
            self.exchangeRate = exchangeRate
            self.amountTaxExclusive = amountTaxExclusive
            self.amountTaxInclusive = amountTaxInclusive
            self.netAmountTaxExclusive = netAmountTaxExclusive
            self.taxAmount = taxAmount
            self.taxCountry = taxCountry
        }
    }

    init(
        lineItemId: String, referenceLineItemId: String?, creationDate: Int64, restatement: Bool?, erroneouslySubmitted: Bool?,
        amounts: Amounts, productIdentifier: String?, quantity: Int64?, eventType: String, productType: String?
    ) {
        self.lineItemId = lineItemId
        self.referenceLineItemId = referenceLineItemId
        self.creationDate = creationDate
        self.restatement = restatement
        self.erroneouslySubmitted = erroneouslySubmitted
        pricingCurrency = amounts.pricingCurrency
        reportingCurrency = amounts.reportingCurrency
        exchangeRate = amounts.exchangeRate
        amountTaxExclusive = amounts.amountTaxExclusive
        amountTaxInclusive = amounts.amountTaxInclusive
        netAmountTaxExclusive = amounts.netAmountTaxExclusive
        taxAmount = amounts.taxAmount
        taxCountry = amounts.taxCountry
        self.productIdentifier = productIdentifier
        self.quantity = quantity
        self.eventType = eventType
        self.productType = productType
    }

    /// A OneTimeBuyLineItem (eventType BUY, productType ONE_TIME_BUY).
    public static func oneTimeBuy(
        lineItemId: String, creationDate: Int64, productIdentifier: String, quantity: Int64, amounts: Amounts,
        restatement: Bool? = nil, erroneouslySubmitted: Bool? = nil
    ) -> ExternalPurchaseLineItem {
        ExternalPurchaseLineItem(
            lineItemId: lineItemId, referenceLineItemId: nil, creationDate: creationDate, restatement: restatement,
            erroneouslySubmitted: erroneouslySubmitted, amounts: amounts, productIdentifier: productIdentifier,
            quantity: quantity, eventType: "BUY", productType: "ONE_TIME_BUY")
    }

    /// A SubscriptionBuyLineItem (eventType BUY, productType SUBSCRIPTION). A renewal names the
    /// subscription start's lineItemId as `referenceLineItemId`.
    public static func subscriptionBuy(
        lineItemId: String, referenceLineItemId: String? = nil, creationDate: Int64,
        subscriptionEvent: ExternalPurchaseSubscriptionEvent, subscriptionStartDate: Int64,
        subscriptionEndDate: Int64, subscriptionDaysOfPaidService: Int64, productIdentifier: String,
        quantity: Int64, amounts: Amounts, restatement: Bool? = nil,
        erroneouslySubmitted: Bool? = nil
    ) -> ExternalPurchaseLineItem {
        var item = ExternalPurchaseLineItem(
            lineItemId: lineItemId, referenceLineItemId: referenceLineItemId, creationDate: creationDate,
            restatement: restatement, erroneouslySubmitted: erroneouslySubmitted, amounts: amounts,
            productIdentifier: productIdentifier, quantity: quantity, eventType: "BUY", productType: "SUBSCRIPTION")
        item.subscriptionEvent = subscriptionEvent
        item.subscriptionStartDate = subscriptionStartDate
        item.subscriptionEndDate = subscriptionEndDate
        item.subscriptionDaysOfPaidService = subscriptionDaysOfPaidService
        return item
    }

    /// A RefundLineItem (eventType REFUND) for the purchase `referenceLineItemId`.
    public static func refund(
        lineItemId: String, referenceLineItemId: String, creationDate: Int64, amounts: Amounts,
        restatement: Bool? = nil, erroneouslySubmitted: Bool? = nil
    ) -> ExternalPurchaseLineItem {
        ExternalPurchaseLineItem(
            lineItemId: lineItemId, referenceLineItemId: referenceLineItemId, creationDate: creationDate,
            restatement: restatement, erroneouslySubmitted: erroneouslySubmitted, amounts: amounts,
            productIdentifier: nil, quantity: nil, eventType: "REFUND", productType: nil)
    }

    /// The rules Apple's line-item pages state: the fields each kind requires, an exchange rate
    /// when the currencies differ, erroneouslySubmitted only on a restatement, a reference that is
    /// not the item itself, subscription periods that end after they start.
    public func validate(path: String) throws(AppleAPIRequestError) {
        func fail(_ field: String, _ reason: String) -> AppleAPIRequestError {
            AppleAPIRequestError(field: "\(path).\(field)", reason: reason)
        }
        guard !lineItemId.isEmpty else { throw fail("lineItemId", "is empty") }
        for (name, code) in [("pricingCurrency", pricingCurrency), ("reportingCurrency", reportingCurrency), ("taxCountry", taxCountry)] {
            guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw fail(name, "\"\(code)\" is not a three-letter upper-case code")
            }
        }
        if pricingCurrency != reportingCurrency {
            guard let rate = exchangeRate, rate > 0, rate.isFinite else {
                throw fail("exchangeRate", "is required (positive) when the currencies differ")
            }
        }
        if erroneouslySubmitted == true, restatement != true { throw fail("erroneouslySubmitted", "needs restatement true") }
        if referenceLineItemId == lineItemId { throw fail("referenceLineItemId", "refers to the line item itself") }
        switch (eventType, productType) {
        case ("BUY", "ONE_TIME_BUY"):
            guard productIdentifier?.isEmpty == false else { throw fail("productIdentifier", "is required for ONE_TIME_BUY") }
            guard let quantity, quantity > 0 else { throw fail("quantity", "is required and positive for ONE_TIME_BUY") }
        case ("BUY", "SUBSCRIPTION"):
            guard productIdentifier?.isEmpty == false else { throw fail("productIdentifier", "is required for SUBSCRIPTION") }
            guard let quantity, quantity > 0 else { throw fail("quantity", "is required and positive for SUBSCRIPTION") }
            guard subscriptionEvent != nil else { throw fail("subscriptionEvent", "is required for SUBSCRIPTION") }
            guard let start = subscriptionStartDate, let end = subscriptionEndDate else {
                throw fail("subscriptionStartDate", "subscriptionStartDate and subscriptionEndDate are required for SUBSCRIPTION")
            }
            guard start < end else { throw fail("subscriptionEndDate", "\(end) is not after subscriptionStartDate \(start)") }
            guard let days = subscriptionDaysOfPaidService, days >= 0 else {
                throw fail("subscriptionDaysOfPaidService", "is required (zero or more) for SUBSCRIPTION")
            }
        case ("REFUND", nil):
            guard referenceLineItemId?.isEmpty == false else { throw fail("referenceLineItemId", "is required for REFUND") }
        default:
            throw fail("eventType", "\(eventType)/\(productType ?? "-") is none of BUY/ONE_TIME_BUY, BUY/SUBSCRIPTION, REFUND")
        }
    }
}

/// The report for one external purchase token
/// (https://developer.apple.com/documentation/externalpurchaseserverapi/externalpurchasereport);
/// the body of Send External Purchase Report and of Retrieve's answer.
public struct ExternalPurchaseReport: Codable, Hashable, Sendable {
    /// A UUID you generate per report (reuse it only to resubmit a report that failed).
    public var requestIdentifier: String
    /// The token's externalPurchaseId (see `ExternalPurchaseToken`).
    public var externalPurchaseId: String
    /// What the report says about the token.
    public var status: ExternalPurchaseReportStatus
    /// The token's transactions, for LINE_ITEM reports.
    public var lineItems: [ExternalPurchaseLineItem]?

    /// A report for `externalPurchaseId` with `status` and, for LINE_ITEM, its line items; `requestIdentifier` is written lowercase.
    public init(
        requestIdentifier: UUID, externalPurchaseId: String, status: ExternalPurchaseReportStatus,
        lineItems: [ExternalPurchaseLineItem]? = nil
    ) {
        self.requestIdentifier = requestIdentifier.uuidString.lowercased()
        self.externalPurchaseId = externalPurchaseId
        self.status = status
        self.lineItems = lineItems
    }

    /// LINE_ITEM reports carry at least one line item and the other statuses none; every line
    /// item passes `ExternalPurchaseLineItem.validate`; line item ids are unique within the report.
    public func validate() throws(AppleAPIRequestError) {
        guard UUID(uuidString: requestIdentifier) != nil else {
            throw AppleAPIRequestError(field: "requestIdentifier", reason: "\"\(requestIdentifier)\" is not a UUID")
        }
        guard !externalPurchaseId.isEmpty else { throw AppleAPIRequestError(field: "externalPurchaseId", reason: "is empty") }
        guard status.isDocumented else { throw AppleAPIRequestError(field: "status", reason: "\(status) is not a documented status") }
        if status == .lineItem {
            guard let lineItems, !lineItems.isEmpty else {
                throw AppleAPIRequestError(field: "lineItems", reason: "LINE_ITEM needs line items")
            }
        } else if lineItems != nil {
            throw AppleAPIRequestError(field: "lineItems", reason: "\(status) reports carry no line items")
        }
        var seen = Set<String>()
        for (i, item) in (lineItems ?? []).enumerated() {
            try item.validate(path: "lineItems[\(i)]")
            guard seen.insert(item.lineItemId).inserted else {
                throw AppleAPIRequestError(field: "lineItems[\(i)].lineItemId", reason: "\"\(item.lineItemId)\" appears twice")
            }
        }
    }
}

/// https://developer.apple.com/documentation/externalpurchaseserverapi/sendreportsuccessresponse
public struct SendReportSuccessResponse: Codable, Hashable, Sendable {
    /// A UUID you generate for the request.
    public var requestIdentifier: String?
}

/// The External Purchase Server API client. Same token rule (a fresh ES256 bearer token per
/// request, `aud` appstoreconnect-v1), limits, 429 handling and error type as
/// `AppStoreServerAPIClient`. A 400 answer carries Apple's `SendReportErrorResponse` in
/// `AppStoreServerAPIError.body`; `reportErrors(of:)` lists its entries.
public struct ExternalPurchaseServerAPIClient: Sendable {
    /// Where requests go: Apple's production or sandbox host, or any base URL.
    public enum Environment: Sendable, Hashable {
        /// `https://api.storekit.apple.com`.
        case production
        /// `https://api.storekit-sandbox.apple.com`, the only place for sandbox tokens.
        case sandbox
        /// Any base URL (a proxy, a test server); no trailing slash.
        case custom(baseURL: String)
        /// The scheme and host every request path is appended to.
        public var baseURL: String {
            switch self {
            case .production: "https://api.storekit.apple.com"
            case .sandbox: "https://api.storekit-sandbox.apple.com"
            case .custom(let url): url
            }
        }
    }

    /// The App Store Connect key every request's bearer token is signed with.
    public let signingKey: AppleSigningKey
    /// The issuer id of the key (App Store Connect, Users and Access, Integrations).
    public let issuerID: String
    /// The app's bundle id, the tokens' bid claim.
    public let bundleID: String
    /// Where requests go.
    public let environment: Environment
    let requester: AppleAPIRequester

    /// A client for `environment` signing with `signingKey` (issuer `issuerID`, app `bundleID`),
    /// over `transport`, with the limits and the 429 policy given; `clock` and `sleep` are for tests.
    public init(
        signingKey: AppleSigningKey, issuerID: String, bundleID: String, environment: Environment,
        transport: any HTTPTransport = URLSessionHTTPTransport(), timeout: Double = 30, maximumResponseSize: Int = 4 << 20,
        maximumRetries: Int = 1, maximumRetryAfter: Double = 30,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1e9)) }
    ) {
        self.signingKey = signingKey
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.environment = environment
        requester = AppleAPIRequester(
            baseURL: environment.baseURL, transport: transport, timeout: timeout, maximumResponseSize: maximumResponseSize,
            maximumRetries: max(0, maximumRetries), maximumRetryAfter: maximumRetryAfter, clock: clock, sleep: sleep,
            token: { now in
                try AppleTokens.externalPurchaseServerAPI(key: signingKey, issuerID: issuerID, bundleID: bundleID, issuedAt: now)
            })
    }

    /// PUT /externalPurchase/v1/reports. The report is validated first; a sandbox token
    /// (externalPurchaseId starting with SANDBOX) sent to production, or the reverse, is refused
    /// because Apple documents the sandbox URL as the only place for sandbox tokens.
    public func sendReport(_ report: ExternalPurchaseReport) async throws -> SendReportSuccessResponse {
        try report.validate()
        let sandboxToken = report.externalPurchaseId.hasPrefix("SANDBOX")
        switch environment {
        case .production where sandboxToken:
            throw AppleAPIRequestError(
                field: "externalPurchaseId", reason: "a SANDBOX token is reported to the sandbox URL, not production")
        case .sandbox where !sandboxToken:
            throw AppleAPIRequestError(
                field: "externalPurchaseId", reason: "a production token is reported to the production URL, not sandbox")
        default: break
        }
        return try await requester.call("PUT", "/externalPurchase/v1/reports", body: report)
    }

    /// GET /externalPurchase/v1/reports/{requestIdentifier}: a report Apple accepted.
    public func retrieveReport(requestIdentifier: UUID) async throws -> ExternalPurchaseReport {
        try await requester.call("GET", "/externalPurchase/v1/reports/\(requestIdentifier.uuidString.lowercased())")
    }

    /// The entries of a SendReportErrorResponse (`{"errors": [...]}`), as Apple sent them.
    public static func reportErrors(of error: AppStoreServerAPIError) -> [JSONValue] {
        error.body?["errors"]?.arrayValue ?? []
    }
}
