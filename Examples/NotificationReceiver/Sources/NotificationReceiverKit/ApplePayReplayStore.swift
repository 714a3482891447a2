import Foundation
import GRDB
import PostgresNIO
import SigilService

/// The Apple Pay replay table. Issue 38 (schema version 5) keyed it by transaction id; issue 46
/// (schema version 6) keys it by the token's replay key (SHA-256 of what Apple signed, which no
/// re-framing of the token's fields changes), keeps the transaction id indexed for lookups, and
/// records the SHA-256 of the accepted request's body so that the identical request again is
/// answered as a retry. The primary key decides a replay, so of concurrent submissions of one
/// token (even to several processes sharing a PostgreSQL database) one inserts and the others
/// find the row. No card data is stored.
///
/// Rows from version 5 keep their transaction id and get the replay key
/// `transactionId:<id>` and an empty fingerprint: a token with such a transaction id is refused
/// as a replay (its replay key was never known).
public enum ApplePayReplaySchema {
    static let migration = [
        """
        CREATE TABLE applepay_transactions (
            transaction_id TEXT NOT NULL PRIMARY KEY,
            public_key_hash TEXT NOT NULL,
            signing_time BIGINT NOT NULL,
            accepted_at BIGINT NOT NULL
        )
        """
    ]
    /// Version 6: the table rebuilt with the replay key as its primary key.
    static let replayKeyMigration = [
        """
        CREATE TABLE applepay_replays (
            replay_key TEXT NOT NULL PRIMARY KEY,
            transaction_id TEXT NOT NULL,
            public_key_hash TEXT NOT NULL,
            signing_time BIGINT NOT NULL,
            accepted_at BIGINT NOT NULL,
            request_fingerprint TEXT NOT NULL
        )
        """,
        """
        INSERT INTO applepay_replays (replay_key, transaction_id, public_key_hash, signing_time, accepted_at, request_fingerprint)
            SELECT 'transactionId:' || transaction_id, transaction_id, public_key_hash, signing_time, accepted_at, ''
            FROM applepay_transactions
        """,
        "DROP TABLE applepay_transactions",
        "ALTER TABLE applepay_replays RENAME TO applepay_transactions",
        "CREATE INDEX applepay_transactions_by_transaction_id ON applepay_transactions (transaction_id)",
    ]
    /// Inserts unless the replay key is stored, or a row carried over from version 5 has the
    /// transaction id.
    static let insert = """
        INSERT INTO applepay_transactions (replay_key, transaction_id, public_key_hash, signing_time, accepted_at, request_fingerprint)
        SELECT $1, $2, $3, $4, $5, $6
        WHERE NOT EXISTS (SELECT 1 FROM applepay_transactions WHERE transaction_id = $2 AND request_fingerprint = '')
        ON CONFLICT (replay_key) DO NOTHING
        """
    /// The stored row's fingerprint and time, when the insert found the replay key taken.
    static let existing = "SELECT request_fingerprint, accepted_at FROM applepay_transactions WHERE replay_key = $1"
    static let select = """
        SELECT replay_key, transaction_id, public_key_hash, signing_time, accepted_at, request_fingerprint FROM applepay_transactions
        """
    /// What a store answers once its insert inserted nothing: the stored row's fingerprint and
    /// time (nil: no row has the replay key, so a version-5 row with the transaction id refused it).
    static func outcome(_ stored: (String, Int64)?, _ record: ApplePayTransactionRecord) -> ApplePayRecordOutcome {
        guard let stored else { return .replay }
        return ApplePayRecordOutcome(stored: (requestFingerprint: stored.0, acceptedAt: stored.1), incoming: record)
    }
}

/// The replay store on SQLite: one transaction on the single writer connection, committed with
/// `synchronous = FULL` before `record` returns.
extension SQLiteNotificationStore {
    public func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome {
        try await pool.write { db in
            try db.execute(
                sql: Self.sqlite(ApplePayReplaySchema.insert),
                arguments: [
                    record.replayKey, record.transactionId, record.publicKeyHash, record.signingTime, record.acceptedAt,
                    record.requestFingerprint,
                ])
            if db.changesCount == 1 { return .recorded }
            let row = try Row.fetchOne(db, sql: Self.sqlite(ApplePayReplaySchema.existing), arguments: [record.replayKey])
            return ApplePayReplaySchema.outcome(row.map { ($0["request_fingerprint"], $0["accepted_at"]) }, record)
        }
    }

    /// Every recorded Apple Pay transaction (for audits and tests).
    public func applePayTransactions() async throws -> [ApplePayTransactionRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: ApplePayReplaySchema.select).map {
                ApplePayTransactionRecord(
                    replayKey: $0["replay_key"], transactionId: $0["transaction_id"], publicKeyHash: $0["public_key_hash"],
                    signingTime: $0["signing_time"], acceptedAt: $0["accepted_at"], requestFingerprint: $0["request_fingerprint"])
            }
        }
    }
}

/// The replay store on PostgreSQL: `INSERT … ON CONFLICT DO NOTHING RETURNING` in its own
/// transaction; a concurrent insert of the same replay key waits for the first to commit, then
/// inserts nothing and reads the committed row (READ COMMITTED: each statement sees what committed
/// before it). The answer follows the acknowledged COMMIT.
extension PostgresNotificationStore {
    public func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome {
        let insert = try Self.query(
            ApplePayReplaySchema.insert + " RETURNING replay_key",
            [
                record.replayKey, record.transactionId, record.publicKeyHash, record.signingTime, record.acceptedAt,
                record.requestFingerprint,
            ])
        let existing = try Self.query(ApplePayReplaySchema.existing, [record.replayKey])
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var inserted = false
            for try await _ in try await connection.query(insert, logger: logger) { inserted = true }
            if inserted { return .recorded }
            var stored: (String, Int64)?
            for try await row in try await connection.query(existing, logger: logger).decode((String, Int64).self) { stored = row }
            return ApplePayReplaySchema.outcome(stored, record)
        }
    }

    /// Every recorded Apple Pay transaction (for audits and tests).
    public func applePayTransactions() async throws -> [ApplePayTransactionRecord] {
        var records: [ApplePayTransactionRecord] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: ApplePayReplaySchema.select), logger: logger)
        for try await (replayKey, transactionId, publicKeyHash, signingTime, acceptedAt, fingerprint) in rows.decode(
            (String, String, String, Int64, Int64, String).self)
        {
            records.append(
                ApplePayTransactionRecord(
                    replayKey: replayKey, transactionId: transactionId, publicKeyHash: publicKeyHash, signingTime: signingTime,
                    acceptedAt: acceptedAt, requestFingerprint: fingerprint))
        }
        return records
    }
}
