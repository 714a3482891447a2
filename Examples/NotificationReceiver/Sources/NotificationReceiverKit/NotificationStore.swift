import Foundation
import SigilService

/// One verified notification, as stored: the notifications row, and the transaction state it
/// updates (when it carries a signed transaction).
public struct NotificationRecord: Sendable, Hashable {
    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    /// The notification's signedDate, milliseconds since 1970.
    public var signedDate: Int64
    public var environment: String
    /// The JWS exactly as received.
    public var signedPayload: String
    /// When this receiver accepted it, milliseconds since 1970.
    public var receivedAt: Int64
    public var transaction: TransactionState?
    /// The destinations to forward it to (outbox rows written in the same transaction).
    public var forwardTo: [String]

    public init(
        notificationUUID: String, notificationType: String, subtype: String?, signedDate: Int64, environment: String,
        signedPayload: String, receivedAt: Int64, transaction: TransactionState?, forwardTo: [String] = []
    ) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.environment = environment
        self.signedPayload = signedPayload
        self.receivedAt = receivedAt
        self.transaction = transaction
        self.forwardTo = forwardTo
    }
}

/// The latest known state of one purchase (per originalTransactionId): what GET
/// /appstore/transactions/{originalTransactionId} returns. Replaced only by a transaction signed
/// at the same time or later, so a late redelivery never rolls the state back.
public struct TransactionState: Codable, Sendable, Hashable {
    public var originalTransactionId: String
    public var transactionId: String
    public var productId: String?
    public var bundleId: String?
    public var environment: String
    /// The transaction's signedDate, milliseconds since 1970.
    public var signedDate: Int64
    public var purchaseDate: Int64?
    public var expiresDate: Int64?
    public var revocationDate: Int64?
    public var autoRenewStatus: Int32?
    public var autoRenewProductId: String?
    public var lastNotificationUUID: String
    public var lastNotificationType: String
    public var lastNotificationSubtype: String?
    public var updatedAt: Int64
    public var signedTransactionInfo: String
    public var signedRenewalInfo: String?

