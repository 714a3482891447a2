import Foundation
import NotificationReceiverKit
import SigilAppAttest
import SigilCBOR
import SigilCore
import SigilHTTP
import SigilTestPKI
import XCTest

/// The App Attest test PKI (SigilTestPKI's in-memory Apple-shaped one) and its root on disk, which
/// the receiver is started with (`--appattest-test-root`).
final class AttestationSigner: @unchecked Sendable {
    static let shared = Result { try AttestationSigner() }
    static let teamId = "SIGILTEAM1"
    let pki: AppleShapedAttestationPKI
    let rootFile: URL

    init() throws {
        let now = Int64(Date().timeIntervalSince1970)
        pki = try AppleShapedAttestationPKI.generate(notBefore: now - 86_400, notAfter: now + 365 * 86_400)
        rootFile = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-appattest-root-\(UUID().uuidString).cer")
        try Data(pki.root.derBytes).write(to: rootFile)
    }
}

/// One device's App Attest key, and the request bodies its app would send.
struct Device: Sendable {
    let key = ECDSAPrivateKey.generate(curve: .p256)
    /// The App ID the receiver expects (team id + "." + the receiver's bundle id).
    static let appID = AttestationSigner.teamId + ".com.example.receiver"

    var keyId: String { Data(SHA256.hash(key.publicKey.uncompressedRepresentation)).base64EncodedString() }
    var receipt: [UInt8] { Array("receipt for \(keyId)".utf8) }

    static func json(_ object: [String: String]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// `POST /appattest/attestation` for `challenge` (base64): the app passed SHA-256 of the
    /// challenge bytes to attestKey. The other arguments change one fact for refusals.
    func attestation(
        challenge: String, pki: AppleShapedAttestationPKI, appID: String = Device.appID,
        aaguid: [UInt8] = AppleShapedAttestationPKI.productionAAGUID, hashedChallenge: String? = nil, keyId: String? = nil
    ) throws -> [UInt8] {
        let now = Int64(Date().timeIntervalSince1970)
        let signed = Array(Data(base64Encoded: hashedChallenge ?? challenge) ?? Data())
        let object = try pki.attestation(
            credentialKey: key.publicKey, appID: appID, clientDataHash: SHA256.hash(signed), notBefore: now - 3600,
            notAfter: now + 3 * 86_400, aaguid: aaguid, receipt: receipt)
        return Self.json([
            "keyId": keyId ?? self.keyId, "attestationObject": Data(object).base64EncodedString(), "challenge": challenge,
        ])
    }

    /// `POST /appattest/assertion` with `counter` over clientData `{"challenge", "action"}`.
    /// The authenticator data is what real devices send (flag AT set, the 37 bytes alone) unless
    /// `extensions` adds Apple's extensions map after them.
    func assertion(
        counter: UInt32, challenge: String, appID: String = Device.appID, signedBy: ECDSAPrivateKey? = nil, extensions: CBORValue? = nil
    ) -> [UInt8] {
        let clientData = Self.json(["challenge": challenge, "action": "redeem-offer"])
        let assertion = AppleShapedAttestationPKI.assertion(
            key: signedBy ?? key, appID: appID, counter: counter, clientDataHash: SHA256.hash(clientData), extensions: extensions)
        return Self.json([
            "keyId": keyId, "assertion": Data(assertion).base64EncodedString(), "clientData": Data(clientData).base64EncodedString(),
        ])
    }
}

/// Up, or down since a given stop (for "answered while the database was away").
final class DatabasePhase: @unchecked Sendable {
    private let lock = NSLock()
    private var stop = 0
    private var down = false

    /// nil while up; the stop's number while down.
    var current: Int? {
        lock.lock()
        defer { lock.unlock() }
        return down ? stop : nil
    }

    func set(down: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if down { stop += 1 }
        self.down = down
    }
}

/// Answers gathered by concurrent clients.
final class Tally: @unchecked Sendable {
    struct Entry: Sendable {
        let keyId: String
        let counter: Int64
        let status: Int
        let error: String
        /// The request began and ended while the database was stopped (the same stop).
        let whileDown: Bool
        let after: Int
    }
    private let lock = NSLock()
    private var entries: [Entry] = []
    private var acknowledged = 0

