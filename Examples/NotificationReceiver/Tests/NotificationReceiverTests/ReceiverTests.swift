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
}
