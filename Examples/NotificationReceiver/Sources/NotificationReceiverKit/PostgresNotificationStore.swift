import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The server store: PostgreSQL through PostgresNIO's connection pool. Several receiver
/// processes may share one database: the notifications primary key decides duplicates
/// (`ON CONFLICT (uuid) DO NOTHING` waits for a concurrent insert of the same uuid to commit or
/// roll back), and schema migration runs under a transaction-level advisory lock.
///
/// Durability: `store` returns after COMMIT has been acknowledged, and the receiver relies on the
/// server's default `synchronous_commit = on` (the commit's WAL record is flushed before the
/// acknowledgement).
///
/// `client` must be running (`await client.run()`, or added to the application's services) for
/// any call to proceed.
public final class PostgresNotificationStore: NotificationStore {
    public let client: PostgresClient
    let logger: Logger
    public var kind: String { "postgresql" }

    /// A store for `url` (`postgres://user:password@host:port/database`, optional
    /// `?sslmode=disable|prefer|require`, prefer when absent).
    public init(url: String, maximumConnections: Int = 16, logger: Logger) throws {
        self.logger = logger
        var configuration = try Self.configuration(url: url)
        configuration.options.maximumConnections = maximumConnections
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    static func configuration(url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw ReceiverStoreError("the PostgreSQL URL is not postgres://user:password@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else { throw ReceiverStoreError("the PostgreSQL URL has no host") }
        guard let user = components.user, !user.isEmpty else { throw ReceiverStoreError("the PostgreSQL URL has no user name") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let sslmode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch sslmode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw ReceiverStoreError("sslmode \(sslmode) is not disable, prefer or require")
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password?.removingPercentEncoding, database: database.isEmpty ? nil : database,
            tls: tls)
    }

    static func query(_ sql: String, _ values: [(any PostgresEncodable)?]) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value {
                try bindings.append(value, context: .default)
            } else {
                bindings.appendNull()
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    public func prepare() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One migrating process at a time; the others wait, then find the schema current.
            try await connection.query("SELECT pg_advisory_xact_lock(1936287340)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", logger: logger)
            var current = 0
            for try await version in try await connection.query("SELECT MAX(version) FROM schema_version", logger: logger).decode(Int?.self)
            {
                current = version ?? 0
            }
            guard current <= NotificationSchema.version else {
                throw ReceiverStoreError(
                    "the database is at schema version \(current), newer than this receiver's \(NotificationSchema.version)")
            }
            for version in (current + 1)..<(NotificationSchema.version + 1) {
                for statement in NotificationSchema.migrations[version - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_version (version) VALUES (\(version))", logger: logger)
            }
        }
    }

    public func store(_ record: NotificationRecord) async throws -> StoreOutcome {
        let insert = try Self.query(
            NotificationSchema.insertNotification + " RETURNING uuid",
            [
                record.notificationUUID, record.notificationType, record.subtype, record.signedDate, record.environment,
                record.transaction?.originalTransactionId, record.signedPayload, record.receivedAt,
            ])
        let upsert = try record.transaction.map { state in
            try Self.query(
                NotificationSchema.upsertTransactionState,
                [
                    state.originalTransactionId, state.transactionId, state.productId, state.bundleId, state.environment,
                    state.signedDate, state.purchaseDate, state.expiresDate, state.revocationDate, state.autoRenewStatus,
                    state.autoRenewProductId, state.lastNotificationUUID, state.lastNotificationType, state.lastNotificationSubtype,
                    state.updatedAt, state.signedTransactionInfo, state.signedRenewalInfo,
                ])
        }
        let outbox = try Self.outboxQueries(record)
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var inserted = false
            for try await _ in try await connection.query(insert, logger: logger) { inserted = true }
            guard inserted else { return StoreOutcome.duplicate }
            for query in outbox { try await connection.query(query, logger: logger) }
            if let upsert { try await connection.query(upsert, logger: logger) }
            return StoreOutcome.stored
        }
    }

    public func transactionState(originalTransactionId: String) async throws -> TransactionState? {
        let select = try Self.query(NotificationSchema.selectTransactionState, [originalTransactionId])
        for try await row in try await client.query(select, logger: logger) {
            let r = row.makeRandomAccess()
            return TransactionState(
                originalTransactionId: try r["original_transaction_id"].decode(String.self),
                transactionId: try r["transaction_id"].decode(String.self), productId: try r["product_id"].decode(String?.self),
                bundleId: try r["bundle_id"].decode(String?.self), environment: try r["environment"].decode(String.self),
                signedDate: try r["signed_date"].decode(Int64.self), purchaseDate: try r["purchase_date"].decode(Int64?.self),
                expiresDate: try r["expires_date"].decode(Int64?.self), revocationDate: try r["revocation_date"].decode(Int64?.self),
                autoRenewStatus: try r["auto_renew_status"].decode(Int32?.self),
                autoRenewProductId: try r["auto_renew_product_id"].decode(String?.self),
                lastNotificationUUID: try r["last_notification_uuid"].decode(String.self),
                lastNotificationType: try r["last_notification_type"].decode(String.self),
                lastNotificationSubtype: try r["last_notification_subtype"].decode(String?.self),
                updatedAt: try r["updated_at"].decode(Int64.self),
                signedTransactionInfo: try r["signed_transaction_info"].decode(String.self),
                signedRenewalInfo: try r["signed_renewal_info"].decode(String?.self))
        }
        return nil
    }

    public func storedNotificationUUIDs() async throws -> [String] {
        var uuids: [String] = []
        for try await uuid in try await client.query("SELECT uuid FROM notifications", logger: logger).decode(String.self) {
            uuids.append(uuid)
        }
        return uuids
    }

    public func storedNotificationEnvironments() async throws -> [String: String] {
        var environments: [String: String] = [:]
        let rows = try await client.query("SELECT uuid, environment FROM notifications", logger: logger)
        for try await (uuid, environment) in rows.decode((String, String).self) { environments[uuid] = environment }
        return environments
    }

    public func schemaVersion() async throws -> Int {
        var current = 0
        for try await version in try await client.query("SELECT MAX(version) FROM schema_version", logger: logger).decode(Int?.self) {
            current = version ?? 0
        }
        return current
    }

    /// Drops the receiver's tables (tests use a fresh schema per run).
    public func dropAll() async throws {
        try await client.query(
            """
            DROP TABLE IF EXISTS notifications, transaction_state, appattest_assertions, appattest_keys, appattest_challenges,
                siwa_events, outbox, applepay_transactions, schema_version
            """, logger: logger)
    }
}
