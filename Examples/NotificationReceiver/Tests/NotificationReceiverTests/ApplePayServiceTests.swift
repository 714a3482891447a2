import Foundation
import Logging
import NotificationReceiverKit
import SigilHTTP
import SigilService
import XCTest

/// Issue 38: `POST /v1/verify` kind `applepay` in the `verification-service` process, on loopback,
/// with the real Apple-signed EC_v1 tokens of the Apple Pay vectors (Scripts/vectors-dir applepay; judged at their signing
/// time) and their published merchant keys — three keys configured at once, each token decrypted
/// with the one its publicKeyHash names. On SQLite and on PostgreSQL: a token is accepted once, the
/// same transactionId is refused the second time (applepay.replayedTransaction), two concurrent
/// submissions store one row, tampered tokens are refused by the signature step with nothing
/// stored, and the service's log (trace level) holds no card number or cryptogram. Safe by
/// default: merchant keys without a replay store do not start; without merchant keys the kind is
/// service.notConfigured; the named relaxation starts and warns. About 10 s a backend in the debug
/// build the receiver's tests run in (the process's first verification builds its tables), 2 s for
/// the safe-default checks.
final class ApplePayServiceTests: XCTestCase {
    static let repository = VerificationServiceTests.repository

    struct Vector {
        let name: String
        let token: String
        let signingTime: Int64
        let pan: String
        let cryptogram: String?
        let transactionId: String
    }

    /// The vectors directory (Scripts/vectors-dir applepay); a missing directory fails the test (never skips).
    static func vectorsDirectory() throws -> URL {
        let process = Process()
        process.executableURL = repository.appendingPathComponent("Scripts/vectors-dir")
        process.arguments = ["applepay"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: path + "/expected.json") else {
            throw HarnessError("no Apple Pay vectors (Scripts/vectors-dir applepay: \(path))")
        }
        return URL(fileURLWithPath: path)
    }

