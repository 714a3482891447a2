import Foundation
import Logging
import NotificationReceiverKit
import SigilAppStore
import SigilService
import XCTest

/// A store whose every call waits an hour unless cancelled: a database that has stopped answering.
final class StalledStore: NotificationStore, @unchecked Sendable {
    private let lock = NSLock()
    private var cancelledCalls = 0
    var cancelled: Int { lock.withLock { cancelledCalls } }

    func stall<T>() async throws -> T {
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            lock.withLock { cancelledCalls += 1 }
            throw error
        }
        throw HarnessError("a stalled store answered")
    }

    let kind = "stalled"
    func prepare() async throws { try await stall() as Void }
    func store(_ record: NotificationRecord) async throws -> StoreOutcome { try await stall() }
    func transactionState(originalTransactionId: String) async throws -> TransactionState? { try await stall() }
    func storedNotificationUUIDs() async throws -> [String] { try await stall() }
    func storedNotificationEnvironments() async throws -> [String: String] { try await stall() }
    func schemaVersion() async throws -> Int { try await stall() }
    func insertChallenge(
        _ challenge: String, issuedAt: Int64, expiresAt: Int64, purgeExpiredBefore: Int64, maximumRows: Int
    ) async throws -> Bool {
        try await stall()
    }
    func challengeCount() async throws -> Int { try await stall() }
    func storeAppleIDEvent(_ record: AppleIDEventRecord) async throws -> StoreOutcome { try await stall() }
    func appleIDEventIsHandled(identity: String) async throws -> Bool { try await stall() }
    func markAppleIDEventHandled(identity: String, at time: Int64) async throws { try await stall() as Void }
    func appleIDEvents() async throws -> [AppleIDEventRecord] { try await stall() }
    func dueOutbox(now: Int64, limit: Int) async throws -> [OutboxItem] { try await stall() }
    func markOutboxDelivered(notificationUUID: String, destination: String, at time: Int64) async throws { try await stall() as Void }
    func markOutboxFailed(notificationUUID: String, destination: String, nextAttemptAt: Int64, error: String) async throws {
        try await stall() as Void
    }
    func outboxDepth() async throws -> Int { try await stall() }
    func storeAttestation(_ key: AttestedKeyRecord, challenge: String, now: Int64) async throws -> AttestationStoreOutcome {
        try await stall()
    }
    func attestedKey(keyId: String) async throws -> AttestedKeyRecord? { try await stall() }
    func storeAssertion(keyId: String, expectedCounter: Int64, newCounter: Int64, challenge: String, now: Int64) async throws
        -> AssertionStoreOutcome
    { try await stall() }
    func attestedKeys() async throws -> [AttestedKeyRecord] { try await stall() }
    func acceptedAssertions() async throws -> [AcceptedAssertion] { try await stall() }
    func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome { try await stall() }
    func applePayTransactions() async throws -> [ApplePayTransactionRecord] { try await stall() }
}

/// The notification route bounds its database call by the store timeout, as the App Attest
/// routes do: a store that stops answering gets a 500 (never a 200) within the timeout, and the
/// stalled call is cancelled.
final class StoreTimeoutTests: XCTestCase {
    func testNotificationAnswersWithoutAStalledStore() async throws {
        let signer = try Signer.shared.get()
        let verifier = try SignedDataVerifier(
            trustedRoots: [signer.pki.root], bundleId: signer.bundleId, appAppleId: signer.appAppleId, environment: signer.environment)
        let store = StalledStore()
        let intake = NotificationIntake(
            verifier: verifier, store: store, logger: Logger(label: "store-timeout-test"), storeTimeout: .milliseconds(300))
        let transaction = try signer.sign(signer.transaction(original: "9000", id: "9001"))
        let body = try signer.notification(signedTransactionInfo: transaction)
        let started = ContinuousClock.now
        let outcome = await intake.accept(body: body)
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(outcome.status, 500, "\(outcome.body)")
        XCTAssertEqual(outcome.body["status"], "STORAGE_FAILURE")
        XCTAssertLessThan(elapsed, .seconds(10), "the answer waited for the stalled store")
        XCTAssertGreaterThan(outcome.verifySeconds, 0, "the notification was verified before the store was tried")
        // The abandoned call is cancelled, not left waiting for its hour.
        for _ in 0..<100 where store.cancelled == 0 { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertEqual(store.cancelled, 1)
    }
}
