import Foundation
import GRDB

/// The embedded store: one SQLite file, no server to run (GRDB over the system's libsqlite3).
///
/// Durability: the database is in WAL mode with `synchronous = FULL`, so a commit has reached the
/// disk (fsync of the WAL) before `store` returns, and a 200 survives a crash or SIGKILL of the
/// process (and, FULL rather than NORMAL, a power cut). One writer connection serialises the
/// writes; readers run beside it.
public final class SQLiteNotificationStore: NotificationStore {
    public let path: String
    let pool: DatabasePool
    public var kind: String { "sqlite" }

    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB opens a pool's writer in WAL mode with synchronous = NORMAL (a commit may be lost
        // on power failure); FULL syncs the WAL at every commit. Set on the one writer
        // connection, after GRDB's own setup (durabilitySettings reads it back).
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    }

    /// The journal mode and synchronous setting in force (`wal`, 2 = FULL), for checks.
    public func durabilitySettings() async throws -> (journalMode: String, synchronous: Int) {
        try await pool.write { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
            let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            return (mode, synchronous)
        }
    }

    static func sqlite(_ sql: String) -> String { sql.replacingOccurrences(of: "$", with: "?") }

    public func prepare() async throws {
        try await pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                let current = try Int.fetchOne(db, sql: "SELECT MAX(version) FROM schema_version") ?? 0
                guard current <= NotificationSchema.version else {
                    throw ReceiverStoreError(
                        "the database is at schema version \(current), newer than this receiver's \(NotificationSchema.version)")
                }
                for version in (current + 1)..<(NotificationSchema.version + 1) {
                    for statement in NotificationSchema.migrations[version - 1] { try db.execute(sql: statement) }
                    try db.execute(sql: "INSERT INTO schema_version (version) VALUES (?)", arguments: [version])
                }
                return .commit
            }
        }
    }

    public func store(_ record: NotificationRecord) async throws -> StoreOutcome {
        try await pool.write { db in
            try db.execute(
                sql: Self.sqlite(NotificationSchema.insertNotification),
                arguments: [
                    record.notificationUUID, record.notificationType, record.subtype, record.signedDate, record.environment,
                    record.transaction?.originalTransactionId, record.signedPayload, record.receivedAt,
                ])
            guard db.changesCount == 1 else { return .duplicate }
            try Self.insertOutbox(record, in: db)
            if let state = record.transaction {
                let arguments: [(any DatabaseValueConvertible)?] = [
                    state.originalTransactionId, state.transactionId, state.productId, state.bundleId, state.environment,
                    state.signedDate, state.purchaseDate, state.expiresDate, state.revocationDate, state.autoRenewStatus.map { Int64($0) },
                    state.autoRenewProductId, state.lastNotificationUUID, state.lastNotificationType, state.lastNotificationSubtype,
                    state.updatedAt, state.signedTransactionInfo, state.signedRenewalInfo,
                ]
                try db.execute(sql: Self.sqlite(NotificationSchema.upsertTransactionState), arguments: StatementArguments(arguments))
            }
            return .stored
        }
    }

    public func transactionState(originalTransactionId: String) async throws -> TransactionState? {
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: Self.sqlite(NotificationSchema.selectTransactionState),
                    arguments: [originalTransactionId])
            else { return nil }
            return TransactionState(
                originalTransactionId: row["original_transaction_id"], transactionId: row["transaction_id"], productId: row["product_id"],
                bundleId: row["bundle_id"], environment: row["environment"], signedDate: row["signed_date"],
                purchaseDate: row["purchase_date"], expiresDate: row["expires_date"], revocationDate: row["revocation_date"],
                autoRenewStatus: (row["auto_renew_status"] as Int64?).map { Int32(truncatingIfNeeded: $0) },
                autoRenewProductId: row["auto_renew_product_id"], lastNotificationUUID: row["last_notification_uuid"],
                lastNotificationType: row["last_notification_type"], lastNotificationSubtype: row["last_notification_subtype"],
                updatedAt: row["updated_at"], signedTransactionInfo: row["signed_transaction_info"],
                signedRenewalInfo: row["signed_renewal_info"])
        }
    }

    public func storedNotificationUUIDs() async throws -> [String] {
        try await pool.read { db in try String.fetchAll(db, sql: "SELECT uuid FROM notifications") }
    }

    public func storedNotificationEnvironments() async throws -> [String: String] {
        try await pool.read { db in
            var environments: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT uuid, environment FROM notifications") {
                environments[row["uuid"]] = row["environment"]
            }
            return environments
        }
    }

    public func schemaVersion() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT MAX(version) FROM schema_version") ?? 0 }
    }
}

/// A store-level failure (schema, configuration), naming what was wrong.
public struct ReceiverStoreError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
