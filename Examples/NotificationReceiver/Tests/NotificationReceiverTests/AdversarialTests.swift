import Foundation
import Hummingbird
import Logging
import NotificationReceiverKit
import SigilHTTP
import SigilJOSE
import SigilService
import XCTest

/// Issue 46: every HTTP door against a hostile client, from the attacker's side. Each case names
/// the attack and the refusal expected. The receiver and the verification service run as real
/// processes on loopback ports the tests start and always stop; raw HTTP is written by a small
/// python3 client (slow bodies, idle connections, oversized and malformed bodies), every exchange
/// bounded by a socket timeout.
final class AdversarialTests: XCTestCase {
    var scenarios: Scenarios?

    override func tearDown() async throws {
        await scenarios?.tearDown()
        scenarios = nil
    }

    static let clientId = "com.example.receiver"

    /// The receiver under attack: an API key, a 1 s body timeout and a 3 s idle timeout (longer:
    /// the idle timer also runs while a body stalls, and would cut it before its 408), a 64 KiB body limit,
    /// App Attest and Sign in with Apple on (Apple's keys at a loopback address nothing answers:
    /// no case here gets as far as fetching them).
    func startReceiver(_ scenarios: Scenarios, key: String) async throws -> (ReceiverProcess, [String]) {
        let keyFile = scenarios.directory.appendingPathComponent("api-key").path
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        let extra = [
            "--api-key-file", keyFile, "--body-timeout", "1", "--idle-timeout", "3", "--max-body-bytes", "65536",
            "--siwa-client-id", Self.clientId, "--siwa-jwks-url", "http://127.0.0.1:9/auth/keys",
        ]
        let arguments = try await scenarios.receiverArguments(extraArguments: extra)
        let receiver = try await scenarios.start(extraArguments: extra)
        return (receiver, arguments)
    }

    // MARK: - Raw HTTP

    struct Exchange: Decodable {
        let name: String
        let status: Int
        let body: String
        let elapsed: Double
        let closed: Bool
    }

    /// One raw HTTP case: `head` (request line and headers, CRLF-separated, ending with an empty
    /// line unless the case stalls within it) and `body` bytes, sent at once; the answer read
    /// until complete (or, `untilClose`, until the server closes), `wait` seconds at most.
    struct RawCase: Encodable {
        let name: String
        let head: String
        let bodyHex: String
        var wait = 10.0
        var untilClose = false

        init(_ name: String, head: String, body: [UInt8] = [], wait: Double = 10, untilClose: Bool = false) {
            self.name = name
            self.head = head
            bodyHex = body.map { String(format: "%02x", $0) }.joined()
            self.wait = wait
            self.untilClose = untilClose
        }

        /// A POST of `body` to `path` (Content-Length `length`, the body's by default).
        static func post(_ name: String, _ path: String, _ body: [UInt8], length: Int? = nil, headers: [String] = []) -> RawCase {
            let lines =
                ["POST \(path) HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: \(length ?? body.count)"]
                + headers
            return RawCase(name, head: lines.joined(separator: "\r\n") + "\r\n\r\n", body: body)
        }

        static func get(_ name: String, _ path: String, headers: [String] = []) -> RawCase {
            RawCase(name, head: (["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers).joined(separator: "\r\n") + "\r\n\r\n")
        }
    }

    static let client = """
        import json, socket, sys, time
        port = int(sys.argv[1])
        out = []
        for case in json.load(sys.stdin):
            start = time.time()
            data, closed = b"", False
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.settimeout(case["wait"])
            try:
                s.sendall(case["head"].encode("latin-1") + bytes.fromhex(case["bodyHex"]))
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        closed = True
                        break
                    data += chunk
                    end = data.find(b"\\r\\n\\r\\n")
                    if end >= 0 and not case["untilClose"]:
                        length = 0
                        for line in data[:end].decode("latin-1").lower().split("\\r\\n"):
                            if line.startswith("content-length:"):
                                length = int(line.split(":", 1)[1])
                        if len(data) >= end + 4 + length:
                            break
            except socket.timeout:
                pass
            except (ConnectionResetError, BrokenPipeError):
                closed = True
            elapsed = time.time() - start
            s.close()
            text = data.decode("utf-8", "replace")
            status = int(text.split(" ")[1]) if text.startswith("HTTP/1.1 ") else 0
            body = text.split("\\r\\n\\r\\n", 1)[1] if "\\r\\n\\r\\n" in text else ""
            out.append({"name": case["name"], "status": status, "body": body, "elapsed": elapsed, "closed": closed})
        print(json.dumps(out))
        """

    /// Runs `cases` against `port` in order; one `Exchange` per case, by name.
    func exchange(_ cases: [RawCase], port: Int) throws -> [String: Exchange] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.client, String(port)]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(cases))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("the raw client failed: \(String(decoding: data, as: UTF8.self))") }
        let exchanges = try JSONDecoder().decode([Exchange].self, from: data)
        return Dictionary(exchanges.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    }

