import Foundation
import SigilASN1
import SigilCore
import SigilJOSE
import SigilKeys
import SigilService
import SigilTestPKI
import SigilTestSupport
import XCTest

/// The service from the attacker's side: each case names the attack and the refusal (or the
/// qualified answer) it must get. The forged data is minted under roots of the test's own making
/// (SigilTestPKI), never Apple's; nothing reaches the network.
final class AdversarialTests: XCTestCase {
    /// The service's fixed clock: answers do not depend on when the test runs.
    static let now: Int64 = 1_750_000_000
    /// A service that uses and reports request trust (the C ABI's and Python's choice).
    let reporting = VerificationService(requestTrust: .acceptedAndReported, appleRootsDirectory: nil, clock: { AdversarialTests.now })
    /// A service that refuses request trust (the notification receiver's default).
    let refusing = VerificationService(requestTrust: .refused, appleRootsDirectory: nil, clock: { AdversarialTests.now })

    /// The status and the parsed answer of `members` (or of `raw` bytes) sent to `service`.
    private func ask(_ service: VerificationService, _ members: [String: Any]) throws -> (VerificationAnswer.Status, [String: Any]) {
        try ask(service, raw: Array(JSONSerialization.data(withJSONObject: members)))
    }

    private func ask(_ service: VerificationService, raw: [UInt8]) throws -> (VerificationAnswer.Status, [String: Any]) {
        let answer = service.verify(json: raw)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any], answer.json)
        XCTAssertEqual(document["valid"] as? Bool, answer.status == .verified, answer.json)
        return (answer.status, document)
    }

    private func code(_ document: [String: Any]) -> String? { (document["error"] as? [String: Any])?["code"] as? String }

    /// A transaction for `bundleId`, signed under a root the attacker made.
    private func forgedTransaction(bundleId: String) throws -> (jws: String, root: String, pki: AppleShapedTestPKI) {
        let pki = try AppleShapedTestPKI.generate(notBefore: Self.now - 86_400, notAfter: Self.now + 86_400)
        let payload = """
            {"transactionId":"666","originalTransactionId":"666","bundleId":"\(bundleId)","productId":"gold",\
            "purchaseDate":\(Self.now * 1000),"type":"Consumable","inAppOwnershipType":"PURCHASED","signedDate":\(Self.now * 1000),\
            "environment":"Production","quantity":1}
            """
        return (try pki.signedData(payload: Array(payload.utf8)), Base64.encode(pki.root.derBytes), pki)
    }

    // MARK: - Trust members smuggled into the request

    /// Attack: a transaction for the victim's bundle id, signed under a self-made CA passed in
    /// `roots`. Reporting service: valid only as `trust: request-roots` with `appleRoot` not
    /// enforced; refusing service: `request.trustRefused` (403); no roots: Apple's root refuses it.
    func testSelfMadeRootForAnyBundleIdIsNamedOrRefused() throws {
        let forged = try forgedTransaction(bundleId: "com.victim.bank")
        let request: [String: Any] = [
            "data": forged.jws, "roots": [forged.root], "bundleId": "com.victim.bank", "appAppleId": 42, "environments": ["Production"],
        ]
        var (status, document) = try ask(reporting, request)
        XCTAssertEqual(status, .verified)
        XCTAssertEqual(document["trust"] as? String, "request-roots")
        XCTAssertEqual(document["notEnforced"] as? [String], ["appleRoot"])

        (status, document) = try ask(refusing, request)
        XCTAssertEqual(status, .trustRefused)
        XCTAssertEqual(code(document), "request.trustRefused")

        var withoutRoots = request
        withoutRoots["roots"] = nil
        for service in [reporting, refusing] {
            (status, document) = try ask(service, withoutRoots)
            XCTAssertEqual(status, .refused)
            XCTAssertEqual(code(document), "appstore.VERIFICATION_FAILURE")
        }
    }

    /// Attack: the self-made root hidden next to Apple's real one. Not exactly Apple's, so named
    /// (reporting) or refused (refusing); Apple's root alone passes the refusing service and
    /// the forgery fails on its chain.
    func testSelfMadeRootBesideApplesIsNotApple() throws {
        let forged = try forgedTransaction(bundleId: "com.victim.bank")
        // Apple Root CA - G3 as the repository carries it (Vectors/apple-roots, the built-in copy's source).
        let apple = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Vectors/apple-roots/AppleRootCA-G3.cer"))
            .base64EncodedString()
        var (status, document) = try ask(reporting, ["data": forged.jws, "roots": [apple, forged.root]])
        XCTAssertEqual(status, .verified)
        XCTAssertEqual(document["trust"] as? String, "request-roots")
        XCTAssertEqual(document["notEnforced"] as? [String], ["bundleId", "appAppleId", "appleRoot"])
        (status, document) = try ask(refusing, ["data": forged.jws, "roots": [apple, forged.root]])
        XCTAssertEqual(code(document), "request.trustRefused")
        (status, document) = try ask(refusing, ["data": forged.jws, "roots": [apple]])
        XCTAssertEqual(status, .refused, "Apple's own root is not request trust: the chain is what fails")
        XCTAssertEqual(code(document), "appstore.VERIFICATION_FAILURE")
    }

    /// Attack: Xcode's trust (a certificate the data carries) for data an attacker signed; and
    /// Xcode with extra roots, which must never be cut silently to the first.
    func testXcodeTrustIsNamedRefusedAndNeverTruncated() throws {
        let xcode = try XcodeShapedTestCertificate.generate(
            commonName: "StoreKit", notBefore: Self.now - 86_400, notAfter: Self.now + 86_400)
        let payload = """
            {"transactionId":"0","originalTransactionId":"0","bundleId":"com.victim.bank","productId":"gold",\
            "purchaseDate":\(Self.now * 1000),"type":"Consumable","inAppOwnershipType":"PURCHASED","signedDate":\(Self.now * 1000),\
            "environment":"Xcode","quantity":1}
            """
        let jws = try xcode.signedData(payload: Array(payload.utf8))
        let request: [String: Any] = ["data": jws, "environments": ["Xcode"], "kind": "transaction"]
        var (status, document) = try ask(reporting, request)
        XCTAssertEqual(status, .verified, "\(document)")
        XCTAssertEqual(document["trust"] as? String, "xcode")
        XCTAssertEqual(document["notEnforced"] as? [String], ["bundleId", "appAppleId", "appleRoot"])
        (status, document) = try ask(refusing, request)
        XCTAssertEqual(status, .trustRefused)
        XCTAssertEqual(code(document), "request.trustRefused")

        let other = try forgedTransaction(bundleId: "x")
        var twoRoots = request
        twoRoots["roots"] = [Base64.encode(xcode.certificate.derBytes), other.root]
        (status, document) = try ask(reporting, twoRoots)
        XCTAssertEqual(status, .invalidRequest)
        XCTAssertEqual(code(document), "request.invalidMember")
        twoRoots["kind"] = "receipt"
        (status, document) = try ask(reporting, twoRoots)
        XCTAssertEqual(code(document), "request.invalidMember")
    }

    /// Attack: an attestation under a self-made App Attest root with `unpinnedTestRoot`; and the
    /// flag on an assertion, where it has no meaning.
    func testUnpinnedTestRootIsNamedOrRefused() throws {
        let pki = try AppleShapedAttestationPKI.generate(notBefore: Self.now - 86_400, notAfter: Self.now + 86_400)
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let clientDataHash = SHA256.hash(Array("challenge".utf8))
        let object = try pki.attestation(
            credentialKey: key.publicKey, appID: "ABCDE12345.com.victim.bank", clientDataHash: clientDataHash,
            notBefore: Self.now - 3600, notAfter: Self.now + 3600)
        let request: [String: Any] = [
            "kind": "attestation", "data": Base64.encode(object), "teamId": "ABCDE12345", "bundleId": "com.victim.bank",
            "clientDataHash": Base64.encode(clientDataHash), "roots": [Base64.encode(pki.root.derBytes)], "unpinnedTestRoot": true,
        ]
        var (status, document) = try ask(reporting, request)
        XCTAssertEqual(status, .verified, "\(document)")
        XCTAssertEqual(document["trust"] as? String, "unpinned-test-root")
        XCTAssertEqual((document["notEnforced"] as? [String])?.last, "appleRoot")
        (status, document) = try ask(refusing, request)
        XCTAssertEqual(code(document), "request.trustRefused")
        // Pinned (the flag left out): the self-made root is not the App Attest root.
        var pinned = request
        pinned["unpinnedTestRoot"] = nil
        (status, document) = try ask(reporting, pinned)
        XCTAssertEqual(status, .refused)
        // The flag without a root to trust, and on an assertion.
        var bare = request
        bare["roots"] = nil
        (status, document) = try ask(reporting, bare)
        XCTAssertEqual(code(document), "request.missingMember")
        let assertion: [String: Any] = [
            "kind": "assertion", "data": "AAAA", "teamId": "ABCDE12345", "bundleId": "com.victim.bank", "clientData": "AA==",
            "publicKey": Base64.encode(key.publicKey.uncompressedRepresentation), "unpinnedTestRoot": true,
        ]
        for service in [reporting, refusing] {
            (status, document) = try ask(service, assertion)
            XCTAssertEqual(code(document), "request.invalidMember")
        }
    }

    /// Attack: an expired chain revived by a validation time in the past (or a future one): the
    /// answer lists `at` once it is more than 60 s from the service's clock.
    func testAtFarFromNowIsListed() throws {
        let forged = try forgedTransaction(bundleId: "com.example.app")
        for (at, listed) in [(Self.now, false), (Self.now + 60, false), (Self.now - 61, true), (Self.now + 3600, true)] {
            let (status, document) = try ask(reporting, ["data": forged.jws, "roots": [forged.root], "at": at])
            XCTAssertEqual(status, .verified, "\(document)")
            XCTAssertEqual(
                document["notEnforced"] as? [String], ["bundleId", "appAppleId", "appleRoot"] + (listed ? ["at"] : []), "at \(at)")
        }
    }

    /// Attack: kind applepay through a door without merchant keys: answered
    /// `service.notConfigured`, nothing decrypted; trust members for applepay refused.
    func testApplePayWithoutConfigurationNeverDecrypts() throws {
        var (status, document) = try ask(reporting, ["kind": "applepay", "data": "{\"version\":\"EC_v1\"}"])
        XCTAssertEqual(status, .notConfigured)
        XCTAssertEqual(code(document), "service.notConfigured")
        (status, document) = try ask(reporting, ["kind": "applepay", "data": "{}", "roots": [try forgedTransaction(bundleId: "x").root]])
        XCTAssertEqual(code(document), "request.invalidMember")
    }

    /// Receipts and attestations without `roots` on a service whose roots directory lacks Apple's
    /// root: `service.notConfigured` (501), never verified under anything else.
    func testNoInstalledAppleRootIsNotConfigured() throws {
        let requests: [[String: Any]] = [
            ["kind": "receipt", "data": "AAAA"],
            ["kind": "attestation", "data": "AAAA", "teamId": "ABCDE12345", "bundleId": "com.victim.bank", "clientData": "AA=="],
        ]
        for request in requests {
            let (status, document) = try ask(refusing, request)
            XCTAssertEqual(status, .notConfigured, "\(document)")
            XCTAssertEqual(code(document), "service.notConfigured")
        }
    }

    // MARK: - Malformed documents

    /// Attacks on the parser and the decoder: each answered with its typed request error, by
    /// both services alike, with no member of the request echoed at length.
    func testMalformedDocumentsGetTypedErrors() throws {
        let oversized = Array("{\"data\": \"".utf8) + [UInt8](repeating: 0x41, count: VerificationRequest.maximumBytes) + Array("\"}".utf8)
        let deep = String(repeating: "{\"data\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        let cases: [(attack: String, request: [UInt8], code: String)] = [
            ("oversized request (4 MiB of data)", oversized, "request.tooLarge"),
            ("deep nesting (50,000 objects)", Array(deep.utf8), "request.invalidJSON"),
            ("duplicate member name (second data hidden)", Array("{\"data\": \"x\", \"data\": \"y\"}".utf8), "request.invalidJSON"),
            (
                "duplicate trust member (roots twice)", Array("{\"data\": \"x\", \"roots\": null, \"roots\": [\"AAAA\"]}".utf8),
                "request.invalidJSON"
            ),
            ("invalid UTF-8 in a string", Array("{\"data\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8), "request.invalidJSON"),
            ("invalid UTF-8 in a member name", Array("{\"".utf8) + [0xFF] + Array("\": 1}".utf8), "request.invalidJSON"),
            ("array document", Array("[{\"data\": \"x\"}]".utf8), "request.notAnObject"),
            ("string document", Array("\"data\"".utf8), "request.notAnObject"),
            ("truncated document", Array("{\"data\": \"x\", \"roots\": [".utf8), "request.invalidJSON"),
            ("trailing second document", Array("{\"data\": \"x\"} {\"roots\": []}".utf8), "request.invalidJSON"),
            ("unknown member (misspelt trust option)", Array("{\"data\": \"x\", \"trustedRoots\": []}".utf8), "request.unknownMember"),
            ("unknown member (a trust verdict)", Array("{\"data\": \"x\", \"trust\": \"apple\"}".utf8), "request.unknownMember"),
            ("wrong type: roots a string", Array("{\"data\": \"x\", \"roots\": \"AAAA\"}".utf8), "request.invalidMember"),
            (
                "wrong type: unpinnedTestRoot a string",
                Array("{\"kind\": \"attestation\", \"data\": \"x\", \"unpinnedTestRoot\": \"true\"}".utf8), "request.invalidMember"
            ),
            ("wrong type: at a string", Array("{\"data\": \"x\", \"at\": \"now\"}".utf8), "request.invalidMember"),
            (
                "too many roots (9)",
                Array("{\"data\": \"x\", \"roots\": [\(Array(repeating: "\"AAAA\"", count: 9).joined(separator: ","))]}".utf8),
                "request.invalidMember"
            ),
        ]
        for service in [reporting, refusing] {
            for (attack, request, expected) in cases {
                let answer = service.verify(json: request)
                let document = try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any] ?? [:]
                XCTAssertEqual(code(document), expected, "\(attack): \(answer.json.prefix(300))")
                XCTAssertEqual(answer.status, expected == "request.tooLarge" ? .tooLarge : .invalidRequest, attack)
                XCTAssertLessThan(answer.json.utf8.count, 2048, "\(attack): the answer does not echo the request")
            }
        }
    }
}
