import Foundation
import Hummingbird
import Logging
import NotificationReceiverKit
import SigilHTTP
import SigilJOSE
import SigilTokens
import XCTest

/// Running the receiver for real: who may read what, bounded challenges, Sign in with Apple
/// server notifications, metrics. Each scenario runs once per backend.
extension Scenarios {
    // MARK: - Public and private routes, metrics

    func readRoutesNeedTheAPIKey() async throws {
        let key = "test-key-" + UUID().uuidString
        let keyFile = directory.appendingPathComponent("api-key").path
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        let receiver = try await start(extraArguments: ["--api-key-file", keyFile])
        let base = receiver.baseURL

        // Apple's write route stays public.
        let original = "2000000\(Int.random(in: 100_000...999_999))"
        let transaction = try signer.sign(signer.transaction(original: original, id: original))
        let stored = try await sender.post(base, try signer.notification(type: "SUBSCRIBED", signedTransactionInfo: transaction))
        XCTAssertEqual(stored.status, 200, "\(stored.json)")
        let foreign = try await sender.post(base, try signer.notification(with: signer.foreign))
        XCTAssertEqual(foreign.status, 403)

        // The read route: 401 and no data without the key or with another; the data with it.
        for headers in [[], [HTTPHeader("Authorization", "Bearer wrong-key-0123456789")], [HTTPHeader("Authorization", key)]] {
            let refused = try await sender.get(base + "/appstore/transactions/\(original)", headers: headers)
            XCTAssertEqual(refused.status, 401, "\(headers)")
            XCTAssertNil(refused.json["transactionId"])
            XCTAssertFalse(String(decoding: refused.body, as: UTF8.self).contains(original), "a refusal carries no data")
        }
        let bearer = [HTTPHeader("Authorization", "Bearer " + key)]
        let state = try await sender.get(base + "/appstore/transactions/\(original)", headers: bearer)
        XCTAssertEqual(state.status, 200)
        XCTAssertEqual(state.json["transactionId"] as? String, original)

        // Metrics: an operator route too; the text parses with Prometheus's own parser and the
        // counters moved as the requests above say.
        let unauthorized = try await sender.get(base + "/metrics")
        XCTAssertEqual(unauthorized.status, 401)
        let metrics = try await sender.get(base + "/metrics", headers: bearer)
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.header("content-type")?.hasPrefix("text/plain; version=0.0.4") ?? false)
        let samples = try PrometheusText.parse(metrics.body)
        XCTAssertEqual(samples["sigil_receiver_notifications_total{outcome=stored}"], 1)
        XCTAssertEqual(samples["sigil_receiver_notifications_total{outcome=refused}"], 1)
        let refusedReasons = samples.filter { $0.key.hasPrefix("sigil_receiver_notifications_refused_total{") }
        XCTAssertEqual(refusedReasons.values.reduce(0, +), 1, "\(refusedReasons)")
        XCTAssertEqual(samples["sigil_receiver_http_unauthorized_total{route=transactions}"], 3)
        XCTAssertEqual(samples["sigil_receiver_http_unauthorized_total{route=metrics}"], 1)
        XCTAssertEqual(samples["sigil_receiver_verification_seconds_count"], 2)
        XCTAssertEqual(samples["sigil_receiver_verification_seconds_bucket{le=+Inf}"], 2)
    }

    // MARK: - Bounded challenges

    func challengesAreBounded() async throws {
        // Per client: 5 a minute; a burst of 12 from one address gets 5 challenges and 7 × 429.
        let limited = try await start(extraArguments: ["--appattest-challenge-rate", "5"])
        let store = try await openStore()
        var statuses: [Int] = []
        for _ in 0..<12 { statuses.append(try await sender.post(url: limited.baseURL + "/appattest/challenge", []).status) }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 5, "\(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 429 }.count, 7, "\(statuses)")
        let afterRate = try await store.challengeCount()
        XCTAssertEqual(afterRate, 5)
        let metrics = try PrometheusText.parse(try await sender.get(limited.baseURL + "/metrics").body)
        XCTAssertEqual(metrics["sigil_receiver_challenges_refused_total{reason=rate}"], 7)
        limited.stop()

        // Across clients: at most 8 rows; 10 more asks add 3 and get 7 × 429, the rows stay at 8.
        let capped = try await start(extraArguments: ["--appattest-max-challenges", "8"])
        var refusals: [String] = []
        for _ in 0..<10 {
            let response = try await sender.post(url: capped.baseURL + "/appattest/challenge", [])
            if response.status == 429 { refusals.append(response.json["error"] as? String ?? "") }
        }
        XCTAssertEqual(refusals, Array(repeating: "receiver.tooManyChallenges", count: 7))
        let afterCap = try await store.challengeCount()
        XCTAssertEqual(afterCap, 8, "the store's row count stays bounded")
    }

    // MARK: - Sign in with Apple server notifications

    func appleIDNotificationsStoredOnce() async throws {
        let apple = try AppleIDSigner(directory: directory)
        let jwks = try await JWKSServer.start(json: apple.jwks)
        defer { jwks.stop() }
        let clientId = "com.example.receiver"
        let receiver = try await start(extraArguments: ["--siwa-client-id", clientId, "--siwa-jwks-url", jwks.url])
        let store = try await openStore()
        let url = receiver.baseURL + "/siwa/notifications"
        let now = Int64(Date().timeIntervalSince1970)

        let jti = "jti-" + UUID().uuidString
        let revoked = try apple.body(aud: clientId, now: now, jti: jti, type: "consent-revoked")
        var response = try await sender.post(url: url, revoked)
        XCTAssertEqual(response.status, 200, "\(response.json) \(receiver.log)")
        XCTAssertEqual(response.json["status"] as? String, "stored")
        XCTAssertEqual(response.json["type"] as? String, "consent-revoked")
        response = try await sender.post(url: url, revoked)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.json["status"] as? String, "duplicate", "a redelivery is stored once")
        response = try await sender.post(url: url, try apple.body(aud: clientId, now: now, jti: "jti-2", type: "account-delete"))
        XCTAssertEqual(response.json["status"] as? String, "stored")

        let refusals: [(String, [UInt8], Int, String)] = [
            ("another audience", try apple.body(aud: "com.other", now: now, jti: "r1"), 403, "jose.audienceMismatch"),
            ("another issuer", try apple.body(aud: clientId, now: now, jti: "r2", iss: "https://example.com"), 403, "jose.issuerMismatch"),
            ("expired", try apple.body(aud: clientId, now: now - 7200, jti: "r3", lifetime: 600), 403, "jose.expired"),
            ("HS256", try apple.body(aud: clientId, now: now, jti: "r4", alg: "HS256"), 403, "jose.algorithmMismatch"),
            ("none", try apple.body(aud: clientId, now: now, jti: "r5", alg: "none"), 403, "jose.algorithmMismatch"),
            ("a key not in the JWKS", try apple.body(aud: clientId, now: now, jti: "r6", kid: "not-published"), 403, "jose.unknownKeyID"),
            ("another body", Array(#"{"signedPayload":"x"}"#.utf8), 400, "jose.malformed"),
        ]
        for (what, body, status, code) in refusals {
            let refused = try await sender.post(url: url, body)
            XCTAssertEqual(refused.status, status, what)
            XCTAssertEqual(refused.json["status"] as? String, code, what)
        }
        let events = try await store.appleIDEvents()
        XCTAssertEqual(events.map(\.identity).sorted(), ["jti:jti-2", "jti:" + jti].sorted())
        XCTAssertEqual(Set(events.map(\.eventType)), ["consent-revoked", "account-delete"])
        XCTAssertTrue(events.allSatisfy { $0.subject == "001122.siwa.user" && $0.clientId == clientId })
        let metrics = try PrometheusText.parse(try await sender.get(receiver.baseURL + "/metrics").body)
        XCTAssertEqual(metrics["sigil_receiver_siwa_notifications_total{outcome=stored}"], 2)
        XCTAssertEqual(metrics["sigil_receiver_siwa_notifications_total{outcome=duplicate}"], 1)
        XCTAssertEqual(metrics["sigil_receiver_siwa_notifications_total{outcome=jose.algorithmMismatch}"], 2)
    }
}

