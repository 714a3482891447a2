import Foundation
import Logging
import PostgresNIO

/// App Attest on PostgreSQL: each write is one transaction (READ COMMITTED). The compare-and-set
/// `UPDATE … WHERE counter = expected` takes the key's row lock; a concurrent one waits for the
/// first to commit, re-reads the row and then matches nothing, so of two assertions verified
/// against the same counter one commits and the other is told `counterMoved`. Consuming a
/// challenge is the same shape (`WHERE used_at IS NULL`), so a challenge is used once even by
/// receivers sharing the database. The answer follows the acknowledged COMMIT.
extension PostgresNotificationStore {
    public func insertChallenge(
        _ challenge: String, issuedAt: Int64, expiresAt: Int64, purgeExpiredBefore: Int64, maximumRows: Int
    ) async throws -> Bool {
        let insert = try Self.query(AppAttestSchema.insertChallenge, [challenge, issuedAt, expiresAt])
        let purge = try Self.query(AppAttestSchema.purgeChallenges, [purgeExpiredBefore])
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            // Issuers take turns (a transaction-level advisory lock), so the count and the insert
            // see each other and the table never holds more than maximumRows.
            try await connection.query("SELECT pg_advisory_xact_lock(1936287341)", logger: logger)
            try await connection.query(purge, logger: logger)
            var count = 0
            for try await n in try await connection.query(PostgresQuery(unsafeSQL: AppAttestSchema.countChallenges), logger: logger)
                .decode(Int.self)
            {
                count = n
            }
            guard count < maximumRows else { return false }
            try await connection.query(insert, logger: logger)
            return true
        }
    }

    public func challengeCount() async throws -> Int {
        var count = 0
        for try await n in try await client.query(PostgresQuery(unsafeSQL: AppAttestSchema.countChallenges), logger: logger).decode(
            Int.self)
        {
            count = n
        }
        return count
    }

    /// Consumes `challenge` in `connection`'s transaction, or throws `RollBack` with the refusal.
    static func consume<Outcome: Sendable>(
        _ challenge: String, now: Int64, on connection: PostgresConnection, logger: Logger,
        refused: (ChallengeRefusal) -> Outcome
    ) async throws {
        var consumed = false
        let update = try query(AppAttestSchema.consumeChallenge + " RETURNING challenge", [challenge, now])
        for try await _ in try await connection.query(update, logger: logger) { consumed = true }
        guard consumed else {
            var usedAt: Int64?
            var expiresAt: Int64?
            let select = try query(AppAttestSchema.selectChallenge, [challenge])
            for try await (used, expires) in try await connection.query(select, logger: logger).decode((Int64?, Int64).self) {
                usedAt = used
                expiresAt = expires
            }
            throw RollBack(outcome: refused(AppAttestSchema.refusal(usedAt: usedAt, expiresAt: expiresAt, now: now)))
        }
    }

    public func storeAttestation(_ key: AttestedKeyRecord, challenge: String, now: Int64) async throws -> AttestationStoreOutcome {
        let insert = try Self.query(
            AppAttestSchema.insertKey + " RETURNING key_id",
            [key.keyId, key.publicKey, key.counter, key.receipt, key.environment, key.attestedAt])
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await Self.consume(challenge, now: now, on: connection, logger: logger) { AttestationStoreOutcome.challengeRefused($0) }
                var inserted = false
                for try await _ in try await connection.query(insert, logger: logger) { inserted = true }
                guard inserted else { throw RollBack(outcome: AttestationStoreOutcome.keyExists) }
                return AttestationStoreOutcome.stored
            }
        } catch {
            if let outcome = Self.rolledBack(error, as: AttestationStoreOutcome.self) { return outcome }
            throw error
        }
    }

    public func storeAssertion(keyId: String, expectedCounter: Int64, newCounter: Int64, challenge: String, now: Int64) async throws
        -> AssertionStoreOutcome
    {
        let advance = try Self.query(AppAttestSchema.advanceCounter + " RETURNING key_id", [keyId, expectedCounter, newCounter, now])
        let exists = try Self.query(AppAttestSchema.keyExists, [keyId])
        let record = try Self.query(AppAttestSchema.insertAssertion, [keyId, newCounter, challenge, now])
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                var advanced = false
                for try await _ in try await connection.query(advance, logger: logger) { advanced = true }
                guard advanced else {
                    var found = false
                    for try await _ in try await connection.query(exists, logger: logger) { found = true }
                    throw RollBack(outcome: found ? AssertionStoreOutcome.counterMoved : .unknownKey)
                }
                try await Self.consume(challenge, now: now, on: connection, logger: logger) { AssertionStoreOutcome.challengeRefused($0) }
                try await connection.query(record, logger: logger)
                return AssertionStoreOutcome.accepted
            }
        } catch {
            if let outcome = Self.rolledBack(error, as: AssertionStoreOutcome.self) { return outcome }
            throw error
        }
    }

    /// The outcome a transaction was rolled back with (PostgresNIO wraps what the closure threw).
    static func rolledBack<Outcome: Sendable>(_ error: any Error, as: Outcome.Type) -> Outcome? {
        if let rollBack = error as? RollBack<Outcome> { return rollBack.outcome }
        if let failed = error as? PostgresTransactionError, let rollBack = failed.closureError as? RollBack<Outcome> {
            return rollBack.outcome
        }
        return nil
    }

    public func attestedKey(keyId: String) async throws -> AttestedKeyRecord? {
        let select = try Self.query(AppAttestSchema.selectKey, [keyId])
        return try await keys(select).first
    }

    public func attestedKeys() async throws -> [AttestedKeyRecord] {
        try await keys(PostgresQuery(unsafeSQL: AppAttestSchema.selectKeys))
    }

    func keys(_ select: PostgresQuery) async throws -> [AttestedKeyRecord] {
        var keys: [AttestedKeyRecord] = []
        let rows = try await client.query(select, logger: logger).decode((String, String, Int64, String, String, Int64).self)
        for try await (keyId, publicKey, counter, receipt, environment, attestedAt) in rows {
            keys.append(
                AttestedKeyRecord(
                    keyId: keyId, publicKey: publicKey, counter: counter, receipt: receipt, environment: environment,
                    attestedAt: attestedAt))
        }
        return keys
    }

    public func acceptedAssertions() async throws -> [AcceptedAssertion] {
        var assertions: [AcceptedAssertion] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: AppAttestSchema.selectAssertions), logger: logger)
        for try await (keyId, counter) in rows.decode((String, Int64).self) {
            assertions.append(AcceptedAssertion(keyId: keyId, counter: counter))
        }
        return assertions
    }
}
