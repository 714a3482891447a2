import Foundation
import GRDB
import Logging
import PostgresNIO
import SigilHTTP

/// Where accepted notifications are forwarded: App Store Connect takes one sandbox URL per app,
/// so a team with several staging servers has the receiver pass each notification on.
/// `--forward [ENVIRONMENT=]URL`: every notification (or only those of that environment) to URL.
public struct ForwardingRule: Sendable, Hashable {
    /// Only notifications of this environment (`Sandbox`, `Production`, …); nil: all.
    public let environment: String?
    public let url: String

    /// `[ENVIRONMENT=]URL`, an http(s) URL.
    public init(parsing text: String) throws {
        var environment: String?
        var url = text
        if let equals = text.firstIndex(of: "="), !text[..<equals].contains(":") {
            environment = String(text[..<equals])
            url = String(text[text.index(after: equals)...])
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
            throw ReceiverConfiguration.Error("--forward \(text) is not [ENVIRONMENT=]http(s)://host/path")
        }
        self.environment = environment
        self.url = url
    }

    func applies(to environment: String) -> Bool { self.environment.map { $0.lowercased() == environment.lowercased() } ?? true }
}

/// One pending forward: the notification's JWS to POST to `destination`.
public struct OutboxItem: Sendable, Hashable {
    public let notificationUUID: String
    public let destination: String
    public let signedPayload: String
    public let attempts: Int
}

/// The `outbox` table: one row per (notification, destination), inserted in the notification's own
/// transaction — so a stored notification always has its forwards — and marked delivered once the
/// destination answered 2xx.
public enum OutboxSchema {
    static let migration = [
        """
        CREATE TABLE outbox (
            notification_uuid TEXT NOT NULL,
            destination TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at BIGINT NOT NULL,
            delivered_at BIGINT,
            last_error TEXT,
            PRIMARY KEY (notification_uuid, destination)
        )
        """,
        "CREATE INDEX outbox_due ON outbox (delivered_at, next_attempt_at)",
    ]
    static let insert = """
        INSERT INTO outbox (notification_uuid, destination, attempts, next_attempt_at) VALUES ($1, $2, 0, $3)
        ON CONFLICT (notification_uuid, destination) DO NOTHING
        """
    static let due = """
        SELECT o.notification_uuid, o.destination, n.signed_payload, o.attempts FROM outbox o
        JOIN notifications n ON n.uuid = o.notification_uuid
        WHERE o.delivered_at IS NULL AND o.next_attempt_at <= $1
        ORDER BY o.next_attempt_at LIMIT $2
        """
    static let delivered = "UPDATE outbox SET delivered_at = $3, attempts = attempts + 1 WHERE notification_uuid = $1 AND destination = $2"
    static let failed = """
        UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $3, last_error = $4
        WHERE notification_uuid = $1 AND destination = $2 AND delivered_at IS NULL
        """
    static let depth = "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
}

/// Delivers the outbox: polls for due rows, POSTs each notification as Apple does
/// (`{"signedPayload": …}`, `Content-Type: application/json`), marks 2xx delivered and retries
/// anything else with exponential backoff (1 s doubling to `maximumBackoff`, with jitter). It runs
/// beside the HTTP server and never delays Apple's answer: the rows are written in the
/// notification's transaction, the POSTs happen later. At least once: a receiver killed between a
/// 2xx and its mark delivers that one again after the restart.
public final class OutboxForwarder: Sendable {
    let store: any NotificationStore
    let transport: any HTTPTransport
    let logger: Logger
    let maximumBackoff: Double
    let pollInterval: Duration
    let timeout: Double

    public init(
        store: any NotificationStore, transport: any HTTPTransport, logger: Logger, maximumBackoff: Double = 300,
        pollInterval: Duration = .milliseconds(500), timeout: Double = 10
    ) {
        self.store = store
        self.transport = transport
        self.logger = logger
        self.maximumBackoff = maximumBackoff
        self.pollInterval = pollInterval
        self.timeout = timeout
    }