/// Sign in with Apple's side, for tests: an RSA key made by openssl (an independent signer), its
/// JWKS, and notifications signed with it.
struct AppleIDSigner {
    let keyFile: String
    let jwks: String
    static let kid = "siwa-test-1"

    init(directory: URL) throws {
        keyFile = directory.appendingPathComponent("siwa-rsa.pem").path
        _ = try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile])
        let printed = String(decoding: try Self.openssl(["rsa", "-in", keyFile, "-noout", "-modulus"]), as: UTF8.self)
        let hex = Array(printed.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("Modulus=".count))
        var modulus: [UInt8] = []
        var index = 0
        while index + 1 < hex.count {
            guard let byte = UInt8(String(hex[index...index + 1]), radix: 16) else { throw HarnessError("bad modulus printout") }
            modulus.append(byte)
            index += 2
        }
        jwks = #"{"keys":[{"kty":"RSA","kid":"\#(Self.kid)","alg":"RS256","use":"sig","n":"\#(Self.b64url(modulus))","e":"AQAB"}]}"#
    }

    static func b64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func openssl(_ arguments: [String], stdin: [UInt8]? = nil) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin))
            try input.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("openssl \(arguments.first ?? "") failed") }
        return Array(data)
    }

    /// The body Apple POSTs: `{"payload": JWT}` with one event (a string of JSON, as Apple sends it).
    func body(
        aud: String, now: Int64, jti: String, type: String = "email-disabled", iss: String = "https://appleid.apple.com",
        lifetime: Int64 = 86_400, alg: String = "RS256", kid: String = AppleIDSigner.kid
    ) throws -> [UInt8] {
        let event = #"{\"type\":\"\#(type)\",\"sub\":\"001122.siwa.user\",\"event_time\":\#(now * 1000 - 300)}"#
        let claims = #"{"iss":"\#(iss)","aud":"\#(aud)","iat":\#(now),"exp":\#(now + lifetime),"jti":"\#(jti)","events":"\#(event)"}"#
        let input = Self.b64url(Array(#"{"alg":"\#(alg)","kid":"\#(kid)"}"#.utf8)) + "." + Self.b64url(Array(claims.utf8))
        let signature: String
        switch alg {
        case "RS256": signature = Self.b64url(try Self.openssl(["dgst", "-sha256", "-sign", keyFile], stdin: Array(input.utf8)))
        case "none": signature = ""
        default: signature = Self.b64url(Array(repeating: 7, count: 32))
        }
        return Array(#"{"payload":"\#(input).\#(signature)"}"#.utf8)
    }
}

/// A loopback server for Apple's key set (`GET /auth/keys`), in this process, always stopped.
final class JWKSServer: Sendable {
    let url: String
    let task: Task<Void, Error>

    init(url: String, task: Task<Void, Error>) {
        self.url = url
        self.task = task
    }

    static func start(json: String) async throws -> JWKSServer {
        let router = Router()
        router.get("/auth/keys") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "jwks-server")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await value in ports {
            port = value
            break
        }
        return JWKSServer(url: "http://127.0.0.1:\(port)/auth/keys", task: task)
    }

    func stop() { task.cancel() }
}

/// Prometheus's text format read by Prometheus's own Python parser (`prometheus_client`, Debian's
/// python3-prometheus-client): every sample as `name{label=value,…}` → value.
enum PrometheusText {
    static let script = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        for family in text_string_to_metric_families(sys.stdin.read()):
            for s in family.samples:
                labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
                print(f"{s.name}{{{labels}}}" if labels else s.name, s.value, sep="\\t")
        """

    static func parse(_ text: [UInt8]) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError("the Prometheus parser refused the metrics: \(String(decoding: failure, as: UTF8.self))")
        }
        var samples: [String: Double] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2, let value = Double(parts[1]) { samples[String(parts[0])] = value }
        }
        return samples
    }
}

// MARK: - A fake App Store

extension Scenarios {
    /// `sigil notify send` against the receiver: the notification (with its signed transaction and
    /// renewal info) is stored; the receiver trusts the CLI's test root only because it was told to.
    func fakeAppStoreSendsANotification() async throws {
        let sigil = try SigilCLI.path()
        let pki = directory.appendingPathComponent("fake-app-store").path
        let made = try SigilCLI.run(sigil, ["notify", "test-pki", pki])
        XCTAssertEqual(made.status, 0, made.output)
        let root = (made.json["root"] as? String) ?? ""
        let url = { (base: String) in base + "/appstore/notifications" }
        let send = [
            "notify", "send", "--pki-dir", pki, "--bundle-id", signer.bundleId, "--app-apple-id", "\(signer.appAppleId)",
            "--type", "SUBSCRIBED", "--subtype", "INITIAL_BUY",
        ]

        // A receiver that does not trust the test root refuses it.
        let untrusting = try await start()
        let refused = try SigilCLI.run(sigil, send + ["--url", url(untrusting.baseURL)])
        XCTAssertEqual(refused.status, 1, refused.output)
        XCTAssertTrue(refused.output.contains("notify.http403"), refused.output)
        untrusting.stop()

        // Told to trust it, the receiver stores it and its transaction state.
        let receiver = try await start(extraArguments: ["--root-certificate", root])
        let sent = try SigilCLI.run(sigil, send + ["--url", url(receiver.baseURL)])
        XCTAssertEqual(sent.status, 0, sent.output)
        XCTAssertEqual((sent.json["answer"] as? [String: Any])?["status"] as? String, "stored", sent.output)
        let uuid = sent.json["notificationUUID"] as? String ?? ""
        let stored = try await openStore().storedNotificationUUIDs()
        XCTAssertEqual(stored, [uuid])
        let original = sent.json["originalTransactionId"] as? String ?? ""
        let state = try await openStore().transactionState(originalTransactionId: original)
        XCTAssertEqual(state?.lastNotificationType, "SUBSCRIBED")
        XCTAssertEqual(state?.lastNotificationSubtype, "INITIAL_BUY")
        XCTAssertNotNil(state?.signedRenewalInfo)
    }
}

/// The `sigil` CLI of this repository: `SIGIL_CLI`, else the release build the test command makes
/// before this package's tests run.
enum SigilCLI {
    static func path() throws -> String {
        if let path = ProcessInfo.processInfo.environment["SIGIL_CLI"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/release/sigil").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError("no sigil CLI at \(path): build the repository first (swift build -c release) or set SIGIL_CLI")
        }
        return path
    }

    static func run(_ sigil: String, _ arguments: [String]) throws -> (status: Int32, output: String, json: [String: Any]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sigil)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        return (process.terminationStatus, String(decoding: data + failure, as: UTF8.self), json)
    }
}

/// The Sign in with Apple hook: stored once, handled at least once.
final class AppleIDHookTests: XCTestCase {
    func testAFailedHookIsRetriedOnRedeliveryAndNotAfterSuccess() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-hook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let apple = try AppleIDSigner(directory: directory)
        let keys = try JWKS(parsing: Array(apple.jwks.utf8))
        let store = try SQLiteNotificationStore(path: directory.appendingPathComponent("hook.sqlite").path)
        try await store.prepare()
        let calls = Shared<[String]>([])
        let failNext = Shared(true)
        struct HookFailed: Error {}
        var logger = Logger(label: "hook-test")
        logger.logLevel = .critical
        let intake = AppleIDEventIntake(
            verifier: AppleIDServerNotificationVerifier(clientIDs: ["com.example.app"]), keys: AppleJWKSCache { keys }, store: store,
            logger: logger,
            hook: { notification in
                calls.update { $0.append(notification.event.type.rawValue) }
                if failNext.value {
                    failNext.set(false)
                    throw HookFailed()
                }
            })
        let body = try apple.body(aud: "com.example.app", now: Int64(Date().timeIntervalSince1970), jti: "hook-1", type: "account-delete")

        var outcome = await intake.accept(body: body)
        XCTAssertEqual(outcome.status, 500, "the hook failed: Apple is asked to deliver again")
        var events = try await store.appleIDEvents()
        XCTAssertEqual(events.count, 1, "stored before the hook ran")
        XCTAssertNil(events.first?.handledAt)

        outcome = await intake.accept(body: body)
        XCTAssertEqual(outcome.status, 200)
        XCTAssertEqual(outcome.body["status"], "duplicate")
        events = try await store.appleIDEvents()
        XCTAssertNotNil(events.first?.handledAt, "handled on the redelivery")

        outcome = await intake.accept(body: body)
        XCTAssertEqual(outcome.status, 200)
        XCTAssertEqual(calls.value, ["account-delete", "account-delete"], "not handed to the hook again once handled")
        let count = try await store.appleIDEvents().count
        XCTAssertEqual(count, 1)
    }
}
