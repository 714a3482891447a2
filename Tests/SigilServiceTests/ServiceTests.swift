import Foundation
import SigilASN1
import SigilAppStore
import SigilCore
import SigilJOSE
import SigilKeys
import SigilService
import SigilTestPKI
import XCTest

/// Hostile requests, the test PKI through every App Store path of the service, and token minting.
final class ServiceTests: XCTestCase {
    let service = VerificationService(requestTrust: .acceptedAndReported)

    private func code(_ answer: VerificationAnswer) throws -> String? {
        let document = try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any]
        return (document?["error"] as? [String: Any])?["code"] as? String
    }

    func testHostileRequestsGetTypedErrors() throws {
        let tenMegabytes = "{\"data\": \"" + String(repeating: "A", count: 10_000_000) + "\"}"
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let deepObject = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        let cases: [([UInt8], String, VerificationAnswer.Status)] = [
            ([], "request.invalidJSON", .invalidRequest),
            (Array(tenMegabytes.utf8), "request.tooLarge", .tooLarge),
            (Array(deep.utf8), "request.invalidJSON", .invalidRequest),
            (Array(deepObject.utf8), "request.invalidJSON", .invalidRequest),
            (Array("{\"data\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8), "request.invalidJSON", .invalidRequest),
            (Array("{\"data\": \"".utf8) + [0xFF] + Array("\"}".utf8), "request.invalidJSON", .invalidRequest),
            (Array("{\"data\": 5}".utf8), "request.invalidMember", .invalidRequest),
            (Array("{\"data\": \"x\", \"at\": -1}".utf8), "request.invalidMember", .invalidRequest),
            (Array("{\"data\": \"x\", \"at\": 1.5}".utf8), "request.invalidMember", .invalidRequest),
            (Array("{\"data\": \"x\", \"roots\": [\"not base64!\"]}".utf8), "request.invalidMember", .invalidRequest),
            (Array("{\"data\": \"x\", \"roots\": [\"AAAA\"]}".utf8), "request.invalidMember", .invalidRequest),
            (Array("{\"data\": \"x\", \"environments\": []}".utf8), "request.invalidMember", .invalidRequest),
            (
                Array("{\"kind\": \"assertion\", \"data\": \"x\", \"teamId\": \"T\", \"bundleId\": \"b\", \"clientData\": \"AA==\"}".utf8),
                "request.missingMember", .invalidRequest
            ),
            (
                Array(
                    "{\"kind\": \"assertion\", \"data\": \"x\", \"teamId\": \"T\", \"bundleId\": \"b\", \"clientData\": \"AA==\", \"publicKey\": \"AAAA\"}"
                        .utf8),
                "request.invalidMember", .invalidRequest
            ),
            (Array("null".utf8), "request.notAnObject", .invalidRequest),
        ]
        for (request, expected, status) in cases {
            let answer = service.verify(json: request)
            XCTAssertEqual(try code(answer), expected, "\(request.prefix(60)): \(answer.json.prefix(300))")
            XCTAssertEqual(answer.status, status)
            XCTAssertLessThan(answer.json.utf8.count, 2048, "an error answer does not echo the request")
        }
    }

    /// The test PKI (an Apple-shaped chain under a root of our own, passed in `roots`): valid,
    /// enforced, report-only, refused for each reason, through `auto` and a named kind.
    func testTestPKISignedDataThroughTheService() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let other = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let payload = """
            {"transactionId":"1000","originalTransactionId":"1000","bundleId":"com.example.app","productId":"p",\
            "purchaseDate":\(now * 1000),"type":"Consumable","inAppOwnershipType":"PURCHASED","signedDate":\(now * 1000),\
            "environment":"Sandbox","quantity":1}
            """
        let jws = try pki.signedData(payload: Array(payload.utf8))
        let root = Base64.encode(pki.root.derBytes)
        func ask(_ members: [String: Any]) throws -> (VerificationAnswer, [String: Any]) {
            let request = try JSONSerialization.data(withJSONObject: members.merging(["data": jws]) { a, _ in a })
            let answer = service.verify(json: Array(request))
            return (answer, try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any] ?? [:])
        }
        var (answer, document) = try ask(["roots": [root], "bundleId": "com.example.app", "environments": ["Sandbox"]])
        XCTAssertEqual(answer.status, .verified, answer.json)
        XCTAssertEqual(document["kind"] as? String, "transaction")
        XCTAssertEqual((document["payload"] as? [String: Any])?["transactionId"] as? String, "1000")
        // Valid only under the root the request brought: the answer names that anchor and the
        // relaxed Apple root check, never an unqualified `valid: true, notEnforced: []`.
        XCTAssertEqual(document["trust"] as? String, "request-roots")
        XCTAssertEqual(document["notEnforced"] as? [String], ["appleRoot"])
        // The payload is Apple's JSON exactly as signed (member order and number text kept).
        XCTAssertTrue(answer.json.contains(payload), answer.json)

        (answer, document) = try ask(["roots": [root], "bundleId": "com.example.other", "reportOnly": true, "kind": "transaction"])
        XCTAssertEqual(answer.status, .verified, answer.json)
        XCTAssertEqual(document["trust"] as? String, "request-roots")
        XCTAssertEqual(document["notEnforced"] as? [String], ["bundleId", "appAppleId", "appleRoot"])

        (answer, _) = try ask(["roots": [root], "bundleId": "com.example.other", "environments": ["Sandbox"]])
        XCTAssertEqual(try code(answer), "appstore.INVALID_APP_IDENTIFIER")
        (answer, _) = try ask(["roots": [Base64.encode(other.root.derBytes)]])
        XCTAssertEqual(try code(answer), "appstore.VERIFICATION_FAILURE")
        XCTAssertEqual(answer.status, .refused)
        (answer, _) = try ask(["roots": [root], "at": now + 2 * 86_400])
        XCTAssertEqual(try code(answer), "appstore.VERIFICATION_FAILURE")
        XCTAssertTrue(answer.json.contains("\"failures\":[{\"reason\""), answer.json)
        (answer, _) = try ask(["roots": [root], "kind": "notification"])
        XCTAssertEqual(answer.status, .refused, answer.json)
        XCTAssertTrue(try code(answer)?.hasPrefix("appstore.") == true, answer.json)
        // Apple's real root (built in) does not anchor the test chain.
        (answer, _) = try ask([:])
        XCTAssertEqual(try code(answer), "appstore.VERIFICATION_FAILURE")
        // One byte of the signature changed.
        var tampered = Array(jws.utf8)
        tampered[tampered.count - 5] = tampered[tampered.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let request = try JSONSerialization.data(withJSONObject: ["data": String(decoding: tampered, as: UTF8.self), "roots": [root]])
        XCTAssertEqual(try code(service.verify(json: Array(request))), "appstore.VERIFICATION_FAILURE")
    }

    func testMintedTokenVerifiesWithTheKeysPublicHalf() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let request: [String: Any] = [
            "token": "app-store-server-api", "key": key.pkcs8PEM, "keyId": "ABC123", "issuerId": "issuer-1",
            "bundleId": "com.example.app", "issuedAt": 1_700_000_000, "lifetime": 600,
        ]
        let answer = service.mintToken(json: Array(try JSONSerialization.data(withJSONObject: request)))
        XCTAssertEqual(answer.status, .verified, answer.json)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any])
        let jws = try JWS(compact: try XCTUnwrap(document["token"] as? String))
        try jws.verify(with: .ecdsa(key.publicKey))
        XCTAssertEqual(jws.keyID, "ABC123")
        let claims = try jws.payloadJSON()
        XCTAssertEqual(claims["iss"]?.stringValue, "issuer-1")
        XCTAssertEqual(claims["bid"]?.stringValue, "com.example.app")
        XCTAssertEqual(claims["exp"]?.int64Value, 1_700_000_600)
        XCTAssertFalse(answer.json.contains("PRIVATE"))

        // A lifetime Apple refuses, a bad key, a missing member: typed errors, no key text echoed.
        var refused = request
        refused["lifetime"] = 7200
        let tooLong = service.mintToken(json: Array(try JSONSerialization.data(withJSONObject: refused)))
        XCTAssertEqual(tooLong.status, .refused, tooLong.json)
        XCTAssertTrue(try code(tooLong)?.hasPrefix("tokens.") == true, tooLong.json)
        refused = request
        refused["key"] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        let badKey = service.mintToken(json: Array(try JSONSerialization.data(withJSONObject: refused)))
        XCTAssertEqual(try code(badKey), "request.invalidMember")
        XCTAssertFalse(badKey.json.contains("AAAA"))
        refused = request
        refused["issuerId"] = nil
        XCTAssertEqual(
            try code(service.mintToken(json: Array(try JSONSerialization.data(withJSONObject: refused)))), "request.missingMember")
    }

    /// Many threads share one service (and its chain cache): every answer is the one a single
    /// thread gives.
    func testConcurrentAnswersAgree() throws {
        let requests = try ConformanceTests.loadCases().map(\.request)
        let service = self.service
        let expected = requests.map { service.verify(json: $0).json }
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<20 {
                let index = (worker * 7 + round) % requests.count
                if service.verify(json: requests[index]).json != expected[index] { mismatches.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(mismatches.withLock { $0 }, 0)
    }
}

/// A counter shared by the threads of one test.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
