import Foundation
import GRDB
import Logging
import PostgresNIO
import SigilHTTP
import SigilJOSE
import SigilTokens

/// One stored Sign in with Apple server-to-server notification.
public struct AppleIDEventRecord: Sendable, Hashable {
    /// What identifies the notification across redeliveries (`AppleIDServerNotification.identity`).
    public var identity: String
    public var eventType: String
    /// The user (`sub`).
    public var subject: String
    /// `event_time`, milliseconds since 1970, when sent.
    public var eventTime: Int64?
    /// The audience the notification named that this receiver accepts.
    public var clientId: String
    /// The JWT exactly as received.
    public var payload: String
    public var receivedAt: Int64
    /// When the app's hook handled it (nil: no hook, or not yet handled).
    public var handledAt: Int64?

    public init(
        identity: String, eventType: String, subject: String, eventTime: Int64?, clientId: String, payload: String, receivedAt: Int64,
        handledAt: Int64? = nil
    ) {
        self.identity = identity
        self.eventType = eventType
        self.subject = subject
        self.eventTime = eventTime
        self.clientId = clientId
        self.payload = payload
        self.receivedAt = receivedAt
        self.handledAt = handledAt
    }
}

/// The `siwa_events` table: one row per notification identity.
public enum AppleIDEventSchema {
    static let migration = [
        """
        CREATE TABLE siwa_events (
            identity TEXT NOT NULL PRIMARY KEY,
            event_type TEXT NOT NULL,
            subject TEXT NOT NULL,
            event_time BIGINT,
            client_id TEXT NOT NULL,
            payload TEXT NOT NULL,
            received_at BIGINT NOT NULL,
            handled_at BIGINT
        )
        """,
        "CREATE INDEX siwa_events_by_subject ON siwa_events (subject)",
    ]
    static let insert = """
        INSERT INTO siwa_events (identity, event_type, subject, event_time, client_id, payload, received_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (identity) DO NOTHING
        """
    static let selectHandled = "SELECT handled_at FROM siwa_events WHERE identity = $1"
    static let markHandled = "UPDATE siwa_events SET handled_at = $2 WHERE identity = $1 AND handled_at IS NULL"
    static let selectAll = """
        SELECT identity, event_type, subject, event_time, client_id, payload, received_at, handled_at FROM siwa_events
        ORDER BY received_at, identity
        """
}

/// What the app does with a verified, stored Sign in with Apple notification — for
/// `consent-revoked` and `account-delete`, revoke the user's tokens
/// (`SignInWithAppleClient.revoke`) and delete or unlink their account, as App Review requires.
///
/// The receiver stores each notification once, then calls the hook; the row's `handled_at` is set
/// when the hook returns. If the hook throws, Apple is answered 500 and delivers the notification
/// again; the redelivery is a duplicate for the store but, not yet handled, is handed to the hook
/// again. So the hook runs at least once per notification and must be idempotent.
public typealias AppleIDEventHook = @Sendable (AppleIDServerNotification) async throws -> Void

/// What `POST /siwa/notifications` does with one body: read Apple's `{"payload": …}`, verify the
/// JWT against Apple's key set (cached by kid, `AppleJWKSCache`), store it once by its identity,
/// and hand it to the hook.
///
/// - 200 `{"status": "stored" | "duplicate", "type", "identity"}` once stored (and handled, with a hook);
/// - 400 `jose.malformed` for a body that is not `{"payload": "<JWT>"}` or not a JWS;
/// - 403 with the `jose.*` code of the failed check (algorithm, key id, signature, iss, aud, time, events);
/// - 503 when Apple's key set cannot be fetched, 500 when the store or the hook failed (Apple retries).
public struct AppleIDEventIntake: Sendable {
    public let verifier: AppleIDServerNotificationVerifier
    public let keys: AppleJWKSCache
    public let store: any NotificationStore
    public let logger: Logger
    public let storeTimeout: Duration
    public let hook: AppleIDEventHook?
    public let clock: @Sendable () -> Double

    public init(
        verifier: AppleIDServerNotificationVerifier, keys: AppleJWKSCache, store: any NotificationStore, logger: Logger,
        storeTimeout: Duration = .seconds(5), hook: AppleIDEventHook? = nil,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.verifier = verifier
        self.keys = keys
        self.store = store
        self.logger = logger
        self.storeTimeout = storeTimeout
        self.hook = hook
        self.clock = clock
    }

    /// A key cache fetching `url` (Apple's https://appleid.apple.com/auth/keys) through `transport`.
    public static func keyCache(url: String, transport: any HTTPTransport) -> AppleJWKSCache {
        AppleJWKSCache {
            let response = try await transport.send(HTTPRequest(method: "GET", url: url), timeout: 10, maximumResponseSize: 1 << 20)
            guard response.status == 200 else { throw KeySetUnavailable(description: "\(url) answered HTTP \(response.status)") }
            return try JWKS(parsing: response.body)
        }
    }

    struct KeySetUnavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The answer to one delivery.
    public struct Outcome: Sendable {
        public let status: Int
        public let body: [String: String]
    }

