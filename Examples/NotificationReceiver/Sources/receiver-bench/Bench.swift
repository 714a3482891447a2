import AsyncHTTPClient
import Foundation
import Logging
import NotificationReceiverKit
import SigilAppStore
import SigilHTTP
import SigilTestPKI

// receiver-bench: notifications per second end to end (HTTP → verify → commit) against a
// notification-receiver process started here, and where the time goes: the receiver reports
// each request's verification and storage time in Server-Timing, and the two steps are also
// measured alone in this process (verification of the same notifications; stores of the same
// records into a fresh database).
//
//   receiver-bench [--count N] [--clients C] [--postgres-url URL]
//
// Build it in release (`swift build -c release --product receiver-bench --product
// notification-receiver`): it starts the notification-receiver built beside it.

struct BenchError: Error, CustomStringConvertible {
    let description: String
}

final class Totals: @unchecked Sendable {
    let lock = NSLock()
    var verify = 0.0, store = 0.0, failures = 0
    func add(_ header: String?, ok: Bool) {
        var v = 0.0
        var s = 0.0
        for part in (header ?? "").split(separator: ",") {
            let fields = part.split(separator: ";")
            guard fields.count == 2,
                let micros = Double(fields[1].replacingOccurrences(of: "dur=", with: "").trimmingCharacters(in: .whitespaces))
            else { continue }
            if fields[0].trimmingCharacters(in: .whitespaces) == "verify" { v = micros / 1e6 } else { s = micros / 1e6 }
        }
        lock.lock()
        verify += v
        store += s
        if !ok { failures += 1 }
        lock.unlock()
    }
}

/// A shared index for the concurrent senders.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var index = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard index < limit else { return nil }
        index += 1
        return index - 1
    }
}

@main
struct ReceiverBench {
    static func main() async throws {
        var count = 2000
        var clients = 16
        var postgresURL: String?
        var arguments = Array(CommandLine.arguments.dropFirst())
        while !arguments.isEmpty {
            let flag = arguments.removeFirst()
            guard let value = arguments.first else { throw BenchError(description: "\(flag) needs a value") }
            arguments.removeFirst()
            switch flag {
            case "--count": count = Int(value) ?? count
            case "--clients": clients = Int(value) ?? clients
            case "--postgres-url": postgresURL = value
            default: throw BenchError(description: "unknown option \(flag)")
            }
        }

        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400 * 30)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rootFile = directory.appendingPathComponent("root.cer")
        try Data(pki.root.derBytes).write(to: rootFile)
        let bundleId = "com.example.bench"

