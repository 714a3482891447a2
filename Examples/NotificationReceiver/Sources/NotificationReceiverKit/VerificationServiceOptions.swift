import Foundation
import SigilService
import SigilX509

/// The `verification-service` command line (and its one environment variable), parsed: where to
/// listen, the HTTP limits, the API key and the Apple Pay options (`ApplePayOptions`).
///
/// | Option | Environment variable | Meaning |
/// |---|---|---|
/// | `--host HOST` | none | address to listen on; `127.0.0.1` |
/// | `--port N` | none | port; `8080` (`0`: any free port, printed at start) |
/// | `--max-body-bytes N` | none | the largest body; `1048576` (larger: 413) |
/// | `--body-timeout SECONDS` | none | how long a body may take to arrive; `10` (slower: 408) |
/// | `--idle-timeout SECONDS` | none | a connection idle this long is closed; `30` |
/// | `--api-key-file PATH` | `VERIFICATION_API_KEY` (the key itself) | the key `POST /v1/verify` requires (`Authorization: Bearer <key>`), 16…4096 characters; never on the command line (ps shows it). Without one, `/v1/verify` is open: allowed on any address without merchant keys, on a loopback address only with them |
/// | Apple Pay options | none | see `ApplePayOptions` |
/// | `--mdoc-iaca FILE` | none | IACA root certificates (DER, or every certificate of a PEM file) kind `mdoc` trusts when a request brings no `roots` (answered `trust: iaca-roots`); repeatable. Without one, such a request is answered `service.notConfigured` (501) |
/// | `--refuse-request-trust` (no value) | none | answer a request carrying its own trust anchors (`roots` not Apple's, `environments: ["Xcode"]`, `unpinnedTestRoot`) `request.trustRefused` (403); by default such a request is verified and its answer names the anchor (`trust`) and lists `appleRoot` (an mdoc's: `iacaRoots`) in `notEnforced` |
/// | `--help` | none | prints the options and exits 0 |
public struct VerificationServiceOptions: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port (0: any free port).
    public var port = 8080
    /// The largest body accepted.
    public var maxBodyBytes = VerificationRoutes.defaultMaxBodyBytes
    /// How long a body may take to arrive.
    public var bodyTimeout = VerificationRoutes.defaultBodyTimeout
    /// How long a connection may stay idle.
    public var idleTimeout: Duration = .seconds(30)
    /// The key `POST /v1/verify` requires; nil: open.
    public var apiKey: String?
    /// Kind `applepay`'s merchant keys, roots and replay store.
    public var applePay = ApplePayOptions()
    /// Whether a request's own trust anchors (`roots` not Apple's, `environments: ["Xcode"]`,
    /// `unpinnedTestRoot`) are verified and named in the answer (the default of this stateless
    /// service) or refused as `request.trustRefused` (`--refuse-request-trust`).
    public var requestTrust: RequestTrust = .acceptedAndReported
    /// Kind `mdoc`'s IACA root certificate files (`--mdoc-iaca`, repeatable).
    public var mdocIACARoots: [String] = []

    /// Kind `mdoc`'s configuration: the `--mdoc-iaca` roots, read; nil without any.
    public func mdocConfiguration() throws -> MdocServiceConfiguration? {
        guard !mdocIACARoots.isEmpty else { return nil }
        var roots: [Certificate] = []
        for path in mdocIACARoots {
            // Every certificate of the file (a PEM bundle is a VICAL's roots, not just its first).
            do {
                let ders = try ReceiverConfiguration.loadCertificates([path])
                guard !ders.isEmpty else { throw Error("no certificate in it") }
                for der in ders { roots.append(try Certificate(derEncoded: der)) }
            } catch { throw Error("--mdoc-iaca \(path): \(error)") }
        }
        return MdocServiceConfiguration(trustedIACARoots: roots)
    }

    /// Options with every default.
    public init() {}

    /// The environment variable holding the API key.
    public static let apiKeyVariable = "VERIFICATION_API_KEY"

    /// The options `--help` prints: flag and meaning.
    public static let options: [(flag: String, meaning: String)] = [
        ("--host HOST", "address to listen on (127.0.0.1)"),
        ("--port N", "port (8080; 0: any free port, printed at start)"),
        ("--max-body-bytes N", "largest request body (1048576); larger: 413"),
        ("--body-timeout SECONDS", "how long a body may take to arrive (10); slower: 408"),
        ("--idle-timeout SECONDS", "close a connection idle this long (30)"),
        (
            "--api-key-file PATH",
            "the key POST /v1/verify requires (Authorization: Bearer <key>; 16+ characters); or $\(apiKeyVariable); "
                + "required with merchant keys off loopback"
        ),
        ("--applepay-merchant KEY=CERT", "merchant key and its payment processing certificate (repeatable)"),
        ("--applepay-merchant-id KEY=ID", "merchant key and its merchant identifier (repeatable)"),
        ("--applepay-root FILE", "a test PKI's root instead of Apple Root CA - G3 (repeatable)"),
        ("--applepay-tolerance SECONDS", "signing-time window (300)"),
        ("--sqlite PATH", "the Apple Pay replay store, SQLite"),
        ("--postgres-url URL", "the Apple Pay replay store, PostgreSQL"),
        ("--applepay-without-replay-protection", "accept every token as often as it is sent (takes no value)"),
        ("--mdoc-iaca FILE", "an IACA root (PEM or DER) kind mdoc trusts when a request brings no roots (repeatable)"),
        (
            "--refuse-request-trust",
            "answer a request carrying its own trust anchors (roots not Apple's, Xcode, unpinnedTestRoot) request.trustRefused, 403 "
                + "(takes no value; default: verified, and the answer names the anchor and lists appleRoot in notEnforced)"
        ),
        ("--help", "print these options and exit"),
    ]

    /// `verification-service --help`.
    public static var usage: String {
        var lines = ["usage: verification-service [options]", "", "options:"]
        for option in options {
            lines.append("  \(option.flag)")
            lines.append("      \(option.meaning)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the command line asks for.
    public enum Parsed: Sendable {
        /// Run with these options.
        case run(VerificationServiceOptions)
        /// Print `usage` and exit 0.
        case help
    }

    /// An option error, naming the option.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The options from `arguments` (without the program name) and `environment`, checked
    /// (`check()`); `.help` when `--help` or `-h` is among them.
    public static func parse(arguments: [String], environment: [String: String]) throws -> Parsed {
        if arguments.contains("--help") || arguments.contains("-h") { return .help }
        var options = VerificationServiceOptions()
        if let key = environment[apiKeyVariable] {
            options.apiKey = try ReceiverConfiguration.apiKey(key, source: apiKeyVariable)
        }
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--refuse-request-trust" {
                options.requestTrust = .refused
                continue
            }
            if ApplePayOptions.switches.contains(flag) {
                _ = try options.applePay.take(flag, nil)
                continue
            }
            guard flag != "--api-key" else {
                throw Error("the API key is not taken on the command line (ps shows it): use --api-key-file or \(apiKeyVariable)")
            }
            guard let value = rest.popFirst() else { throw Error("\(flag) needs a value") }
            func seconds(_ value: String) throws -> Duration {
                guard let seconds = Double(value), seconds >= 0.1, seconds <= 3600 else {
                    throw Error("\(flag) \(value) is not 0.1…3600 seconds")
                }
                return .milliseconds(Int64(seconds * 1000))
            }
            switch flag {
            case "--host": options.host = value
            case "--port":
                guard let number = Int(value), (0...65_535).contains(number) else { throw Error("--port \(value) is not 0…65535") }
                options.port = number
            case "--max-body-bytes":
                guard let number = Int(value), number > 0 else { throw Error("--max-body-bytes \(value) is not a positive integer") }
                options.maxBodyBytes = number
            case "--body-timeout": options.bodyTimeout = try seconds(value)
            case "--idle-timeout": options.idleTimeout = try seconds(value)
            case "--mdoc-iaca": options.mdocIACARoots.append(value)
            case "--api-key-file":
                guard let data = FileManager.default.contents(atPath: value) else { throw Error("cannot read the API key file \(value)") }
                options.apiKey = try ReceiverConfiguration.apiKey(String(decoding: data, as: UTF8.self), source: value)
            default:
                do {
                    guard try options.applePay.take(flag, value) else { throw Error("unknown option \(flag) (--help lists them)") }
                } catch let error as ReceiverStoreError {
                    throw Error(error.description)
                }
            }
        }
        try options.check()
        return .run(options)
    }

    /// Refuses what must not start: merchant keys (kind `applepay` decrypts card data and records
    /// transaction ids as used) on an address other machines reach, without an API key.
    public func check() throws {
        guard applePay.merchants.isEmpty || apiKey != nil || ReceiverConfiguration.isLoopback(host) else {
            throw Error(
                "refusing to listen on \(host) with Apple Pay merchant keys and no API key: anyone who reaches it could decrypt "
                    + "payment tokens and spend their transaction ids; set \(Self.apiKeyVariable) or --api-key-file PATH "
                    + "(16+ characters, sent as Authorization: Bearer <key>), or listen on 127.0.0.1 behind a proxy")
        }
    }
}
