import AsyncHTTPClient
import Foundation
import Logging
import NotificationReceiverKit
import SigilASN1
import SigilAppStore
import SigilHTTP
import SigilPKCS7
import SigilReceipts
import SigilTestPKI
import XCTest

/// The receiver's behaviour, run once per backend (SQLiteReceiverTests, PostgresReceiverTests):
/// real processes, real HTTP over loopback, real databases.
final class Scenarios: @unchecked Sendable {
    let backend: Backend
    let testCase: AnyClass
    let signer: Signer
    let sender = Sender()
    var processes: [ReceiverProcess] = []
    var directory: URL
    var postgresURL: String?
    /// The test's own view of the database (same store code as the receiver).
    var store: (any NotificationStore)?
    var clientTask: Task<Void, Never>?

    init(backend: Backend, testCase: AnyClass) throws {
        self.backend = backend
        self.testCase = testCase
        signer = try Signer.shared.get()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if backend == .postgres { postgresURL = try Backend.postgresURL() }
    }

    var sqlitePath: String { directory.appendingPathComponent("notifications.sqlite").path }

    /// Opens the test's view of the database; for PostgreSQL, drops the tables first.
    func openStore() async throws -> any NotificationStore {
        if let store { return store }
        switch backend {
        case .sqlite:
            let sqlite = try SQLiteNotificationStore(path: sqlitePath)
            store = sqlite
            return sqlite
        case .postgres:
            var logger = Logger(label: "test-store")
            logger.logLevel = .warning
            let postgres = try PostgresNotificationStore(url: postgresURL ?? "", maximumConnections: 4, logger: logger)
            clientTask = Task { await postgres.client.run() }
            try await postgres.dropAll()
            store = postgres
            return postgres
        }
    }

    func start(
        environment: String? = nil, bundleId: String? = nil, storeTimeout: Int = 30, extraArguments: [String] = []
    ) async throws -> ReceiverProcess {
        let arguments = try await receiverArguments(
            environment: environment, bundleId: bundleId, storeTimeout: storeTimeout, extraArguments: extraArguments)
        let process = try ReceiverProcess(arguments: arguments, testCase: testCase)
        processes.append(process)
        return process
    }

    /// The receiver's options for this test: the test PKI, App Attest on its root, this backend.
    func receiverArguments(
        environment: String? = nil, bundleId: String? = nil, storeTimeout: Int = 30, extraArguments: [String] = []
    ) async throws -> [String] {
        _ = try await openStore()
        // The challenge rate limit is per client address and every test client is 127.0.0.1: high
        // here, low in the test of the limit (a later flag wins).
        var arguments =
            ["--appattest-challenge-rate", "1000000"] + extraArguments + [
                "--bundle-id", bundleId ?? signer.bundleId, "--app-apple-id", "\(signer.appAppleId)",
                "--environment", environment ?? signer.environment.rawValue, "--root-certificate", signer.rootFile.path,
                // App Attest on the test PKI's root. The store timeout is long (a busy machine is not a
                // database away) except in the test that takes PostgreSQL away.
                "--appattest-team-id", AttestationSigner.teamId, "--appattest-test-root", try AttestationSigner.shared.get().rootFile.path,
                "--store-timeout", "\(storeTimeout)",
            ]
        switch backend {
        case .sqlite: arguments += ["--sqlite", sqlitePath]
        case .postgres: arguments += ["--postgres-url", postgresURL ?? ""]
        }
        return arguments
    }

    func tearDown() async {
        for process in processes { process.stop() }
        processes = []
        await sender.shutdown()
        clientTask?.cancel()
        _ = await clientTask?.value
        try? FileManager.default.removeItem(at: directory)
    }

