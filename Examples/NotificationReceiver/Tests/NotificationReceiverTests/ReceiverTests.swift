import Foundation
import Logging
import NotificationReceiverKit
import XCTest

/// The receiver on its embedded default, a SQLite file.
final class SQLiteReceiverTests: XCTestCase {
    var scenarios: Scenarios?

    override func tearDown() async throws {
        await scenarios?.tearDown()
        scenarios = nil
    }

    func make() throws -> Scenarios {
        let made = try Scenarios(backend: .sqlite, testCase: Self.self)
        scenarios = made
        return made
    }

    func testVerificationStorageDuplicatesAndRefusals() async throws { try await make().verificationAndStorage() }
    func testBurstOf2000From16Clients() async throws { try await make().concurrentBurst() }
    func testSIGKILLDuringBurstLosesNothingAcknowledged() async throws { try await make().killDuringBurst() }
    func testAppAttestChallengesAttestationsAssertionsAndRefusals() async throws { try await make().appAttestFlow() }
    func testAppAttest16ClientsOneKeyEachCounterAcceptedOnce() async throws { try await make().appAttestConcurrentAssertions() }
    func testAppAttestSIGKILLDuringBurstLosesNothingAcknowledged() async throws { try await make().appAttestKillDuringBurst() }
    func testProductionAndSandboxInOneDeployment() async throws { try await make().productionAndSandboxInOneDeployment() }
    func testLocalTestingRefusedWithoutTheInsecureFlag() async throws { try await make().localTestingNeedsTheInsecureFlag() }
    func testReadRoutesNeedTheAPIKeyAndMetricsParse() async throws { try await make().readRoutesNeedTheAPIKey() }
    func testChallengeBurstsAreBounded() async throws { try await make().challengesAreBounded() }
    func testSignInWithAppleNotificationsStoredOnce() async throws { try await make().appleIDNotificationsStoredOnce() }
    func testBackfillRestoresWhatWasMissed() async throws { try await make().backfillRestoresWhatWasMissed() }
    func testFanOutSurvivesADownstreamOutageAndAKill() async throws { try await make().fanOutSurvivesADownstreamOutageAndAKill() }
    func testFakeAppStoreSendsANotification() async throws { try await make().fakeAppStoreSendsANotification() }
    func testApplePayOnTheReceiverUsesItsStore() async throws { try await make().applePayOnTheReceiver() }
}

/// The receiver on a real PostgreSQL server (RECEIVER_TEST_POSTGRES_URL; ci.sh starts one).
final class PostgresReceiverTests: XCTestCase {
    var scenarios: Scenarios?

    override func tearDown() async throws {
        await scenarios?.tearDown()
        scenarios = nil
    }

    func make() throws -> Scenarios {
        let made = try Scenarios(backend: .postgres, testCase: Self.self)
        scenarios = made
        return made
    }

    func testVerificationStorageDuplicatesAndRefusals() async throws { try await make().verificationAndStorage() }
    func testBurstOf2000From16Clients() async throws { try await make().concurrentBurst() }
    func testSIGKILLDuringBurstLosesNothingAcknowledged() async throws { try await make().killDuringBurst() }
    func testTwoReceiversShareOneDatabase() async throws { try await make().twoReceiversShareOneDatabase() }
    func testProductionAndSandboxInOneDeployment() async throws { try await make().productionAndSandboxInOneDeployment() }
    func testAppAttestChallengesAttestationsAssertionsAndRefusals() async throws { try await make().appAttestFlow() }
    func testAppAttest16ClientsOneKeyEachCounterAcceptedOnce() async throws { try await make().appAttestConcurrentAssertions() }
    func testAppAttestSIGKILLDuringBurstLosesNothingAcknowledged() async throws { try await make().appAttestKillDuringBurst() }
    func testAppAttestPostgresStoppedAndRestartedDuringBurst() async throws { try await make().appAttestDatabaseAwayDuringBurst() }
    func testReadRoutesNeedTheAPIKeyAndMetricsParse() async throws { try await make().readRoutesNeedTheAPIKey() }
    func testChallengeBurstsAreBounded() async throws { try await make().challengesAreBounded() }
    func testSignInWithAppleNotificationsStoredOnce() async throws { try await make().appleIDNotificationsStoredOnce() }
    func testBackfillRestoresWhatWasMissed() async throws { try await make().backfillRestoresWhatWasMissed() }
    func testFanOutSurvivesADownstreamOutageAndAKill() async throws { try await make().fanOutSurvivesADownstreamOutageAndAKill() }
}

