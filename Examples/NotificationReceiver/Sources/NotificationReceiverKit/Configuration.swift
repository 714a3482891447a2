import Foundation
import SigilASN1
import SigilAppAttest
import SigilAppStore
import SigilPKCS7
import SigilReceipts
import SigilX509

/// Everything the receiver is told at start: where to listen, where to store, whose notifications
/// to accept. Read from environment variables, then command-line flags (a flag wins).
///
/// | Flag | Environment variable | Default |
/// |---|---|---|
/// | `--host` | `RECEIVER_HOST` | `127.0.0.1` |
/// | `--port` | `RECEIVER_PORT` | `8080` (`0`: any free port, printed at start) |
/// | `--sqlite PATH` | `RECEIVER_SQLITE_PATH` | `notifications.sqlite` |
/// | `--postgres-url URL` | `RECEIVER_POSTGRES_URL` | none (SQLite is used) |
/// | `--bundle-id ID` | `RECEIVER_BUNDLE_ID` | required |
/// | `--app-apple-id N` | `RECEIVER_APP_APPLE_ID` | none (required for Production) |
/// | `--environment E[,E]` | `RECEIVER_ENVIRONMENT` | `Sandbox` (`Production,Sandbox`: one deployment for both, the App Review setup) |
/// | `--insecure-accept-unsigned` (no value) | none | off: LocalTesting is refused without it |
/// | `--root-certificate PATH` (repeatable) | `RECEIVER_ROOT_CERTIFICATES` (comma-separated) | required |
/// | `--receipt-root-certificate PATH` (repeatable) | `RECEIVER_RECEIPT_ROOT_CERTIFICATES` (comma-separated) | the `--root-certificate` files |
/// | `--max-body-bytes N` | `RECEIVER_MAX_BODY_BYTES` | `1048576` |
/// | `--appattest-team-id T` | `RECEIVER_APPATTEST_TEAM_ID` | none (the App Attest routes are off) |
/// | `--appattest-bundle-id ID` | `RECEIVER_APPATTEST_BUNDLE_ID` | the bundle id |
/// | `--appattest-environment E` | `RECEIVER_APPATTEST_ENVIRONMENT` | `production` (or `development`) |
/// | `--appattest-root PATH` | `RECEIVER_APPATTEST_ROOT` | required with a team id: Apple App Attestation Root CA, pinned |
/// | `--appattest-test-root PATH` | `RECEIVER_APPATTEST_TEST_ROOT` | none: a test root, not pinned (tests only) |
/// | `--appattest-challenge-seconds N` | `RECEIVER_APPATTEST_CHALLENGE_SECONDS` | `300` |
/// | `--appattest-allow-category C,…` | `RECEIVER_APPATTEST_ALLOW_CATEGORY` | any (reported): validation categories accepted — `app-store`, `testflight`, `development`, `enterprise`, `developer-id`, `platform`, `none` or numbers |
/// | `--appattest-allow-bundle-version V,…` | `RECEIVER_APPATTEST_ALLOW_BUNDLE_VERSION` | any (reported) |
/// | `--appattest-when-absent accept\|refuse` | `RECEIVER_APPATTEST_WHEN_ABSENT` | required with either allow list: what a device before iOS 27 (no extensions) gets |
/// | `--store-timeout SECONDS` | `RECEIVER_STORE_TIMEOUT` | `5` (every database call: past it, a notification answers 500, an App Attest route 503, `/health` 503) |
/// | `--api-key-file PATH` | `RECEIVER_API_KEY` (the key itself) | none: the operator routes (`/appstore/transactions/…`, `/metrics`, `POST /v1/verify`) are open, which is allowed only on a loopback host |
/// | `--appattest-challenge-rate N` | `RECEIVER_APPATTEST_CHALLENGE_RATE` | `60`: challenges per minute per client address |
/// | `--appattest-max-challenges N` | `RECEIVER_APPATTEST_MAX_CHALLENGES` | `100000`: challenge rows stored at most |
/// | `--siwa-client-id ID` (repeatable) | `RECEIVER_SIWA_CLIENT_IDS` (comma-separated) | none (`/siwa/notifications` is off): the audiences Sign in with Apple notifications may name |
/// | `--siwa-jwks-url URL` | `RECEIVER_SIWA_JWKS_URL` | `https://appleid.apple.com/auth/keys` |
/// | `--forward [ENVIRONMENT=]URL` (repeatable) | `RECEIVER_FORWARD` (comma-separated) | none: each stored notification (of that environment) is POSTed on to URL through the outbox |
/// | `--forward-max-backoff SECONDS` | `RECEIVER_FORWARD_MAX_BACKOFF` | `300`: the longest wait between two attempts of one forward |
/// | `--applepay-merchant KEY=CERT`, `--applepay-merchant-id KEY=ID` (repeatable) | none | none (`POST /v1/verify` kind `applepay` answers 501): the merchant keys kind `applepay` decrypts with, a `transactionId` accepted once (this receiver's store is the replay store) |
/// | `--applepay-root PATH` (repeatable) | none | Apple Root CA - G3: a test PKI's root for kind `applepay` |
/// | `--applepay-tolerance SECONDS` | none | `300`: how far a token's signing time may be from now |
/// | `--mdoc-iaca FILE` (repeatable) | none | none (`POST /v1/verify` kind `mdoc` answers 501): IACA root certificates (DER, or every certificate of a PEM file) kind `mdoc` trusts; answers name them `trust: iaca-roots` |
/// | `--accept-request-trust` (no value) | none | off: `POST /v1/verify` answers a request carrying trust configuration (`roots` not Apple's, `environments: ["Xcode"]`, `unpinnedTestRoot`) `request.trustRefused` (403); with it, such a request is verified and its answer names the anchor (`trust`) and lists `appleRoot` in `notEnforced` |
/// | `--idle-timeout SECONDS` | `RECEIVER_IDLE_TIMEOUT` | `30`: a connection that sends nothing (or stalls within a request's head) for this long is closed; keep it above the body timeout (it also runs while a body stalls, and would cut the connection before the 408) |
/// | `--body-timeout SECONDS` | `RECEIVER_BODY_TIMEOUT` | `10`: how long every POST body may take to arrive; past it, 408 and the connection closed |
/// | `--help` (no value) | none | prints these options (`ReceiverConfiguration.usage`) and exits 0 |
///
/// `--host` is loopback (no API key needed) only as a literal loopback address or `localhost`:
/// see `isLoopback(_:)`.
public struct ReceiverConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var sqlitePath = "notifications.sqlite"
    /// `postgres://user:password@host:port/database?sslmode=disable|prefer|require`; when set,
    /// PostgreSQL is the store and `sqlitePath` is ignored.
    public var postgresURL: String?
    public var bundleId = ""
    public var appAppleId: Int64?
    /// The environments notifications are accepted from: one, or Production and Sandbox together
    /// (the App Review setup; Production needs `appAppleId`). Every stored row records its own.
    public var environments: [AppStoreEnvironment] = [.sandbox]
    /// Kind `applepay` of `POST /v1/verify` (issue 38): merchant keys, roots and the signing-time
    /// window; the replay store is this receiver's own store.
    public var applePay = ApplePayOptions()
    /// Kind `mdoc` of `POST /v1/verify`: the IACA root certificate files it trusts
    /// (`--mdoc-iaca`, repeatable); none: kind `mdoc` answers `service.notConfigured`. A request's
    /// own `roots` are trust configuration (refused unless `--accept-request-trust`, or each is
    /// one of these).
    public var mdocIACARoots: [String] = []
    /// LocalTesting data is unsigned: nothing of it can be verified. The receiver serves it only
    /// with this flag (`--insecure-accept-unsigned`), and warns on every request it serves so.
    public var insecureAcceptUnsigned = false
    /// `POST /v1/verify` takes trust configuration from a request (`--accept-request-trust`) and
    /// reports it in the answer; off by default: this receiver knows its own roots, and a request
    /// bringing others is refused (`request.trustRefused`).
    public var acceptRequestTrust = false
    /// Trusted roots, DER or PEM files (Apple's AppleRootCA-G3.cer for real notifications).
    public var rootCertificatePaths: [String] = []
    /// Trusted roots for app receipts (`POST /verifyReceipt`): Apple's AppleIncRootCertificate.cer
    /// for real receipts; when none are given, the signed-data roots.
    public var receiptRootCertificatePaths: [String] = []
    public var maxBodyBytes = 1 << 20
    /// The App Attest team id; when nil, the `/appattest/…` routes are not served.
    public var appAttestTeamId: String?
    /// The App Attest bundle id (the App ID is team id + "." + bundle id); nil: `bundleId`.
    public var appAttestBundleId: String?
    /// The App Attest environment attestations must be made in (their AAGUID).
    public var appAttestEnvironment: AppAttestEnvironment = .production
    /// Apple App Attestation Root CA (DER or PEM), checked against Sigil's pinned fingerprint.
    public var appAttestRootPath: String?
    /// A test root (SigilTestPKI's `AppleShapedAttestationPKI`), trusted without the pin; tests only.
    public var appAttestTestRootPath: String?
    /// How long an issued challenge stays usable.
    public var challengeSeconds = 300
    /// Validation categories accepted (authenticator-data extensions); empty: any, reported.
    public var appAttestAllowedCategories: Set<AuthenticatorExtensions.ValidationCategory> = []
    /// Bundle versions accepted; empty: any, reported.
    public var appAttestAllowedBundleVersions: Set<String> = []
    /// What an object stating no extensions gets when a list above restricts; required then.
    public var appAttestWhenAbsent: AppAttestPolicy.WhenAbsent?
    /// How long an App Attest route waits for the database before answering 503.
    public var storeTimeoutSeconds = 5.0
    /// The key the read and operator routes require (`Authorization: Bearer <key>`); nil: they are
    /// open, which `load` allows only on a loopback host.
    public var apiKey: String?
    /// Challenges one client address may ask for per minute.
    public var challengeRatePerMinute = 60
    /// The most challenge rows stored at once.
    public var maximumChallenges = 100_000
    /// The audiences (primary App ID bundle ids, Services IDs) Sign in with Apple notifications may
    /// name; empty: `POST /siwa/notifications` is not served.
    public var siwaClientIds: [String] = []
    /// Where Apple's Sign in with Apple keys are fetched from.
    public var siwaJWKSURL = "https://appleid.apple.com/auth/keys"
    /// Downstream receivers each stored notification is forwarded to.
    public var forwarding: [ForwardingRule] = []
    /// The longest wait between two attempts of one forward, seconds.
    public var forwardMaximumBackoff = 300.0
    /// How long a connection may stay idle (no request, or a request's head not finished) before
    /// the receiver closes it, seconds.
    public var idleTimeoutSeconds = 30.0
    /// How long a POST body may take to arrive, seconds: past it, 408 and the connection closed.
    public var bodyTimeoutSeconds = 10.0

    public init() {}

    /// A configuration error, naming the setting.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The configuration from `environment` and then `arguments` (without the program name).
    public static func load(arguments: [String], environment: [String: String]) throws -> ReceiverConfiguration {
        var configuration = ReceiverConfiguration()
        func apply(_ name: String, _ value: String) throws {
            switch name {
            case "host": configuration.host = value
            case "port":
                guard let port = Int(value), (0...65_535).contains(port) else { throw Error("port \(value) is not 0…65535") }
                configuration.port = port
            case "sqlite": configuration.sqlitePath = value
            case "postgres-url": configuration.postgresURL = value.isEmpty ? nil : value
            case "bundle-id": configuration.bundleId = value
            case "app-apple-id":
                guard let id = Int64(value) else { throw Error("app Apple id \(value) is not an integer") }
                configuration.appAppleId = id
            case "environment":
                var environments: [AppStoreEnvironment] = []
                for name in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    let known = AppStoreEnvironment.documented.first { $0.rawValue.lowercased() == name.lowercased() }
                    guard let known else { throw Error("environment \(name) is not one of Sandbox, Production, Xcode, LocalTesting") }
                    environments.append(known)
                }
                guard !environments.isEmpty else { throw Error("--environment names no environment") }
                configuration.environments = environments
            case "root-certificate": configuration.rootCertificatePaths.append(value)
            case "receipt-root-certificate": configuration.receiptRootCertificatePaths.append(value)
            case "max-body-bytes":
                guard let bytes = Int(value), bytes > 0, bytes <= 64 << 20 else { throw Error("max body bytes \(value) is not 1…67108864") }
                configuration.maxBodyBytes = bytes
            case "appattest-team-id": configuration.appAttestTeamId = value.isEmpty ? nil : value
            case "appattest-bundle-id": configuration.appAttestBundleId = value.isEmpty ? nil : value
            case "appattest-environment":
                guard let environment = AppAttestEnvironment(rawValue: value.lowercased()) else {
                    throw Error("App Attest environment \(value) is not development or production")
                }
                configuration.appAttestEnvironment = environment
            case "appattest-root": configuration.appAttestRootPath = value
            case "appattest-test-root": configuration.appAttestTestRootPath = value
            case "appattest-challenge-seconds":
                guard let seconds = Int(value), (1...86_400).contains(seconds) else {
                    throw Error("challenge seconds \(value) is not 1…86400")
                }
                configuration.challengeSeconds = seconds
            case "appattest-allow-category":
                for name in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !name.isEmpty {
                    guard let category = Self.categoryNames[name] ?? UInt32(name).map(AuthenticatorExtensions.ValidationCategory.init)
                    else {
                        throw Error(
                            "App Attest category \(name) is not one of \(Self.categoryNames.keys.sorted().joined(separator: ", ")) or a number"
                        )
                    }
                    configuration.appAttestAllowedCategories.insert(category)
                }
            case "appattest-allow-bundle-version":
                configuration.appAttestAllowedBundleVersions.formUnion(
                    value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            case "appattest-when-absent":
                guard let choice = AppAttestPolicy.WhenAbsent(rawValue: value.lowercased()) else {
                    throw Error("App Attest when-absent \(value) is not accept or refuse")
                }
                configuration.appAttestWhenAbsent = choice
            case "store-timeout":
                guard let seconds = Double(value), seconds > 0, seconds <= 600 else {
                    throw Error("store timeout \(value) is not 0…600 seconds")
                }
                configuration.storeTimeoutSeconds = seconds
            case "api-key-file":
                guard let data = FileManager.default.contents(atPath: value) else { throw Error("cannot read the API key file \(value)") }
                configuration.apiKey = try Self.apiKey(String(decoding: data, as: UTF8.self), source: value)
            case "api-key": configuration.apiKey = try Self.apiKey(value, source: "RECEIVER_API_KEY")
            case "appattest-challenge-rate":
                guard let rate = Int(value), (1...1_000_000).contains(rate) else { throw Error("challenge rate \(value) is not 1…1000000") }
                configuration.challengeRatePerMinute = rate
            case "appattest-max-challenges":
                guard let count = Int(value), (1...100_000_000).contains(count) else {
                    throw Error("maximum challenges \(value) is not 1…100000000")
                }
                configuration.maximumChallenges = count
            case "siwa-client-id":
                configuration.siwaClientIds += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            case "siwa-jwks-url":
                guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
                    throw Error("--siwa-jwks-url \(value) is not an http(s) URL")
                }
                configuration.siwaJWKSURL = value
            case "forward":
                for rule in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !rule.isEmpty {
                    configuration.forwarding.append(try ForwardingRule(parsing: rule))
                }
            case "forward-max-backoff":
                guard let seconds = Double(value), seconds >= 0.1, seconds <= 86_400 else {
                    throw Error("forward max backoff \(value) is not 0.1…86400 seconds")
                }
                configuration.forwardMaximumBackoff = seconds
            case "idle-timeout":
                guard let seconds = Double(value), seconds >= 0.1, seconds <= 3600 else {
                    throw Error("idle timeout \(value) is not 0.1…3600 seconds")
                }
                configuration.idleTimeoutSeconds = seconds
            case "body-timeout":
                guard let seconds = Double(value), seconds >= 0.1, seconds <= 3600 else {
                    throw Error("body timeout \(value) is not 0.1…3600 seconds")
                }
                configuration.bodyTimeoutSeconds = seconds
            case "mdoc-iaca": configuration.mdocIACARoots.append(value)
            case "applepay-merchant", "applepay-merchant-id", "applepay-root", "applepay-tolerance":
                do {
                    _ = try configuration.applePay.take("--" + name, value)
                } catch let error as ReceiverStoreError {
                    throw Error(error.description)
                }
            default: throw Error("unknown option --\(name)")
            }
        }
        let variables: [(String, String)] = [
            ("RECEIVER_HOST", "host"), ("RECEIVER_PORT", "port"), ("RECEIVER_SQLITE_PATH", "sqlite"),
            ("RECEIVER_POSTGRES_URL", "postgres-url"), ("RECEIVER_BUNDLE_ID", "bundle-id"),
            ("RECEIVER_APP_APPLE_ID", "app-apple-id"), ("RECEIVER_ENVIRONMENT", "environment"),
            ("RECEIVER_MAX_BODY_BYTES", "max-body-bytes"), ("RECEIVER_APPATTEST_TEAM_ID", "appattest-team-id"),
            ("RECEIVER_APPATTEST_BUNDLE_ID", "appattest-bundle-id"), ("RECEIVER_APPATTEST_ENVIRONMENT", "appattest-environment"),
            ("RECEIVER_APPATTEST_ROOT", "appattest-root"), ("RECEIVER_APPATTEST_TEST_ROOT", "appattest-test-root"),
            ("RECEIVER_APPATTEST_CHALLENGE_SECONDS", "appattest-challenge-seconds"), ("RECEIVER_STORE_TIMEOUT", "store-timeout"),
            ("RECEIVER_APPATTEST_ALLOW_CATEGORY", "appattest-allow-category"),
            ("RECEIVER_APPATTEST_ALLOW_BUNDLE_VERSION", "appattest-allow-bundle-version"),
            ("RECEIVER_APPATTEST_WHEN_ABSENT", "appattest-when-absent"), ("RECEIVER_API_KEY", "api-key"),
            ("RECEIVER_APPATTEST_CHALLENGE_RATE", "appattest-challenge-rate"),
            ("RECEIVER_APPATTEST_MAX_CHALLENGES", "appattest-max-challenges"), ("RECEIVER_SIWA_CLIENT_IDS", "siwa-client-id"),
            ("RECEIVER_SIWA_JWKS_URL", "siwa-jwks-url"), ("RECEIVER_FORWARD", "forward"),
            ("RECEIVER_FORWARD_MAX_BACKOFF", "forward-max-backoff"), ("RECEIVER_IDLE_TIMEOUT", "idle-timeout"),
            ("RECEIVER_BODY_TIMEOUT", "body-timeout"),
        ]
        for (variable, name) in variables {
            if let value = environment[variable] { try apply(name, value) }
        }
        if let roots = environment["RECEIVER_ROOT_CERTIFICATES"] {
            configuration.rootCertificatePaths += roots.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        }
        if let roots = environment["RECEIVER_RECEIPT_ROOT_CERTIFICATES"] {
            configuration.receiptRootCertificatePaths += roots.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { throw Error("unexpected argument \(argument)") }
            if argument == "--insecure-accept-unsigned" {
                configuration.insecureAcceptUnsigned = true
                index += 1
                continue
            }
            if argument == "--accept-request-trust" {
                configuration.acceptRequestTrust = true
                index += 1
                continue
            }
            var name = String(argument.dropFirst(2))
            let value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                guard index + 1 < arguments.count else { throw Error("--\(name) needs a value") }
                index += 1
                value = arguments[index]
            }
            guard name != "api-key" else {
                throw Error("the API key is not taken on the command line (ps shows it): use --api-key-file or RECEIVER_API_KEY")
            }
            try apply(name, value)
            index += 1
        }
        guard configuration.apiKey != nil || Self.isLoopback(configuration.host) else {
            throw Error(
                "refusing to listen on \(configuration.host) without an API key: the read routes (transactions, metrics) would answer anyone; "
                    + "set RECEIVER_API_KEY or --api-key-file, or listen on 127.0.0.1 behind a proxy")
        }
        guard !configuration.bundleId.isEmpty else { throw Error("no bundle id (--bundle-id or RECEIVER_BUNDLE_ID)") }
        guard !configuration.rootCertificatePaths.isEmpty else {
            throw Error("no trusted root certificate (--root-certificate or RECEIVER_ROOT_CERTIFICATES)")
        }
        _ = try configuration.acceptedEnvironments()
        if configuration.appAttestTeamId != nil {
            guard (configuration.appAttestRootPath == nil) != (configuration.appAttestTestRootPath == nil) else {
                throw Error("App Attest needs exactly one of --appattest-root (Apple's root) and --appattest-test-root")
            }
        }
        _ = try configuration.appAttestPolicy()
        return configuration
    }

    /// The options `--help` prints: flag, environment variable, meaning (the table above, one line
    /// each; a test checks that every flag here is in that table and that `load` takes it).
    public static let options: [(flag: String, variable: String?, meaning: String)] = [
        ("--host HOST", "RECEIVER_HOST", "address to listen on (127.0.0.1); off loopback an API key is required"),
        ("--port N", "RECEIVER_PORT", "port (8080; 0: any free port, printed at start)"),
        ("--sqlite PATH", "RECEIVER_SQLITE_PATH", "SQLite file (notifications.sqlite)"),
        ("--postgres-url URL", "RECEIVER_POSTGRES_URL", "PostgreSQL instead of SQLite"),
        ("--bundle-id ID", "RECEIVER_BUNDLE_ID", "the app's bundle id (required)"),
        ("--app-apple-id N", "RECEIVER_APP_APPLE_ID", "the app's Apple id (required for Production)"),
        ("--environment E[,E]", "RECEIVER_ENVIRONMENT", "Sandbox, Production, Xcode or LocalTesting (Sandbox)"),
        ("--insecure-accept-unsigned", nil, "accept unsigned LocalTesting notifications (tests only; takes no value)"),
        ("--root-certificate PATH", "RECEIVER_ROOT_CERTIFICATES", "trusted root, DER or PEM (required; repeatable)"),
        ("--receipt-root-certificate PATH", "RECEIVER_RECEIPT_ROOT_CERTIFICATES", "roots for POST /verifyReceipt (the roots above)"),
        ("--max-body-bytes N", "RECEIVER_MAX_BODY_BYTES", "largest request body (1048576); larger: 413"),
        ("--idle-timeout SECONDS", "RECEIVER_IDLE_TIMEOUT", "close a connection idle this long (30)"),
        ("--body-timeout SECONDS", "RECEIVER_BODY_TIMEOUT", "how long a POST body may take to arrive (10); slower: 408"),
        (
            "--api-key-file PATH", "RECEIVER_API_KEY",
            "the operator key (16+ characters) for /appstore/transactions, /metrics, POST /v1/verify"
        ),
        ("--store-timeout SECONDS", "RECEIVER_STORE_TIMEOUT", "longest wait for the database (5)"),
        ("--appattest-team-id T", "RECEIVER_APPATTEST_TEAM_ID", "turns on the /appattest routes"),
        ("--appattest-bundle-id ID", "RECEIVER_APPATTEST_BUNDLE_ID", "App Attest bundle id (the bundle id)"),
        ("--appattest-environment E", "RECEIVER_APPATTEST_ENVIRONMENT", "production or development (production)"),
        ("--appattest-root PATH", "RECEIVER_APPATTEST_ROOT", "Apple App Attestation Root CA (pinned)"),
        ("--appattest-test-root PATH", "RECEIVER_APPATTEST_TEST_ROOT", "a test root, not pinned (tests only)"),
        ("--appattest-challenge-seconds N", "RECEIVER_APPATTEST_CHALLENGE_SECONDS", "challenge lifetime (300)"),
        (
            "--appattest-challenge-rate N", "RECEIVER_APPATTEST_CHALLENGE_RATE",
            "challenges a minute per client (IPv4 address, IPv6 /64) (60)"
        ),
        ("--appattest-max-challenges N", "RECEIVER_APPATTEST_MAX_CHALLENGES", "challenge rows stored at most (100000)"),
        ("--appattest-allow-category C,…", "RECEIVER_APPATTEST_ALLOW_CATEGORY", "validation categories accepted (any)"),
        ("--appattest-allow-bundle-version V,…", "RECEIVER_APPATTEST_ALLOW_BUNDLE_VERSION", "bundle versions accepted (any)"),
        ("--appattest-when-absent accept|refuse", "RECEIVER_APPATTEST_WHEN_ABSENT", "required with an allow list"),
        ("--siwa-client-id ID", "RECEIVER_SIWA_CLIENT_IDS", "turns on POST /siwa/notifications (repeatable)"),
        ("--siwa-jwks-url URL", "RECEIVER_SIWA_JWKS_URL", "Apple's keys (https://appleid.apple.com/auth/keys)"),
        ("--forward [ENVIRONMENT=]URL", "RECEIVER_FORWARD", "forward each stored notification (repeatable)"),
        ("--forward-max-backoff SECONDS", "RECEIVER_FORWARD_MAX_BACKOFF", "longest wait between two attempts (300)"),
        ("--applepay-merchant KEY=CERT", nil, "merchant key and certificate for POST /v1/verify kind applepay (repeatable)"),
        ("--applepay-merchant-id KEY=ID", nil, "merchant key and merchant identifier (repeatable)"),
        ("--applepay-root PATH", nil, "a test PKI's root instead of Apple Root CA - G3"),
        ("--applepay-tolerance SECONDS", nil, "signing-time window (300)"),
        ("--mdoc-iaca FILE", nil, "an IACA root (PEM or DER) POST /v1/verify kind mdoc trusts (repeatable)"),
        (
            "--accept-request-trust", nil,
            "POST /v1/verify: verify requests that bring their own trust anchors (roots not Apple's, Xcode, unpinnedTestRoot) and "
                + "name the anchor in the answer, instead of refusing them request.trustRefused (takes no value)"
        ),
        ("--help", nil, "print these options and exit"),
    ]

    /// `notification-receiver --help`: the usage line and `options`.
    public static var usage: String {
        var lines = [
            "usage: notification-receiver [options]", "       notification-receiver backfill --since T [--until T] --asc-… [options]", "",
            "options (a flag wins over its environment variable):",
        ]
        for option in options {
            lines.append("  \(option.flag)\(option.variable.map { "  [$" + $0 + "]" } ?? "")")
            lines.append("      \(option.meaning)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `host` is a loopback address, which only this machine reaches: a literal address
    /// parsed numerically — IPv4 127.0.0.0/8, IPv6 `::1`, an IPv4-mapped `::ffff:127.x.y.z` (in
    /// brackets or not) — or the name `localhost` itself. A name is otherwise never loopback,
    /// whatever it starts with (`127.evil.example` is a DNS name anyone can point anywhere).
    /// `localhost` is taken as loopback because RFC 6761 §6.3 reserves it for the loopback
    /// interface and every resolver this service runs on answers it from the hosts file; other
    /// names under it (`x.localhost`) are not, as a resolver may send them to DNS.
    public static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" { return true }
        if let bytes = IPAddressText.v4(name) { return bytes[0] == 127 }
        guard let bytes = IPAddressText.v6(name) else { return false }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// An API key, trimmed, at least 16 characters.
    static func apiKey(_ text: String, source: String) throws -> String {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard key.utf8.count >= 16, key.utf8.count <= 4096 else {
            throw Error("the API key from \(source) is not 16…4096 characters")
        }
        return key
    }

    /// The App Attest category names the options take.
    static let categoryNames: [String: AuthenticatorExtensions.ValidationCategory] = [
        "platform": .platform, "testflight": .testFlight, "development": .development, "app-store": .appStore,
        "enterprise": .enterpriseOrAdHoc, "developer-id": .developerID, "none": .none,
    ]

    /// The App Attest policy the allow lists name: accept-all-and-report without them; with one,
    /// `--appattest-when-absent` must say what a device before iOS 27 gets.
    public func appAttestPolicy() throws -> AppAttestPolicy {
        if appAttestAllowedCategories.isEmpty && appAttestAllowedBundleVersions.isEmpty {
            guard appAttestWhenAbsent == nil else { throw Error("--appattest-when-absent needs an --appattest-allow-… list") }
            return .acceptAllAndReport
        }
        guard let whenAbsent = appAttestWhenAbsent else {
            throw Error(
                "an App Attest allow list needs --appattest-when-absent accept|refuse (devices before iOS 27 state no category or version)")
        }
        return AppAttestPolicy(
            validationCategories: appAttestAllowedCategories.isEmpty ? .any : .only(appAttestAllowedCategories),
            bundleVersions: appAttestAllowedBundleVersions.isEmpty ? .any : .only(appAttestAllowedBundleVersions), whenAbsent: whenAbsent)
    }

    /// The environments as the verifier takes them: LocalTesting only with `insecureAcceptUnsigned`
    /// (and the flag only with LocalTesting); Xcode and LocalTesting never with another.
    public func acceptedEnvironments() throws -> AcceptedEnvironments {
        let set = Set(environments)
        if set.contains(.localTesting) {
            guard set.count == 1 else { throw Error("LocalTesting cannot be accepted together with another environment") }
            guard insecureAcceptUnsigned else {
                throw Error(
                    "refusing to start in LocalTesting: its notifications are unsigned and nothing of them is verified; "
                        + "pass --insecure-accept-unsigned to accept them anyway (tests against a local StoreKit server only)")
            }
            return .localTestingUnsigned
        }
        guard !insecureAcceptUnsigned else { throw Error("--insecure-accept-unsigned is only for --environment LocalTesting") }
        do { return try AcceptedEnvironments(set) } catch { throw Error("environment: \(error.reason)") }
    }

    /// The `verifyReceipt` endpoints the receiver stands for: production when it accepts
    /// Production, the sandbox when it accepts anything else.
    public var receiptEndpoints: Set<VerifyReceiptEndpoint> {
        var endpoints: Set<VerifyReceiptEndpoint> = []
        for environment in environments { endpoints.insert(environment == .production ? .production : .sandbox) }
        return endpoints
    }

    /// The App Attest verifiers, or nil when no team id is configured: Apple's root is checked
    /// against the pinned fingerprint; a test root is trusted as given.
    public func appAttestVerifiers() throws -> (attestation: AttestationVerifier, assertion: AssertionVerifier)? {
        guard let teamId = appAttestTeamId else { return nil }
        let appID = AppAttestAppID(teamID: teamId, bundleID: appAttestBundleId ?? bundleId)
        let path = appAttestRootPath ?? appAttestTestRootPath ?? ""
        guard let der = try loadCertificates([path]).first else { throw Error("\(path) holds no certificate") }
        let root: Certificate
        do { root = try Certificate(derEncoded: der) } catch { throw Error("\(path): \(error)") }
        let policy = try appAttestPolicy()
        let attestation: AttestationVerifier
        if appAttestRootPath != nil {
            do {
                attestation = try AttestationVerifier(
                    appAttestationRoot: root, appID: appID, environment: appAttestEnvironment, policy: policy)
            } catch {
                throw Error("\(path): \(error.qualifiedCode): \(error.reason)")
            }
        } else {
            attestation = AttestationVerifier(testRoot: root, appID: appID, environment: appAttestEnvironment, policy: policy)
        }
        return (attestation, AssertionVerifier(appID: appID, policy: policy))
    }

    /// The receipt roots: `receiptRootCertificatePaths`, or the signed-data roots when none are given.
    public func loadReceiptRootCertificates() throws -> [[UInt8]] {
        try loadCertificates(receiptRootCertificatePaths.isEmpty ? rootCertificatePaths : receiptRootCertificatePaths)
    }

    /// The root certificates, each file read as PEM (every CERTIFICATE block) or else as DER.
    public func loadRootCertificates() throws -> [[UInt8]] { try loadCertificates(rootCertificatePaths) }

    func loadCertificates(_ paths: [String]) throws -> [[UInt8]] { try Self.loadCertificates(paths) }

    /// The certificates of `paths`, each a DER file or a PEM file of one or more CERTIFICATE blocks.
    static func loadCertificates(_ paths: [String]) throws -> [[UInt8]] {
        var roots: [[UInt8]] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { throw Error("cannot read root certificate \(path)") }
            let bytes = [UInt8](data)
            if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN") {
                let documents: [PEMDocument]
                do { documents = try PEMDocument.parseAll(text) } catch { throw Error("\(path): \(error)") }
                let certificates = documents.filter { $0.label == "CERTIFICATE" }
                guard !certificates.isEmpty else { throw Error("\(path) holds no CERTIFICATE block") }
                roots += certificates.map(\.derBytes)
            } else {
                roots.append(bytes)
            }
        }
        return roots
    }
}
