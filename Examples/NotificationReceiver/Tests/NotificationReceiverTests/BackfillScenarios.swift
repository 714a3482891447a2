import Foundation
import Hummingbird
import Logging
import NotificationReceiverKit
import SigilCore
import SigilJOSE
import SigilKeys
import XCTest

/// Backfill after an outage: Apple's notification history served by a loopback emulator of the
/// App Store Server API, read back by `notification-receiver backfill`.
extension Scenarios {
    func backfillRestoresWhatWasMissed() async throws {
        let emulator = try await HistoryEmulator.start(bundleId: signer.bundleId)
        defer { emulator.stop() }
        let keyFile = directory.appendingPathComponent("asc-key.p8").path
        try Data(emulator.key.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: keyFile))
        let receiver = try await start()
        let store = try await openStore()
        let since = Signer.nowMilliseconds - 60_000

        // Ten notifications; the receiver got the first four before the outage.
        let first = try (0..<10).map { n in
            try signer.notification(
                type: "DID_RENEW",
                signedTransactionInfo: try signer.sign(signer.transaction(original: "3000000\(n)", id: "3000000\(n)")))
        }
        for body in first.prefix(4) {
            let status = try await sender.post(receiver.baseURL, body).status
            XCTAssertEqual(status, 200)
        }
        // Apple's history holds all ten, and one item whose payload was altered after signing.
        let payloads = try first.map(Self.signedPayload)
        let parts = payloads[0].split(separator: ".").map(String.init)
        let altered = parts[0] + "." + parts[1].replacingOccurrences(of: "A", with: "B") + "." + parts[2]
        emulator.history.set(Array(payloads[0..<5]) + [altered] + Array(payloads[5...]))

        let backfill =
            try await receiverArguments() + [
                "--since", "\(since)", "--asc-key-id", HistoryEmulator.keyId, "--asc-issuer-id", HistoryEmulator.issuerId,
                "--asc-private-key", keyFile, "--asc-base-url", emulator.baseURL,
            ]
        var run = try Self.runBackfill(backfill, testCase: testCase)
        XCTAssertEqual(run.status, 2, "a refused item makes the exit status 2: \(run.output)")
        XCTAssertEqual(run.summary["stored"] as? Int, 6, run.output)
        XCTAssertEqual(run.summary["duplicates"] as? Int, 4, run.output)
        XCTAssertEqual(run.summary["refused"] as? Int, 1, run.output)
        XCTAssertTrue(run.output.contains("page 1:"), "progress is printed per page")
        XCTAssertGreaterThan(run.summary["pages"] as? Int ?? 0, 1, "the history is paged")
        var uuids = try await store.storedNotificationUUIDs()
        XCTAssertEqual(uuids.count, 10)
        XCTAssertEqual(Set(uuids).count, 10, "each once")

        // Twice: nothing new.
        run = try Self.runBackfill(backfill, testCase: testCase)
        XCTAssertEqual(run.summary["stored"] as? Int, 0, run.output)
        XCTAssertEqual(run.summary["duplicates"] as? Int, 10, run.output)
        uuids = try await store.storedNotificationUUIDs()
        XCTAssertEqual(uuids.count, 10)

        // Alongside live deliveries of the same notifications: each stored once.
        let more = try (0..<12).map { _ in try signer.notification(type: "DID_RENEW") }
        emulator.history.set(payloads + (try more.map(Self.signedPayload)))
        let sender = self.sender
        let base = receiver.baseURL
        let live = Task { for body in more { _ = try await sender.post(base, body) } }
        run = try Self.runBackfill(backfill, testCase: testCase)
        try await live.value
        XCTAssertEqual(run.status, 0, run.output)
        uuids = try await store.storedNotificationUUIDs()
        XCTAssertEqual(uuids.count, 22, "\(run.output)")
        XCTAssertEqual(Set(uuids).count, 22)
        XCTAssertGreaterThan(emulator.authorizedRequests.value, 0)
        XCTAssertEqual(emulator.refusedRequests.value, 0, "every request carried a token the emulator verified")
    }

    static func signedPayload(_ body: [UInt8]) throws -> String {
        guard let payload = (try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["signedPayload"] as? String else {
            throw HarnessError("no signedPayload")
        }
        return payload
    }

    /// Runs the built `notification-receiver backfill` with `arguments`; its status, output and summary.
    static func runBackfill(_ arguments: [String], testCase: AnyClass) throws -> (status: Int32, output: String, summary: [String: Any]) {
        let bundle = Bundle(for: testCase).bundleURL
        let binary = [
            bundle.appendingPathComponent("notification-receiver"),
            bundle.deletingLastPathComponent().appendingPathComponent("notification-receiver"),
        ]
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let binary else { throw HarnessError("notification-receiver was not built beside \(bundle.path)") }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["backfill"] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("RECEIVER_") { environment[key] = nil }
        process.environment = environment
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("backfill-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        let summary = (try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]) ?? [:]
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text + log, summary)
    }
}

/// A value shared between the emulator's handlers and the test.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// The App Store Server API's Get Notification History, on loopback: pages of three, a
/// pagination token, and every request's bearer token verified (ES256 with the test key, the
/// bundle id, audience `appstoreconnect-v1`, the issuer) before anything is answered.
final class HistoryEmulator: Sendable {
    static let keyId = "EMULATOR01"
    static let issuerId = "57246542-96fe-1a63-e053-0824d0110000"
    let key: ECDSAPrivateKey
    /// The signed payloads Apple's history holds, in order.
    let history: Shared<[String]>
    let authorizedRequests: Shared<Int>
    let refusedRequests: Shared<Int>
    let baseURL: String
    let task: Task<Void, Error>

    init(
        key: ECDSAPrivateKey, history: Shared<[String]>, authorized: Shared<Int>, refused: Shared<Int>, baseURL: String,
        task: Task<Void, Error>
    ) {
        self.key = key
        self.history = history
        authorizedRequests = authorized
        refusedRequests = refused
        self.baseURL = baseURL
        self.task = task
    }

    static func start(bundleId: String) async throws -> HistoryEmulator {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let history = Shared<[String]>([])
        let authorized = Shared(0)
        let refused = Shared(0)
        let router = Router()
        router.post("/inApps/v1/notifications/history") { request, _ -> Response in
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
                let jws = try? JWS(compact: String(header.dropFirst(7))), (try? jws.verify(with: .ecdsa(key.publicKey))) != nil,
                let claims = try? JSONValue(parsing: jws.payload), claims["bid"]?.stringValue == bundleId,
                claims["aud"]?.stringValue == "appstoreconnect-v1", claims["iss"]?.stringValue == issuerId, jws.keyID == keyId
            else {
                refused.update { $0 += 1 }
                return Response(status: .unauthorized)
            }
            authorized.update { $0 += 1 }
            let offset = request.uri.queryParameters.get("paginationToken").flatMap { Int($0) } ?? 0
            let all = history.value
            let page = Array(all.dropFirst(offset).prefix(3))
            let next = offset + page.count
            let body: [String: Any] = [
                "notificationHistory": page.map { ["signedPayload": $0, "sendAttempts": [] as [Any]] },
                "hasMore": next < all.count, "paginationToken": "\(next)",
            ]
            let data = try JSONSerialization.data(withJSONObject: body)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        var logger = Logger(label: "history-emulator")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await value in ports {
            port = value
            break
        }
        return HistoryEmulator(
            key: key, history: history, authorized: authorized, refused: refused, baseURL: "http://127.0.0.1:\(port)", task: task)
    }

    func stop() { task.cancel() }
}