/// What the configuration refuses before anything listens.
final class OperationsConfigurationTests: XCTestCase {
    func testAPublicListenerNeedsAnAPIKey() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString).cer").path
        let common = ["--bundle-id", "com.example", "--root-certificate", root]
        for host in ["0.0.0.0", "192.0.2.10", "::", "receiver.example.com"] {
            XCTAssertThrowsError(try ReceiverConfiguration.load(arguments: common + ["--host", host], environment: [:]), host) {
                XCTAssertTrue("\($0)".contains("without an API key"), "\($0)")
            }
        }
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.53"] {
            XCTAssertNoThrow(try ReceiverConfiguration.load(arguments: common + ["--host", host], environment: [:]), host)
        }
        let key = "0123456789abcdef-key"
        let keyed = try ReceiverConfiguration.load(arguments: common + ["--host", "0.0.0.0"], environment: ["RECEIVER_API_KEY": key])
        XCTAssertEqual(keyed.apiKey, key)
        XCTAssertThrowsError(try ReceiverConfiguration.load(arguments: common + ["--api-key", key], environment: [:])) {
            XCTAssertTrue("\($0)".contains("not taken on the command line"), "\($0)")
        }
        XCTAssertThrowsError(
            try ReceiverConfiguration.load(arguments: common + ["--host", "0.0.0.0"], environment: ["RECEIVER_API_KEY": "short"]))
    }

    func testJSONLogLinesCarryTheMetadata() throws {
        let lines = Shared<[String]>([])
        var handler = JSONLogHandler(label: "receiver", write: { line in lines.update { $0.append(line) } })
        handler.metadata["process"] = "r1"
        let logger = Logger(label: "receiver", factory: { _ in handler })
        logger.info("stored notification \"x\"\nsecond line", metadata: ["notificationUUID": "6E1B…", "result": "stored"])
        logger.debug("not at info level")
        XCTAssertEqual(lines.value.count, 1)
        let line = try XCTUnwrap(lines.value.first)
        XCTAssertTrue(line.hasSuffix("\n"))
        XCTAssertEqual(line.filter { $0 == "\n" }.count, 1, "one line per entry")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        XCTAssertEqual(object["notificationUUID"], "6E1B…")
        XCTAssertEqual(object["result"], "stored")
        XCTAssertEqual(object["process"], "r1")
        XCTAssertEqual(object["level"], "info")
        XCTAssertEqual(object["message"], "stored notification \"x\"\nsecond line")
        XCTAssertNotNil(object["time"])
    }

    func testRateLimiterIsPerClientAndBounded() {
        let limiter = RateLimiter(perMinute: 3, maximumClients: 4)
        XCTAssertEqual((0..<5).map { _ in limiter.allow("a", now: 0) }, [true, true, true, false, false])
        XCTAssertTrue(limiter.allow("b", now: 0), "another client has its own bucket")
        XCTAssertTrue(limiter.allow("a", now: 20_000), "one token back after a third of a minute")
        XCTAssertFalse(limiter.allow("a", now: 20_001))
        for n in 0..<100 { _ = limiter.allow("flood-\(n)", now: 30_000) }
        XCTAssertLessThanOrEqual(limiter.trackedClients, 5, "a flood of addresses does not grow it (four and the overflow bucket)")
    }
}