    public func accept(body: [UInt8]) async -> Outcome {
        let token: String
        do { token = try AppleIDServerNotificationVerifier.payload(ofBody: body) } catch {
            logger.warning("refused a Sign in with Apple notification: \(error.reason)")
            return Outcome(status: 400, body: ["status": error.qualifiedCode, "reason": error.reason])
        }
        let keySet: JWKS
        do { keySet = try await keys.keys(containing: AppleIDServerNotificationVerifier.keyID(of: token)) } catch {
            logger.error("Sign in with Apple: Apple's key set is unavailable: \(error)")
            return Outcome(status: 503, body: ["status": "receiver.keySetUnavailable", "reason": "Apple's key set could not be fetched"])
        }
        let notification: AppleIDServerNotification
        do { notification = try verifier.verify(token, keys: keySet, now: clock()) } catch {
            let status = error.code == .malformed ? 400 : 403
            logger.warning("refused a Sign in with Apple notification: \(error.qualifiedCode): \(error.reason)")
            return Outcome(status: status, body: ["status": error.qualifiedCode, "reason": error.reason])
        }
        let clientId = notification.audience.first(where: verifier.clientIDs.contains) ?? ""
        let now = Int64((clock() * 1000).rounded(.down))
        let record = AppleIDEventRecord(
            identity: notification.identity, eventType: notification.event.type.rawValue, subject: notification.event.subject,
            eventTime: notification.event.eventTime, clientId: clientId, payload: token, receivedAt: now)
        var metadata: Logger.Metadata = ["siwaIdentity": "\(record.identity)", "siwaType": "\(record.eventType)"]
        let stored: (outcome: StoreOutcome, handled: Bool)
        do {
            stored = try await withinStoreTimeout(storeTimeout) { [store] in try await store.storeAppleIDEventOnce(record) }
        } catch {
            logger.error("could not store a Sign in with Apple notification: \(String(reflecting: error))", metadata: metadata)
            return Outcome(status: 500, body: ["status": "STORAGE_FAILURE", "reason": "the notification was not stored"])
        }
        metadata["result"] = "\(stored.outcome.rawValue)"
        if let hook, !stored.handled {
            do {
                try await hook(notification)
                _ = try await withinStoreTimeout(storeTimeout) { [store] in
                    try await store.markAppleIDEventHandled(identity: record.identity, at: Int64((clock() * 1000).rounded(.down)))
                }
            } catch {
                logger.error(
                    "the Sign in with Apple hook failed; Apple will deliver again: \(String(reflecting: error))", metadata: metadata)
                return Outcome(status: 500, body: ["status": "HOOK_FAILURE", "reason": "the notification is stored but not yet handled"])
            }
        }
        logger.info("Sign in with Apple notification \(record.eventType) \(stored.outcome.rawValue)", metadata: metadata)
        return Outcome(
            status: 200, body: ["status": stored.outcome.rawValue, "type": record.eventType, "identity": record.identity])
    }
}

extension NotificationStore {
    /// Stores `record` once and says whether it was already handled by a hook.
    func storeAppleIDEventOnce(_ record: AppleIDEventRecord) async throws -> (outcome: StoreOutcome, handled: Bool) {
        let outcome = try await storeAppleIDEvent(record)
        guard outcome == .duplicate else { return (outcome, false) }
        return (outcome, try await appleIDEventIsHandled(identity: record.identity))
    }
}

// MARK: - SQLite

extension SQLiteNotificationStore {
    public func storeAppleIDEvent(_ record: AppleIDEventRecord) async throws -> StoreOutcome {
        try await pool.write { db in
            try db.execute(
                sql: Self.sqlite(AppleIDEventSchema.insert),
                arguments: [
                    record.identity, record.eventType, record.subject, record.eventTime, record.clientId, record.payload,
                    record.receivedAt,
                ])
            return db.changesCount == 1 ? .stored : .duplicate
        }
    }

    public func markAppleIDEventHandled(identity: String, at time: Int64) async throws {
        try await pool.write { db in try db.execute(sql: Self.sqlite(AppleIDEventSchema.markHandled), arguments: [identity, time]) }
    }

    public func appleIDEventIsHandled(identity: String) async throws -> Bool {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: Self.sqlite(AppleIDEventSchema.selectHandled), arguments: [identity])
            return row.flatMap { $0["handled_at"] as Int64? } != nil
        }
    }

    public func appleIDEvents() async throws -> [AppleIDEventRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: AppleIDEventSchema.selectAll).map { row in
                AppleIDEventRecord(
                    identity: row["identity"], eventType: row["event_type"], subject: row["subject"], eventTime: row["event_time"],
                    clientId: row["client_id"], payload: row["payload"], receivedAt: row["received_at"], handledAt: row["handled_at"])
            }
        }
    }
}

// MARK: - PostgreSQL

extension PostgresNotificationStore {
    public func storeAppleIDEvent(_ record: AppleIDEventRecord) async throws -> StoreOutcome {
        let insert = try Self.query(
            AppleIDEventSchema.insert + " RETURNING identity",
            [record.identity, record.eventType, record.subject, record.eventTime, record.clientId, record.payload, record.receivedAt])
        var inserted = false
        for try await _ in try await client.query(insert, logger: logger) { inserted = true }
        return inserted ? .stored : .duplicate
    }

    public func markAppleIDEventHandled(identity: String, at time: Int64) async throws {
        try await client.query(try Self.query(AppleIDEventSchema.markHandled, [identity, time]), logger: logger)
    }

    public func appleIDEventIsHandled(identity: String) async throws -> Bool {
        var handled = false
        let rows = try await client.query(try Self.query(AppleIDEventSchema.selectHandled, [identity]), logger: logger)
        for try await time in rows.decode(Int64?.self) { handled = time != nil }
        return handled
    }

    public func appleIDEvents() async throws -> [AppleIDEventRecord] {
        var records: [AppleIDEventRecord] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: AppleIDEventSchema.selectAll), logger: logger)
        for try await (id, type, subject, time, clientId, payload, received, handled) in rows.decode(
            (String, String, String, Int64?, String, String, Int64, Int64?).self)
        {
            records.append(
                AppleIDEventRecord(
                    identity: id, eventType: type, subject: subject, eventTime: time, clientId: clientId, payload: payload,
                    receivedAt: received, handledAt: handled))
        }
        return records
    }
}
