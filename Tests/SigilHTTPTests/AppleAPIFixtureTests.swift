import Foundation
import SigilAppStore
import SigilCore
import SigilHTTP
import SigilTestSupport
import SigilTokens
import XCTest

/// Apple's App Store Server API response and error fixtures, served through a test-double
/// transport so they go through the client's own decoding and error mapping.
final class AppleAPIFixtureTests: XCTestCase {
    struct FixtureTransport: HTTPTransport {
        let status: Int
        let body: [UInt8]
        func send(_ request: HTTPRequest, timeout: Double, maximumResponseSize: Int) async throws -> HTTPResponse {
            HTTPResponse(status: status, body: body)
        }
    }

    func fixture(_ name: String) throws -> [UInt8] {
        Array(
            try Data(
                contentsOf: try TestPaths.requireAppleVectors()
                    .appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/models/\(name).json")))
    }

    func client(_ name: String, status: Int = 200) throws -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(
            signingKey: try AppleSigningKey(privateKey: ECDSAPrivateKey.generate(curve: .p256), keyID: "K"),
            issuerID: "i", bundleID: "com.example", environment: .localTesting,
            transport: FixtureTransport(status: status, body: try fixture(name)))
    }

    func testResponsesDecode() async throws {
        let history = try await client("transactionHistoryResponse").getTransactionHistory(transactionId: "1")
        XCTAssertEqual(history.revision, "revision_output")
        XCTAssertEqual(history.hasMore, true)
        XCTAssertEqual(history.appAppleId, 323232)
        XCTAssertEqual(history.environment, .localTesting)
        XCTAssertEqual(history.signedTransactions, ["signed_transaction_value", "signed_transaction_value2"])
        // Apple's outcomes: a non-numeric appAppleId fails; an unknown environment is kept raw.
        do {
            _ = try await client("transactionHistoryResponseWithMalformedAppAppleId").getTransactionHistory(transactionId: "1")
            XCTFail("appAppleId \"blue\" must not decode")
        } catch let error as AppStoreServerAPIError {
            XCTAssertTrue(error.errorMessage?.contains("appAppleId") ?? false, "\(error)")
        }
        let odd = try await client("transactionHistoryResponseWithMalformedEnvironment").getTransactionHistory(transactionId: "1")
        XCTAssertEqual(odd.environment?.rawValue, "LocalTestingxxx")
        XCTAssertEqual(odd.environment?.isDocumented, false)

        let statuses = try await client("getAllSubscriptionStatusesResponse").getAllSubscriptionStatuses(transactionId: "1")
        XCTAssertEqual(statuses.appAppleId, 5454545)
        XCTAssertEqual(statuses.data?.map { $0.lastTransactions?.map(\.status) ?? [] }, [[1, 5], [2]])
        XCTAssertEqual(statuses.data?[1].lastTransactions?[0].signedRenewalInfo, "signed_renewal_three")
        let notifications = try await client("getNotificationHistoryResponse")
            .getNotificationHistory(request: NotificationHistoryRequest(startDate: 1, endDate: 2))
        XCTAssertEqual(notifications.paginationToken, "57715481-805a-4283-8499-1c19b5d6b20a")
        XCTAssertEqual(notifications.notificationHistory?.first?.sendAttempts?.map(\.sendAttemptResult), [.noResponse, .success])
        XCTAssertEqual(notifications.notificationHistory?[1].sendAttempts?.first?.attemptDate?.millisecondsSince1970, 1698148800000)
        let refunds = try await client("getRefundHistoryResponse").getRefundHistory(transactionId: "1")
        XCTAssertEqual(refunds.signedTransactions, ["signed_transaction_one", "signed_transaction_two"])
        let mass = try await client("getStatusOfSubscriptionRenewalDateExtensionsResponse")
            .getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: "r", productId: "p")
        XCTAssertEqual(mass.complete, true)
        XCTAssertEqual(mass.failedCount, 2)
        let test = try await client("getTestNotificationStatusResponse").getTestNotificationStatus(testNotificationToken: "t")
        XCTAssertEqual(test.signedPayload, "signed_payload")
        let order = try await client("lookupOrderIdResponse").lookUpOrderId(orderId: "o")
        XCTAssertEqual(order.status, 1)
        let extend = try await client("extendSubscriptionRenewalDateResponse")
            .extendSubscriptionRenewalDate(
                originalTransactionId: "1", request: ExtendRenewalDateRequest(extendByDays: 1, extendReasonCode: 1, requestIdentifier: "r"))
        XCTAssertEqual(extend.webOrderLineItemId, "9993")
        XCTAssertEqual(extend.success, true)
        let massStart = try await client("extendRenewalDateForAllActiveSubscribersResponse")
            .extendRenewalDateForAllActiveSubscribers(
                request: MassExtendRenewalDateRequest(extendByDays: 1, extendReasonCode: 1, requestIdentifier: "r", productId: "p"))
        XCTAssertEqual(massStart.requestIdentifier, "758883e8-151b-47b7-abd0-60c4d804c2f5")
        let sent = try await client("requestTestNotificationResponse").requestTestNotification()
        XCTAssertEqual(sent.testNotificationToken, "ce3af791-365e-4c60-841b-1674b43c1609")
        let info = try await client("transactionInfoResponse").getTransactionInfo(transactionId: "1")
        XCTAssertEqual(info.signedTransactionInfo, "signed_transaction_info_value")
        let app = try await client("appTransactionInfoResponse").getAppTransactionInfo(transactionId: "1")
        XCTAssertEqual(app.signedAppTransactionInfo, "signed_app_transaction_info_value")
    }

