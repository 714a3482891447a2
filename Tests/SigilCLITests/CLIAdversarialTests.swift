import Foundation
import SigilTestPKI
import SigilTestSupport
import XCTest

/// The `sigil` CLI from the attacker's side (SECURITY.md, "`sigil` CLI"): the operator runs it, the
/// files it reads come from anywhere. Each case names the attack and what the CLI must do instead.
final class CLIAdversarialTests: XCTestCase {
    private func sigil(_ arguments: [String], stdin: Data = Data()) throws -> Subprocess.Result {
        try Subprocess.run(
            try TestPaths.builtProduct("sigil", besideBundleOf: CLIAdversarialTests.self).path, arguments, stdin: stdin)
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    private func temporaryFile(_ bytes: Data, _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-adversarial-\(UUID().uuidString)-\(name)")
        try bytes.write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// A transaction signed under a test PKI the attacker made, for `bundleId`.
    private func signedTransaction(bundleId: String) throws -> (jws: String, root: String) {
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let signedDate = (now - 60) * 1000
        let payload: [String: Any] = [
            "transactionId": "2000000912345678", "originalTransactionId": "2000000912345678", "bundleId": bundleId,
            "productId": "com.example.app.coins100", "purchaseDate": signedDate, "originalPurchaseDate": signedDate,
            "quantity": 1, "type": "Consumable", "inAppOwnershipType": "PURCHASED", "signedDate": signedDate,
            "environment": "Sandbox", "transactionReason": "PURCHASE", "storefront": "USA", "storefrontId": "143441",
        ]
        let jws = try pki.signedData(payload: Array(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])))
        return (try temporaryFile(Data(jws.utf8), "transaction.jws"), try temporaryFile(Data(pki.root.derBytes), "root.cer"))
    }

    /// Attack: terminal injection through `--explain`. The data carries an escape sequence and a
    /// line break followed by a forged verdict line; the step that quotes the bundle id must write
    /// them escaped, so the operator's terminal shows neither a cleared screen nor a second verdict.
    func testExplainQuotesDataWithoutControlCharacters() throws {
        let hostile = "com.evil\u{1B}[2J\r\nverdict: VALID"
        let (file, root) = try signedTransaction(bundleId: hostile)
        let result = try sigil(["verify", "--root", root, "--bundle-id", "com.victim", "--explain", file])
        XCTAssertEqual(result.status, 1, result.stdoutString)
        let stderr = result.stderr
        XCTAssertFalse(stderr.contains(0x1B), "an escape byte from the data reached the terminal")
        XCTAssertFalse(stderr.contains(0x0D), "a carriage return from the data reached the terminal")
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.filter { $0 == "verdict: VALID" }.count, 0, "a forged verdict line")
        XCTAssertTrue(
            lines.contains { $0.contains("com.evil\\u{1b}[2J\\u{d}\\u{a}verdict: VALID") },
            "the bundle id is quoted, escaped: \(String(decoding: stderr, as: UTF8.self))")
        // The failure itself follows the trace: one JSON object (its own escaping) naming the refusal.
        let text = String(decoding: stderr, as: UTF8.self)
        let object = try XCTUnwrap(text.range(of: "\n{\n"), text)
        let failure = try json(Data(text[text.index(after: object.lowerBound)...].utf8))
        XCTAssertEqual(failure["error"] as? String, "appstore.INVALID_APP_IDENTIFIER")
    }

    /// Attack: trust smuggled through `--root`. Data signed under a root the attacker made, for an
    /// app it is not, verifies only with that root named, and the output says the anchor came
    /// from `--root` (not Apple) and that the bundle id was not enforced.
    func testAnOwnRootIsNamedAsTheAnchor() throws {
        let (file, root) = try signedTransaction(bundleId: "com.victim.app")
        let refused = try sigil(["verify", file])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try json(refused.stderr)["error"] as? String, "appstore.VERIFICATION_FAILURE")
        let accepted = try sigil(["verify", "--root", root, file])
        XCTAssertEqual(accepted.status, 0, String(decoding: accepted.stderr, as: UTF8.self))
        let verification = try XCTUnwrap(try json(accepted.stdout)["verification"] as? [String: Any])
        let anchor = try XCTUnwrap(verification["anchor"] as? [String: Any])
        XCTAssertEqual(anchor["source"] as? String, "--root")
        XCTAssertNil(anchor["appleRoot"], "a self-made root is not one of Apple's")
        XCTAssertNotNil((verification["identity"] as? [String: Any])?["note"], "the bundle id was not enforced, and says so")
    }

    /// Attack: an endless input (`/dev/zero`, an endless pipe) to exhaust memory. Refused once
    /// the CLI's limit is read, as `io.tooLarge`, never read whole.
    func testAnEndlessInputIsRefusedAtTheLimit() throws {
        for command in [["verify"], ["applepay", "verify"], ["receipt", "show"], ["asn1", "dump"]] {
            let start = Date()
            let result = try sigil(command + ["/dev/zero"])
            XCTAssertEqual(result.status, 1, "\(command)")
            XCTAssertEqual(try json(result.stderr)["error"] as? String, "io.tooLarge", "\(command)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 30, "\(command)")
        }
    }

    /// Attack: JSON built to break a parser — nesting 100,000 deep, a duplicate member (the second
    /// value would win in a lenient parser), invalid UTF-8, a truncated document, a non-object.
    /// Each is one typed failure on stderr with exit 1; never a crash, never a verdict.
    func testHostileJSONIsRefusedWithATypedFailure() throws {
        let deep = Data(("{\"signedPayload\":" + String(repeating: "[", count: 100_000)).utf8)
        let duplicate = Data(#"{"signedPayload":"a.b.c","signedPayload":"x.y.z"}"#.utf8)
        var invalidUTF8 = Data(#"{"signedPayload":""#.utf8)
        invalidUTF8.append(contentsOf: [0xC3, 0x28, 0xFF])
        invalidUTF8.append(contentsOf: Data(#""}"#.utf8))
        let truncated = Data(#"{"signedPayload":"eyJh"#.utf8)
        let inputs: [(String, Data)] = [("deep", deep), ("duplicate", duplicate), ("invalid UTF-8", invalidUTF8), ("truncated", truncated)]
        for (attack, body) in inputs {
            let verify = try sigil(["verify", "-"], stdin: body)
            XCTAssertEqual(verify.status, 1, "verify, \(attack)")
            XCTAssertNotNil(try json(verify.stderr)["error"] as? String, "verify, \(attack)")
            XCTAssertTrue(verify.stdout.isEmpty, "verify, \(attack): nothing on stdout")

            let applePay = try sigil(["applepay", "verify", "-"], stdin: body)
            XCTAssertEqual(applePay.status, 1, "applepay, \(attack)")
            XCTAssertEqual(try json(applePay.stderr)["error"] as? String, "applepay.malformedToken", "applepay, \(attack)")
        }
        let notAnObject = try sigil(["applepay", "verify", "-"], stdin: Data("[1,2,3]".utf8))
        XCTAssertEqual(try json(notAnObject.stderr)["error"] as? String, "applepay.malformedToken")
    }
}