        func sign(_ object: [String: Any]) throws -> String {
            try pki.signedData(payload: Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        }

        /// `n` notification bodies, each with its own signed transaction (as Apple sends them).
        func notifications(_ n: Int, prefix: String) throws -> [(uuid: String, body: [UInt8])] {
            let millis = Int64(Date().timeIntervalSince1970 * 1000)
            return try (0..<n).map { index in
                let original = "\(prefix)\(index % 500)"
                let transaction = try sign([
                    "originalTransactionId": original, "transactionId": "\(prefix)\(index)", "bundleId": bundleId,
                    "productId": "com.example.monthly", "signedDate": millis + Int64(index), "purchaseDate": millis,
                    "expiresDate": millis + 86_400_000 * 30, "environment": "Sandbox", "type": "Auto-Renewable Subscription",
                ])
                let uuid = UUID().uuidString
                let payload = try sign([
                    "notificationType": "DID_RENEW", "notificationUUID": uuid, "version": "2.0", "signedDate": millis,
                    "data": ["bundleId": bundleId, "environment": "Sandbox", "appAppleId": 1, "signedTransactionInfo": transaction],
                ])
                return (uuid, Array(try JSONSerialization.data(withJSONObject: ["signedPayload": payload])))
            }
        }

        // The receiver process.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "notification-receiver")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchError(description: "no \(binary.path); build it first")
        }
        let process = Process()
        process.executableURL = binary
        var receiverArguments = ["--port", "0", "--bundle-id", bundleId, "--environment", "Sandbox", "--root-certificate", rootFile.path]
        let sqlitePath = directory.appendingPathComponent("bench.sqlite").path
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        if let postgresURL {
            // A fresh schema: drop the receiver's tables before it starts.
            let store = try PostgresNotificationStore(url: postgresURL, maximumConnections: 2, logger: logger)
            let task = Task { await store.client.run() }
            try await store.dropAll()
            task.cancel()
            receiverArguments += ["--postgres-url", postgresURL]
        } else {
            receiverArguments += ["--sqlite", sqlitePath]
        }
        process.arguments = receiverArguments
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "warning"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line.append(byte) }
        guard let port = String(decoding: line, as: UTF8.self).split(separator: ":").last.flatMap({ Int($0) }) else {
            throw BenchError(description: "the receiver did not start: \(String(decoding: line, as: UTF8.self))")
        }
        let base = "http://127.0.0.1:\(port)/appstore/notifications"

        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: clients)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        let transport = AsyncHTTPClientTransport(client: client)

        func send(_ bodies: [(uuid: String, body: [UInt8])]) async -> (seconds: Double, totals: Totals) {
            let totals = Totals()
            let next = Counter()
            let start = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        while let mine = next.take(below: bodies.count) {
                            do {
                                let response = try await transport.send(
                                    HTTPRequest(
                                        method: "POST", url: base, headers: [HTTPHeader("Content-Type", "application/json")],
                                        body: bodies[mine].body), timeout: 60, maximumResponseSize: 1 << 16)
                                totals.add(response.header("server-timing"), ok: response.status == 200)
                            } catch {
                                totals.add(nil, ok: false)
                            }
                        }
                    }
                }
            }
            return (seconds(ContinuousClock.now - start), totals)
        }

        print(
            "receiver-bench: \(count) notifications (each with a signed transaction: 2 ES256 verifications), \(clients) concurrent clients, "
                + "store \(postgresURL == nil ? "SQLite (WAL, synchronous=FULL)" : "PostgreSQL"), \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
        let warmup = try notifications(200, prefix: "9")
        _ = await send(warmup)
        let bodies = try notifications(count, prefix: "1")
        let (elapsed, totals) = await send(bodies)
        print(
            String(
                format: "end to end: %.0f notifications/s (%d in %.2f s, %d failures)", Double(count) / elapsed, count, elapsed,
                totals.failures))
        print(
            String(
                format: "  in the receiver, per notification: verify %.3f ms, store (commit) %.3f ms (mean under load)",
                totals.verify / Double(count) * 1000, totals.store / Double(count) * 1000))
        try await client.shutdown()
        process.terminate()
        process.waitUntilExit()

        // Each step alone, in this process.
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.derBytes], bundleId: bundleId, appAppleId: nil, environment: .sandbox)
        let payloads = try bodies.map { body -> String in
            let object = try JSONSerialization.jsonObject(with: Data(body.body)) as? [String: String]
            return object?["signedPayload"] ?? ""
        }
        let verifyStart = ContinuousClock.now
        var records: [NotificationRecord] = []
        for payload in payloads { _ = try await verifier.verifyNotificationAndNested(payload) }
        let verifySeconds = seconds(ContinuousClock.now - verifyStart)
        print(
            String(
                format: "verification alone (one core): %.0f notifications/s (%.3f ms each)", Double(count) / verifySeconds,
                verifySeconds / Double(count) * 1000))

        let storeLogger = logger
        let intakeStore: any NotificationStore
        var storeTask: Task<Void, Never>?
        if let postgresURL {
            let postgres = try PostgresNotificationStore(url: postgresURL, maximumConnections: clients, logger: storeLogger)
            storeTask = Task { await postgres.client.run() }
            try await postgres.dropAll()
            intakeStore = postgres
        } else {
            intakeStore = try SQLiteNotificationStore(path: directory.appendingPathComponent("alone.sqlite").path)
        }
        try await intakeStore.prepare()
        let millis = Int64(Date().timeIntervalSince1970 * 1000)
        records = payloads.enumerated().map { index, payload in
            NotificationRecord(
                notificationUUID: UUID().uuidString, notificationType: "DID_RENEW", subtype: nil, signedDate: millis,
                environment: "Sandbox",
                signedPayload: payload, receivedAt: millis,
                transaction: TransactionState(
                    originalTransactionId: "s\(index % 500)", transactionId: "t\(index)", productId: "p", bundleId: bundleId,
                    environment: "Sandbox", signedDate: millis + Int64(index), purchaseDate: millis, expiresDate: nil,
                    revocationDate: nil, autoRenewStatus: 1, autoRenewProductId: "p", lastNotificationUUID: "u",
                    lastNotificationType: "DID_RENEW", lastNotificationSubtype: nil, updatedAt: millis,
                    signedTransactionInfo: payload, signedRenewalInfo: nil))
        }
        let storeStart = ContinuousClock.now
        let storeIndex = Counter()
        let snapshot = records
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    while let mine = storeIndex.take(below: snapshot.count) {
                        _ = try await intakeStore.store(snapshot[mine])
                    }
                }
            }
            try await group.waitForAll()
        }
        let storeSeconds = seconds(ContinuousClock.now - storeStart)
        print(
            String(
                format: "storage alone (%d concurrent writers): %.0f commits/s (%.3f ms each, wall time / count)",
                clients, Double(count) / storeSeconds, storeSeconds / Double(count) * 1000))
        storeTask?.cancel()
    }
}
