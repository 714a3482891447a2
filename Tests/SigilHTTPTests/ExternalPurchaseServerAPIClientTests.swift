import Foundation
import SigilAppStore
import SigilCore
import SigilHTTP
import SigilJOSE
import SigilTokens
import XCTest

/// The External Purchase Server API client against the loopback server (token checked with
/// openssl, reports validated and stored, Apple's 400 SendReportErrorResponse on bad line items).
final class ExternalPurchaseServerAPIClientTests: XCTestCase {
    var server: AppStoreServerAPIClientTests.LoopbackServer?
    let key = ECDSAPrivateKey.generate(curve: .p256)

    var transport: any HTTPTransport = URLSessionHTTPTransport()

    override func tearDown() {
        server?.stop()
        server = nil
    }

    func client() throws -> ExternalPurchaseServerAPIClient {
        let server = try AppStoreServerAPIClientTests.LoopbackServer(
            publicKeyPEM: key.publicKey.pemRepresentation, issuer: "issuer-1", bundle: "com.example")
        self.server = server
        return ExternalPurchaseServerAPIClient(
            signingKey: try AppleSigningKey(privateKey: key, keyID: "KEY123"), issuerID: "issuer-1",
            bundleID: "com.example", environment: .custom(baseURL: "http://127.0.0.1:\(server.port)"),
            transport: transport, timeout: 5)
    }

    let eur = ExternalPurchaseLineItem.Amounts(
        pricingCurrency: "EUR", reportingCurrency: "EUR", amountTaxExclusive: 8000, amountTaxInclusive: 10000,
        netAmountTaxExclusive: 8000, taxAmount: 2000, taxCountry: "DEU")

    func testSendAndRetrieveReports() async throws {
        for (name, transport) in TestTransports.all {
            print("\(name) transport")
            self.transport = transport
            try await sendAndRetrieveReports()
            server?.stop()
            server = nil
        }
    }