    /// Records an answer; returns the number of 200s so far.
    @discardableResult
    func record(_ entry: Entry) -> Int {
        lock.lock()
        defer { lock.unlock() }
        entries.append(entry)
        if entry.status == 200 { acknowledged += 1 }
        return acknowledged
    }

    var all: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    var acknowledgedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return acknowledged
    }
}

extension Scenarios {
    var attestationSigner: AttestationSigner { get throws { try AttestationSigner.shared.get() } }

    func appAttest(_ base: String, _ path: String, _ body: [UInt8]) async throws -> HTTPResponse {
        try await sender.post(url: base + "/appattest/" + path, body)
    }

    /// A challenge issued by the receiver (base64).
    func issueChallenge(_ base: String) async throws -> String {
        let response = try await appAttest(base, "challenge", [])
        guard response.status == 200, let challenge = response.json["challenge"] as? String else {
            throw HarnessError("POST /appattest/challenge answered \(response.status) \(response.json)")
        }
        return challenge
    }

    /// `count` challenges, issued by 16 concurrent clients.
    func issueChallenges(_ base: String, _ count: Int) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            let next = Counter()
            for _ in 0..<16 {
                group.addTask {
                    var issued: [String] = []
                    while next.take(below: count) != nil { issued.append(try await self.issueChallenge(base)) }
                    return issued
                }
            }
            var all: [String] = []
            for try await issued in group { all += issued }
            return all
        }
    }

    /// Expects `status` and the error code `error` for `body` on `path`.
    func expectRefusal(
        _ base: String, _ path: String, _ body: [UInt8], _ status: Int, _ error: String, _ label: String,
        line: UInt = #line
    ) async throws {
        let response = try await appAttest(base, path, body)
        XCTAssertEqual(response.status, status, "\(label): \(response.json)", line: line)
        XCTAssertEqual(response.json["error"] as? String, error, label, line: line)
        XCTAssertFalse((response.json["message"] as? String ?? "").isEmpty, "\(label): a message", line: line)
    }

    // MARK: - Challenges, attestations, assertions, refusals

    func appAttestFlow() async throws {
        let receiver = try await start()
        let store = try await openStore()
        let base = receiver.baseURL
        let pki = try attestationSigner.pki
        let device = Device()

        let issued = try await appAttest(base, "challenge", [])
        XCTAssertEqual(issued.status, 200)
        let first = try XCTUnwrap(issued.json["challenge"] as? String)
        XCTAssertEqual(Data(base64Encoded: first)?.count, 32, "32 random bytes")
        let expiresAt = Int64(try XCTUnwrap(issued.json["expiresAt"] as? Int))
        let now = Signer.nowMilliseconds
        XCTAssertTrue((now + 290_000...now + 310_000).contains(expiresAt), "five minutes from now: \(expiresAt) vs \(now)")

        // Attestation refusals: each names the failed step and leaves the challenge unused.
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: first, pki: pki, appID: "OTHERTEAM1.com.example.receiver"), 403,
            "appattest.rpIDMismatch", "another App ID")
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: first, pki: pki, aaguid: AppleShapedAttestationPKI.developmentAAGUID),
            403, "appattest.environmentMismatch", "development key on a production receiver")
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: first, pki: pki, hashedChallenge: try issueChallenge(base)), 403,
            "appattest.nonceMismatch", "attested over another challenge")
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: first, pki: pki, keyId: Device().keyId), 403, "appattest.keyIDMismatch",
            "another key id")
        let now2 = Int64(Date().timeIntervalSince1970)
        let foreign = try AppleShapedAttestationPKI.generate(notBefore: now2 - 86_400, notAfter: now2 + 86_400)
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: first, pki: foreign), 403, "appattest.untrustedChain",
            "a chain to another root")
        try await expectRefusal(base, "attestation", Array("{\"keyId\": 1}".utf8), 400, "receiver.malformedRequest", "malformed body")
        let unknown = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: unknown, pki: pki), 403, "receiver.challengeUnknown", "unknown challenge")
        let expired = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        _ = try await store.insertChallenge(
            expired, issuedAt: now - 600_000, expiresAt: now - 1000, purgeExpiredBefore: now - 3_600_000, maximumRows: .max)
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: expired, pki: pki), 403, "receiver.challengeExpired", "expired challenge")
        let noKeys = try await store.attestedKeys()
        XCTAssertEqual(noKeys, [], "no refused attestation stored a key")

        // Accepted: key id, public key, counter 0 and receipt stored.
        let accepted = try await appAttest(base, "attestation", device.attestation(challenge: first, pki: pki))
        XCTAssertEqual(accepted.status, 200, "\(accepted.json)")
        XCTAssertEqual(accepted.json["keyId"] as? String, device.keyId)
        XCTAssertEqual(accepted.json["counter"] as? Int, 0)
        XCTAssertEqual(accepted.json["environment"] as? String, "production")
        let key = try await store.attestedKey(keyId: device.keyId)
        XCTAssertEqual(key?.publicKey, Data(device.key.publicKey.uncompressedRepresentation).base64EncodedString())
        XCTAssertEqual(key?.counter, 0)
        XCTAssertEqual(key?.receipt, Data(device.receipt).base64EncodedString())

        // A challenge used twice; a key attested twice.
        try await expectRefusal(
            base, "attestation", Device().attestation(challenge: first, pki: pki), 409, "receiver.challengeUsed", "challenge used twice")
        try await expectRefusal(
            base, "attestation", device.attestation(challenge: try issueChallenge(base), pki: pki), 409, "receiver.keyAlreadyAttested",
            "key attested twice")

        // Assertions: accepted, replayed, a counter not above the stored one, a used challenge.
        let one = device.assertion(counter: 1, challenge: try await issueChallenge(base))
        let firstAssertion = try await appAttest(base, "assertion", one)
        XCTAssertEqual(firstAssertion.status, 200, "\(firstAssertion.json)")
        XCTAssertEqual(firstAssertion.json["counter"] as? Int, 1)
        try await expectRefusal(base, "assertion", one, 409, "appattest.counterNotIncreasing", "replayed assertion")
        let third = try await issueChallenge(base)
        try await expectRefusal(
            base, "assertion", device.assertion(counter: 1, challenge: third), 409, "appattest.counterNotIncreasing",
            "the same counter over a fresh challenge")
        // The refusal rolled back: the challenge is still live, and counters may skip.
        let five = try await appAttest(base, "assertion", device.assertion(counter: 5, challenge: third))
        XCTAssertEqual(five.status, 200, "\(five.json)")
        try await expectRefusal(
            base, "assertion", device.assertion(counter: 6, challenge: third), 409, "receiver.challengeUsed", "a used challenge")
        try await expectRefusal(
            base, "assertion", device.assertion(counter: 6, challenge: unknown), 403, "receiver.challengeUnknown", "an unknown challenge")
        try await expectRefusal(
            base, "assertion", device.assertion(counter: 6, challenge: expired), 403, "receiver.challengeExpired", "an expired challenge")
        try await expectRefusal(
            base, "assertion", device.assertion(counter: 6, challenge: try issueChallenge(base), signedBy: Device().key), 403,
            "appattest.invalidSignature", "signed by another key")
        try await expectRefusal(
            base, "assertion", device.assertion(counter: 6, challenge: try issueChallenge(base), appID: "OTHERTEAM1.com.example.receiver"),
            403, "appattest.rpIDMismatch", "another App ID")
        try await expectRefusal(
            base, "assertion", Device().assertion(counter: 6, challenge: try issueChallenge(base)), 404, "receiver.unknownKey",
            "a key never attested")
        let noChallenge = Device.json([
            "keyId": device.keyId, "assertion": "AAAA", "clientData": Data("{}".utf8).base64EncodedString(),
        ])
        try await expectRefusal(base, "assertion", noChallenge, 400, "receiver.malformedRequest", "clientData without a challenge")
        // The counter is unsigned: 0x80000000 is above 5. This one carries, after the 37 bytes with
        // AT set, the extensions map newer systems write: accepted and its facts reported.
        let high = try await appAttest(
            base, "assertion",
            device.assertion(
                counter: 0x8000_0000, challenge: try issueChallenge(base),
                extensions: AppleShapedAttestationPKI.appleExtensions(category: 2, bundleVersion: "27.3")))
        XCTAssertEqual(high.status, 200, "\(high.json)")
        XCTAssertEqual(high.json["counter"] as? Int, 0x8000_0000)
        XCTAssertEqual(high.json["validationCategory"] as? Int, 2)
        XCTAssertEqual(high.json["bundleVersion"] as? String, "27.3")
        XCTAssertNil(firstAssertion.json["validationCategory"], "the 37-byte form states no category")

        let stored = try await store.attestedKey(keyId: device.keyId)
        XCTAssertEqual(stored?.counter, 0x8000_0000)
        let assertions = try await store.acceptedAssertions()
        XCTAssertEqual(Set(assertions.map(\.counter)), [1, 5, 0x8000_0000])
        XCTAssertEqual(assertions.count, 3)
        XCTAssertTrue(receiver.log.contains("appattest.rpIDMismatch"), "refusals logged with their code")

        // A restart keeps the key and its counter.
        receiver.stop()
        let again = try await start()
        try await expectRefusal(
            again.baseURL, "assertion", device.assertion(counter: 0x8000_0000, challenge: try issueChallenge(again.baseURL)), 409,
            "appattest.counterNotIncreasing", "the counter survives a restart")
        let after = try await appAttest(
            again.baseURL, "assertion", device.assertion(counter: 0x8000_0001, challenge: try issueChallenge(again.baseURL)))
        XCTAssertEqual(after.status, 200)
    }

    // MARK: - 16 clients, one key

    /// 16 clients send assertions for one key at once: each counter 1…32 twice, over two distinct
    /// challenges, the twins next to each other in the queue so that they race. Every answer is 200
    /// or 409; no counter is accepted twice; the stored counter is the highest accepted.
    func appAttestConcurrentAssertions() async throws {
        let started = Date()
        let receiver = try await start()
        let store = try await openStore()
        let base = receiver.baseURL
        let device = Device()
        let attested = try await appAttest(
            base, "attestation", device.attestation(challenge: try issueChallenge(base), pki: try attestationSigner.pki))
        XCTAssertEqual(attested.status, 200)
        let counters = 32
        let challenges = try await issueChallenges(base, 2 * counters)
        var built: [(counter: Int64, body: [UInt8])] = []
        for index in 0..<2 * counters {
            let counter = index / 2 + 1
            built.append((Int64(counter), device.assertion(counter: UInt32(counter), challenge: challenges[index])))
        }
        let bodies = built
        let tally = Tally()
        let next = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    while let index = next.take(below: bodies.count) {
                        let (counter, body) = bodies[index]
                        do {
                            let response = try await self.appAttest(base, "assertion", body)
                            tally.record(
                                .init(
                                    keyId: device.keyId, counter: counter, status: response.status,
                                    error: response.json["error"] as? String ?? "", whileDown: false, after: 0))
                        } catch {
                            tally.record(
                                .init(keyId: device.keyId, counter: counter, status: 0, error: "\(error)", whileDown: false, after: 0))
                        }
                    }
                }
            }
        }
        let answers = tally.all
        XCTAssertEqual(answers.count, bodies.count)
        let unexpected = answers.filter { !($0.status == 200 || ($0.status == 409 && $0.error == "appattest.counterNotIncreasing")) }
        XCTAssertEqual(unexpected.map { "\($0.counter): \($0.status) \($0.error)" }, [], "every answer 200, or 409 for a counter not above")
        let acceptedCounters = answers.filter { $0.status == 200 }.map(\.counter)
        XCTAssertEqual(Set(acceptedCounters).count, acceptedCounters.count, "no counter accepted twice: \(acceptedCounters.sorted())")
        XCTAssertFalse(acceptedCounters.isEmpty)
        let key = try await store.attestedKey(keyId: device.keyId)
        XCTAssertEqual(key?.counter, acceptedCounters.max(), "the stored counter is the highest accepted")
        let recorded = try await store.acceptedAssertions().filter { $0.keyId == device.keyId }.map(\.counter)
        XCTAssertEqual(recorded.sorted(), acceptedCounters.sorted(), "exactly the accepted assertions recorded")
        print(
            "appattest 16 clients: \(bodies.count) assertions for one key, \(acceptedCounters.count) accepted, "
                + "\(answers.count - acceptedCounters.count) refused (409), \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    // MARK: - SIGKILL mid-burst

    /// 16 devices each attest a key and then send 6 assertions (increasing counters) while the
    /// receiver is SIGKILLed after 40 acknowledgements. After a restart every acknowledged
    /// attestation and assertion is in the database, and every device goes on.
    func appAttestKillDuringBurst() async throws {
        let started = Date()
        let receiver = try await start()
        let store = try await openStore()
        let pki = try attestationSigner.pki
        let devices = (0..<16).map { _ in Device() }
        let perDevice = 6
        let challenges = try await issueChallenges(receiver.baseURL, devices.count * (perDevice + 1))
        let killAt = 40
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for (index, device) in devices.enumerated() {
                let mine = Array(challenges[(index * (perDevice + 1))..<((index + 1) * (perDevice + 1))])
                group.addTask {
                    for step in 0...perDevice {
                        guard receiver.process.isRunning else { return }
                        let body: [UInt8]
                        do {
                            body =
                                try step == 0
                                ? device.attestation(challenge: mine[0], pki: pki)
                                : device.assertion(counter: UInt32(step), challenge: mine[step])
                        } catch {
                            return
                        }
                        let status: Int
                        var code = ""
                        do {
                            let response = try await self.appAttest(receiver.baseURL, step == 0 ? "attestation" : "assertion", body)
                            status = response.status
                            code = response.json["error"] as? String ?? ""
                        } catch {
                            status = 0
                        }
                        let acknowledged = tally.record(
                            .init(keyId: device.keyId, counter: Int64(step), status: status, error: code, whileDown: false, after: 0))
                        if status == 200 && acknowledged == killAt { receiver.kill() }
                        if status != 200 { return }
                    }
                }
            }
        }
        XCTAssertFalse(receiver.process.isRunning)
        XCTAssertEqual(receiver.process.terminationReason, .uncaughtSignal, "killed by SIGKILL")
        let answers = tally.all
        let acknowledged = answers.filter { $0.status == 200 }
        XCTAssertGreaterThanOrEqual(acknowledged.count, killAt)
        XCTAssertLessThan(acknowledged.count, devices.count * (perDevice + 1), "the kill interrupted the burst")
        XCTAssertEqual(answers.filter { $0.status != 200 && $0.status != 0 }.map { "\($0.status) \($0.error)" }, [], "no refusal")

        // Restart on the same database: nothing acknowledged is lost.
        let restarted = try await start()
        let keys = Dictionary(uniqueKeysWithValues: try await store.attestedKeys().map { ($0.keyId, $0) })
        let recorded = try await store.acceptedAssertions()
        let recordedSet = Set(recorded.map { "\($0.keyId) \($0.counter)" })
        XCTAssertEqual(recordedSet.count, recorded.count)
        let lostAttestations = acknowledged.filter { $0.counter == 0 && keys[$0.keyId] == nil }
        let lostAssertions = acknowledged.filter { $0.counter > 0 && !recordedSet.contains("\($0.keyId) \($0.counter)") }
        XCTAssertEqual(lostAttestations.map(\.keyId), [], "acknowledged attestations lost")
        XCTAssertEqual(lostAssertions.map { "\($0.keyId) \($0.counter)" }, [], "acknowledged assertions lost")
        for (keyId, key) in keys {
            let highest = recorded.filter { $0.keyId == keyId }.map(\.counter).max() ?? 0
            XCTAssertEqual(key.counter, highest, "the stored counter of \(keyId) is its highest recorded assertion")
        }

        // Every device goes on after the restart: attest if its key is not stored, then assert above anything sent.
        for device in devices {
            if keys[device.keyId] == nil {
                let attested = try await appAttest(
                    restarted.baseURL, "attestation", device.attestation(challenge: try issueChallenge(restarted.baseURL), pki: pki))
                XCTAssertEqual(attested.status, 200, "\(attested.json)")
            }
            let next = try await appAttest(
                restarted.baseURL, "assertion",
                device.assertion(counter: UInt32(perDevice + 1), challenge: try issueChallenge(restarted.baseURL)))
            XCTAssertEqual(next.status, 200, "\(next.json)")
        }
        let committedUnanswered = recorded.count - acknowledged.filter { $0.counter > 0 }.count
        print(
            "appattest kill test: \(acknowledged.count) acknowledged before the kill "
                + "(\(acknowledged.filter { $0.counter == 0 }.count) attestations), \(keys.count) keys and \(recorded.count) "
                + "assertions in the database after it (\(committedUnanswered) assertions committed without an answer), "
                + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    // MARK: - PostgreSQL stopped and restarted mid-burst

    /// 8 devices send assertions without pause; PostgreSQL is stopped (immediate shutdown) in the
    /// middle, kept away for at least 3 s, and started again on the same data directory and port.
    /// While it is away every answer is 5xx (never 200); the same receiver process recovers on its
    /// own; every acknowledged assertion is in the database afterwards.
    func appAttestDatabaseAwayDuringBurst() async throws {
        _ = try Backend.postgresControl()
        let started = Date()
        let receiver = try await start(storeTimeout: 2)
        let store = try await openStore()
        let base = receiver.baseURL
        let pki = try attestationSigner.pki
        let devices = (0..<8).map { _ in Device() }
        for device in devices {
            let attested = try await appAttest(base, "attestation", device.attestation(challenge: try issueChallenge(base), pki: pki))
            XCTAssertEqual(attested.status, 200, "\(attested.json)")
        }
        let phase = DatabasePhase()
        let tally = Tally()
        let finished = Flag()
        let restarts = Counter()
        let burst = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in devices {
                    group.addTask {
                        var counter: UInt32 = 0
                        while !finished.isSet {
                            counter += 1
                            let before = phase.current
                            let after = restarts.peek
                            var status = 0
                            var code = ""
                            do {
                                let challenge = try await self.appAttest(base, "challenge", [])
                                if challenge.status == 200, let value = challenge.json["challenge"] as? String {
                                    let response = try await self.appAttest(
                                        base, "assertion", device.assertion(counter: counter, challenge: value))
                                    status = response.status
                                    code = response.json["error"] as? String ?? ""
                                } else {
                                    status = challenge.status
                                    code = "challenge: " + (challenge.json["error"] as? String ?? "")
                                }
                            } catch {
                                code = "\(error)"
                            }
                            let whileDown = before != nil && before == phase.current
                            tally.record(
                                .init(
                                    keyId: device.keyId, counter: Int64(counter), status: status, error: code, whileDown: whileDown,
                                    after: after))
                            if status != 200 { try? await Task.sleep(for: .milliseconds(50)) }
                        }
                    }
                }
            }
        }
        func waitFor(_ seconds: Double, _ condition: () -> Bool) async throws {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        }
        // Mid-burst: stop PostgreSQL, keep it away at least 3 s (and until 8 answers came while it was).
        try await waitFor(30) { tally.acknowledgedCount >= 50 }
        let acknowledgedBeforeStop = tally.acknowledgedCount
        try Backend.postgres("stop")
        phase.set(down: true)
        let stoppedAt = Date()
        try await waitFor(20) { Date().timeIntervalSince(stoppedAt) >= 3 && tally.all.filter(\.whileDown).count >= 8 }
        phase.set(down: false)
        _ = restarts.acknowledge()
        try Backend.postgres("start")
        // The same process recovers: 50 more acknowledgements after the restart.
        try await waitFor(60) { tally.all.filter { $0.status == 200 && $0.after == 1 }.count >= 50 }
        finished.set()
        await burst.value

        XCTAssertTrue(receiver.process.isRunning, "the receiver did not restart")
        let answers = tally.all
        let whileDown = answers.filter(\.whileDown)
        XCTAssertGreaterThan(whileDown.count, 0, "answers while the database was away")
        XCTAssertEqual(whileDown.filter { !(500...599).contains($0.status) }.map { "\($0.status) \($0.error)" }, [], "only 5xx while away")
        XCTAssertEqual(
            answers.filter { $0.status != 200 && !(500...599).contains($0.status) }.map { "\($0.status) \($0.error)" }, [],
            "every answer 200 or 5xx (no counter refused, no connection lost)")
        let acknowledged = answers.filter { $0.status == 200 }
        let recoveredAfter = acknowledged.filter { $0.after == 1 }.count
        XCTAssertGreaterThanOrEqual(recoveredAfter, 50, "recovered without a restart of its own")
        let recorded = try await store.acceptedAssertions()
        let recordedSet = Set(recorded.map { "\($0.keyId) \($0.counter)" })
        XCTAssertEqual(recordedSet.count, recorded.count)
        let lost = acknowledged.filter { !recordedSet.contains("\($0.keyId) \($0.counter)") }
        XCTAssertEqual(lost.map { "\($0.keyId) \($0.counter)" }, [], "acknowledged assertions lost")
        for key in try await store.attestedKeys() {
            let highest = recorded.filter { $0.keyId == key.keyId }.map(\.counter).max() ?? 0
            XCTAssertEqual(key.counter, highest, "the stored counter of \(key.keyId) is its highest recorded assertion")
        }
        let failedWhileAway = answers.filter { (500...599).contains($0.status) }.count
        print(
            "appattest database-away test: \(acknowledgedBeforeStop) acknowledged before the stop, \(whileDown.count) answers "
                + "while away (all 5xx), \(failedWhileAway) 5xx in all, \(recoveredAfter) acknowledged after the restart, "
                + "\(recorded.count) assertions in the database, \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }
}

/// A flag set once, read by the senders.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        defer { lock.unlock() }
        value = true
    }
}

