import Foundation
import Logging
import SigilAppStore
import SigilHTTP
import SigilTokens

/// `notification-receiver backfill`: after an outage, the notifications Apple could not deliver
/// (it retries only a few times over days) read back from Apple's notification history (App Store
/// Server API, Get Notification History), each verified and stored exactly as a POSTed one
/// (`NotificationIntake.accept(signedPayload:)`): a notification already stored is a duplicate, a
/// transaction state is replaced only by a later-signed one, so running it twice, or while live
/// notifications arrive, stores each notification once and never rolls a state back.
///
/// Options (before or among the receiver's own, which say where to store and what to accept):
///
/// | Option | Environment variable | |
/// |---|---|---|
/// | `--since T` | | required: RFC 3339 or milliseconds since 1970 |
/// | `--until T` | | default now |
/// | `--asc-key-id ID` | `RECEIVER_ASC_KEY_ID` | the App Store Connect API key (In-App Purchase key) |
/// | `--asc-issuer-id ID` | `RECEIVER_ASC_ISSUER_ID` | its issuer id |
/// | `--asc-private-key PATH` | `RECEIVER_ASC_PRIVATE_KEY_FILE` | its `.p8` file |
/// | `--asc-base-url URL` | `RECEIVER_ASC_BASE_URL` | Apple's host for each `--environment` (a test server otherwise; then one environment) |
/// | `--only-failures` | | only notifications Apple could not deliver |
///
/// Each `--environment` of the receiver (Production, Sandbox) is read from its own host. Progress
/// goes to standard output, one line per page, then a JSON summary. The exit status is 0 when
/// every notification was stored or already stored, 2 when some were refused (a payload that does
/// not verify is never stored), 1 when the API or the store failed (run it again: it is safe).
public struct BackfillOptions: Sendable {
    public var since: Int64
    public var until: Int64
    public var keyId: String
    public var issuerId: String
    public var privateKeyPath: String
    public var baseURL: String?
    public var onlyFailures = false

    /// Splits the backfill's own options from `arguments`; the rest are the receiver's.
    public static func parse(
        arguments: [String], environment: [String: String], now: Int64
    ) throws -> (options: BackfillOptions, rest: [String]) {
        var values: [String: String] = [:]
        for (variable, name) in [
            ("RECEIVER_ASC_KEY_ID", "asc-key-id"), ("RECEIVER_ASC_ISSUER_ID", "asc-issuer-id"),
            ("RECEIVER_ASC_PRIVATE_KEY_FILE", "asc-private-key"), ("RECEIVER_ASC_BASE_URL", "asc-base-url"),
        ] {
            if let value = environment[variable] { values[name] = value }
        }
        let own: Set = ["since", "until", "asc-key-id", "asc-issuer-id", "asc-private-key", "asc-base-url"]
        var rest: [String] = []
        var onlyFailures = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--only-failures" {
                onlyFailures = true
                index += 1
                continue
            }
            var name = argument.hasPrefix("--") ? String(argument.dropFirst(2)) : ""
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard own.contains(name) else {
                rest.append(argument)
                index += 1
                continue
            }
            if let inline {
                values[name] = inline
                index += 1
            } else {
                guard index + 1 < arguments.count else { throw ReceiverConfiguration.Error("--\(name) needs a value") }
                values[name] = arguments[index + 1]
                index += 2
            }
        }
        func required(_ name: String) throws -> String {
            guard let value = values[name], !value.isEmpty else { throw ReceiverConfiguration.Error("backfill needs --\(name)") }
            return value
        }
        let since = try time(try required("since"), option: "--since")
        let until = try values["until"].map { try time($0, option: "--until") } ?? now
        guard since < until else { throw ReceiverConfiguration.Error("--since must be before --until") }
        return (
            BackfillOptions(
                since: since, until: until, keyId: try required("asc-key-id"), issuerId: try required("asc-issuer-id"),
                privateKeyPath: try required("asc-private-key"), baseURL: values["asc-base-url"], onlyFailures: onlyFailures),
            rest
        )
    }

    /// Milliseconds since 1970 from digits, or from an RFC 3339 time.
    static func time(_ text: String, option: String) throws -> Int64 {
        if let milliseconds = Int64(text), milliseconds >= 0 { return milliseconds }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
        throw ReceiverConfiguration.Error("\(option) \(text) is neither RFC 3339 nor milliseconds since 1970")
    }
}