    public init(
        originalTransactionId: String, transactionId: String, productId: String?, bundleId: String?, environment: String,
        signedDate: Int64, purchaseDate: Int64?, expiresDate: Int64?, revocationDate: Int64?, autoRenewStatus: Int32?,
        autoRenewProductId: String?, lastNotificationUUID: String, lastNotificationType: String, lastNotificationSubtype: String?,
        updatedAt: Int64, signedTransactionInfo: String, signedRenewalInfo: String?
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.productId = productId
        self.bundleId = bundleId
        self.environment = environment
        self.signedDate = signedDate
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.lastNotificationUUID = lastNotificationUUID
        self.lastNotificationType = lastNotificationType
        self.lastNotificationSubtype = lastNotificationSubtype
        self.updatedAt = updatedAt
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

/// What `store` did.
public enum StoreOutcome: String, Sendable {
    /// The notification row (and the transaction state) were committed.
    case stored
    /// A row with this notificationUUID already existed; nothing was written.
    case duplicate
}

/// Where notifications go. `store` returns only after its database transaction has committed
/// durably (the receiver answers 200 after it), and inserts the notification and updates the
/// transaction state in that one transaction; a notificationUUID already stored is a duplicate,
/// decided by the database's unique key, so concurrent deliveries (even to several receiver
/// processes sharing one PostgreSQL database) store it once.
public protocol NotificationStore: AppAttestStore, ApplePayReplayStore {
    /// Creates or upgrades the schema to `NotificationSchema.version` (safe to call from several
    /// processes at once).
    func prepare() async throws
    func store(_ record: NotificationRecord) async throws -> StoreOutcome
    func transactionState(originalTransactionId: String) async throws -> TransactionState?
    /// Every stored notificationUUID, one entry per row (for audits and tests).
    func storedNotificationUUIDs() async throws -> [String]
    /// The environment stored on every notification row, by notificationUUID (for audits and tests).
    func storedNotificationEnvironments() async throws -> [String: String]
    /// The schema version recorded in the database.
    func schemaVersion() async throws -> Int
    /// Every accepted Apple Pay transaction (for audits and tests).
    func applePayTransactions() async throws -> [ApplePayTransactionRecord]
    /// Short name for logs: "sqlite" or "postgresql".
    var kind: String { get }
    /// Stores a verified Sign in with Apple notification once (its `identity` is the key), durably
    /// committed before it returns; `.duplicate` when that identity is already stored.
    func storeAppleIDEvent(_ record: AppleIDEventRecord) async throws -> StoreOutcome
    /// Whether the stored notification with this identity was handled by the app's hook.
    func appleIDEventIsHandled(identity: String) async throws -> Bool
    /// Records that the app's hook handled the notification (once; later calls change nothing).
    func markAppleIDEventHandled(identity: String, at time: Int64) async throws
    /// Every stored Sign in with Apple notification (for audits and tests).
    func appleIDEvents() async throws -> [AppleIDEventRecord]
    /// Undelivered forwards due at `now`, oldest first, at most `limit`.
    func dueOutbox(now: Int64, limit: Int) async throws -> [OutboxItem]
    func markOutboxDelivered(notificationUUID: String, destination: String, at time: Int64) async throws
    func markOutboxFailed(notificationUUID: String, destination: String, nextAttemptAt: Int64, error: String) async throws
    /// How many forwards are not yet delivered.
    func outboxDepth() async throws -> Int
}

/// The schema, versioned: migration n takes the database from version n-1 to n. Both stores run
/// these statements (the SQL is common to SQLite ≥ 3.24 and PostgreSQL ≥ 9.5).
public enum NotificationSchema {
    public static let migrations: [[String]] = [
        // 1: notifications and the latest state per originalTransactionId.
        [
            """
            CREATE TABLE notifications (
                uuid TEXT NOT NULL PRIMARY KEY,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                signed_date BIGINT NOT NULL,
                environment TEXT NOT NULL,
                original_transaction_id TEXT,
                signed_payload TEXT NOT NULL,
                received_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX notifications_by_original_transaction ON notifications (original_transaction_id)",
            """
            CREATE TABLE transaction_state (
                original_transaction_id TEXT NOT NULL PRIMARY KEY,
                transaction_id TEXT NOT NULL,
                product_id TEXT,
                bundle_id TEXT,
                environment TEXT NOT NULL,
                signed_date BIGINT NOT NULL,
                purchase_date BIGINT,
                expires_date BIGINT,
                revocation_date BIGINT,
                auto_renew_status INTEGER,
                auto_renew_product_id TEXT,
                last_notification_uuid TEXT NOT NULL,
                last_notification_type TEXT NOT NULL,
                last_notification_subtype TEXT,
                updated_at BIGINT NOT NULL,
                signed_transaction_info TEXT NOT NULL,
                signed_renewal_info TEXT
            )
            """,
        ],
        // 2: App Attest — one-time challenges, attested keys with their counter, accepted assertions.
        AppAttestSchema.migration,
        // 3: Sign in with Apple server-to-server notifications, one row per notification.
        AppleIDEventSchema.migration,
        // 4: the outbox of notifications to forward.
        OutboxSchema.migration,
        // 5: accepted Apple Pay transaction ids, the verification service's replay store (issue 38).
        ApplePayReplaySchema.migration,
        // 6: the Apple Pay replay table keyed by the token's replay key, with the request's fingerprint (issue 46).
        ApplePayReplaySchema.replayKeyMigration,
    ]

    public static var version: Int { migrations.count }

    /// The upsert both stores run (placeholders written `$n`; SQLite reads them as `?n`): the
    /// state changes only if the incoming transaction is signed no earlier than the stored one.
    static let upsertTransactionState = """
        INSERT INTO transaction_state (original_transaction_id, transaction_id, product_id, bundle_id, environment, signed_date,
            purchase_date, expires_date, revocation_date, auto_renew_status, auto_renew_product_id, last_notification_uuid,
            last_notification_type, last_notification_subtype, updated_at, signed_transaction_info, signed_renewal_info)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
        ON CONFLICT (original_transaction_id) DO UPDATE SET
            transaction_id = excluded.transaction_id, product_id = excluded.product_id, bundle_id = excluded.bundle_id,
            environment = excluded.environment, signed_date = excluded.signed_date, purchase_date = excluded.purchase_date,
            expires_date = excluded.expires_date, revocation_date = excluded.revocation_date,
            auto_renew_status = excluded.auto_renew_status, auto_renew_product_id = excluded.auto_renew_product_id,
            last_notification_uuid = excluded.last_notification_uuid, last_notification_type = excluded.last_notification_type,
            last_notification_subtype = excluded.last_notification_subtype, updated_at = excluded.updated_at,
            signed_transaction_info = excluded.signed_transaction_info, signed_renewal_info = excluded.signed_renewal_info
        WHERE excluded.signed_date >= transaction_state.signed_date
        """

    static let insertNotification = """
        INSERT INTO notifications (uuid, notification_type, subtype, signed_date, environment, original_transaction_id,
            signed_payload, received_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (uuid) DO NOTHING
        """

    static let selectTransactionState = """
        SELECT original_transaction_id, transaction_id, product_id, bundle_id, environment, signed_date, purchase_date,
            expires_date, revocation_date, auto_renew_status, auto_renew_product_id, last_notification_uuid, last_notification_type,
            last_notification_subtype, updated_at, signed_transaction_info, signed_renewal_info
        FROM transaction_state WHERE original_transaction_id = $1
        """
}
