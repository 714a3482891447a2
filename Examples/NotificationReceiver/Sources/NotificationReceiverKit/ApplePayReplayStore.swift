import Foundation
import GRDB
import PostgresNIO
import SigilService

/// Issue 38: the Apple Pay replay table (schema version 5). One row per accepted token, keyed by
/// its transaction id: the primary key decides a replay, so of two concurrent submissions of one
/// token (even to several processes sharing a PostgreSQL database) one inserts and the other
/// finds the row. No card data is stored.
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
    static let insert = """
        INSERT INTO applepay_transactions (transaction_id, public_key_hash, signing_time, accepted_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (transaction_id) DO NOTHING
        """
    static let select = "SELECT transaction_id, public_key_hash, signing_time, accepted_at FROM applepay_transactions"
}

/// The replay store on SQLite: one transaction on the single writer connection, committed with
/// `synchronous = FULL` before `record` returns.
extension SQLiteNotificationStore {
    public func record(_ record: ApplePayTransactionRecord) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: Self.sqlite(ApplePayReplaySchema.insert),
                arguments: [record.transactionId, record.publicKeyHash, record.signingTime, record.acceptedAt])
            return db.changesCount == 1
        }
    }

    /// Every recorded Apple Pay transaction (for audits and tests).
    public func applePayTransactions() async throws -> [ApplePayTransactionRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: ApplePayReplaySchema.select).map {
                ApplePayTransactionRecord(
                    transactionId: $0["transaction_id"], publicKeyHash: $0["public_key_hash"], signingTime: $0["signing_time"],
                    acceptedAt: $0["accepted_at"])
            }
        }
    }
}

/// The replay store on PostgreSQL: `INSERT … ON CONFLICT DO NOTHING RETURNING` in its own
/// transaction; a concurrent insert of the same id waits for the first to commit, then inserts
/// nothing. The answer follows the acknowledged COMMIT.
extension PostgresNotificationStore {
    public func record(_ record: ApplePayTransactionRecord) async throws -> Bool {
        let insert = try Self.query(
            ApplePayReplaySchema.insert + " RETURNING transaction_id",
            [record.transactionId, record.publicKeyHash, record.signingTime, record.acceptedAt])
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var inserted = false
            for try await _ in try await connection.query(insert, logger: logger) { inserted = true }
            return inserted
        }
    }

    /// Every recorded Apple Pay transaction (for audits and tests).
    public func applePayTransactions() async throws -> [ApplePayTransactionRecord] {
        var records: [ApplePayTransactionRecord] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: ApplePayReplaySchema.select), logger: logger)
        for try await (transactionId, publicKeyHash, signingTime, acceptedAt) in rows.decode((String, String, Int64, Int64).self) {
            records.append(
                ApplePayTransactionRecord(
                    transactionId: transactionId, publicKeyHash: publicKeyHash, signingTime: signingTime, acceptedAt: acceptedAt))
        }
        return records
    }
}
