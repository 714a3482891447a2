import AsyncHTTPClient
import Foundation
import Logging
import NotificationReceiverKit
import SigilAppStore
import SigilHTTP
import SigilTestPKI
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Where a test's receiver stores: a fresh SQLite file, or the PostgreSQL server named by
/// `RECEIVER_TEST_POSTGRES_URL` (ci.sh starts one; its tables are dropped before each test).
enum Backend {
    case sqlite
    case postgres

    static let postgresVariable = "RECEIVER_TEST_POSTGRES_URL"

    /// The PostgreSQL URL; without one, CI (CI=true) fails and elsewhere the test skips with the reason.
    static func postgresURL() throws -> String {
        if let url = ProcessInfo.processInfo.environment[postgresVariable], !url.isEmpty { return url }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            throw HarnessError(
                "\(postgresVariable) is not set: in CI the PostgreSQL tests must run (use Examples/NotificationReceiver/ci.sh)")
        }
        throw XCTSkip("\(postgresVariable) is not set; run Examples/NotificationReceiver/ci.sh to test against a real PostgreSQL")
    }

    static let controlVariable = "RECEIVER_TEST_POSTGRES_CONTROL"

    /// ci.sh's control script for the test cluster; without one, CI fails and elsewhere the test skips.
    static func postgresControl() throws -> String {
        if let script = ProcessInfo.processInfo.environment[controlVariable], !script.isEmpty { return script }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            throw HarnessError("\(controlVariable) is not set: in CI this test must run (use Examples/NotificationReceiver/ci.sh)")
        }
        throw XCTSkip("\(controlVariable) is not set; run Examples/NotificationReceiver/ci.sh to stop and restart a real PostgreSQL")
    }

    /// Runs ci.sh's control script: `stop` (immediate shutdown) or `start` the test cluster. Spawned
    /// and reaped here with posix_spawn and waitpid: Foundation's Process once left this script a
    /// zombie (its waitUntilExit never returned) after pg_ctl had started the server.
    static func postgres(_ command: String) throws {
        let script = try postgresControl()
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(script), strdup(command)]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, script, nil, nil, arguments + [nil], environ)
        guard spawned == 0 else { throw HarnessError("cannot run \(script): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw HarnessError("waitpid for \(script) \(command): errno \(errno)") }
        }
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw HarnessError("\(script) \(command) ended with wait status \(status)")
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The Apple-shaped test PKI, its root on disk for the receiver, and a notification factory.
final class Signer: @unchecked Sendable {
    /// One PKI for the whole run (generating it costs three key pairs).
    static let shared = Result { try Signer() }
    let pki: AppleShapedTestPKI
    /// Another PKI of the same shape that the receiver does not trust.
    let foreign: AppleShapedTestPKI
    let rootFile: URL
    let bundleId = "com.example.receiver"
    let appAppleId: Int64 = 1_234_567_890
    let environment = AppStoreEnvironment.sandbox

    init() throws {
        let now = Int64(Date().timeIntervalSince1970)
        pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 365 * 86_400)
        foreign = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 365 * 86_400)
        rootFile = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-root-\(UUID().uuidString).cer")
        try Data(pki.root.derBytes).write(to: rootFile)
    }

    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    func sign(_ object: [String: Any], with pki: AppleShapedTestPKI? = nil) throws -> String {
        let json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try (pki ?? self.pki).signedData(payload: Array(json))
    }

    func transaction(
        original: String, id: String, signedDate: Int64 = Signer.nowMilliseconds, bundleId: String? = nil,
        environment: String? = nil, productId: String = "com.example.monthly"
    ) -> [String: Any] {
        [
            "originalTransactionId": original, "transactionId": id, "bundleId": bundleId ?? self.bundleId, "productId": productId,
            "signedDate": signedDate, "purchaseDate": signedDate - 1000, "expiresDate": signedDate + 30 * 86_400_000,
            "environment": environment ?? self.environment.rawValue, "type": "Auto-Renewable Subscription", "quantity": 1,
            "inAppOwnershipType": "PURCHASED", "transactionReason": "RENEWAL", "storefront": "USA", "storefrontId": "143441",
        ]
    }

    func renewal(original: String, autoRenewStatus: Int = 1) -> [String: Any] {
        [
            "originalTransactionId": original, "autoRenewProductId": "com.example.monthly", "productId": "com.example.monthly",
            "autoRenewStatus": autoRenewStatus, "signedDate": Signer.nowMilliseconds, "environment": environment.rawValue,
        ]
    }

    /// A notification body `{"signedPayload": …}` as Apple POSTs it.
    func notification(
        uuid: String = UUID().uuidString, type: String = "DID_RENEW", subtype: String? = nil,
        signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil, signedAppTransactionInfo: String? = nil,
        bundleId: String? = nil, environment: String? = nil, with pki: AppleShapedTestPKI? = nil
    ) throws -> [UInt8] {
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": Signer.nowMilliseconds,
        ]
        if let subtype { payload["subtype"] = subtype }
        if let signedAppTransactionInfo {
            payload["appData"] = [
                "appAppleId": appAppleId, "bundleId": bundleId ?? self.bundleId,
                "environment": environment ?? self.environment.rawValue, "signedAppTransactionInfo": signedAppTransactionInfo,
            ]
        } else {
            var data: [String: Any] = [
                "appAppleId": appAppleId, "bundleId": bundleId ?? self.bundleId, "bundleVersion": "1.0",
                "environment": environment ?? self.environment.rawValue, "status": 1,
            ]
            if let signedTransactionInfo { data["signedTransactionInfo"] = signedTransactionInfo }
            if let signedRenewalInfo { data["signedRenewalInfo"] = signedRenewalInfo }
            payload["data"] = data
        }
        return body(try sign(payload, with: pki))
    }

    func body(_ signedPayload: String) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: ["signedPayload": signedPayload])) ?? Data())
    }
}