    func count(_ uuids: [String]) -> [String: Int] {
        uuids.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    // MARK: - Verification, storage, duplicates, reads

    func verificationAndStorage() async throws {
        let receiver = try await start()
        let store = try await openStore()
        let base = receiver.baseURL

        let health = try await sender.get(base + "/health")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.json["status"] as? String, "ok")
        XCTAssertEqual(health.json["schemaVersion"] as? String, "\(NotificationSchema.version)")
        let version = try await store.schemaVersion()
        XCTAssertEqual(version, NotificationSchema.version)

        // A valid notification with a signed transaction.
        let original = "1000000\(Int.random(in: 100_000...999_999))"
        let transaction = try signer.sign(signer.transaction(original: original, id: original))
        let first = UUID().uuidString
        var response = try await sender.post(
            base,
            try signer.notification(
                uuid: first, type: "SUBSCRIBED", subtype: "INITIAL_BUY",
                signedTransactionInfo: transaction))
        XCTAssertEqual(response.status, 200, "\(response.json)")
        XCTAssertEqual(response.json["status"] as? String, "stored")
        XCTAssertNotNil(response.header("server-timing"))
        var state = try await sender.get(base + "/appstore/transactions/\(original)")
        XCTAssertEqual(state.status, 200)
        XCTAssertEqual(state.json["transactionId"] as? String, original)
        XCTAssertEqual(state.json["lastNotificationType"] as? String, "SUBSCRIBED")
        XCTAssertEqual(state.json["lastNotificationSubtype"] as? String, "INITIAL_BUY")
        XCTAssertEqual(state.json["signedTransactionInfo"] as? String, transaction)

        // Nested: a renewal with transaction and renewal info; the state follows it.
        let renewed = try signer.sign(signer.transaction(original: original, id: original + "1", signedDate: Signer.nowMilliseconds + 1000))
        let renewalInfo = try signer.sign(signer.renewal(original: original, autoRenewStatus: 0))
        let second = UUID().uuidString
        response = try await sender.post(
            base,
            try signer.notification(
                uuid: second, type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
                signedTransactionInfo: renewed, signedRenewalInfo: renewalInfo))
        XCTAssertEqual(response.status, 200, "\(response.json)")
        state = try await sender.get(base + "/appstore/transactions/\(original)")
        XCTAssertEqual(state.json["transactionId"] as? String, original + "1")
        XCTAssertEqual(state.json["autoRenewStatus"] as? Int, 0)
        XCTAssertEqual(state.json["lastNotificationUUID"] as? String, second)
        XCTAssertEqual(state.json["signedRenewalInfo"] as? String, renewalInfo)

        // A late delivery of an older transaction is stored but does not roll the state back.
        let older = try signer.sign(signer.transaction(original: original, id: original + "0", signedDate: Signer.nowMilliseconds - 60_000))
        let late = UUID().uuidString
        response = try await sender.post(base, try signer.notification(uuid: late, signedTransactionInfo: older))
        XCTAssertEqual(response.status, 200)
        state = try await sender.get(base + "/appstore/transactions/\(original)")
        XCTAssertEqual(state.json["transactionId"] as? String, original + "1", "an older transaction does not replace the state")

        // Nested app transaction (appData).
        let appTransaction = try signer.sign([
            "bundleId": signer.bundleId, "appAppleId": signer.appAppleId, "receiptType": "Sandbox",
            "originalApplicationVersion": "1.0", "applicationVersion": "1.2", "receiptCreationDate": Signer.nowMilliseconds,
            "originalPurchaseDate": Signer.nowMilliseconds - 86_400_000, "signedDate": Signer.nowMilliseconds,
            "appTransactionId": "7", "originalPlatform": "iOS",
        ])
        let third = UUID().uuidString
        response = try await sender.post(base, try signer.notification(uuid: third, type: "TEST", signedAppTransactionInfo: appTransaction))
        XCTAssertEqual(response.status, 200, "\(response.json)")

        // Duplicate delivery: 200, no second row.
        response = try await sender.post(
            base,
            try signer.notification(
                uuid: first, type: "SUBSCRIBED", subtype: "INITIAL_BUY",
                signedTransactionInfo: transaction))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.json["status"] as? String, "duplicate")

        var stored = count(try await store.storedNotificationUUIDs())
        XCTAssertEqual(stored, [first: 1, second: 1, late: 1, third: 1])