    // MARK: - Receiver: every route classified, the operator routes refused without the key

    /// The routes the receiver serves, from its router: each must be in one of these lists, so a
    /// new route cannot go unclassified (and so untested).
    static let operatorRoutes = ["GET /appstore/transactions/{originalTransactionId}", "GET /metrics", "POST /v1/verify"]
    static let publicRoutes = [
        "POST /appstore/notifications", "POST /siwa/notifications", "POST /verifyReceipt", "POST /appattest/challenge",
        "POST /appattest/attestation", "POST /appattest/assertion", "GET /health", "GET /v1/openapi.json",
    ]

    /// Attack: read data, decrypt or read metrics without the operator key, with a wrong one, with
    /// the key in another scheme. Refusal: 401 with no data, on every operator route the router
    /// lists, and every kind of `/v1/verify`; the key opens each of them.
    func testEveryOperatorRouteRefusesWithoutTheKey() async throws {
        let scenarios = try Scenarios(backend: .sqlite, testCase: Self.self)
        self.scenarios = scenarios
        let key = "adversarial-key-" + UUID().uuidString
        let (receiver, arguments) = try await startReceiver(scenarios, key: key)

        // The router's own list of routes, built from the same configuration.
        var configuration = try ReceiverConfiguration.load(arguments: arguments, environment: [:])
        configuration.sqlitePath = scenarios.directory.appendingPathComponent("routes.sqlite").path
        let logger = Logger(label: "routes")
        let (store, _) = try ReceiverService.makeStore(configuration, logger: logger)
        let intake = NotificationIntake(verifier: try ReceiverService.makeVerifier(configuration), store: store, logger: logger)
        let routes = try ReceiverService.routes(configuration: configuration, intake: intake, logger: logger, metrics: ReceiverMetrics())
            .router.routes.map { "\($0.method) \($0.path)" }
        XCTAssertEqual(Set(routes), Set(Self.operatorRoutes + Self.publicRoutes), "every route is classified: \(routes)")

        // A stored transaction, the data a stranger is after.
        let original = "4600000\(Int.random(in: 100_000...999_999))"
        let transaction = try scenarios.signer.sign(scenarios.signer.transaction(original: original, id: original))
        let stored = try await scenarios.sender.post(
            receiver.baseURL, try scenarios.signer.notification(type: "SUBSCRIBED", signedTransactionInfo: transaction))
        XCTAssertEqual(stored.status, 200, "\(stored.json)")

        let credentials: [(attack: String, header: [String])] = [
            ("no key", []), ("a wrong key", ["Authorization: Bearer wrong-key-0123456789abcdef"]),
            ("the key without the Bearer scheme", ["Authorization: \(key)"]), ("the key in Basic", ["Authorization: Basic \(key)"]),
            ("the key with a byte more", ["Authorization: Bearer \(key)x"]), ("an empty bearer", ["Authorization: Bearer "]),
        ]
        var cases: [RawCase] = []
        for (attack, header) in credentials {
            cases.append(.get("transactions, \(attack)", "/appstore/transactions/\(original)", headers: header))
            cases.append(.get("metrics, \(attack)", "/metrics", headers: header))
            for kind in VerificationRequest.Kind.allCases {
                let request = Array(#"{"kind":"\#(kind.rawValue)","data":"\#(transaction)"}"#.utf8)
                cases.append(.post("verify \(kind.rawValue), \(attack)", "/v1/verify", request, headers: header))
            }
        }
        let bearer = ["Authorization: Bearer \(key)"]
        cases.append(.get("transactions with the key", "/appstore/transactions/\(original)", headers: bearer))
        for kind in VerificationRequest.Kind.allCases {
            cases.append(
                .post(
                    "verify \(kind.rawValue) with the key", "/v1/verify", Array(#"{"kind":"\#(kind.rawValue)","data":"x"}"#.utf8),
                    headers: bearer))
        }
        cases.append(.get("metrics with the key", "/metrics", headers: bearer))
        let answers = try exchange(cases, port: receiver.port)

        for (attack, _) in credentials {
            var names = ["transactions, \(attack)", "metrics, \(attack)"]
            names += VerificationRequest.Kind.allCases.map { "verify \($0.rawValue), \(attack)" }
            for name in names {
                let answer = try XCTUnwrap(answers[name], name)
                XCTAssertEqual(answer.status, 401, "\(name): \(answer.body)")
                XCTAssertFalse(answer.body.contains(original), "\(name): a refusal carries no data")
                XCTAssertFalse(answer.body.contains("\"valid\":true"), "\(name): nothing is verified")
                XCTAssertFalse(answer.body.contains("sigil_receiver_"), "\(name): no metrics")
            }
        }
        XCTAssertEqual(answers["transactions with the key"]?.status, 200)
        XCTAssertTrue(answers["transactions with the key"]?.body.contains(original) ?? false)
        for kind in VerificationRequest.Kind.allCases {
            let answer = try XCTUnwrap(answers["verify \(kind.rawValue) with the key"])
            XCTAssertNotEqual(answer.status, 401, "the key opens /v1/verify kind \(kind.rawValue): \(answer.body)")
            XCTAssertNotEqual(answer.status, 0, "kind \(kind.rawValue) answered")
        }
        let metrics = try XCTUnwrap(answers["metrics with the key"])
        XCTAssertEqual(metrics.status, 200)
        let samples = try PrometheusText.parse(Array(metrics.body.utf8))
        XCTAssertEqual(
            samples["sigil_receiver_http_unauthorized_total{route=verify}"],
            Double(credentials.count * VerificationRequest.Kind.allCases.count))

        // The public routes that carry no data stay open.
        let open = try exchange([.get("health", "/health"), .get("openapi", "/v1/openapi.json")], port: receiver.port)
        XCTAssertEqual(open["health"]?.status, 200)
        XCTAssertEqual(open["openapi"]?.status, 200)
    }

    // MARK: - Receiver: Apple's and the app's public routes against hostile bodies

    /// A JWS whose protected header repeats a member name that holds a line break and a forged log
    /// entry — the header is parsed before any signature is checked, so anyone can send it.
    static func forgingJWS(nameLength: Int = 0) -> String {
        let name =
            "x\\u000aFORGED entry" + String(repeating: "y", count: nameLength)
        let header = #"{"alg":"ES256","\#(name)":1,"\#(name)":2}"#
        func base64url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return base64url(header) + "." + base64url("{}") + "." + base64url("signature")
    }

    /// Attacks on every public POST route: a body over the limit (413), a body that stalls (408
    /// within the body timeout, the connection closed), nesting 10,000 deep, a duplicate member
    /// name carrying a forged log line (a typed 400, or Apple's 21002 on verifyReceipt, and no
    /// forged line in the log), bytes that are not UTF-8, JSON that is not an object; then an idle
    /// connection and one that stalls within its headers, each closed by the idle timeout.
    func testPublicRoutesRefuseHostileBodies() async throws {
        let scenarios = try Scenarios(backend: .sqlite, testCase: Self.self)
        self.scenarios = scenarios
        let (receiver, _) = try await startReceiver(scenarios, key: "adversarial-key-" + UUID().uuidString)
        let forgedName = "x\\u000aFORGED entry"
        let duplicate = Array(#"{"signedPayload":"a.b.c","\#(forgedName)":1,"\#(forgedName)":2}"#.utf8)
        let deep = Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        let deepObject = Array((#"{"a":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}").utf8)
        let notUTF8: [UInt8] = Array(#"{"signedPayload":""#.utf8) + [0xFF, 0xFE, 0xC0, 0x80] + Array(#""}"#.utf8)
        let routes: [(path: String, malformed: Int)] = [
            ("/appstore/notifications", 400), ("/siwa/notifications", 400), ("/verifyReceipt", 200),
            ("/appattest/attestation", 400), ("/appattest/assertion", 400),
        ]
        var cases: [RawCase] = []
        for (path, _) in routes {
            cases.append(.post("\(path) oversized", path, Array(repeating: UInt8(ascii: "A"), count: 65_537 + 4096)))
            cases.append(.post("\(path) slow", path, Array(#"{"signedPayload":"#.utf8), length: 1000))
            cases.append(.post("\(path) deep", path, deep))
            cases.append(.post("\(path) deep object", path, deepObject))
            cases.append(.post("\(path) duplicate", path, duplicate))
            cases.append(.post("\(path) not UTF-8", path, notUTF8))
            for (n, json) in ["[1,2]", "\"text\"", "42", "null", ""].enumerated() {
                cases.append(.post("\(path) not an object \(n)", path, Array(json.utf8)))
            }
        }
        cases.append(.post("challenge slow", "/appattest/challenge", Array("{".utf8), length: 1000))
        let forging = Array(#"{"signedPayload":"\#(Self.forgingJWS(nameLength: 10_000))"}"#.utf8)
        cases.append(.post("notification with a forging header", "/appstore/notifications", forging))
        cases.append(RawCase("idle connection", head: "", wait: 8, untilClose: true))
        cases.append(RawCase("stalled headers", head: "POST /appstore/notifications HTTP/1.1\r\nHost: x\r\n", wait: 8, untilClose: true))
        let answers = try exchange(cases, port: receiver.port)

        for (path, malformed) in routes {
            let oversized = try XCTUnwrap(answers["\(path) oversized"])
            XCTAssertEqual(oversized.status, 413, "\(path): a body over the limit: \(oversized.body)")
            let slow = try XCTUnwrap(answers["\(path) slow"])
            XCTAssertEqual(slow.status, 408, "\(path): a stalled body: \(slow.body)")
            XCTAssertLessThan(slow.elapsed, 5, "\(path): refused within the 1 s body timeout (and scheduling)")
            XCTAssertGreaterThan(slow.elapsed, 0.8, "\(path): not before the body timeout")
            for name in ["deep", "deep object", "duplicate", "not UTF-8"] + (0..<5).map { "not an object \($0)" } {
                let answer = try XCTUnwrap(answers["\(path) \(name)"])
                XCTAssertEqual(answer.status, malformed, "\(path) \(name): \(answer.body)")
                XCTAssertLessThan(answer.body.utf8.count, 1024, "\(path) \(name): the answer does not grow with the input")
                if path == "/verifyReceipt" {
                    XCTAssertTrue(answer.body.contains("\"status\":21002"), "\(path) \(name): \(answer.body)")
                }
            }
        }
        XCTAssertEqual(answers["challenge slow"]?.status, 408, answers["challenge slow"]?.body ?? "")
        let forged = try XCTUnwrap(answers["notification with a forging header"])
        XCTAssertEqual(forged.status, 400, forged.body)
        XCTAssertLessThan(forged.body.utf8.count, 1024, "a 10,000-character member name is quoted bounded")
        XCTAssertTrue(forged.body.contains("duplicate member name"), forged.body)
        for name in ["idle connection", "stalled headers"] {
            let answer = try XCTUnwrap(answers[name])
            XCTAssertTrue(answer.closed, "\(name): closed by the receiver")
            XCTAssertLessThan(answer.elapsed, 7, "\(name): within the 3 s idle timeout (and scheduling)")
            XCTAssertGreaterThan(answer.elapsed, 2.5, "\(name): not before the idle timeout")
        }

        // The log: the forging attempts were logged (refused …) but every line holding the
        // forged text is the refusal's own line — none starts a forged entry.
        try await Task.sleep(for: .milliseconds(200))
        let lines = receiver.log.split(separator: "\n")
        let forgedLines = lines.filter { $0.contains("FORGED") }
        XCTAssertGreaterThanOrEqual(forgedLines.count, 3, "the refusals were logged: \(receiver.log.suffix(2000))")
        for line in forgedLines {
            XCTAssertTrue(line.contains("refused"), "a forged log line: \(line)")
            XCTAssertLessThan(line.utf8.count, 1024, "a log line does not grow with the input: \(line.prefix(200))…")
        }
    }

    // MARK: - The verification service

    /// The built verification-service with `arguments` (and `environment` added), on loopback.
    func startService(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Int) {
        let process = Process()
        var merged = ProcessInfo.processInfo.environment
        merged[VerificationServiceOptions.apiKeyVariable] = nil
        merged.merge(environment) { $1 }
        let port = try LoopbackProcess.start(
            process, executable: "verification-service", arguments: ["--port", "0"] + arguments, testCase: Self.self, environment: merged)
        return (process, port)
    }

    func stop(_ process: Process) {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Runs a built executable of this package to its end (bounded: it is killed after 20 s).
    func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let bundle = Bundle(for: Self.self).bundleURL
        let binary = try XCTUnwrap(
            [bundle.appendingPathComponent(executable), bundle.deletingLastPathComponent().appendingPathComponent(executable)]
                .first { FileManager.default.isExecutableFile(atPath: $0.path) })
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for key in merged.keys where key.hasPrefix("RECEIVER_") || key == VerificationServiceOptions.apiKeyVariable { merged[key] = nil }
        process.environment = merged.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            if process.isRunning { process.terminate() }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Attack: use a keyed verification service without its key, with a wrong one, or pass a key
    /// on the command line. Refusal: 401 with no verification; `/health` and `/v1/openapi.json`
    /// stay open; the key opens `/v1/verify`; `--api-key` is refused before anything listens.
    func testVerificationServiceWithAKeyRefusesWithoutIt() async throws {
        let key = "service-key-" + UUID().uuidString
        let (process, port) = try startService([], environment: [VerificationServiceOptions.apiKeyVariable: key])
        defer { stop(process) }
        let request = Array(#"{"kind":"transaction","data":"not.a.jws"}"#.utf8)
        let answers = try exchange(
            [
                .post("no key", "/v1/verify", request),
                .post("wrong key", "/v1/verify", request, headers: ["Authorization: Bearer x\(key)"]),
                .post("key", "/v1/verify", request, headers: ["Authorization: Bearer \(key)"]), .get("health", "/health"),
                .get("openapi", "/v1/openapi.json"),
            ], port: port)
        for name in ["no key", "wrong key"] {
            XCTAssertEqual(answers[name]?.status, 401, "\(name): \(answers[name]?.body ?? "")")
            XCTAssertTrue(answers[name]?.body.contains("http.unauthorized") ?? false, answers[name]?.body ?? "")
        }
        XCTAssertEqual(answers["key"]?.status, 422, answers["key"]?.body ?? "")
        XCTAssertEqual(answers["health"]?.status, 200)
        XCTAssertEqual(answers["openapi"]?.status, 200)

        let onTheCommandLine = try runToEnd("verification-service", ["--port", "0", "--api-key", key])
        XCTAssertEqual(onTheCommandLine.status, 64)
        XCTAssertTrue(onTheCommandLine.errors.contains("not taken on the command line"), onTheCommandLine.errors)
        XCTAssertFalse(onTheCommandLine.output.contains("listening on"))
    }

    /// Attack: an operator starts the service with merchant keys on an address other machines
    /// reach and forgets the key (or names a host that only looks like loopback). Refusal: it does
    /// not start, and the error says what to do. On loopback without a key it starts.
    func testVerificationServiceWithMerchantKeysOffLoopbackNeedsAKey() async throws {
        let merchant = ["--applepay-merchant-id", "/nonexistent/key.pem=merchant.com.example", "--applepay-without-replay-protection"]
        for host in ["0.0.0.0", "192.0.2.10", "::", "127.evil.example"] {
            XCTAssertThrowsError(
                try VerificationServiceOptions.parse(arguments: ["--host", host] + merchant, environment: [:]), host
            ) {
                XCTAssertTrue("\($0)".contains(VerificationServiceOptions.apiKeyVariable), "\($0)")
                XCTAssertTrue("\($0)".contains("--api-key-file"), "\($0)")
            }
        }
        XCTAssertNoThrow(
            try VerificationServiceOptions.parse(
                arguments: ["--host", "0.0.0.0"] + merchant, environment: [VerificationServiceOptions.apiKeyVariable: "0123456789abcdef"]))
        XCTAssertNoThrow(try VerificationServiceOptions.parse(arguments: ["--host", "0.0.0.0"], environment: [:]), "no merchant keys")
        let refused = try runToEnd("verification-service", ["--host", "0.0.0.0", "--port", "0"] + merchant)
        XCTAssertEqual(refused.status, 64, refused.errors)
        XCTAssertTrue(refused.errors.contains("refusing to listen on 0.0.0.0"), refused.errors)
        XCTAssertFalse(refused.output.contains("listening on"), "nothing listened")

        let directory = try ApplePayServiceTests.vectorsDirectory()
        let (process, port) = try startService(
            try ApplePayServiceTests.merchantArguments(directory) + ["--applepay-without-replay-protection"])
        defer { stop(process) }
        let health = try exchange([.get("health", "/health")], port: port)
        XCTAssertEqual(health["health"]?.status, 200, "on loopback, merchant keys and no key: it starts")
    }

    // MARK: - --help (B6)

    /// `--help` printed "--help needs a value" (exit 64) before issue 46: now the options, exit 0.
    func testHelpPrintsTheOptions() throws {
        let receiver = try runToEnd("notification-receiver", ["--help"])
        XCTAssertEqual(receiver.status, 0, receiver.errors)
        for option in ReceiverConfiguration.options {
            XCTAssertTrue(receiver.output.contains(option.flag), "notification-receiver --help lists \(option.flag)")
        }
        let service = try runToEnd("verification-service", ["--help"])
        XCTAssertEqual(service.status, 0, service.errors)
        for option in VerificationServiceOptions.options {
            XCTAssertTrue(service.output.contains(option.flag), "verification-service --help lists \(option.flag)")
        }
        XCTAssertFalse((receiver.errors + service.errors).contains("needs a value"))
    }

    /// One source: every option `--help` prints is in Configuration.swift's table and is taken by
    /// `load` (no "unknown option").
    func testHelpOptionsAreTheDocumentedOnes() throws {
        let source = try String(
            contentsOf: VerificationServiceTests.repository.appendingPathComponent(
                "Examples/NotificationReceiver/Sources/NotificationReceiverKit/Configuration.swift"), encoding: .utf8)
        let table = source.split(separator: "\n").filter { $0.hasPrefix("/// |") }.joined(separator: "\n")
        for option in ReceiverConfiguration.options {
            let flag = String(option.flag.split(separator: " ")[0])
            XCTAssertTrue(table.contains("`\(flag) ") || table.contains("`\(flag)`"), "\(flag) is in Configuration.swift's table")
            guard flag != "--help", flag != "--insecure-accept-unsigned" else { continue }
            do {
                _ = try ReceiverConfiguration.load(arguments: [flag, "x"], environment: [:])
            } catch {
                XCTAssertFalse("\(error)".contains("unknown option"), "\(flag): \(error)")
            }
        }
    }
}

// MARK: - Low items, each with the test that failed before its fix

final class DoorsLowItemTests: XCTestCase {
    /// B4: any host starting with "127." counted as loopback, so "127.evil.example" (a DNS name
    /// anyone may point anywhere) started without a key. Loopback is now a literal address.
    func testLoopbackIsALiteralAddress() throws {
        for host in ["127.0.0.1", "127.0.0.53", "127.255.255.254", "::1", "[::1]", "::ffff:127.0.0.1", "[::ffff:127.1.2.3]", "localhost"] {
            XCTAssertTrue(ReceiverConfiguration.isLoopback(host), host)
        }
        for host in [
            "127.evil.example", "127.0.0.1.evil.example", "127.", "127", "128.0.0.1", "0.0.0.0", "::", "::2", "::ffff:128.0.0.1",
            "localhost.evil.example", "x.localhost", "[127.0.0.1", "", "0x7f.0.0.1",
        ] {
            XCTAssertFalse(ReceiverConfiguration.isLoopback(host), host)
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString).cer").path
        XCTAssertThrowsError(
            try ReceiverConfiguration.load(
                arguments: ["--bundle-id", "com.example", "--root-certificate", root, "--host", "127.evil.example"], environment: [:])
        ) { XCTAssertTrue("\($0)".contains("without an API key"), "\($0)") }
    }

    /// B3: the limiter keyed the exact address, so rotating IPv6 addresses in one /64 each got a
    /// fresh burst; and a full table evicted a tracked client for a newcomer (who then came back
    /// with a fresh burst). Now an IPv6 client is its /64, and newcomers share the overflow bucket.
    func testRateLimiterKeysIPv6On64AndDoesNotEvict() {
        let limiter = RateLimiter(perMinute: 3, maximumClients: 100)
        let rotating = (1...6).map { limiter.allow("2001:db8:1:2::\(String($0, radix: 16))", now: 0) }
        XCTAssertEqual(rotating, [true, true, true, false, false, false], "one /64, one bucket")
        XCTAssertTrue(limiter.allow("2001:db8:1:3::1", now: 0), "another /64 is another client")
        XCTAssertEqual(RateLimiter.clientKey(forAddress: "2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64")
        XCTAssertEqual(RateLimiter.clientKey(forAddress: "::ffff:192.0.2.7"), "192.0.2.7", "IPv4-mapped: the IPv4 address")
        XCTAssertEqual(RateLimiter.clientKey(forAddress: "192.0.2.7"), "192.0.2.7")
        XCTAssertNotEqual(RateLimiter.clientKey(forAddress: "192.0.2.7"), RateLimiter.clientKey(forAddress: "192.0.2.8"))

        let small = RateLimiter(perMinute: 3, maximumClients: 4)
        for client in ["a", "b", "c", "d"] { XCTAssertTrue(small.allow(client, now: 0)) }
        for n in 0..<100 { _ = small.allow("10.0.\(n / 256).\(n % 256)", now: 1) }
        XCTAssertEqual((0..<3).map { _ in small.allow("a", now: 2) }, [true, true, false], "a kept its bucket (two tokens left)")
        XCTAssertLessThanOrEqual(small.trackedClients, 5, "four clients and the overflow bucket")
        XCTAssertFalse(small.allow("10.9.9.9", now: 3), "newcomers share the overflow bucket, emptied by the flood")
    }

    /// B2: the key cache set `fetchedAt` after its await, so concurrent tokens with unknown kids
    /// each fetched Apple's keys. Now one fetch is in flight and the others await it.
    func testAppleKeyCacheFetchesOnceForConcurrentUnknownKids() async throws {
        final class CountingTransport: HTTPTransport, @unchecked Sendable {
            let count = Shared(0)
            func send(_ request: SigilHTTP.HTTPRequest, timeout: Double, maximumResponseSize: Int) async throws -> SigilHTTP.HTTPResponse {
                count.update { $0 += 1 }
                try await Task.sleep(for: .milliseconds(300))  // Apple is slow: the others arrive meanwhile
                return SigilHTTP.HTTPResponse(status: 200, body: Array(#"{"keys":[]}"#.utf8))
            }
        }
        let transport = CountingTransport()
        let cache = AppleIDEventIntake.keyCache(url: "http://127.0.0.1:9/auth/keys", transport: transport)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<16 { group.addTask { _ = try await cache.keys(containing: "unknown-\(n)") } }
            try await group.waitForAll()
        }
        XCTAssertEqual(transport.count.value, 1, "16 concurrent unknown kids, one fetch")
        _ = try await cache.keys(containing: "unknown-later")
        XCTAssertEqual(transport.count.value, 1, "within the refetch interval, no other fetch")
    }

    /// B7: a duplicate member name was quoted into the error raw and whole: a line break in it
    /// forged log lines, and its length was the client's. Now escaped and bounded.
    func testDuplicateMemberNamesAreQuotedEscapedAndBounded() throws {
        let name = "a\\n\\u0000\\\"é😀" + String(repeating: "z", count: 1000)
        let body = Array(#"{"\#(name)":1,"\#(name)":2}"#.utf8)
        XCTAssertThrowsError(try JSONValue(parsing: body)) { error in
            let reason = (error as? JOSEError)?.reason ?? "\(error)"
            XCTAssertFalse(reason.contains("\n"), reason)
            XCTAssertTrue(reason.contains(#"duplicate member name "a\x0A\x00\"\xC3\xA9\xF0\x9F\x98\x80zz"#), reason)
            XCTAssertTrue(reason.hasSuffix("\"…"), reason)
            XCTAssertLessThan(reason.count, 200, reason)
            XCTAssertTrue(reason.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F || $0 == "…" }, reason)
        }
        XCTAssertEqual(JSONValue.quotedForMessage("plain"), "\"plain\"")

        // The receiver's text log handler keeps any message on one line.
        let lines = Shared<[String]>([])
        struct Capture: LogHandler {
            let lines: Shared<[String]>
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                lines.update { $0.append("\(event.message) \(event.metadata ?? [:])") }
            }
        }
        let logger = Logger(label: "test") { _ in SingleLineLogHandler(Capture(lines: lines)) }
        logger.warning("refused: x\nFORGED\r\u{2028}entry", metadata: ["id": "k\nFORGED"])
        XCTAssertEqual(lines.value.count, 1)
        XCTAssertFalse(lines.value.joined().contains("\n"), lines.value.joined())
        XCTAssertFalse(lines.value.joined().contains("\r"))
        XCTAssertTrue(lines.value.joined().contains("x\\nFORGED\\r\\u{2028}entry"), lines.value.joined())
    }
}

// MARK: - B5: backfilled notifications are forwarded like live ones

extension AdversarialTests {
    /// B5: the backfill built its intake without the forwarding rules, so what it restored never
    /// reached the downstream receivers. Now each newly stored notification enters the outbox.
    func testBackfilledNotificationsAreForwarded() async throws {
        let scenarios = try Scenarios(backend: .sqlite, testCase: Self.self)
        self.scenarios = scenarios
        let emulator = try await HistoryEmulator.start(bundleId: scenarios.signer.bundleId)
        defer { emulator.stop() }
        let keyFile = scenarios.directory.appendingPathComponent("asc-key.p8").path
        try Data(emulator.key.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: keyFile))
        let store = try await scenarios.openStore()
        let payloads = try (0..<3).map { _ in try Scenarios.signedPayload(try scenarios.signer.notification(type: "DID_RENEW")) }
        emulator.history.set(payloads)
        let arguments =
            try await scenarios.receiverArguments() + [
                "--forward", "http://127.0.0.1:9/downstream", "--since", "\(Signer.nowMilliseconds - 60_000)", "--asc-key-id",
                HistoryEmulator.keyId, "--asc-issuer-id", HistoryEmulator.issuerId, "--asc-private-key", keyFile, "--asc-base-url",
                emulator.baseURL,
            ]
        let run = try Scenarios.runBackfill(arguments, testCase: Self.self)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.summary["stored"] as? Int, 3, run.output)
        let depth = try await store.outboxDepth()
        XCTAssertEqual(depth, 3, "each backfilled notification waits in the outbox for the downstream receiver")
    }
}
