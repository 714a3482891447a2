import Foundation
import SigilApplePay
import SigilCore
import SigilService
import SigilTestSupport
import XCTest

/// Issue 46, kind `applepay` against a hostile client, with a real Apple-signed token (the
/// payu-sandbox set of the Apple Pay vectors, its published merchant key; judged at its signing
/// time through the request's `at`): re-framed tokens are refused with their codes and record
/// nothing; a token is recorded once under its replay key; the identical request again is answered
/// as a retry (`"retry": true`, `firstAcceptedAt`), any other request with the token — another
/// `at`, other whitespace — is `applepay.replayedTransaction`; 32 concurrent submissions record one
/// acceptance; an insert that commits after the store's timeout makes the retry a retry, not a
/// replay.
final class ApplePayReplayTests: XCTestCase {
    typealias MemoryStore = ApplePayServiceTests.MemoryStore

    struct Real {
        let token: [UInt8]
        let signingTime: Int64
        let pan: String
        let key: MerchantKey
    }

    func real() throws -> Real {
        let folder = try TestPaths.requireApplePayVectors().appendingPathComponent("payu-sandbox")
        let read = { (name: String) in Array(try Data(contentsOf: folder.appendingPathComponent(name))) }
        let identifier = String(decoding: try read("merchant_id.txt"), as: UTF8.self)
        let plaintext = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try read("plaintext.json"))) as? [String: Any])
        let signed = try XCTUnwrap(ISO8601DateFormatter().date(from: "2018-01-26T13:55:18Z"))
        return Real(
            token: try read("token.json"), signingTime: Int64(signed.timeIntervalSince1970),
            pan: try XCTUnwrap(plaintext["applicationPrimaryAccountNumber"] as? String),
            key: try MerchantKey(privateKey: try read("merchant_key.pem"), merchantIdentifier: identifier))
    }

    func service(_ real: Real, _ store: any ApplePayReplayStore, acceptedAt: Int64 = 1_900_000_000) throws -> VerificationService {
        VerificationService(
            applePay: ApplePayServiceConfiguration(
                merchantKeys: [real.key], verifier: try PaymentTokenVerifier(), replayProtection: .store(store),
                clock: { acceptedAt }), requestTrust: .acceptedAndReported)
    }

    /// The request document, written by hand so that its bytes are known: `spaces` after each colon.
    func request(_ token: [UInt8], at: Int64, spaces: Int = 0) throws -> [UInt8] {
        let data = String(decoding: try JSONSerialization.data(withJSONObject: [String(decoding: token, as: UTF8.self)]), as: UTF8.self)
        let pad = String(repeating: " ", count: spaces)
        return Array("{\"kind\":\(pad)\"applepay\",\"data\":\(pad)\(data.dropFirst().dropLast()),\"at\":\(pad)\(at)}".utf8)
    }

    func document(_ answer: VerificationAnswer) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any], answer.json)
    }

    func code(_ answer: VerificationAnswer) throws -> String? {
        (try document(answer)["error"] as? [String: Any])?["code"] as? String
    }

    /// `token` with its fields re-framed: `change` gets (data, transactionId, applicationData,
    /// ephemeralPublicKey) as bytes.
    func reframed(_ token: [UInt8], _ change: (inout [UInt8], inout [UInt8], inout [UInt8]?, inout [UInt8]) -> Void) throws -> [UInt8] {
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(token)) as? [String: Any])
        var header = try XCTUnwrap(root["header"] as? [String: Any])
        var data = Array(try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(root["data"] as? String))))
        var id = try XCTUnwrap(Hex.decode(try XCTUnwrap(header["transactionId"] as? String)))
        var applicationData = (header["applicationData"] as? String).flatMap(Hex.decode)
        var key = Array(try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(header["ephemeralPublicKey"] as? String))))
        change(&data, &id, &applicationData, &key)
        root["data"] = Data(data).base64EncodedString()
        header["transactionId"] = Hex.encode(id)
        header["applicationData"] = applicationData.map { Hex.encode($0) }
        header["ephemeralPublicKey"] = Data(key).base64EncodedString()
        root["header"] = header
        return Array(try JSONSerialization.data(withJSONObject: root))
    }

    /// Each re-framing of the real token, sent before and after the original was accepted: refused
    /// with its code, nothing recorded for it, no card number in the refusal.
    func testReframedRealTokensAreRefused() async throws {
        let real = try real()
        let store = MemoryStore()
        let service = try service(real, store)
        let attacks: [(String, [UInt8], String)] = [
            (
                "4 bytes of transactionId moved to applicationData",
                try reframed(real.token) { _, id, app, _ in
                    app = Array(id.suffix(4))
                    id.removeLast(4)
                }, "applepay.invalidTransactionId"
            ),
            ("a 1-byte transactionId", try reframed(real.token) { _, id, _, _ in id = [id[0]] }, "applepay.invalidTransactionId"),
            ("an empty transactionId", try reframed(real.token) { _, id, _, _ in id = [] }, "applepay.invalidTransactionId"),
            (
                "a 31-byte applicationData behind a 32-byte id",
                try reframed(real.token) { data, id, app, _ in
                    let first = id[0]
                    app = Array(id.dropFirst())
                    id = Array(data.suffix(31)) + [first]
                    data.removeLast(31)
                }, "applepay.invalidApplicationData"
            ),
            (
                "one byte of data moved into ephemeralPublicKey",
                try reframed(real.token) { data, _, _, key in key.append(data.removeFirst()) }, "applepay.invalidEphemeralPublicKey"
            ),
            (
                "32 bytes of data moved into the header (applicationData added)",
                try reframed(real.token) { data, id, app, _ in
                    app = id
                    id = Array(data.suffix(32))
                    data.removeLast(32)
                }, "applepay.tagMismatch"
            ),
        ]
        for round in ["before the original", "after the original"] {
            for (attack, token, expected) in attacks {
                let answer = await service.verifyRecordingReplays(json: try request(token, at: real.signingTime))
                XCTAssertEqual(answer.status, .refused, "\(round): \(attack)")
                XCTAssertEqual(try code(answer), expected, "\(round): \(attack)")
                XCTAssertFalse(answer.json.contains(real.pan), attack)
            }
            if round == "before the original" {
                XCTAssertEqual(store.records.count, 0, "nothing recorded for a re-framed token")
                let original = await service.verifyRecordingReplays(json: try request(real.token, at: real.signingTime))
                XCTAssertEqual(original.status, .verified, original.json)
            }
        }
        XCTAssertEqual(store.records.count, 1)
    }

    /// The same token twice: the identical body is a retry (same payment, `retry: true`,
    /// `firstAcceptedAt`); another `at` or other whitespace is applepay.replayedTransaction.
    func testTheSameTokenIsAcceptedOnceAndItsIdenticalRequestIsARetry() async throws {
        let real = try real()
        let store = MemoryStore()
        let body = try request(real.token, at: real.signingTime)
        let first = await (try service(real, store, acceptedAt: 1_900_000_000)).verifyRecordingReplays(json: body)
        XCTAssertEqual(first.status, .verified, first.json)
        let accepted = try XCTUnwrap(try document(first)["applepay"] as? [String: Any])
        XCTAssertEqual(accepted["retry"] as? Bool, false)
        XCTAssertNil(accepted["firstAcceptedAt"])
        let token = try PaymentToken(json: real.token)
        XCTAssertEqual(accepted["replayKey"] as? String, token.replayKey)
        let record = try XCTUnwrap(store.records[token.replayKey])
        XCTAssertEqual(record.transactionId, Hex.encode(token.transactionId))
        XCTAssertEqual(record.requestFingerprint, Hex.encode(SHA256.hash(body)))
        XCTAssertFalse("\(record)".contains(real.pan))

        // Later (the service's clock moved on), the identical request: a retry.
        let later = try service(real, store, acceptedAt: 1_900_000_500)
        let retry = await later.verifyRecordingReplays(json: body)
        XCTAssertEqual(retry.status, .verified, retry.json)
        var retried = try XCTUnwrap(try document(retry)["applepay"] as? [String: Any])
        XCTAssertEqual(retried.removeValue(forKey: "retry") as? Bool, true)
        XCTAssertEqual(retried.removeValue(forKey: "firstAcceptedAt") as? Int, 1_900_000_000)
        var firstContent = accepted
        firstContent.removeValue(forKey: "retry")
        XCTAssertEqual(NSDictionary(dictionary: retried), NSDictionary(dictionary: firstContent), "the first answer's content")

        for (what, other) in [
            ("another at", try request(real.token, at: real.signingTime + 1)),
            ("other whitespace", try request(real.token, at: real.signingTime, spaces: 1)),
        ] {
            let replay = await later.verifyRecordingReplays(json: other)
            XCTAssertEqual(replay.status, .refused, what)
            XCTAssertEqual(try code(replay), "applepay.replayedTransaction", what)
            XCTAssertFalse(replay.json.contains(real.pan), what)
        }
        XCTAssertEqual(store.records.count, 1)
    }

    /// 32 concurrent submissions of one token: with identical bodies one acceptance and 31 retries;
    /// with 32 distinct bodies (another `at` each) one acceptance and 31 replays. One record each time.
    func testThirtyTwoConcurrentSubmissionsRecordOneAcceptance() async throws {
        let real = try real()
        for identical in [true, false] {
            let store = MemoryStore()
            let service = try service(real, store)
            let bodies = try (0..<32).map { try request(real.token, at: real.signingTime + (identical ? 0 : Int64($0))) }
            let answers = await withTaskGroup(of: VerificationAnswer.self) { group in
                for body in bodies { group.addTask { await service.verifyRecordingReplays(json: body) } }
                var answers: [VerificationAnswer] = []
                for await answer in group { answers.append(answer) }
                return answers
            }
            var accepted = 0
            var retries = 0
            var replays = 0
            for answer in answers {
                if answer.status == .verified {
                    let flag = (try document(answer)["applepay"] as? [String: Any])?["retry"] as? Bool
                    if flag == false { accepted += 1 } else if flag == true { retries += 1 }
                } else if try code(answer) == "applepay.replayedTransaction" {
                    replays += 1
                }
            }
            XCTAssertEqual(accepted, 1, "identical bodies: \(identical)")
            XCTAssertEqual(retries, identical ? 31 : 0)
            XCTAssertEqual(replays, identical ? 0 : 31)
            XCTAssertEqual(store.records.count, 1)
        }
    }

    /// A store that commits the insert only after the service stopped waiting for it (the
    /// receiver's store timeout: 503, nothing claimed). The client retries the identical request:
    /// the retry answer, not a replay. Another request with the token is still a replay.
    func testAnInsertCommittedAfterTheTimeoutMakesTheRetryARetry() async throws {
        let real = try real()
        let memory = MemoryStore()
        let late = LateStore(store: memory)
        let service = try service(real, late)
        let body = try request(real.token, at: real.signingTime)
        let first = await service.verifyRecordingReplays(json: body)
        XCTAssertEqual(first.status, .unavailable, first.json)
        XCTAssertEqual(try code(first), "service.replayStoreUnavailable")
        XCTAssertFalse(first.json.contains(real.pan))
        await late.committed()
        XCTAssertEqual(memory.records.count, 1, "the insert committed after the timeout")

        let retry = await service.verifyRecordingReplays(json: body)
        XCTAssertEqual(retry.status, .verified, retry.json)
        XCTAssertEqual((try document(retry)["applepay"] as? [String: Any])?["retry"] as? Bool, true)
        let replay = await service.verifyRecordingReplays(json: try request(real.token, at: real.signingTime + 1))
        XCTAssertEqual(try code(replay), "applepay.replayedTransaction")
    }

    /// The first call times out (after 20 ms) while its insert goes on and commits 100 ms later;
    /// later calls pass straight to the store.
    final class LateStore: ApplePayReplayStore, @unchecked Sendable {
        let store: MemoryStore
        private let lock = NSLock()
        private var pending: Task<Void, Never>?
        init(store: MemoryStore) { self.store = store }
        struct Timeout: Error {}

        func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome {
            let first: Bool = lock.withLock {
                guard pending == nil else { return false }
                pending = Task { [store] in
                    try? await Task.sleep(for: .milliseconds(100))
                    _ = try? await store.record(record)
                }
                return true
            }
            guard first else { return try await store.record(record) }
            try await Task.sleep(for: .milliseconds(20))
            throw Timeout()
        }

        func committed() async { await lock.withLock { pending }?.value }
    }
}