    /// The six Retention Messaging response fixtures: every field of each JSON file, through the
    /// client's own decoding.
    func testRetentionMessagingResponsesDecode() async throws {
        let images = try await client("getImageListResponse").getImageList()
        XCTAssertEqual(images.imageIdentifiers?.count, 1)
        XCTAssertEqual(images.imageIdentifiers?.first?.imageIdentifier, "a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890")
        XCTAssertEqual(images.imageIdentifiers?.first?.imageState, .approved)
        XCTAssertEqual(images.imageIdentifiers?.first?.imageSize, .fullSize)

        let messages = try await client("getMessageListResponse").getMessageList()
        XCTAssertEqual(messages.messageIdentifiers?.map(\.messageIdentifier), ["a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890"])
        XCTAssertEqual(messages.messageIdentifiers?.first?.messageState, .approved)

        let defaultMessage = try await client("getDefaultMessageResponse").getDefaultMessage(
            productId: "com.example.product", locale: "en-US")
        XCTAssertEqual(defaultMessage.messageIdentifier, "a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890")

        let realtime = try await client("getRealtimeUrlResponse").getRealtimeURL()
        XCTAssertEqual(realtime.realtimeURL, "https://example.com/realtime")

        let expectedConfig = PerformanceTestConfig(
            maxConcurrentRequests: 10, totalRequests: 100, totalDuration: 60000,
            responseTimeThreshold: 500, successRateThreshold: 95)
        let started = try await client("performanceTestResponse").initiatePerformanceTest(
            request: PerformanceTestRequest(originalTransactionId: "1"))
        XCTAssertEqual(started.config, expectedConfig)
        XCTAssertEqual(started.requestId, "c4b87a1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d")

        let result = try await client("performanceTestResultResponse").getPerformanceTestResults(
            requestId: "c4b87a1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d")
        XCTAssertEqual(result.config, expectedConfig)
        XCTAssertEqual(result.target, "https://example.com/retention")
        XCTAssertEqual(result.result, .pass)
        XCTAssertEqual(result.successRate, 98)
        XCTAssertEqual(result.numPending, 0)
        XCTAssertEqual(result.responseTimes, PerformanceTestResponseTimes(average: 120, p50: 100, p90: 200, p95: 250, p99: 400))
        XCTAssertEqual(result.failures, ["TIMED_OUT": 1, "NO_RESPONSE": 1])
        XCTAssertEqual(result.failureCounts, [.timedOut: 1, .noResponse: 1])

        // Each decoded value re-encodes to the fixture's JSON (nothing dropped or renamed).
        for (name, value) in [
            ("getImageListResponse", try JSONEncoder().encode(images)), ("getMessageListResponse", try JSONEncoder().encode(messages)),
            ("getDefaultMessageResponse", try JSONEncoder().encode(defaultMessage)),
            ("getRealtimeUrlResponse", try JSONEncoder().encode(realtime)),
            ("performanceTestResponse", try JSONEncoder().encode(started)),
            ("performanceTestResultResponse", try JSONEncoder().encode(result)),
        ] {
            let original = try JSONSerialization.jsonObject(with: Data(try fixture(name))) as? NSDictionary
            let again = try JSONSerialization.jsonObject(with: value) as? NSDictionary
            XCTAssertEqual(original, again, name)
        }
    }

    func testErrorBodiesMapToNamedCodes() async throws {
        let cases: [(String, Int, Int64, AppStoreAPIErrorCode?, Bool)] = [
            ("apiException", 500, 5000000, .generalInternal, true),
            ("apiTooManyRequestsException", 429, 4290000, .rateLimitExceeded, true),
            ("apiUnknownError", 400, 9990000, nil, false),
            ("appTransactionDoesNotExistError", 404, 4040019, .appTransactionDoesNotExistError, false),
            ("familyTransactionNotSupportedError", 400, 4000185, .familyTransactionNotSupported, false),
            ("invalidAppAccountTokenUUIDError", 400, 4000183, .invalidAppAccountTokenUUID, false),
            ("invalidTransactionIdError", 400, 4000006, .invalidTransactionId, false),
            ("transactionIdNotFoundError", 404, 4040010, .transactionIdNotFound, false),
            ("transactionIdNotOriginalTransactionId", 400, 4000187, .transactionIdNotOriginalTransactionId, false),
        ]
        for (name, status, raw, named, retryable) in cases {
            do {
                _ = try await client(name, status: status).getTransactionInfo(transactionId: "1")
                XCTFail("\(name) must fail")
            } catch let error as AppStoreServerAPIError {
                XCTAssertEqual(error.httpStatus, status, name)
                XCTAssertEqual(error.apiError?.rawValue, raw, name)
                if let named {
                    XCTAssertEqual(error.apiError, named, name)
                } else {
                    XCTAssertEqual(error.apiError?.isDocumented, false, name)
                }
                XCTAssertEqual(error.isRetryable, retryable, name)
                XCTAssertNotNil(error.errorMessage, name)
            }
        }
    }
}