/// What a backfill did.
public struct BackfillSummary: Sendable, Codable, Hashable {
    public var pages = 0
    public var stored = 0
    public var duplicates = 0
    public var refused = 0
    /// The refused items: their position and the verifier's code (nothing of them is stored).
    public var refusals: [String] = []
}

public enum ReceiverBackfill {
    /// Pages Apple's notification history for every accepted environment and stores what is missing.
    public static func run(
        configuration: ReceiverConfiguration, options: BackfillOptions, logger: Logger, transport: any HTTPTransport,
        progress: @escaping @Sendable (String) -> Void
    ) async throws -> BackfillSummary {
        let verifier = try ReceiverService.makeVerifier(configuration)
        let (store, postgres) = try ReceiverService.makeStore(configuration, logger: logger)
        let client = postgres.map { postgres in Task { await postgres.client.run() } }
        defer { client?.cancel() }
        try await store.prepare()
        let storeTimeout = Duration.milliseconds(Int64(configuration.storeTimeoutSeconds * 1000))
        // Forwarded like live deliveries: each newly stored notification enters the outbox with its rules'
        // targets, and the running receiver's forwarder (which polls the outbox) delivers it.
        let intake = NotificationIntake(
            verifier: verifier, store: store, logger: logger, storeTimeout: storeTimeout, forwarding: configuration.forwarding)
        guard let keyBytes = FileManager.default.contents(atPath: options.privateKeyPath) else {
            throw ReceiverConfiguration.Error("cannot read the App Store Connect key \(options.privateKeyPath)")
        }
        let key = try AppleSigningKey(p8: Array(keyBytes), keyID: options.keyId)
        let environments = configuration.environments.filter { $0 == .production || $0 == .sandbox }
        guard !environments.isEmpty else { throw ReceiverConfiguration.Error("backfill reads Production or Sandbox history only") }
        if options.baseURL != nil, environments.count > 1 {
            throw ReceiverConfiguration.Error("--asc-base-url serves one environment: give one --environment")
        }
        var summary = BackfillSummary()
        for environment in environments {
            let target: AppStoreServerAPIClient.Environment =
                options.baseURL.map { .custom(baseURL: $0) } ?? (environment == .production ? .production : .sandbox)
            let api = AppStoreServerAPIClient(
                signingKey: key, issuerID: options.issuerId, bundleID: configuration.bundleId, environment: target,
                transport: transport, maximumRetries: 3, maximumRetryAfter: 60)
            let request = NotificationHistoryRequest(
                startDate: options.since, endDate: options.until, onlyFailures: options.onlyFailures ? true : nil)
            for try await page in api.notificationHistory(request: request) {
                summary.pages += 1
                var counts = (stored: 0, duplicate: 0, refused: 0)
                for (index, item) in (page.notificationHistory ?? []).enumerated() {
                    guard let signedPayload = item.signedPayload, !signedPayload.isEmpty else {
                        counts.refused += 1
                        summary.refusals.append("\(environment.rawValue) page \(summary.pages) item \(index): no signedPayload")
                        continue
                    }
                    let outcome = await intake.accept(signedPayload: signedPayload)
                    switch (outcome.status, outcome.body["status"]) {
                    case (200, "duplicate"): counts.duplicate += 1
                    case (200, _): counts.stored += 1
                    case (500, _), (503, _):
                        throw ReceiverConfiguration.Error(
                            "\(environment.rawValue) page \(summary.pages) item \(index): \(outcome.body["reason"] ?? "not stored"); run again"
                        )
                    default:
                        counts.refused += 1
                        summary.refusals.append(
                            "\(environment.rawValue) page \(summary.pages) item \(index): \(outcome.body["status"] ?? "\(outcome.status)")")
                    }
                }
                summary.stored += counts.stored
                summary.duplicates += counts.duplicate
                summary.refused += counts.refused
                progress(
                    "backfill \(environment.rawValue) page \(summary.pages): \(counts.stored) stored, \(counts.duplicate) already stored, \(counts.refused) refused"
                )
            }
        }
        return summary
    }
}