    func sendAndRetrieveReports() async throws {
        let api = try client()
        let id = UUID(uuidString: "1CDC286E-7389-417C-B58F-7A7D196E5BBE") ?? UUID()
        let report = ExternalPurchaseReport(
            requestIdentifier: id, externalPurchaseId: "2924c319-5205-4188-831a-1ca2c00326b4", status: .lineItem,
            lineItems: [
                .oneTimeBuy(
                    lineItemId: "a1", creationDate: 1_706_047_472_367, productIdentifier: "example.one-time",
                    quantity: 1, amounts: eur),
                .subscriptionBuy(
                    lineItemId: "s1", creationDate: 1_706_047_472_367, subscriptionEvent: .subscriptionStart,
                    subscriptionStartDate: 1_706_047_472_367, subscriptionEndDate: 1_708_725_872_367,
                    subscriptionDaysOfPaidService: 31, productIdentifier: "example.monthly", quantity: 1,
                    amounts: eur),
                .refund(lineItemId: "r1", referenceLineItemId: "a1", creationDate: 1_706_147_472_367, amounts: eur),
            ])
        let sent = try await api.sendReport(report)
        XCTAssertEqual(sent.requestIdentifier, "1cdc286e-7389-417c-b58f-7a7d196e5bbe")
        let log = try await server?.log() ?? []
        let entry = try XCTUnwrap(log.last)
        XCTAssertEqual(entry["token"] as? String, "ok")
        XCTAssertEqual(
            [entry["method"] as? String, entry["path"] as? String, entry["contentType"] as? String],
            ["PUT", "/externalPurchase/v1/reports", "application/json"])
        let body = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(((entry["body"] as? String) ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(body["status"] as? String, "LINE_ITEM")
        let items = try XCTUnwrap(body["lineItems"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["eventType"] as? String }, ["BUY", "BUY", "REFUND"])
        XCTAssertEqual(items.map { $0["productType"] as? String }, ["ONE_TIME_BUY", "SUBSCRIPTION", nil])
        XCTAssertEqual(items[1]["subscriptionEvent"] as? String, "SUBSCRIPTION_START")
        XCTAssertEqual(items[2]["referenceLineItemId"] as? String, "a1")
        XCTAssertEqual(
            Set(items[0].keys),
            [
                "lineItemId", "creationDate", "pricingCurrency", "reportingCurrency", "amountTaxExclusive", "amountTaxInclusive",
                "netAmountTaxExclusive", "taxAmount", "taxCountry", "productIdentifier", "quantity", "eventType", "productType",
            ],
            "absent optional members are not sent")

        // Retrieve returns what was stored, decoded through the strict decoder.
        let back = try await api.retrieveReport(requestIdentifier: id)
        XCTAssertEqual(back, report)
        let path = try await server?.log().last?["path"] as? String
        XCTAssertEqual(path, "/externalPurchase/v1/reports/1cdc286e-7389-417c-b58f-7a7d196e5bbe")

        // A transactionless token.
        let none = try await api.sendReport(ExternalPurchaseReport(requestIdentifier: UUID(), externalPurchaseId: "x", status: .noLineItem))
        XCTAssertNotNil(none.requestIdentifier)

        // The server's per-line-item errors arrive in the error body.
        var wrong = eur
        wrong.amountTaxInclusive = 9999
        do {
            _ = try await api.sendReport(
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "y", status: .lineItem,
                    lineItems: [
                        .oneTimeBuy(lineItemId: "b1", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: wrong)
                    ]))
            XCTFail("the server accepted a wrong tax-inclusive amount")
        } catch let error as AppStoreServerAPIError {
            XCTAssertEqual(error.httpStatus, 400)
            XCTAssertFalse(error.isRetryable)
            let errors = ExternalPurchaseServerAPIClient.reportErrors(of: error)
            XCTAssertEqual(errors.count, 1)
            XCTAssertEqual(errors.first?["error"]?.stringValue, "IncorrectAmountTaxInclusiveError")
            XCTAssertEqual(errors.first?["lineItemId"]?.stringValue, "b1")
        }
    }

    func testReportsRefusedBeforeSending() async throws {
        let key = try AppleSigningKey(privateKey: self.key, keyID: "K")
        // No server: anything that reached the transport would fail with status 0 instead.
        let offline = ExternalPurchaseServerAPIClient(
            signingKey: key, issuerID: "i", bundleID: "b", environment: .custom(baseURL: "http://127.0.0.1:9"))
        var usd = eur
        usd.reportingCurrency = "USD"
        var lower = eur
        lower.taxCountry = "de"
        let cases: [(ExternalPurchaseReport, String)] = [
            (ExternalPurchaseReport(requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem), "lineItems"),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .noLineItem,
                    lineItems: [.oneTimeBuy(lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: eur)]),
                "lineItems"
            ),
            (ExternalPurchaseReport(requestIdentifier: UUID(), externalPurchaseId: "", status: .noLineItem), "externalPurchaseId"),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: ExternalPurchaseReportStatus(rawValue: "MAYBE")), "status"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [.oneTimeBuy(lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: usd)]),
                "lineItems[0].exchangeRate"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [.oneTimeBuy(lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: lower)]),
                "lineItems[0].taxCountry"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [.oneTimeBuy(lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 0, amounts: eur)]),
                "lineItems[0].quantity"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [
                        .oneTimeBuy(
                            lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: eur,
                            erroneouslySubmitted: true)
                    ]), "lineItems[0].erroneouslySubmitted"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [.refund(lineItemId: "a", referenceLineItemId: "a", creationDate: 1, amounts: eur)]),
                "lineItems[0].referenceLineItemId"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [
                        .subscriptionBuy(
                            lineItemId: "s", creationDate: 1, subscriptionEvent: .renewal, subscriptionStartDate: 5,
                            subscriptionEndDate: 5, subscriptionDaysOfPaidService: 0, productIdentifier: "p",
                            quantity: 1, amounts: eur)
                    ]), "lineItems[0].subscriptionEndDate"
            ),
            (
                ExternalPurchaseReport(
                    requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                    lineItems: [
                        .oneTimeBuy(lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: eur),
                        .oneTimeBuy(lineItemId: "a", creationDate: 2, productIdentifier: "p", quantity: 1, amounts: eur),
                    ]),
                "lineItems[1].lineItemId"
            ),
        ]
        for (report, field) in cases {
            do {
                _ = try await offline.sendReport(report)
                XCTFail("\(field): sent")
            } catch let error as AppleAPIRequestError {
                XCTAssertEqual(error.field, field, "\(error)")
            }
        }
        // Sandbox tokens go to the sandbox URL only, and production tokens to production only.
        let production = ExternalPurchaseServerAPIClient(signingKey: key, issuerID: "i", bundleID: "b", environment: .production)
        let sandbox = ExternalPurchaseServerAPIClient(signingKey: key, issuerID: "i", bundleID: "b", environment: .sandbox)
        for (api, token) in [(production, "SANDBOX_abc"), (sandbox, "abc")] {
            do {
                _ = try await api.sendReport(
                    ExternalPurchaseReport(requestIdentifier: UUID(), externalPurchaseId: token, status: .noLineItem))
                XCTFail("\(token) sent to the wrong environment")
            } catch let error as AppleAPIRequestError {
                XCTAssertEqual(error.field, "externalPurchaseId")
            }
        }
        // An exchange rate makes mixed currencies acceptable.
        usd.exchangeRate = 1.0853
        XCTAssertNoThrow(
            try ExternalPurchaseReport(
                requestIdentifier: UUID(), externalPurchaseId: "t", status: .lineItem,
                lineItems: [
                    .oneTimeBuy(lineItemId: "a", creationDate: 1, productIdentifier: "p", quantity: 1, amounts: usd)
                ]
            ).validate())
    }
}
