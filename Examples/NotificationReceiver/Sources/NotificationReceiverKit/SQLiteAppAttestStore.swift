import Foundation
import GRDB

/// App Attest on SQLite: each write is one transaction on the single writer connection (so the
/// compare-and-set never races inside the process, and SQLite's write lock serialises writers of
/// other processes), committed with `synchronous = FULL` before the method returns.
extension SQLiteNotificationStore {
    public func insertChallenge(
        _ challenge: String, issuedAt: Int64, expiresAt: Int64, purgeExpiredBefore: Int64, maximumRows: Int
    ) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: Self.sqlite(AppAttestSchema.purgeChallenges), arguments: [purgeExpiredBefore])
            guard try Int.fetchOne(db, sql: AppAttestSchema.countChallenges) ?? 0 < maximumRows else { return false }
            try db.execute(sql: Self.sqlite(AppAttestSchema.insertChallenge), arguments: [challenge, issuedAt, expiresAt])
            return true
        }
    }

    public func challengeCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: AppAttestSchema.countChallenges) ?? 0 }
    }

    /// Consumes `challenge` in `db`'s transaction, or throws `RollBack` with the refusal.
    static func consume<Outcome: Sendable>(
        _ challenge: String, now: Int64, in db: Database, refused: (ChallengeRefusal) -> Outcome
    ) throws {
        try db.execute(sql: sqlite(AppAttestSchema.consumeChallenge), arguments: [challenge, now])
        guard db.changesCount == 1 else {
            let row = try Row.fetchOne(db, sql: sqlite(AppAttestSchema.selectChallenge), arguments: [challenge])
            let usedAt: Int64? = row.flatMap { $0["used_at"] }
            let expiresAt: Int64? = row.flatMap { $0["expires_at"] }
            let refusal = AppAttestSchema.refusal(usedAt: usedAt, expiresAt: expiresAt, now: now)
            throw RollBack(outcome: refused(refusal))
        }
    }

    public func storeAttestation(_ key: AttestedKeyRecord, challenge: String, now: Int64) async throws -> AttestationStoreOutcome {
        do {
            return try await pool.write { db in
                try Self.consume(challenge, now: now, in: db) { AttestationStoreOutcome.challengeRefused($0) }
                try db.execute(
                    sql: Self.sqlite(AppAttestSchema.insertKey),
                    arguments: [key.keyId, key.publicKey, key.counter, key.receipt, key.environment, key.attestedAt])
                guard db.changesCount == 1 else { throw RollBack(outcome: AttestationStoreOutcome.keyExists) }
                return .stored
            }
        } catch let rollBack as RollBack<AttestationStoreOutcome> {
            return rollBack.outcome
        }
    }

    public func storeAssertion(keyId: String, expectedCounter: Int64, newCounter: Int64, challenge: String, now: Int64) async throws
        -> AssertionStoreOutcome
    {
        do {
            return try await pool.write { db in
                try db.execute(sql: Self.sqlite(AppAttestSchema.advanceCounter), arguments: [keyId, expectedCounter, newCounter, now])
                guard db.changesCount == 1 else {
                    let exists = try Bool.fetchOne(db, sql: Self.sqlite(AppAttestSchema.keyExists), arguments: [keyId]) ?? false
                    throw RollBack(outcome: exists ? AssertionStoreOutcome.counterMoved : .unknownKey)
                }
                try Self.consume(challenge, now: now, in: db) { AssertionStoreOutcome.challengeRefused($0) }
                try db.execute(sql: Self.sqlite(AppAttestSchema.insertAssertion), arguments: [keyId, newCounter, challenge, now])
                return .accepted
            }
        } catch let rollBack as RollBack<AssertionStoreOutcome> {
            return rollBack.outcome
        }
    }

    public func attestedKey(keyId: String) async throws -> AttestedKeyRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: Self.sqlite(AppAttestSchema.selectKey), arguments: [keyId]).map(Self.key)
        }
    }

    public func attestedKeys() async throws -> [AttestedKeyRecord] {
        try await pool.read { db in try Row.fetchAll(db, sql: AppAttestSchema.selectKeys).map(Self.key) }
    }

    public func acceptedAssertions() async throws -> [AcceptedAssertion] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: AppAttestSchema.selectAssertions).map {
                AcceptedAssertion(keyId: $0["key_id"], counter: $0["counter"])
            }
        }
    }

    static func key(_ row: Row) -> AttestedKeyRecord {
        AttestedKeyRecord(
            keyId: row["key_id"], publicKey: row["public_key"], counter: row["counter"], receipt: row["receipt"],
            environment: row["environment"], attestedAt: row["attested_at"])
    }
}
