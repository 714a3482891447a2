import Foundation
import Logging
import SigilApplePay
import SigilService
import SigilX509

/// The verification service's kind `applepay` (issue 38), from its command line: the merchant keys
/// (several at once, chosen by each token's `publicKeyHash`, as during a certificate rotation), an
/// optional test root, the signing-time window, and the replay store — SQLite or PostgreSQL, the
/// notification receiver's stores and schema (version 5 adds `applepay_transactions`, version 6
/// keys it by each token's replay key).
///
/// Safe by default: with merchant keys but no replay store the service does not start, unless
/// the named relaxation `--applepay-without-replay-protection` says every token is accepted as
/// often as it is sent (the answer then lists `replayKey` in `notEnforced`). Without merchant
/// keys, kind `applepay` is answered `service.notConfigured` (501).
///
/// | Option | Meaning |
/// |---|---|
/// | `--applepay-merchant KEY=CERT` | a merchant private key file (PEM/DER: SEC 1, PKCS#8, PKCS#1) and its payment processing certificate; repeatable |
/// | `--applepay-merchant-id KEY=MERCHANT_ID` | a key and its merchant identifier, when the certificate is not at hand; repeatable |
/// | `--applepay-root FILE` | a root to trust instead of Apple Root CA - G3 (a test PKI's); repeatable |
/// | `--applepay-tolerance SECONDS` | how far the signing time may be from now (or the request's `at`); 300 |
/// | `--sqlite PATH` / `--postgres-url URL` | the replay store |
/// | `--applepay-without-replay-protection` | the named relaxation (takes no value) |
public struct ApplePayOptions: Sendable {
    /// The merchant keys' files: the key and either the certificate's file or the identifier.
    public var merchants: [(key: String, certificate: String?, identifier: String?)] = []
    /// Root certificate files replacing Apple Root CA - G3.
    public var roots: [String] = []
    /// The signing-time window, seconds either way.
    public var tolerance: Int64 = 300
    /// The SQLite replay store's file.
    public var sqlitePath: String?
    /// The PostgreSQL replay store's URL.
    public var postgresURL: String?
    /// The named relaxation: no replay store.
    public var withoutReplayProtection = false
    /// How long the replay store may take before the answer is 503.
    public var storeTimeout: Duration = .seconds(5)

    /// Options with nothing configured.
    public init() {}

    /// The flags that take no value.
    public static let switches: Set<String> = ["--applepay-without-replay-protection"]

    /// Takes `flag` (and `value`, for flags that have one); false when the flag is not one of these.
    public mutating func take(_ flag: String, _ value: String?) throws -> Bool {
        func pair(_ text: String) throws -> (String, String) {
            guard let split = text.firstIndex(of: "="), split != text.startIndex, text.index(after: split) != text.endIndex else {
                throw ReceiverStoreError("\(flag) \(text) is not KEY=VALUE")
            }
            return (String(text[..<split]), String(text[text.index(after: split)...]))
        }
        switch (flag, value) {
        case ("--applepay-without-replay-protection", _): withoutReplayProtection = true
        case ("--applepay-merchant", let value?):
            let (key, certificate) = try pair(value)
            merchants.append((key, certificate, nil))
        case ("--applepay-merchant-id", let value?):
            let (key, identifier) = try pair(value)
            merchants.append((key, nil, identifier))
        case ("--applepay-root", let value?): roots.append(value)
        case ("--applepay-tolerance", let value?):
            guard let seconds = Int64(value), (0...86_400).contains(seconds) else {
                throw ReceiverStoreError("--applepay-tolerance \(value) is not 0…86400 seconds")
            }
            tolerance = seconds
        case ("--sqlite", let value?): sqlitePath = value
        case ("--postgres-url", let value?): postgresURL = value
        default: return false
        }
        return true
    }

