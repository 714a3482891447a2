import Foundation
import SigilApplePay
import SigilCore
import SigilService
import SigilTestPKI
import SigilTestSupport
import XCTest

/// Kind `applepay` in SigilService with a test-PKI token: unconfigured it is service.notConfigured
/// (the C ABI's and Python's answer); the synchronous door refuses it while a replay store is
/// configured; `verifyRecordingReplays` records the token's replay key once, answers the identical
/// request again as a retry and refuses another request with the token, records nothing for a
/// tampered token, answers 503 when the store fails; the named relaxation answers twice and lists
/// replayKey in notEnforced. No card data in any refusal.
final class ApplePayServiceTests: XCTestCase {
    static let signingTime: Int64 = 1_790_000_000
    static let pan = "4111111111111111"
    static let payment = Array(
        """
        {"applicationPrimaryAccountNumber":"\(pan)","applicationExpirationDate":"301231","currencyCode":"978",\
        "transactionAmount":1000,"deviceManufacturerIdentifier":"040010030273","paymentDataType":"3DSecure",\
        "paymentData":{"onlinePaymentCryptogram":"AOn1QwoAAAAAAAAAAAAAAAAAAAA=","eciIndicator":"7"}}
        """.utf8)

    /// A store in memory: what the receiver's SQLite and PostgreSQL stores do, by set insertion.
    final class MemoryStore: ApplePayReplayStore, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String: ApplePayTransactionRecord] = [:]
        var records: [String: ApplePayTransactionRecord] { lock.withLock { stored } }
        let failing: Bool
        init(failing: Bool = false) { self.failing = failing }
        struct Down: Error {}
        func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome {
            if failing { throw Down() }
            return lock.withLock {
                if let first = stored[record.replayKey] {
                    return ApplePayRecordOutcome(stored: (first.requestFingerprint, first.acceptedAt), incoming: record)
                }
                stored[record.replayKey] = record
                return .recorded
            }
        }
    }

    struct Fixture {
        let token: [UInt8]
        let tampered: [UInt8]
        let configuration: (ApplePayServiceConfiguration.ReplayProtection) throws -> ApplePayServiceConfiguration
    }

    func fixture() throws -> Fixture {
        var generator = SeededGenerator(seed: 0x5E41_0038)
        let pki = try AppleShapedPaymentPKI.generate(
            notBefore: Self.signingTime - 86_400, notAfter: Self.signingTime + 86_400, using: &generator)
        let merchant = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let identifier = "merchant.com.example.service"
        let token = try pki.ecToken(
            payment: Self.payment, merchant: merchant.publicKey, merchantIdentifier: identifier,
            ephemeral: ECDSAPrivateKey.generate(curve: .p256, using: &generator), transactionId: generator.bytes(32),
            signingTime: Self.signingTime)
        // One base64 character of data changed: the signature no longer covers it.
        var text = Array(String(decoding: token, as: UTF8.self))
        let data = try XCTUnwrap(String(text).range(of: "\"data\":\""))
        let index = String(text).distance(from: String(text).startIndex, to: data.upperBound) + 4
        text[index] = text[index] == "A" ? "B" : "A"
        let root = pki.root
        return Fixture(
            token: token, tampered: Array(String(text).utf8),
            configuration: { protection in
                ApplePayServiceConfiguration(
                    merchantKeys: [try MerchantKey(privateKey: merchant.pkcs8PEM.utf8.map { $0 }, merchantIdentifier: identifier)],
                    verifier: try PaymentTokenVerifier(trustedRoots: [root]), replayProtection: protection,
                    clock: { Self.signingTime + 10 })
            })
    }

    /// The request document, its members sorted: the same token gives the same bytes (a retry is
    /// recognised by the body's SHA-256).
    func request(_ token: [UInt8]) -> [UInt8] {
        let document: [String: Any] = ["kind": "applepay", "data": String(decoding: token, as: UTF8.self)]
        return Array(try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
    }

    func document(_ answer: VerificationAnswer) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any])
    }

    func code(_ answer: VerificationAnswer) throws -> String? {
        (try document(answer)["error"] as? [String: Any])?["code"] as? String
    }

    func testUnconfiguredAndSynchronousDoorsRefuse() async throws {
        let f = try fixture()
        let bare = VerificationService(requestTrust: .acceptedAndReported)
        for answer in [bare.verify(json: request(f.token)), await bare.verifyRecordingReplays(json: request(f.token))] {
            XCTAssertEqual(answer.status, .notConfigured)
            XCTAssertEqual(try code(answer), "service.notConfigured")
        }
        let stored = VerificationService(applePay: try f.configuration(.store(MemoryStore())), requestTrust: .acceptedAndReported)
        let synchronous = stored.verify(json: request(f.token))
        XCTAssertEqual(synchronous.status, .notConfigured)
        XCTAssertEqual(try code(synchronous), "service.notConfigured")
    }

    func testReplayStoreRecordsOnce() async throws {
        let f = try fixture()
        let store = MemoryStore()
        let service = VerificationService(applePay: try f.configuration(.store(store)), requestTrust: .acceptedAndReported)
        let tampered = await service.verifyRecordingReplays(json: request(f.tampered))
        XCTAssertEqual(tampered.status, .refused)
        XCTAssertEqual(try code(tampered), "applepay.invalidSignature")
        XCTAssertEqual(store.records.count, 0)

        let first = await service.verifyRecordingReplays(json: request(f.token))
        XCTAssertEqual(first.status, .verified, first.json)
        let applepay = try XCTUnwrap(try document(first)["applepay"] as? [String: Any])
        XCTAssertEqual((applepay["payment"] as? [String: Any])?["applicationPrimaryAccountNumber"] as? String, Self.pan)
        XCTAssertEqual(applepay["signingTime"] as? Int, Int(Self.signingTime))
        // The test PKI's root is the service's configuration, not Apple Root CA - G3: named.
        XCTAssertEqual(try document(first)["trust"] as? String, "configured-roots")
        XCTAssertEqual(try document(first)["notEnforced"] as? [String], ["appleRoot"])
        XCTAssertEqual(applepay["retry"] as? Bool, false)
        let recorded = try XCTUnwrap(store.records.values.first)
        XCTAssertEqual(recorded.transactionId, applepay["transactionId"] as? String)
        XCTAssertEqual(recorded.replayKey, applepay["replayKey"] as? String)
        XCTAssertEqual(recorded.replayKey, try PaymentToken(json: f.token).replayKey)
        XCTAssertEqual(recorded.acceptedAt, Self.signingTime + 10)

        // The identical request again (a retry): the same payment, flagged.
        let retry = await service.verifyRecordingReplays(json: request(f.token))
        XCTAssertEqual(retry.status, .verified, retry.json)
        let retried = try XCTUnwrap(try document(retry)["applepay"] as? [String: Any])
        XCTAssertEqual(retried["retry"] as? Bool, true)
        XCTAssertEqual(retried["firstAcceptedAt"] as? Int, Int(Self.signingTime + 10))
        XCTAssertEqual(retried["transactionId"] as? String, applepay["transactionId"] as? String)

        // Another request with the same token (it names the time): a replay.
        var other = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(request(f.token))) as? [String: Any])
        other["at"] = Self.signingTime + 10
        let second = await service.verifyRecordingReplays(
            json: Array(try JSONSerialization.data(withJSONObject: other, options: [.sortedKeys])))
        XCTAssertEqual(second.status, .refused)
        XCTAssertEqual(try code(second), "applepay.replayedTransaction")
        XCTAssertFalse(second.json.contains(Self.pan))
        XCTAssertEqual(store.records.count, 1)

        let down = VerificationService(
            applePay: try f.configuration(.store(MemoryStore(failing: true))), requestTrust: .acceptedAndReported)
        let unavailable = await down.verifyRecordingReplays(json: request(f.token))
        XCTAssertEqual(unavailable.status, .unavailable)
        XCTAssertEqual(try code(unavailable), "service.replayStoreUnavailable")
        XCTAssertFalse(unavailable.json.contains(Self.pan))
    }

    func testNamedRelaxationAcceptsTwiceAndSaysSo() async throws {
        let f = try fixture()
        let service = VerificationService(applePay: try f.configuration(.disabledAcceptingReplays), requestTrust: .acceptedAndReported)
        for answer in [await service.verifyRecordingReplays(json: request(f.token)), service.verify(json: request(f.token))] {
            XCTAssertEqual(answer.status, .verified, answer.json)
            XCTAssertEqual(try document(answer)["notEnforced"] as? [String], ["replayKey", "appleRoot"])
            XCTAssertNil((try document(answer)["applepay"] as? [String: Any])?["retry"], "no store, no retry verdict")
        }
    }
}
