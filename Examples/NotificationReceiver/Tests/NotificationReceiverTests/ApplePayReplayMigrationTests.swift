import Foundation
import GRDB
import NotificationReceiverKit
import SigilService
import XCTest

/// Issue 46: schema 6 keys the Apple Pay replay table by the token's replay key. A database at
/// schema 5 (keyed by transaction id) upgrades with its rows kept, and a token whose transaction id
/// such a row holds is still refused as a replay (its replay key was never recorded); on the new
/// table a replay key is recorded once, the identical request again is a retry with the first
/// time, another request a replay — on SQLite, through the store itself.
final class ApplePayReplayMigrationTests: XCTestCase {
    func record(_ key: String, _ id: String, fingerprint: String, at time: Int64) -> ApplePayTransactionRecord {
        ApplePayTransactionRecord(
            replayKey: key, transactionId: id, publicKeyHash: "hash", signingTime: 1_630_522_986, acceptedAt: time,
            requestFingerprint: fingerprint)
    }

    func testSchema5RowsSurviveTheUpgradeAndStillRefuseTheirTransactionId() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("applepay-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let legacyId = String(repeating: "ab", count: 32)
        // A database as schema 5 left it, with one accepted transaction.
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE schema_version (version INTEGER NOT NULL)")
                for version in 1...5 {
                    for statement in NotificationSchema.migrations[version - 1] { try db.execute(sql: statement) }
                    try db.execute(sql: "INSERT INTO schema_version (version) VALUES (?)", arguments: [version])
                }
                try db.execute(
                    sql:
                        "INSERT INTO applepay_transactions (transaction_id, public_key_hash, signing_time, accepted_at) VALUES (?, 'h', 1, 2)",
                    arguments: [legacyId])
            }
            try queue.close()
        }
        let store = try SQLiteNotificationStore(path: path)
        try await store.prepare()
        let version = try await store.schemaVersion()
        XCTAssertEqual(version, NotificationSchema.version)
        XCTAssertGreaterThanOrEqual(version, 6)
        let migrated = try await store.applePayTransactions()
        XCTAssertEqual(migrated.map(\.transactionId), [legacyId])
        XCTAssertEqual(migrated.first?.replayKey, "transactionId:" + legacyId)

        // Attack: the token accepted before the upgrade, sent again (any replay key).
        let again = try await store.record(record(String(repeating: "1", count: 64), legacyId, fingerprint: "f", at: 10))
        XCTAssertEqual(again, .replay)

        // A new token: recorded once; the identical request is a retry; another request a replay;
        // the same transaction id under another replay key is not this key's business.
        let key = String(repeating: "2", count: 64)
        let first = try await store.record(record(key, String(repeating: "cd", count: 32), fingerprint: "body-1", at: 20))
        XCTAssertEqual(first, .recorded)
        let retry = try await store.record(record(key, String(repeating: "cd", count: 32), fingerprint: "body-1", at: 30))
        XCTAssertEqual(retry, .retryOfSameRequest(firstAcceptedAt: 20))
        let replay = try await store.record(record(key, String(repeating: "ef", count: 32), fingerprint: "body-2", at: 40))
        XCTAssertEqual(replay, .replay)
        let rows = try await store.applePayTransactions()
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows.first { $0.replayKey == key }?.requestFingerprint, "body-1")
    }
}

/// Issue 46: "a replay-store insert that commits after its timeout makes the legitimate retry a
/// replay". The receiver's store timeout (`ApplePayOptions.configuration(receiverStore:timeout:)`,
/// 100 ms here) answers 503 while the SQLite insert goes on and commits 400 ms later; the client
/// then retries the identical request: the retry answer (`retry: true`, the same payment), not
/// `applepay.replayedTransaction`. Another request with the token is still a replay.
final class ApplePayLateCommitTests: XCTestCase {
    func testAnInsertCommittedAfterTheTimeoutMakesTheRetryARetry() async throws {
        let directory = try ApplePayServiceTests.vectorsDirectory()
        let payu = try ApplePayServiceTests.vector("payu-sandbox", in: directory)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("applepay-late-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try SQLiteNotificationStore(path: folder.appendingPathComponent("store.sqlite").path)
        try await sqlite.prepare()
        let store = LateCommitStore(inner: sqlite)
        var options = ApplePayOptions()
        let identifier = try String(
            contentsOf: directory.appendingPathComponent("payu-sandbox/merchant_id.txt"), encoding: .utf8)
        options.merchants = [
            (key: directory.appendingPathComponent("payu-sandbox/merchant_key.pem").path, certificate: nil, identifier: identifier)
        ]
        let configuration = try XCTUnwrap(try options.configuration(receiverStore: store, timeout: .milliseconds(100)))
        let service = VerificationService(applePay: configuration, requestTrust: .refused)
        let body = ApplePayServiceTests.request(payu.token, at: payu.signingTime)

        let first = await service.verifyRecordingReplays(json: body)
        XCTAssertEqual(first.status, .unavailable, first.json)
        XCTAssertTrue(first.json.contains("service.replayStoreUnavailable"), first.json)
        XCTAssertFalse(first.json.contains(payu.pan))
        await store.committed()
        let rows = try await sqlite.applePayTransactions()
        XCTAssertEqual(rows.map(\.transactionId), [payu.transactionId], "the insert committed after the timeout")

        let retry = await service.verifyRecordingReplays(json: body)
        XCTAssertEqual(retry.status, .verified, retry.json)
        let answer = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(retry.json.utf8)) as? [String: Any])?["applepay"] as? [String: Any])
        XCTAssertEqual(answer["retry"] as? Bool, true)
        XCTAssertEqual(answer["firstAcceptedAt"] as? Int, rows.first.map { Int($0.acceptedAt) })
        XCTAssertEqual((answer["payment"] as? [String: Any])?["applicationPrimaryAccountNumber"] as? String, payu.pan)

        let other = await service.verifyRecordingReplays(json: ApplePayServiceTests.request(payu.token, at: payu.signingTime + 1))
        XCTAssertEqual(other.status, .refused, other.json)
        XCTAssertTrue(other.json.contains("applepay.replayedTransaction"), other.json)
        let after = try await sqlite.applePayTransactions()
        XCTAssertEqual(after.count, 1)
    }
}