/// App Attest configuration, in process: off without a team id; exactly one root; Apple's root
/// checked against the pin (a test root given as Apple's is refused at start).
final class AppAttestConfigurationTests: XCTestCase {
    func load(_ arguments: [String]) throws -> ReceiverConfiguration {
        try ReceiverConfiguration.load(
            arguments: ["--bundle-id", "com.example.receiver", "--root-certificate", "/dev/null"] + arguments, environment: [:])
    }

    func testRootsAndPin() throws {
        let root = try AttestationSigner.shared.get().rootFile.path
        XCTAssertNil(try load([]).appAttestVerifiers(), "no team id: the routes are off")
        XCTAssertThrowsError(try load(["--appattest-team-id", "T"]), "a team id needs a root")
        XCTAssertThrowsError(
            try load(["--appattest-team-id", "T", "--appattest-root", root, "--appattest-test-root", root]), "not both roots")
        XCTAssertThrowsError(try load(["--appattest-team-id", "T", "--appattest-root", root]).appAttestVerifiers()) { error in
            XCTAssertTrue("\(error)".contains("appattest.rootNotPinned"), "\(error)")
        }
        let verifiers = try XCTUnwrap(
            try load(["--appattest-team-id", "T", "--appattest-test-root", root, "--appattest-environment", "development"])
                .appAttestVerifiers())
        XCTAssertEqual(verifiers.attestation.appID.description, "T.com.example.receiver")
        XCTAssertEqual(verifiers.attestation.environment, .development)
        XCTAssertThrowsError(try load(["--appattest-environment", "staging"]))
        XCTAssertThrowsError(try load(["--store-timeout", "0"]))
    }

