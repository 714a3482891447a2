import Foundation

/// One attested App Attest key, as stored: written once by an accepted attestation (counter 0),
/// then its counter advanced by each accepted assertion.
public struct AttestedKeyRecord: Sendable, Hashable {
    /// The key identifier, base64 (SHA-256 of the public key, as the app sends it).
    public var keyId: String
    /// The credential public key: the uncompressed P-256 point, base64.
    public var publicKey: String
    /// The highest accepted counter (0 after the attestation).
    public var counter: Int64
    /// The attestation's fraud-metric receipt, base64, as received (for Apple's refresh endpoint).
    public var receipt: String
    /// "development" or "production".
    public var environment: String
    /// When the attestation was accepted, milliseconds since 1970.
    public var attestedAt: Int64

    public init(keyId: String, publicKey: String, counter: Int64, receipt: String, environment: String, attestedAt: Int64) {
        self.keyId = keyId
        self.publicKey = publicKey
        self.counter = counter
        self.receipt = receipt
        self.environment = environment
        self.attestedAt = attestedAt
    }
}

/// Why a challenge was not accepted.
public enum ChallengeRefusal: String, Sendable {
    /// Never issued by this service (or purged long after it expired).
    case unknown
    /// Issued, but its lifetime is over.
    case expired
    /// Issued and already consumed by an attestation or an assertion.
    case used
}

/// What `storeAttestation` did.
public enum AttestationStoreOutcome: Sendable, Equatable {
    /// The challenge was consumed and the key stored with counter 0, in one committed transaction.
    case stored
    /// Nothing was written: the challenge is not live.
    case challengeRefused(ChallengeRefusal)
    /// Nothing was written: this key id is already attested.
    case keyExists
}

/// What `storeAssertion` did.
public enum AssertionStoreOutcome: Sendable, Equatable {
    /// The challenge was consumed, the counter moved from the expected value to the new one and the
    /// assertion recorded, in one committed transaction.
    case accepted
    /// Nothing was written: the challenge is not live.
    case challengeRefused(ChallengeRefusal)
    /// Nothing was written: the stored counter is no longer the one the assertion was verified
    /// against (another assertion for the key committed first); verify again against the new one.
    case counterMoved
    /// Nothing was written: no key with this id is attested.
    case unknownKey
}

/// The App Attest half of the receiver's storage. Every write is one database transaction that
/// commits durably before the method returns, or changes nothing (a refusal rolls back, so a
/// refused request never consumes its challenge).
public protocol AppAttestStore: Sendable {
    /// In one transaction: removes challenges that expired before `purgeExpiredBefore`, then stores
    /// a freshly issued challenge (base64) valid until `expiresAt` (ms since 1970) unless
    /// `maximumRows` challenges are already stored — then nothing is written and it returns false.
    func insertChallenge(
        _ challenge: String, issuedAt: Int64, expiresAt: Int64, purgeExpiredBefore: Int64, maximumRows: Int
    ) async throws -> Bool
    /// How many challenge rows are stored (for audits and tests).
    func challengeCount() async throws -> Int
    /// Consumes `challenge` (live at `now`) and inserts `key`, in one transaction.
    func storeAttestation(_ key: AttestedKeyRecord, challenge: String, now: Int64) async throws -> AttestationStoreOutcome
    /// The stored key, or nil.
    func attestedKey(keyId: String) async throws -> AttestedKeyRecord?
    /// Compare-and-set, in one transaction: consumes `challenge` (live at `now`), sets the key's
    /// counter to `newCounter` only where it is still `expectedCounter`, and records the assertion.
    func storeAssertion(keyId: String, expectedCounter: Int64, newCounter: Int64, challenge: String, now: Int64) async throws
        -> AssertionStoreOutcome
    /// Every attested key (for audits and tests).
    func attestedKeys() async throws -> [AttestedKeyRecord]
    /// Every accepted assertion as (key id, counter), one entry per row (for audits and tests).
    func acceptedAssertions() async throws -> [AcceptedAssertion]
}

/// One row of `appattest_assertions`.
public struct AcceptedAssertion: Sendable, Hashable {
    public var keyId: String
    public var counter: Int64
    public init(keyId: String, counter: Int64) {
        self.keyId = keyId
        self.counter = counter
    }
}

/// Thrown inside a store transaction to roll it back with an outcome (the caller catches it).
struct RollBack<Outcome: Sendable>: Error {
    let outcome: Outcome
}

/// The App Attest tables (schema version 2) and the statements both stores run (placeholders
/// `$n`; SQLite reads them as `?n`). Binary values are base64 text, so the SQL is common to
/// SQLite and PostgreSQL.
public enum AppAttestSchema {
    static let migration: [String] = [
        """
        CREATE TABLE appattest_challenges (
            challenge TEXT NOT NULL PRIMARY KEY,
            issued_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            used_at BIGINT
        )
        """,
        "CREATE INDEX appattest_challenges_by_expiry ON appattest_challenges (expires_at)",
        """
        CREATE TABLE appattest_keys (
            key_id TEXT NOT NULL PRIMARY KEY,
            public_key TEXT NOT NULL,
            counter BIGINT NOT NULL,
            receipt TEXT NOT NULL,
            environment TEXT NOT NULL,
            attested_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE appattest_assertions (
            key_id TEXT NOT NULL REFERENCES appattest_keys (key_id),
            counter BIGINT NOT NULL,
            challenge TEXT NOT NULL,
            accepted_at BIGINT NOT NULL,
            PRIMARY KEY (key_id, counter)
        )
        """,
    ]

    static let insertChallenge = "INSERT INTO appattest_challenges (challenge, issued_at, expires_at) VALUES ($1, $2, $3)"
    static let purgeChallenges = "DELETE FROM appattest_challenges WHERE expires_at < $1"
    static let countChallenges = "SELECT COUNT(*) FROM appattest_challenges"
    /// Consumes a live challenge: one row changes, or none (then `selectChallenge` says why).
    static let consumeChallenge = """
        UPDATE appattest_challenges SET used_at = $2 WHERE challenge = $1 AND used_at IS NULL AND expires_at > $2
        """
    static let selectChallenge = "SELECT used_at, expires_at FROM appattest_challenges WHERE challenge = $1"
    static let insertKey = """
        INSERT INTO appattest_keys (key_id, public_key, counter, receipt, environment, attested_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $6)
        ON CONFLICT (key_id) DO NOTHING
        """
    static let selectKey = """
        SELECT key_id, public_key, counter, receipt, environment, attested_at FROM appattest_keys WHERE key_id = $1
        """
    static let selectKeys = "SELECT key_id, public_key, counter, receipt, environment, attested_at FROM appattest_keys"
    /// The compare-and-set: changes one row only while the counter is still the expected one.
    static let advanceCounter = "UPDATE appattest_keys SET counter = $3, updated_at = $4 WHERE key_id = $1 AND counter = $2"
    static let keyExists = "SELECT 1 FROM appattest_keys WHERE key_id = $1"
    static let insertAssertion = "INSERT INTO appattest_assertions (key_id, counter, challenge, accepted_at) VALUES ($1, $2, $3, $4)"
    static let selectAssertions = "SELECT key_id, counter FROM appattest_assertions"

    /// Why `consumeChallenge` changed nothing, from the challenge's row (nil: no row).
    static func refusal(usedAt: Int64?, expiresAt: Int64?, now: Int64) -> ChallengeRefusal {
        guard let expiresAt else { return .unknown }
        if usedAt != nil { return .used }
        return expiresAt <= now ? .expired : .used
    }
}