/// The SQLite store, except that the first Apple Pay insert commits 400 ms late, in a task of its
/// own that the store timeout's cancellation does not reach (as a database commits a statement
/// the client stopped waiting for).
final class LateCommitStore: NotificationStore, @unchecked Sendable {
    let inner: SQLiteNotificationStore
    private let lock = NSLock()
    private var pending: Task<ApplePayRecordOutcome?, Never>?
    init(inner: SQLiteNotificationStore) { self.inner = inner }

    func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome {
        let late: Task<ApplePayRecordOutcome?, Never>? = lock.withLock {
            guard pending == nil else { return nil }
            let task = Task { [inner] () -> ApplePayRecordOutcome? in
                try? await Task.sleep(for: .milliseconds(400))
                return try? await inner.record(record)
            }
            pending = task
            return task
        }
        guard let late else { return try await inner.record(record) }
        guard let outcome = await late.value else { throw HarnessError("the late insert failed") }
        return outcome
    }

    func committed() async { _ = await lock.withLock { pending }?.value }

    let kind = "late-commit sqlite"
    func prepare() async throws { try await inner.prepare() }
    func store(_ record: NotificationRecord) async throws -> StoreOutcome { try await inner.store(record) }
    func transactionState(originalTransactionId: String) async throws -> TransactionState? {
        try await inner.transactionState(originalTransactionId: originalTransactionId)
    }
    func storedNotificationUUIDs() async throws -> [String] { try await inner.storedNotificationUUIDs() }
    func storedNotificationEnvironments() async throws -> [String: String] { try await inner.storedNotificationEnvironments() }
    func schemaVersion() async throws -> Int { try await inner.schemaVersion() }
    func insertChallenge(
        _ challenge: String, issuedAt: Int64, expiresAt: Int64, purgeExpiredBefore: Int64, maximumRows: Int
    ) async throws -> Bool {
        try await inner.insertChallenge(
            challenge, issuedAt: issuedAt, expiresAt: expiresAt, purgeExpiredBefore: purgeExpiredBefore, maximumRows: maximumRows)
    }
    func challengeCount() async throws -> Int { try await inner.challengeCount() }
    func storeAppleIDEvent(_ record: AppleIDEventRecord) async throws -> StoreOutcome { try await inner.storeAppleIDEvent(record) }
    func appleIDEventIsHandled(identity: String) async throws -> Bool { try await inner.appleIDEventIsHandled(identity: identity) }
    func markAppleIDEventHandled(identity: String, at time: Int64) async throws {
        try await inner.markAppleIDEventHandled(identity: identity, at: time)
    }
    func appleIDEvents() async throws -> [AppleIDEventRecord] { try await inner.appleIDEvents() }
    func dueOutbox(now: Int64, limit: Int) async throws -> [OutboxItem] { try await inner.dueOutbox(now: now, limit: limit) }
    func markOutboxDelivered(notificationUUID: String, destination: String, at time: Int64) async throws {
        try await inner.markOutboxDelivered(notificationUUID: notificationUUID, destination: destination, at: time)
    }
    func markOutboxFailed(notificationUUID: String, destination: String, nextAttemptAt: Int64, error: String) async throws {
        try await inner.markOutboxFailed(
            notificationUUID: notificationUUID, destination: destination, nextAttemptAt: nextAttemptAt, error: error)
    }
    func outboxDepth() async throws -> Int { try await inner.outboxDepth() }
    func storeAttestation(_ key: AttestedKeyRecord, challenge: String, now: Int64) async throws -> AttestationStoreOutcome {
        try await inner.storeAttestation(key, challenge: challenge, now: now)
    }
    func attestedKey(keyId: String) async throws -> AttestedKeyRecord? { try await inner.attestedKey(keyId: keyId) }
    func storeAssertion(keyId: String, expectedCounter: Int64, newCounter: Int64, challenge: String, now: Int64) async throws
        -> AssertionStoreOutcome
    {
        try await inner.storeAssertion(
            keyId: keyId, expectedCounter: expectedCounter, newCounter: newCounter, challenge: challenge, now: now)
    }
    func attestedKeys() async throws -> [AttestedKeyRecord] { try await inner.attestedKeys() }
    func acceptedAssertions() async throws -> [AcceptedAssertion] { try await inner.acceptedAssertions() }
    func applePayTransactions() async throws -> [ApplePayTransactionRecord] { try await inner.applePayTransactions() }
}