    /// The configuration and its store (nil when no merchant key is given), or why the options
    /// do not make a safe one.
    public func configuration(logger: Logger) throws -> (
        configuration: ApplePayServiceConfiguration, store: (any NotificationStore)?, postgres: PostgresNotificationStore?
    )? {
        let storeNamed = sqlitePath != nil || postgresURL != nil
        guard !merchants.isEmpty else {
            if storeNamed || withoutReplayProtection || !roots.isEmpty {
                throw ReceiverStoreError("the Apple Pay options need at least one --applepay-merchant or --applepay-merchant-id")
            }
            return nil
        }
        if sqlitePath != nil && postgresURL != nil { throw ReceiverStoreError("give one of --sqlite and --postgres-url") }
        if storeNamed && withoutReplayProtection {
            throw ReceiverStoreError(
                "--applepay-without-replay-protection and a replay store (--sqlite, --postgres-url) exclude each other")
        }
        if !storeNamed && !withoutReplayProtection {
            throw ReceiverStoreError(
                "kind applepay refuses a token seen twice: give a replay store (--sqlite PATH or --postgres-url URL), "
                    + "or --applepay-without-replay-protection to accept every token as often as it is sent")
        }
        let postgres = try postgresURL.map { try PostgresNotificationStore(url: $0, logger: logger) }
        let store: (any NotificationStore)? = try postgres ?? sqlitePath.map { try SQLiteNotificationStore(path: $0) }
        let protection: ApplePayServiceConfiguration.ReplayProtection =
            store.map { .store(TimedReplayStore(store: $0, timeout: storeTimeout)) } ?? .disabledAcceptingReplays
        return (try service(protection: protection), store, postgres)
    }

    /// The configuration with the notification receiver's own store as the replay store (the
    /// receiver always has one; its options name no other), or nil when no merchant key is given.
    public func configuration(receiverStore store: any NotificationStore, timeout: Duration) throws -> ApplePayServiceConfiguration? {
        guard !merchants.isEmpty else {
            if !roots.isEmpty {
                throw ReceiverStoreError("--applepay-root needs at least one --applepay-merchant or --applepay-merchant-id")
            }
            return nil
        }
        return try service(protection: .store(TimedReplayStore(store: store, timeout: timeout)))
    }

    /// The merchant keys and the verifier these options name, with `protection`.
    func service(protection: ApplePayServiceConfiguration.ReplayProtection) throws -> ApplePayServiceConfiguration {
        var keys: [MerchantKey] = []
        for merchant in merchants {
            let keyBytes = try Self.read(merchant.key)
            if let identifier = merchant.identifier {
                keys.append(try MerchantKey(privateKey: keyBytes, merchantIdentifier: identifier))
            } else if let certificateFile = merchant.certificate {
                keys.append(try MerchantKey(privateKey: keyBytes, certificate: try Self.certificate(certificateFile)))
            }
        }
        let verifier = try PaymentTokenVerifier(
            trustedRoots: roots.isEmpty ? nil : try roots.map(Self.certificate), signingTimeTolerance: tolerance)
        return ApplePayServiceConfiguration(merchantKeys: keys, verifier: verifier, replayProtection: protection)
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReceiverStoreError("cannot read \(path)") }
        return Array(data)
    }

    /// A certificate file, PEM or DER (the first CERTIFICATE of a PEM file), read as the
    /// receiver reads its roots.
    static func certificate(_ path: String) throws -> Certificate {
        guard let der = try ReceiverConfiguration.loadCertificates([path]).first else {
            throw ReceiverStoreError("\(path) holds no certificate")
        }
        return try Certificate(derEncoded: der)
    }
}

/// A replay store whose every call is bounded by the store timeout: past it, the answer is 503
/// and nothing is accepted (whether the insert committed is unknown, so success is never claimed).
struct TimedReplayStore: ApplePayReplayStore {
    let store: any ApplePayReplayStore
    let timeout: Duration

    func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome {
        try await withinStoreTimeout(timeout) { try await store.record(record) }
    }
}