    static func vector(_ name: String, in directory: URL) throws -> Vector {
        let folder = directory.appendingPathComponent(name)
        let token = try String(contentsOf: folder.appendingPathComponent("token.json"), encoding: .utf8)
        let expected = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("expected.json")))
                as? [String: Any])
        let entry = try XCTUnwrap(expected[name] as? [String: Any])
        let signingTime = try XCTUnwrap(ISO8601DateFormatter().date(from: try XCTUnwrap(entry["signingTime"] as? String)))
        let plaintext = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("plaintext.json"))) as? [String: Any])
        let tokenJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        let header = try XCTUnwrap((tokenJSON["paymentData"] as? [String: Any] ?? tokenJSON)["header"] as? [String: Any])
        return Vector(
            name: name, token: token, signingTime: Int64(signingTime.timeIntervalSince1970),
            pan: try XCTUnwrap(plaintext["applicationPrimaryAccountNumber"] as? String),
            cryptogram: (plaintext["paymentData"] as? [String: Any])?["onlinePaymentCryptogram"] as? String,
            transactionId: try XCTUnwrap(header["transactionId"] as? String).lowercased())
    }

    /// The built verification-service with `arguments`, its standard error in `log` (trace level).
    final class Service: @unchecked Sendable {
        let process = Process()
        let port: Int
        let log: URL
        var url: String { "http://127.0.0.1:\(port)/v1/verify" }

        init(_ arguments: [String], testCase: AnyClass) throws {
            log = FileManager.default.temporaryDirectory.appendingPathComponent("applepay-log-\(UUID().uuidString).txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            port = try LoopbackProcess.start(
                process, executable: "verification-service", arguments: ["--port", "0"] + arguments, testCase: testCase,
                environment: ProcessInfo.processInfo.environment.merging(["LOG_LEVEL": "trace"]) { $1 },
                standardError: try FileHandle(forWritingTo: log),
                log: { [log] in String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self) })
        }

        func stop() -> String {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: log) }
            return String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        }
    }

    /// The three merchant keys: two with their certificates, one by its merchant identifier.
    static func merchantArguments(_ directory: URL) throws -> [String] {
        let path = { (name: String, file: String) in directory.appendingPathComponent(name).appendingPathComponent(file).path }
        let payuId = try String(contentsOf: URL(fileURLWithPath: path("payu-sandbox", "merchant_id.txt")), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return [
            "--applepay-merchant", path("spreedly-gala", "merchant_key.pem") + "=" + path("spreedly-gala", "merchant_cert.pem"),
            "--applepay-merchant", path("sepuka-sandbox", "merchant_key.pem") + "=" + path("sepuka-sandbox", "merchant_cert.pem"),
            "--applepay-merchant-id", path("payu-sandbox", "merchant_key.pem") + "=" + payuId,
        ]
    }

    static func request(_ token: String, at: Int64) -> [UInt8] {
        let document: [String: Any] = ["kind": "applepay", "data": token, "at": at]
        return Array(try! JSONSerialization.data(withJSONObject: document))
    }

    /// `token` with one character of `member` (inside header when `header`) changed.
    static func tampered(_ token: String, member: String, header: Bool) throws -> String {
        var outer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        var paymentData = outer["paymentData"] as? [String: Any] ?? outer
        var object = header ? try XCTUnwrap(paymentData["header"] as? [String: Any]) : paymentData
        var text = Array(try XCTUnwrap(object[member] as? String))
        // In the signature, a character of the signature value near its end (the middle is in the
        // certificates, which the chain step would refuse first).
        let index = member == "signature" ? text.count - 40 : text.count / 2
        text[index] = text[index] == "A" ? "B" : (text[index] == "0" ? "1" : (text[index].isLowercase ? "a" : "A"))
        if text[index] == Array(try XCTUnwrap(object[member] as? String))[index] { text[index] = "C" }
        object[member] = String(text)
        if header { paymentData["header"] = object } else { paymentData = object }
        if outer["paymentData"] != nil { outer["paymentData"] = paymentData } else { outer = paymentData }
        return String(decoding: try JSONSerialization.data(withJSONObject: outer), as: UTF8.self)
    }

    func run(_ backend: Backend) async throws {
        let directory = try Self.vectorsDirectory()
        let gala = try Self.vector("spreedly-gala", in: directory)
        let sepuka = try Self.vector("sepuka-sandbox", in: directory)
        let payu = try Self.vector("payu-sandbox", in: directory)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("applepay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The test's own view of the store (PostgreSQL: the tables dropped first, as the other tests do).
        let store: any NotificationStore
        var clientTask: Task<Void, Never>?
        let storeArguments: [String]
        switch backend {
        case .sqlite:
            let path = folder.appendingPathComponent("replay.sqlite").path
            storeArguments = ["--sqlite", path]
            store = try SQLiteNotificationStore(path: path)
        case .postgres:
            let url = try Backend.postgresURL()
            var logger = Logger(label: "test-store")
            logger.logLevel = .warning
            let postgres = try PostgresNotificationStore(url: url, maximumConnections: 2, logger: logger)
            clientTask = Task { await postgres.client.run() }
            try await postgres.dropAll()
            storeArguments = ["--postgres-url", url]
            store = postgres
        }
        defer { clientTask?.cancel() }

        let service = try Service(try Self.merchantArguments(directory) + storeArguments, testCase: Self.self)
        let sender = Sender()
        var log = ""
        do {
            // Accepted once, with the decrypted payment in the answer.
            let first = try await sender.post(url: service.url, Self.request(gala.token, at: gala.signingTime))
            XCTAssertEqual(first.status, 200, String(decoding: first.body, as: UTF8.self))
            let answer = try XCTUnwrap(first.json["applepay"] as? [String: Any])
            XCTAssertEqual(answer["transactionId"] as? String, gala.transactionId)
            XCTAssertEqual(answer["signingTime"] as? Int, Int(gala.signingTime))
            XCTAssertEqual((answer["payment"] as? [String: Any])?["applicationPrimaryAccountNumber"] as? String, gala.pan)
            XCTAssertEqual(first.json["notEnforced"] as? [String], [])

            // The same transactionId the second time: refused, typed.
            let second = try await sender.post(url: service.url, Self.request(gala.token, at: gala.signingTime))
            XCTAssertEqual(second.status, 422)
            XCTAssertEqual((second.json["error"] as? [String: Any])?["code"] as? String, "applepay.replayedTransaction")
            XCTAssertFalse(String(decoding: second.body, as: UTF8.self).contains(gala.pan))

            // Tampered tokens: refused by the signature step, nothing stored.
            for (member, header) in [("data", false), ("transactionId", true), ("signature", false)] {
                let bad = try Self.tampered(sepuka.token, member: member, header: header)
                let refused = try await sender.post(url: service.url, Self.request(bad, at: sepuka.signingTime))
                XCTAssertEqual(refused.status, 422, member)
                XCTAssertEqual(
                    (refused.json["error"] as? [String: Any])?["code"] as? String, "applepay.invalidSignature",
                    "\(member): \(String(decoding: refused.body, as: UTF8.self))")
            }
            let afterTampering = try await store.applePayTransactions()
            XCTAssertEqual(afterTampering.map(\.transactionId), [gala.transactionId])

            // Two concurrent submissions of one token: one accepted, one refused, one row.
            async let a = sender.post(url: service.url, Self.request(sepuka.token, at: sepuka.signingTime))
            async let b = sender.post(url: service.url, Self.request(sepuka.token, at: sepuka.signingTime))
            let (ra, rb) = try await (a, b)
            XCTAssertEqual([ra.status, rb.status].sorted(), [200, 422])
            let refusedCode = ((ra.status == 422 ? ra : rb).json["error"] as? [String: Any])?["code"] as? String
            XCTAssertEqual(refusedCode, "applepay.replayedTransaction")

            // The third key, configured by merchant identifier, chosen by publicKeyHash.
            let third = try await sender.post(url: service.url, Self.request(payu.token, at: payu.signingTime))
            XCTAssertEqual(third.status, 200, String(decoding: third.body, as: UTF8.self))

            let rows = try await store.applePayTransactions()
            XCTAssertEqual(rows.map(\.transactionId).sorted(), [gala.transactionId, sepuka.transactionId, payu.transactionId].sorted())
            XCTAssertEqual(rows.first { $0.transactionId == gala.transactionId }?.signingTime, gala.signingTime)
        } catch {
            log = service.stop()
            await sender.shutdown()
            throw error
        }
        log = service.stop()
        await sender.shutdown()
        // The log has content (trace level, the start-up line), and no card data.
        XCTAssertTrue(log.contains("applepay: 3 merchant key(s)"), log)
        for vector in [gala, sepuka, payu] {
            XCTAssertFalse(log.contains(vector.pan), "\(vector.name)'s card number is in the service's log")
            if let cryptogram = vector.cryptogram { XCTAssertFalse(log.contains(cryptogram), "\(vector.name)'s cryptogram is in the log") }
        }
    }

    func testSQLite() async throws { try await run(.sqlite) }

    func testPostgreSQL() async throws { try await run(.postgres) }

    /// Safe by default: merchant keys without a replay store refuse to start (exit 64, naming the
    /// relaxation); without merchant keys the kind is service.notConfigured (501); the named
    /// relaxation starts and says so in the log (that it then accepts a token twice and lists
    /// transactionId in notEnforced is SigilServiceTests' ApplePayServiceTests, in release: a
    /// debug process pays seconds for its first verification).
    func testSafeByDefault() async throws {
        let directory = try Self.vectorsDirectory()
        let gala = try Self.vector("spreedly-gala", in: directory)
        XCTAssertThrowsError(try Service(try Self.merchantArguments(directory), testCase: Self.self)) { error in
            XCTAssertTrue("\(error)".contains("--applepay-without-replay-protection"), "\(error)")
        }
        let sender = Sender()
        let bare = try Service([], testCase: Self.self)
        let unconfigured = try await sender.post(url: bare.url, Self.request(gala.token, at: gala.signingTime))
        _ = bare.stop()
        await sender.shutdown()
        XCTAssertEqual(unconfigured.status, 501)
        XCTAssertEqual((unconfigured.json["error"] as? [String: Any])?["code"] as? String, "service.notConfigured")

        let relaxed = try Service(try Self.merchantArguments(directory) + ["--applepay-without-replay-protection"], testCase: Self.self)
        try await Task.sleep(for: .milliseconds(200))  // the warning is logged just before "listening on"
        let log = relaxed.stop()
        XCTAssertTrue(log.contains("replay protection DISABLED"), log)
    }
}

/// Issue 38 on the notification receiver: the same `POST /v1/verify` kind `applepay`, its merchant
/// keys given to the receiver, its replay store the receiver's own database (schema 5's
/// `applepay_transactions` beside the notifications). A real token is accepted once and refused
/// the second time; a receiver without merchant keys answers `service.notConfigured`.
extension Scenarios {
    func applePayOnTheReceiver() async throws {
        let directory = try ApplePayServiceTests.vectorsDirectory()
        let gala = try ApplePayServiceTests.vector("spreedly-gala", in: directory)
        let request = ApplePayServiceTests.request(gala.token, at: gala.signingTime)

        let unconfigured = try await start()
        let refused = try await sender.post(url: unconfigured.baseURL + "/v1/verify", request)
        XCTAssertEqual(refused.status, 501, String(decoding: refused.body, as: UTF8.self))
        XCTAssertEqual((refused.json["error"] as? [String: Any])?["code"] as? String, "service.notConfigured")
        unconfigured.stop()

        // Issue 46: /v1/verify is an operator route on the receiver: the merchant's key decrypts
        // only for the holder of the API key.
        let key = "applepay-operator-" + UUID().uuidString
        let keyFile = self.directory.appendingPathComponent("api-key").path  // the test's folder, not the vectors'
        try Data(key.utf8).write(to: URL(fileURLWithPath: keyFile))
        let receiver = try await start(extraArguments: try ApplePayServiceTests.merchantArguments(directory) + ["--api-key-file", keyFile])
        let stranger = try await sender.post(url: receiver.baseURL + "/v1/verify", request)
        XCTAssertEqual(stranger.status, 401, "without the key nothing is decrypted nor recorded")
        XCTAssertFalse(String(decoding: stranger.body, as: UTF8.self).contains(gala.pan))
        let bearer = [HTTPHeader("Authorization", "Bearer " + key)]
        let first = try await sender.post(url: receiver.baseURL + "/v1/verify", request, headers: bearer)
        XCTAssertEqual(first.status, 200, String(decoding: first.body, as: UTF8.self))
        let answer = first.json["applepay"] as? [String: Any]
        XCTAssertEqual(answer?["transactionId"] as? String, gala.transactionId)
        XCTAssertEqual((answer?["payment"] as? [String: Any])?["applicationPrimaryAccountNumber"] as? String, gala.pan)
        let second = try await sender.post(url: receiver.baseURL + "/v1/verify", request, headers: bearer)
        XCTAssertEqual(second.status, 422)
        XCTAssertEqual((second.json["error"] as? [String: Any])?["code"] as? String, "applepay.replayedTransaction")
        let rows = try await openStore().applePayTransactions()
        XCTAssertEqual(rows.map(\.transactionId), [gala.transactionId], "one row, in the receiver's own store")
    }
}