/// Starting one of this package's executables, built beside the test bundle, that prints
/// `listening on HOST:PORT` once it accepts connections (the receiver, the verification service).
enum LoopbackProcess {
    /// Runs `executable` in `process` and returns the port it printed; a process that prints
    /// anything else is stopped, and the error carries what it printed and `log()`.
    static func start(
        _ process: Process, executable: String, arguments: [String], testCase: AnyClass,
        environment: [String: String] = ProcessInfo.processInfo.environment, standardError: Any? = FileHandle.nullDevice,
        log: () -> String = { "" }
    ) throws -> Int {
        let bundle = Bundle(for: testCase).bundleURL
        let candidates = [
            bundle.appendingPathComponent(executable),
            bundle.deletingLastPathComponent().appendingPathComponent(executable),
        ]
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw HarnessError("\(executable) was not built beside \(bundle.path)")
        }
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardError
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on "), let port = text.split(separator: ":").last.flatMap({ Int($0) }) else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw HarnessError("\(executable) did not start: \(text); log: \(log())")
        }
        return port
    }
}

/// One receiver process on a loopback port: started from the built `notification-receiver`
/// executable (a separate process, so SIGKILL is real), its log in a file, always stopped.
final class ReceiverProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let logFile: URL
    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(arguments: [String], testCase: AnyClass) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-log-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("RECEIVER_") { environment[key] = nil }
        port = try LoopbackProcess.start(
            process, executable: "notification-receiver", arguments: ["--port", "0"] + arguments, testCase: testCase,
            environment: environment, standardError: try FileHandle(forWritingTo: logFile),
            log: { [logFile] in (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" })
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// SIGKILL: no shutdown code runs.
    func kill() {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: logFile)
    }
}

/// A sender over Sigil's AsyncHTTPClient transport with its own client (16 connections).
final class Sender: @unchecked Sendable {
    let client: HTTPClient
    let transport: AsyncHTTPClientTransport

    init() {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        configuration.redirectConfiguration = .disallow
        // A dead receiver is found at once (connection refused), not after AsyncHTTPClient's 10 s default.
        configuration.timeout = .init(connect: .seconds(2), read: .seconds(60))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        transport = AsyncHTTPClientTransport(client: client)
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    func post(_ base: String, _ body: [UInt8], timeout: Double = 60) async throws -> HTTPResponse {
        try await transport.send(
            HTTPRequest(
                method: "POST", url: base + "/appstore/notifications",
                headers: [HTTPHeader("Content-Type", "application/json")], body: body),
            timeout: timeout, maximumResponseSize: 1 << 20)
    }

    /// POSTs `body` to `url` itself (any route).
    func post(url: String, _ body: [UInt8], headers: [HTTPHeader] = []) async throws -> HTTPResponse {
        try await transport.send(
            HTTPRequest(method: "POST", url: url, headers: [HTTPHeader("Content-Type", "application/json")] + headers, body: body),
            timeout: 60, maximumResponseSize: 1 << 20)
    }

    func get(_ url: String, headers: [HTTPHeader] = []) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(method: "GET", url: url, headers: headers), timeout: 30, maximumResponseSize: 1 << 20)
    }
}

extension HTTPResponse {
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
}