    /// Delivers until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            let delivered = await deliverDue()
            if delivered == 0 { try? await Task.sleep(for: pollInterval) }
        }
    }

    /// One pass over the due rows (at most 32, 8 at a time); how many were attempted.
    func deliverDue() async -> Int {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let due: [OutboxItem]
        do { due = try await store.dueOutbox(now: now, limit: 32) } catch {
            logger.error("outbox: the store did not answer: \(String(reflecting: error))")
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for item in due {
                if running == 8 {
                    await group.next()
                    running -= 1
                }
                group.addTask { await self.deliver(item) }
                running += 1
            }
        }
        return due.count
    }

    func deliver(_ item: OutboxItem) async {
        let body = (try? JSONSerialization.data(withJSONObject: ["signedPayload": item.signedPayload])) ?? Data()
        var failure: String?
        do {
            let response = try await transport.send(
                HTTPRequest(
                    method: "POST", url: item.destination, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body)),
                timeout: timeout, maximumResponseSize: 64 << 10)
            if !(200..<300).contains(response.status) { failure = "HTTP \(response.status)" }
        } catch {
            failure = "\(error)"
        }
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let metadata: Logger.Metadata = ["notificationUUID": "\(item.notificationUUID)", "destination": "\(item.destination)"]
        do {
            if let failure {
                let backoff = min(maximumBackoff, pow(2, Double(min(item.attempts, 20))))
                let next = now + Int64(backoff * 1000 * Double.random(in: 0.8...1.2))
                try await store.markOutboxFailed(
                    notificationUUID: item.notificationUUID, destination: item.destination, nextAttemptAt: next,
                    error: String(failure.prefix(500)))
                logger.warning("outbox: forward failed (\(failure)); retry in \(Int(backoff)) s", metadata: metadata)
            } else {
                try await store.markOutboxDelivered(notificationUUID: item.notificationUUID, destination: item.destination, at: now)
                logger.debug("outbox: forwarded", metadata: metadata)
            }
        } catch {
            logger.error("outbox: could not record a forward: \(String(reflecting: error))", metadata: metadata)
        }
    }
}

// MARK: - SQLite

extension SQLiteNotificationStore {
    static func insertOutbox(_ record: NotificationRecord, in db: Database) throws {
        for destination in record.forwardTo {
            try db.execute(sql: sqlite(OutboxSchema.insert), arguments: [record.notificationUUID, destination, record.receivedAt])
        }
    }

    public func dueOutbox(now: Int64, limit: Int) async throws -> [OutboxItem] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: Self.sqlite(OutboxSchema.due), arguments: [now, limit]).map { row in
                OutboxItem(
                    notificationUUID: row["notification_uuid"], destination: row["destination"], signedPayload: row["signed_payload"],
                    attempts: row["attempts"])
            }
        }
    }

    public func markOutboxDelivered(notificationUUID: String, destination: String, at time: Int64) async throws {
        try await pool.write { db in
            try db.execute(sql: Self.sqlite(OutboxSchema.delivered), arguments: [notificationUUID, destination, time])
        }
    }

    public func markOutboxFailed(notificationUUID: String, destination: String, nextAttemptAt: Int64, error: String) async throws {
        try await pool.write { db in
            try db.execute(sql: Self.sqlite(OutboxSchema.failed), arguments: [notificationUUID, destination, nextAttemptAt, error])
        }
    }

    public func outboxDepth() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: OutboxSchema.depth) ?? 0 }
    }
}

// MARK: - PostgreSQL

extension PostgresNotificationStore {
    static func outboxQueries(_ record: NotificationRecord) throws -> [PostgresQuery] {
        try record.forwardTo.map { try query(OutboxSchema.insert, [record.notificationUUID, $0, record.receivedAt]) }
    }

    public func dueOutbox(now: Int64, limit: Int) async throws -> [OutboxItem] {
        var items: [OutboxItem] = []
        let rows = try await client.query(try Self.query(OutboxSchema.due, [now, Int64(limit)]), logger: logger)
        for try await (uuid, destination, payload, attempts) in rows.decode((String, String, String, Int32).self) {
            items.append(OutboxItem(notificationUUID: uuid, destination: destination, signedPayload: payload, attempts: Int(attempts)))
        }
        return items
    }

    public func markOutboxDelivered(notificationUUID: String, destination: String, at time: Int64) async throws {
        try await client.query(try Self.query(OutboxSchema.delivered, [notificationUUID, destination, time]), logger: logger)
    }

    public func markOutboxFailed(notificationUUID: String, destination: String, nextAttemptAt: Int64, error: String) async throws {
        try await client.query(try Self.query(OutboxSchema.failed, [notificationUUID, destination, nextAttemptAt, error]), logger: logger)
    }

    public func outboxDepth() async throws -> Int {
        var depth = 0
        for try await n in try await client.query(PostgresQuery(unsafeSQL: OutboxSchema.depth), logger: logger).decode(Int.self) {
            depth = n
        }
        return depth
    }
}