    /// The App Attest policy: accept-all-and-report by default; allow lists need the absent choice.
    func testAppAttestPolicyOptions() throws {
        let root = try AttestationSigner.shared.get().rootFile.path
        let base = ["--appattest-team-id", "T", "--appattest-test-root", root]
        XCTAssertEqual(try load(base).appAttestVerifiers()?.assertion.policy, .acceptAllAndReport)
        XCTAssertThrowsError(try load(base + ["--appattest-allow-category", "app-store"]), "an allow list needs --appattest-when-absent")
        XCTAssertThrowsError(try load(base + ["--appattest-when-absent", "refuse"]), "--appattest-when-absent alone")
        XCTAssertThrowsError(try load(base + ["--appattest-allow-category", "retail", "--appattest-when-absent", "accept"]))
        let verifiers = try XCTUnwrap(
            try load(
                base + [
                    "--appattest-allow-category", "app-store,testflight,7", "--appattest-allow-bundle-version", "41, 42",
                    "--appattest-when-absent", "refuse",
                ]
            ).appAttestVerifiers())
        let expected = AppAttestPolicy(
            validationCategories: .only([.appStore, .testFlight, .init(rawValue: 7)]), bundleVersions: .only(["41", "42"]),
            whenAbsent: .refuse)
        XCTAssertEqual(verifiers.assertion.policy, expected)
        XCTAssertEqual(verifiers.attestation.policy, expected)
    }
}
