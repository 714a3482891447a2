import Foundation
import Logging
import NotificationReceiverKit
import SigilHTTP
import SigilService
import XCTest

/// Issue 38: `POST /v1/verify` kind `applepay` in the `verification-service` process, on loopback,
/// with the real Apple-signed EC_v1 tokens of the Apple Pay vectors (Scripts/vectors-dir applepay; judged at their signing
/// time) and their published merchant keys — three keys configured at once, each token decrypted
/// with the one its publicKeyHash names. On SQLite and on PostgreSQL: a token is accepted once; the
/// identical request again is answered as a retry (`retry: true`, `firstAcceptedAt`), another
/// request with the token (another `at`) is refused (applepay.replayedTransaction); re-framed
/// tokens (issue 46: bytes moved between data, transactionId and applicationData under Apple's
/// signature) are refused with their codes; concurrent submissions — identical bodies, or each
/// with its own `at` — store one row; tampered tokens are refused by the signature step with
/// nothing stored, and the service's log (trace level) holds no card number or cryptogram. Safe by
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

    /// The vectors directory (Scripts/vectors-dir applepay, or another data set); a missing
    /// directory fails the test (never skips).
    static func vectorsDirectory(_ dataSet: String = "applepay", holding file: String = "expected.json") throws -> URL {
        let process = Process()
        process.executableURL = repository.appendingPathComponent("Scripts/vectors-dir")
        process.arguments = [dataSet]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: path + "/" + file) else {
            throw HarnessError("no \(dataSet) vectors (Scripts/vectors-dir \(dataSet): \(path))")
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

    /// `token` with `change` applied to its signed fields as bytes: (data, transactionId,
    /// applicationData) — an attacker's re-framing.
    static func reframed(_ token: String, _ change: (inout [UInt8], inout [UInt8], inout [UInt8]?) -> Void) throws -> String {
        var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        var header = try XCTUnwrap(root["header"] as? [String: Any])
        var data = Array(try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(root["data"] as? String))))
        let idText = try XCTUnwrap(header["transactionId"] as? String)
        var id = try stride(from: 0, to: idText.count, by: 2).map { offset in
            let start = idText.index(idText.startIndex, offsetBy: offset)
            return try XCTUnwrap(UInt8(idText[start..<idText.index(start, offsetBy: 2)], radix: 16))
        }
        var applicationData: [UInt8]?
        change(&data, &id, &applicationData)
        let hex = { (bytes: [UInt8]) in
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
        root["data"] = Data(data).base64EncodedString()
        header["transactionId"] = hex(id)
        header["applicationData"] = applicationData.map(hex)
        root["header"] = header
        return String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
    }

    /// The request document, its members sorted: the same arguments give the same bytes (a retry
    /// is recognised by the body's SHA-256).
    static func request(_ token: String, at: Int64) -> [UInt8] {
        let document: [String: Any] = ["kind": "applepay", "data": token, "at": at]
        return Array(try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
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
            // Issue 46: Apple Root CA - G3 anchors the real token; its 2021 signing time given as
            // at is far from now, a relaxation the answer names.
            XCTAssertEqual(first.json["trust"] as? String, "apple")
            XCTAssertEqual(first.json["notEnforced"] as? [String], ["at"])
            XCTAssertEqual(answer["retry"] as? Bool, false)

            // The identical request again (a client's retry): the same payment, flagged as a retry.
            let retry = try await sender.post(url: service.url, Self.request(gala.token, at: gala.signingTime))
            XCTAssertEqual(retry.status, 200, String(decoding: retry.body, as: UTF8.self))
            let retried = try XCTUnwrap(retry.json["applepay"] as? [String: Any])
            XCTAssertEqual(retried["retry"] as? Bool, true)
            XCTAssertNotNil(retried["firstAcceptedAt"] as? Int)
            XCTAssertEqual(retried["replayKey"] as? String, answer["replayKey"] as? String)

            // Another request with the same token (another at): refused, typed.
            let second = try await sender.post(url: service.url, Self.request(gala.token, at: gala.signingTime + 1))
            XCTAssertEqual(second.status, 422)
            XCTAssertEqual((second.json["error"] as? [String: Any])?["code"] as? String, "applepay.replayedTransaction")
            XCTAssertFalse(String(decoding: second.body, as: UTF8.self).contains(gala.pan))

            // Re-framed real tokens (Apple's signature still holds over each): refused with their codes.
            let attacks: [(String, String, String)] = [
                (
                    "4 bytes of transactionId moved to applicationData",
                    try Self.reframed(sepuka.token) { _, id, app in
                        app = Array(id.suffix(4))
                        id.removeLast(4)
                    }, "applepay.invalidTransactionId"
                ),
                ("an empty transactionId", try Self.reframed(sepuka.token) { _, id, _ in id = [] }, "applepay.invalidTransactionId"),
                (
                    "32 bytes of data moved into the header",
                    try Self.reframed(sepuka.token) { data, id, app in
                        app = id
                        id = Array(data.suffix(32))
                        data.removeLast(32)
                    }, "applepay.tagMismatch"
                ),
                (
                    "32 bytes of data moved into the header of the accepted token",
                    try Self.reframed(gala.token) { data, id, app in
                        app = id
                        id = Array(data.suffix(32))
                        data.removeLast(32)
                    }, "applepay.tagMismatch"
                ),
            ]
            for (attack, token, code) in attacks {
                let at = attack.hasSuffix("of the accepted token") ? gala.signingTime : sepuka.signingTime
                let refused = try await sender.post(url: service.url, Self.request(token, at: at))
                XCTAssertEqual(refused.status, 422, attack)
                XCTAssertEqual(
                    (refused.json["error"] as? [String: Any])?["code"] as? String, code,
                    "\(attack): \(String(decoding: refused.body, as: UTF8.self))")
            }

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

            // Concurrent submissions of one token: identical bodies — one acceptance, the others
            // retries; each with its own at (the third key, by merchant identifier) — one
            // acceptance, the others replays. One row each.
            for (vector, identical) in [(sepuka, true), (payu, false)] {
                let answers = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                    for index in 0..<6 {
                        let body = Self.request(vector.token, at: vector.signingTime + (identical ? 0 : Int64(index)))
                        group.addTask { try await sender.post(url: service.url, body) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let accepted = answers.filter { ($0.json["applepay"] as? [String: Any])?["retry"] as? Bool == false }
                let retries = answers.filter { ($0.json["applepay"] as? [String: Any])?["retry"] as? Bool == true }
                let replays = answers.filter {
                    $0.status == 422 && ($0.json["error"] as? [String: Any])?["code"] as? String == "applepay.replayedTransaction"
                }
                XCTAssertEqual(accepted.count, 1, "\(vector.name): \(answers.map { String(decoding: $0.body, as: UTF8.self) })")
                XCTAssertEqual(retries.count, identical ? 5 : 0, vector.name)
                XCTAssertEqual(replays.count, identical ? 0 : 5, vector.name)
            }

            let rows = try await store.applePayTransactions()
            XCTAssertEqual(rows.map(\.transactionId).sorted(), [gala.transactionId, sepuka.transactionId, payu.transactionId].sorted())
            XCTAssertEqual(rows.first { $0.transactionId == gala.transactionId }?.signingTime, gala.signingTime)
            XCTAssertEqual(rows.first { $0.transactionId == gala.transactionId }?.replayKey, answer["replayKey"] as? String)
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
/// keys given to the receiver, its replay store the receiver's own database (schema 6's
/// `applepay_transactions` beside the notifications). A real token is accepted once, the identical
/// request again is a retry, another request with it is refused; a re-framed token is refused; a
/// receiver without merchant keys answers `service.notConfigured`.
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
        let retry = try await sender.post(url: receiver.baseURL + "/v1/verify", request, headers: bearer)
        XCTAssertEqual(retry.status, 200, String(decoding: retry.body, as: UTF8.self))
        XCTAssertEqual((retry.json["applepay"] as? [String: Any])?["retry"] as? Bool, true)
        let second = try await sender.post(
            url: receiver.baseURL + "/v1/verify", ApplePayServiceTests.request(gala.token, at: gala.signingTime + 1), headers: bearer)
        XCTAssertEqual(second.status, 422)
        XCTAssertEqual((second.json["error"] as? [String: Any])?["code"] as? String, "applepay.replayedTransaction")
        let shortened = try ApplePayServiceTests.reframed(gala.token) { _, id, app in
            app = Array(id.suffix(4))
            id.removeLast(4)
        }
        let reframed = try await sender.post(
            url: receiver.baseURL + "/v1/verify", ApplePayServiceTests.request(shortened, at: gala.signingTime), headers: bearer)
        XCTAssertEqual(reframed.status, 422)
        XCTAssertEqual((reframed.json["error"] as? [String: Any])?["code"] as? String, "applepay.invalidTransactionId")
        let rows = try await openStore().applePayTransactions()
        XCTAssertEqual(rows.map(\.transactionId), [gala.transactionId], "one row, in the receiver's own store")
    }
}