        // Refusals: 4xx, the AppStoreError status in the body, nothing stored, the reason logged.
        func refused(_ body: [UInt8], status: Int, code: String?, _ what: String) async throws {
            let response = try await sender.post(base, body)
            XCTAssertEqual(response.status, status, "\(what): \(response.json)")
            if let code { XCTAssertEqual(response.json["status"] as? String, code, what) }
            XCTAssertFalse((response.json["reason"] as? String ?? "").isEmpty, "\(what): a reason is given")
        }
        // Forged: a valid notification with one byte of the signature changed.
        let valid = try signer.notification(uuid: UUID().uuidString, signedTransactionInfo: transaction)
        let signedPayload = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(valid)) as? [String: String])?["signedPayload"])
        var forged = Array(signedPayload.utf8)
        let index = forged.count - 10
        forged[index] = forged[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try await refused(
            signer.body(String(decoding: forged, as: UTF8.self)), status: 403, code: "VERIFICATION_FAILURE", "forged signature")
        // Forged: signed by a PKI of the same shape that is not trusted.
        try await refused(
            try signer.notification(signedTransactionInfo: transaction, with: signer.foreign), status: 403, code: nil, "untrusted chain")
        // A genuine notification whose nested transaction is forged.
        let foreignTransaction = try signer.sign(signer.transaction(original: original, id: "666"), with: signer.foreign)
        try await refused(
            try signer.notification(signedTransactionInfo: foreignTransaction), status: 403, code: nil, "forged nested transaction")
        try await refused(
            try signer.notification(bundleId: "com.example.other"), status: 403, code: "INVALID_APP_IDENTIFIER", "wrong bundle id")
        let otherBundleTransaction = try signer.sign(signer.transaction(original: original, id: "667", bundleId: "com.example.other"))
        try await refused(
            try signer.notification(signedTransactionInfo: otherBundleTransaction), status: 403, code: "INVALID_APP_IDENTIFIER",
            "nested transaction for another app")
        try await refused(try signer.notification(environment: "Production"), status: 403, code: "INVALID_ENVIRONMENT", "wrong environment")
        try await refused(Array("this is not json".utf8), status: 400, code: "MALFORMED_BODY", "non-JSON body")
        try await refused(Array("{\"other\": 1}".utf8), status: 400, code: "MALFORMED_BODY", "no signedPayload")
        try await refused(signer.body("not.a.jws"), status: 400, code: "INVALID_JWT_FORMAT", "malformed JWS")
        try await refused([UInt8](repeating: 0x20, count: (1 << 20) + 1), status: 413, code: "BODY_TOO_LARGE", "oversized body")

        stored = count(try await store.storedNotificationUUIDs())
        XCTAssertEqual(stored.count, 4, "no refused notification was stored")
        state = try await sender.get(base + "/appstore/transactions/\(original)")
        XCTAssertEqual(state.json["transactionId"] as? String, original + "1", "no refused notification touched the state")
        let missing = try await sender.get(base + "/appstore/transactions/none")
        XCTAssertEqual(missing.status, 404)
        let log = receiver.log
        XCTAssertTrue(log.contains("VERIFICATION_FAILURE"), "forgery logged with its reason:\n\(log)")
        XCTAssertTrue(log.contains("INVALID_APP_IDENTIFIER"), "wrong bundle logged")
        XCTAssertTrue(log.contains("INVALID_ENVIRONMENT"), "wrong environment logged")

        // POST /verifyReceipt: Apple's request body in, the same answer as the library's drop-in out.
        try await verifyReceiptRoute(base)

        // A restart keeps everything and leaves the schema at its version.
        receiver.stop()
        let again = try await start()
        let after = try await sender.get(again.baseURL + "/appstore/transactions/\(original)")
        XCTAssertEqual(after.json["transactionId"] as? String, original + "1")
        let versionAfter = try await store.schemaVersion()
        XCTAssertEqual(versionAfter, NotificationSchema.version)
        if let sqlite = store as? SQLiteNotificationStore {
            let settings = try await sqlite.durabilitySettings()
            XCTAssertEqual(settings.journalMode, "wal")
            XCTAssertEqual(settings.synchronous, 2, "synchronous = FULL")
        }
    }

    // MARK: - Environments

    /// One deployment for Production and Sandbox (the App Review setup): a notification from
    /// either is verified and stored, every row with its own environment; an Xcode one is refused;
    /// `POST /verifyReceipt` answers a sandbox receipt as the sandbox would and a production
    /// receipt as production would, each in one call (Apple's 21007 retry done here).
    func productionAndSandboxInOneDeployment() async throws {
        let receiver = try await start(environment: "Production,Sandbox")
        let store = try await openStore()
        let base = receiver.baseURL
        var expected: [String: String] = [:]
        for environment in ["Sandbox", "Production", "Sandbox"] {
            let original = "3000000\(Int.random(in: 100_000...999_999))"
            let transaction = try signer.sign(signer.transaction(original: original, id: original, environment: environment))
            let uuid = UUID().uuidString
            let response = try await sender.post(
                base, try signer.notification(uuid: uuid, signedTransactionInfo: transaction, environment: environment))
            XCTAssertEqual(response.status, 200, "\(environment): \(response.json)")
            expected[uuid] = environment
            let state = try await sender.get(base + "/appstore/transactions/\(original)")
            XCTAssertEqual(state.json["environment"] as? String, environment, "the transaction row's environment")
        }
        try await refusedXcode(base)
        let stored = try await store.storedNotificationEnvironments()
        XCTAssertEqual(stored, expected, "every notification row carries the environment it was verified in")

        let now = Int64(Date().timeIntervalSince1970)
        let library = try AppReceiptVerifier(trustedRoots: [signer.pki.root], identity: .reportOnly, environments: [.production, .sandbox])
        for (type, endpoint, environment) in [
            ("ProductionSandbox", VerifyReceiptEndpoint.sandbox, "Sandbox"), ("Production", .production, "Production"),
        ] {
            let der = try receipt(type, now: now)
            let response = try await sender.post(url: base + "/verifyReceipt", receiptRequest(der))
            let answer = try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(response.body))
            let direct = library.verifyReceiptResponse(Array(Base64.encode(der).utf8), sentTo: endpoint, requestTime: now)
            XCTAssertEqual(answer.status, 0, type)
            XCTAssertEqual(answer.environment, environment, type)
            XCTAssertEqual(answer.receipt?.receipt_type, direct.receipt?.receipt_type, type)
            XCTAssertEqual(answer.receipt?.in_app.first?.transaction_id, "2000000000000042", type)
        }
    }

    func refusedXcode(_ base: String) async throws {
        let xcode = try await sender.post(base, try signer.notification(environment: "Xcode"))
        XCTAssertEqual(xcode.status, 403)
        XCTAssertEqual(xcode.json["status"] as? String, "INVALID_ENVIRONMENT")
    }

    /// LocalTesting is a loud, named choice: without `--insecure-accept-unsigned` the receiver
    /// refuses to start; with it, it serves unsigned notifications and warns on every one.
    func localTestingNeedsTheInsecureFlag() async throws {
        do {
            let process = try await start(environment: "LocalTesting")
            XCTFail("the receiver started in LocalTesting without --insecure-accept-unsigned: \(process.baseURL)")
        } catch let error as HarnessError {
            XCTAssertTrue(error.description.contains("refusing to start in LocalTesting"), error.description)
            XCTAssertTrue(error.description.contains("--insecure-accept-unsigned"), error.description)
        }
        let receiver = try await start(environment: "LocalTesting", extraArguments: ["--insecure-accept-unsigned"])
        // Signed by a PKI nobody trusts: nothing is checked in LocalTesting.
        for _ in 0..<2 {
            let response = try await sender.post(
                receiver.baseURL, try signer.notification(environment: "LocalTesting", with: signer.foreign))
            XCTAssertEqual(response.status, 200, "\(response.json)")
        }
        let warnings = receiver.log.components(separatedBy: "serving an unsigned LocalTesting notification").count - 1
        XCTAssertEqual(warnings, 2, "one warning per request served:\n\(receiver.log)")
        XCTAssertTrue(receiver.log.contains("INSECURE: accepting unsigned LocalTesting notifications"), receiver.log)
    }

    /// An app receipt of `type` signed by the test PKI's leaf.
    func receipt(_ type: String, now: Int64, bundleID: String? = nil) throws -> [UInt8] {
        let builder = AppReceiptBuilder(
            receiptType: type, appItemID: signer.appAppleId, bundleID: bundleID ?? signer.bundleId, appVersion: "7",
            originalApplicationVersion: "1", creationDate: now - 60, opaqueValue: [9, 8, 7], deviceGUID: [1, 2, 3],
            inAppPurchases: [
                .init(
                    productID: "coins", transactionID: "2000000000000042", originalTransactionID: "2000000000000042",
                    purchaseDate: now - 3600, originalPurchaseDate: now - 3600)
            ])
        return try AppReceiptBuilder.signedData(
            content: try builder.payload(), signer: signer.pki.leaf, signerKey: signer.pki.leafKey,
            certificates: [signer.pki.leaf, signer.pki.intermediate])
    }

    /// Apple's verifyReceipt request body for `der`.
    func receiptRequest(_ der: [UInt8]) -> [UInt8] { Array(#"{"receipt-data":"\#(Base64.encode(der))","password":"x"}"#.utf8) }

    /// The receiver's `POST /verifyReceipt` answers as `AppReceiptVerifier.verifyReceiptResponse`
    /// does (the request time aside): status 0 with the receipt's fields for a receipt the trusted
    /// root's signer made (this receiver stands for the sandbox endpoint), 21008 for a production
    /// receipt, 21003 for a changed byte, 21002 for a body without receipt-data.
    func verifyReceiptRoute(_ base: String) async throws {
        let now = Int64(Date().timeIntervalSince1970)
        func receipt(_ type: String, bundleID: String? = nil) throws -> [UInt8] { try self.receipt(type, now: now, bundleID: bundleID) }
        func request(_ der: [UInt8]) -> [UInt8] { receiptRequest(der) }
        let library = try AppReceiptVerifier(trustedRoots: [signer.pki.root], identity: .reportOnly, environments: [.production, .sandbox])
        let sandbox = try receipt("ProductionSandbox")
        var changed = sandbox
        changed[changed.count - 40] ^= 0x01
        for (der, label) in [(sandbox, "sandbox receipt"), (try receipt("Production"), "production receipt"), (changed, "changed byte")] {
            let response = try await sender.post(url: base + "/verifyReceipt", request(der))
            XCTAssertEqual(response.status, 200, label)
            func withoutRequestTime(_ body: VerifyReceiptResponse) -> VerifyReceiptResponse {
                var body = body
                body.receipt?.request_date = ""
                body.receipt?.request_date_ms = ""
                body.receipt?.request_date_pst = ""
                return body
            }
            let answer = try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(response.body))
            let expected = library.verifyReceiptResponse(Array(Base64.encode(der).utf8), sentTo: .sandbox, requestTime: now)
            XCTAssertEqual(withoutRequestTime(answer), withoutRequestTime(expected), label)
        }
        let answers = try await [sandbox, try receipt("Production"), changed].asyncMap {
            try JSONDecoder().decode(
                VerifyReceiptResponse.self, from: Data(try await sender.post(url: base + "/verifyReceipt", request($0)).body))
        }
        XCTAssertEqual(answers.map(\.status), [0, 21008, 21003])
        XCTAssertEqual(answers[0].receipt?.in_app.first?.transaction_id, "2000000000000042")
        // Apple's body kept: Apple's endpoint checks no bundle id, so another app's receipt is
        // status 0 with its own bundle_id, for the caller to compare.
        let otherApp = try JSONDecoder().decode(
            VerifyReceiptResponse.self,
            from: Data(
                try await sender.post(
                    url: base + "/verifyReceipt", request(try receipt("ProductionSandbox", bundleID: "com.example.other"))
                ).body))
        XCTAssertEqual(otherApp.status, 0)
        XCTAssertEqual(otherApp.receipt?.bundle_id, "com.example.other")
        let garbage = try await sender.post(url: base + "/verifyReceipt", Array(#"{"password":"x"}"#.utf8))
        XCTAssertEqual(try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(garbage.body)).status, 21002)
    }

    // MARK: - Burst

    /// `bodies` sent by `clients` concurrent senders, each to `targets[i % targets.count]`;
    /// returns the uuids that got a 200, and the failures.
    func burst(
        _ bodies: [(uuid: String, body: [UInt8])], clients: Int, targets: [String],
        onAcknowledged: (@Sendable (Int) -> Void)? = nil,
        stopped: (@Sendable () -> Bool)? = nil
    ) async -> (acknowledged: [String], failures: [String]) {
        let next = Counter()
        return await withTaskGroup(of: ([String], [String]).self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var acknowledged: [String] = []
                    var failures: [String] = []
                    while let index = next.take(below: bodies.count) {
                        // Once the receiver is down, the rest are not delivered (Apple retries them later).
                        if stopped?() == true {
                            failures.append("\(bodies[index].uuid): not delivered, the receiver is down")
                            continue
                        }
                        let target = targets[index % targets.count]
                        do {
                            let response = try await self.sender.post(target, bodies[index].body)
                            if response.status == 200 {
                                acknowledged.append(bodies[index].uuid)
                                onAcknowledged?(next.acknowledge())
                            } else {
                                failures.append("\(bodies[index].uuid): HTTP \(response.status) \(response.json)")
                            }
                        } catch {
                            failures.append("\(bodies[index].uuid): \(error)")
                        }
                    }
                    return (acknowledged, failures)
                }
            }
            var acknowledged: [String] = []
            var failures: [String] = []
            for await (a, f) in group {
                acknowledged += a
                failures += f
            }
            return (acknowledged, failures)
        }
    }

    /// `count` notifications, each with one of 50 signed transactions (the receiver verifies
    /// both the notification and the transaction every time).
    func makeNotifications(_ count: Int) throws -> [(uuid: String, body: [UInt8])] {
        let prefix = Int.random(in: 100_000...999_999)
        let transactions = try (0..<50).map { index in
            try signer.sign(signer.transaction(original: "\(prefix)\(index)", id: "\(prefix)\(index)"))
        }
        return try (0..<count).map { index in
            let uuid = UUID().uuidString
            return (uuid, try signer.notification(uuid: uuid, signedTransactionInfo: transactions[index % transactions.count]))
        }
    }

    func concurrentBurst() async throws {
        let receiver = try await start()
        let store = try await openStore()
        let notifications = try makeNotifications(2000)
        let result = await burst(notifications, clients: 16, targets: [receiver.baseURL])
        XCTAssertEqual(result.failures, [], "every delivery answered 200")
        XCTAssertEqual(result.acknowledged.count, 2000)
        let stored = count(try await store.storedNotificationUUIDs())
        XCTAssertEqual(stored.count, 2000)
        XCTAssertEqual(Set(stored.keys), Set(notifications.map(\.uuid)), "exactly the notifications sent")
        XCTAssertTrue(stored.values.allSatisfy { $0 == 1 }, "each stored once")
    }

    /// SIGKILL mid-burst: every acknowledged notification is in the database; redelivering
    /// everything not acknowledged stores each exactly once.
    func killDuringBurst() async throws {
        let receiver = try await start()
        let store = try await openStore()
        let notifications = try makeNotifications(2000)
        let killAt = 600
        let result = await burst(
            notifications, clients: 16, targets: [receiver.baseURL],
            onAcknowledged: { acknowledged in
                if acknowledged == killAt { receiver.kill() }
            }, stopped: { !receiver.process.isRunning })
        XCTAssertFalse(receiver.process.isRunning)
        XCTAssertEqual(receiver.process.terminationReason, .uncaughtSignal, "killed by SIGKILL")
        XCTAssertGreaterThanOrEqual(result.acknowledged.count, killAt)
        XCTAssertLessThan(result.acknowledged.count, 2000, "the kill interrupted the burst")
        XCTAssertFalse(result.failures.isEmpty, "deliveries after the kill failed")

        // Restart on the same database: nothing acknowledged is lost.
        let restarted = try await start()
        let afterKill = count(try await store.storedNotificationUUIDs())
        let lost = result.acknowledged.filter { afterKill[$0] == nil }
        XCTAssertEqual(lost, [], "acknowledged before the kill but not in the database")
        XCTAssertTrue(afterKill.values.allSatisfy { $0 == 1 })

        // Apple redelivers what got no 200 (some of it was committed before the kill: duplicates).
        let acknowledged = Set(result.acknowledged)
        let redeliver = notifications.filter { !acknowledged.contains($0.uuid) }
        let second = await burst(redeliver, clients: 16, targets: [restarted.baseURL])
        XCTAssertEqual(second.failures, [])
        XCTAssertEqual(second.acknowledged.count, redeliver.count)
        let final = count(try await store.storedNotificationUUIDs())
        XCTAssertEqual(Set(final.keys), Set(notifications.map(\.uuid)), "every notification stored")
        XCTAssertEqual(final.count, 2000)
        XCTAssertTrue(final.values.allSatisfy { $0 == 1 }, "each exactly once")
        let committedButUnanswered = redeliver.filter { afterKill[$0.uuid] != nil }.count
        print(
            "kill test: \(result.acknowledged.count) acknowledged before the kill, \(afterKill.count) in the database after it "
                + "(\(committedButUnanswered) committed without an answer), \(redeliver.count) redelivered")
    }

    /// Two receiver processes on one PostgreSQL database, the burst split across them, and 200
    /// notifications delivered to both at once: every notification stored exactly once.
    func twoReceiversShareOneDatabase() async throws {
        let one = try await start()
        let two = try await start()
        let store = try await openStore()
        let notifications = try makeNotifications(2000)
        let result = await burst(notifications, clients: 16, targets: [one.baseURL, two.baseURL])
        XCTAssertEqual(result.failures, [])
        // The same 200 delivered to each process concurrently (both find them stored: duplicates).
        let twice = Array(notifications.prefix(200))
        async let viaOne = burst(twice, clients: 8, targets: [one.baseURL])
        async let viaTwo = burst(twice, clients: 8, targets: [two.baseURL])
        let (a, b) = await (viaOne, viaTwo)
        XCTAssertEqual(a.failures + b.failures, [])
        // And 200 fresh ones raced to both processes at once.
        let raced = try makeNotifications(200)
        async let raceOne = burst(raced, clients: 8, targets: [one.baseURL])
        async let raceTwo = burst(raced, clients: 8, targets: [two.baseURL])
        let (c, d) = await (raceOne, raceTwo)
        XCTAssertEqual(c.failures + d.failures, [])
        XCTAssertEqual(c.acknowledged.count + d.acknowledged.count, 400)
        let stored = count(try await store.storedNotificationUUIDs())
        XCTAssertEqual(Set(stored.keys), Set((notifications + raced).map(\.uuid)))
        XCTAssertEqual(stored.count, 2200)
        XCTAssertTrue(stored.values.allSatisfy { $0 == 1 }, "each exactly once")
    }
}

/// A shared index and an acknowledgement count for the burst's senders.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var index = 0
    private var acknowledged = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard index < limit else { return nil }
        index += 1
        return index - 1
    }

    /// The acknowledgements so far.
    var peek: Int {
        lock.lock()
        defer { lock.unlock() }
        return acknowledged
    }

    func acknowledge() -> Int {
        lock.lock()
        defer { lock.unlock() }
        acknowledged += 1
        return acknowledged
    }
}

extension Array {
    /// `transform` applied to each element in turn.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
