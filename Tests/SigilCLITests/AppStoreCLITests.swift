import Foundation
import SigilTestSupport
import XCTest

/// `sigil token …`, `sigil jws decode`, `sigil verify` and `sigil external-purchase-token decode`.
final class AppStoreCLITests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: AppStoreCLITests.self).path
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    /// First use with no preparation: `sigil verify FILE` alone verifies Apple's real data against
    /// the built-in Apple Root CA - G3 and says so; a notification's nested data comes out verified
    /// and decoded. `sigil receipt verify FILE` names the root to install and the command, then
    /// verifies once `sigil roots install` has placed it; a file of another root is refused.
    func testFirstUseWithoutPreparation() throws {
        let shared = try TestPaths.requireAppleVectors()
        let roots = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-cli-roots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: roots) }
        let env = ["SIGIL_ROOTS": roots.path]
        let jws = shared.appendingPathComponent("real/jws/Doy-lee-session-pro-backend")

        let transaction = try Subprocess.run(
            try sigil(), ["verify", jws.appendingPathComponent("transaction-2000001024998954-20251001T070838.jws").path], environment: env)
        XCTAssertEqual(transaction.status, 0, String(decoding: transaction.stderr, as: UTF8.self))
        let verified = try json(transaction.stdout)
        let record = try XCTUnwrap(verified["verification"] as? [String: Any])
        let anchor = try XCTUnwrap(record["anchor"] as? [String: Any])
        XCTAssertEqual(anchor["appleRoot"] as? String, "Apple Root CA - G3")
        XCTAssertEqual(anchor["sha256"] as? String, "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        XCTAssertTrue((anchor["source"] as? String ?? "").hasPrefix("built in"))
        XCTAssertEqual((record["environment"] as? [String: Any])?["enforced"] as? Bool, false)
        XCTAssertEqual((record["identity"] as? [String: Any])?["enforced"] as? Bool, false)

        let notificationFile = jws.appendingPathComponent("notification-DID_RENEW-20251001T070838.jws").path
        let notification = try json(try Subprocess.run(try sigil(), ["verify", notificationFile], environment: env).stdout)
        let nested = try XCTUnwrap(notification["nested"] as? [String: Any])
        let nestedTransaction = try XCTUnwrap(nested["transaction"] as? [String: Any])
        XCTAssertEqual((nestedTransaction["payload"] as? [String: Any])?["transactionId"] as? String, "2000001024998954")
        XCTAssertEqual((nestedTransaction["verification"] as? [String: Any])?["trust"] as? String, "appleChain")
        // Each nested member under its kind's name, as `type` names the kinds.
        XCTAssertEqual(Set(nested.keys), ["transaction", "renewal-info"])
        let raw = try json(try Subprocess.run(try sigil(), ["verify", "--raw-nested", notificationFile], environment: env).stdout)
        XCTAssertNil(raw["nested"])
        XCTAssertNotNil(((raw["payload"] as? [String: Any])?["data"] as? [String: Any])?["signedTransactionInfo"] as? String)

        let receipts = shared.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let receipt = receipts.appendingPathComponent("receipt-production").path
        let before = try Subprocess.run(try sigil(), ["receipt", "verify", receipt], environment: env)
        XCTAssertEqual(before.status, 1)
        let missing = try json(before.stderr)
        XCTAssertEqual(missing["error"] as? String, "roots.missingRoot")
        XCTAssertTrue((missing["message"] as? String ?? "").contains("sigil roots install AppleIncRootCertificate.cer"))
        let pki = shared.appendingPathComponent("real/apple-pki")
        let refused = try Subprocess.run(
            try sigil(), ["roots", "install", pki.appendingPathComponent("AppleRootCA-G2.cer").path], environment: env)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try json(refused.stderr)["error"] as? String, "roots.unknownRoot")
        let installed = try Subprocess.run(
            try sigil(), ["roots", "install", pki.appendingPathComponent("AppleIncRootCertificate.cer").path], environment: env)
        XCTAssertEqual(installed.status, 0, String(decoding: installed.stderr, as: UTF8.self))
        for name in ["receipt-production", "receipt-sandbox-g5"] {
            let after = try Subprocess.run(
                try sigil(), ["receipt", "verify", receipts.appendingPathComponent(name).path], environment: env)
            XCTAssertEqual(after.status, 0, after.stdoutString)
            let result = try json(after.stdout)
            XCTAssertEqual(result["valid"] as? Bool, true)
            XCTAssertEqual((result["anchor"] as? [String: Any])?["appleRoot"] as? String, "Apple Inc. Root Certificate")
        }
        let listed = try json(try Subprocess.run(try sigil(), ["roots"], environment: env).stdout)
        let present = (listed["roots"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "")=\($0["present"] ?? "")" }
        XCTAssertEqual(present, ["Apple Root CA - G3=1", "Apple Inc. Root Certificate=1", "Apple App Attestation Root CA=0"])
    }

    func testVerifyRealSignedData() throws {
        let shared = try TestPaths.requireAppleVectors()
        let root = shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer").path
        let g2 = shared.appendingPathComponent("real/apple-pki/AppleRootCA-G2.cer").path
        let file = shared.appendingPathComponent("real/jws/Doy-lee-session-pro-backend/transaction-2000001024998954-20251001T070838.jws")
            .path
        let ok = try Subprocess.run(try sigil(), ["verify", "--root", root, "--bundle-id", "com.loki-project.loki-messenger", file])
        XCTAssertEqual(ok.status, 0, String(decoding: ok.stderr, as: UTF8.self))
        let out = try json(ok.stdout)
        XCTAssertEqual(out["type"] as? String, "transaction")
        XCTAssertEqual((out["payload"] as? [String: Any])?["transactionId"] as? String, "2000001024998954")
        XCTAssertEqual(((out["verification"] as? [String: Any])?["chain"] as? [String])?.count, 3)
        // Wrong root: exit 1 with the status on stderr; --explain lists the steps.
        let bad = try Subprocess.run(try sigil(), ["verify", "--root", g2, "--explain", file])
        XCTAssertEqual(bad.status, 1)
        let stderr = String(decoding: bad.stderr, as: UTF8.self)
        XCTAssertTrue(stderr.contains("VERIFICATION_FAILURE"), stderr)
        XCTAssertTrue(stderr.contains("RFC 5280"), stderr)
        // A notification body as Apple POSTs it, from standard input.
        let notification = try String(
            contentsOf: shared.appendingPathComponent("real/jws/Doy-lee-session-pro-backend/notification-TEST-20250905T012432.jws"),
            encoding: .utf8
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let body = Data(#"{"signedPayload":"\#(notification)"}"#.utf8)
        let viaStdin = try Subprocess.run(try sigil(), ["verify", "--root", root, "-"], stdin: body)
        XCTAssertEqual(viaStdin.status, 0, String(decoding: viaStdin.stderr, as: UTF8.self))
        XCTAssertEqual((try json(viaStdin.stdout)["payload"] as? [String: Any])?["notificationType"] as? String, "TEST")
        // jws decode says it verified nothing.
        let decoded = try json(try Subprocess.run(try sigil(), ["jws", "decode", file]).stdout)
        XCTAssertEqual(decoded["verified"] as? Bool, false)
        XCTAssertEqual((decoded["x5c"] as? [Any])?.count, 3)
    }

    /// LocalTesting data is unsigned: `sigil verify --environment LocalTesting` refuses it unless
    /// `--insecure-accept-unsigned` names the choice, and then reports the trust as unverified.
    func testLocalTestingNeedsTheInsecureFlag() throws {
        func part(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let payload = #"{"transactionId":"1","bundleId":"com.example","environment":"LocalTesting","signedDate":1700000000000}"#
        let jws = part(#"{"alg":"ES256"}"#) + "." + part(payload) + "." + part("not a signature")
        let refused = try Subprocess.run(
            try sigil(), ["verify", "--type", "transaction", "--environment", "LocalTesting", "-"], stdin: Data(jws.utf8))
        XCTAssertNotEqual(refused.status, 0)
        let refusal = String(decoding: refused.stderr, as: UTF8.self)
        XCTAssertTrue(refusal.contains("--insecure-accept-unsigned"), refusal)
        let accepted = try Subprocess.run(
            try sigil(), ["verify", "--type", "transaction", "--environment", "LocalTesting", "--insecure-accept-unsigned", "-"],
            stdin: Data(jws.utf8))
        XCTAssertEqual(accepted.status, 0, String(decoding: accepted.stderr, as: UTF8.self))
        XCTAssertEqual((try json(accepted.stdout)["verification"] as? [String: Any])?["trust"] as? String, "unverified")
        // Without --environment (Production or Sandbox), the same data must be signed: refused at its header.
        let defaulted = try Subprocess.run(try sigil(), ["verify", "--type", "transaction", "-"], stdin: Data(jws.utf8))
        XCTAssertEqual(defaulted.status, 1)
        let error = String(decoding: defaulted.stderr, as: UTF8.self)
        XCTAssertTrue(error.contains("INVALID_JWT_FORMAT"), error)
    }

    /// Without `--type` Sigil never guesses: every payload of Apple's test resources and the real data is
    /// classified as its own kind, or refused with AMBIGUOUS_PAYLOAD_KIND naming the kinds that
    /// fit (its own among them) — never verified as another kind. Without --bundle-id the payload's
    /// bundle id is reported with `"enforced": false`; with it, a wrong one fails.
    func testTypeAutoAndReportOnly() throws {
        let shared = try TestPaths.requireAppleVectors()
        let mock = shared.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/mock_signed_data")
        let testCA = shared.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/certs/testCA.der").path
        let appleRoot = shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer").path
        // Apple's library test root has no key identifiers and a non-critical basicConstraints.
        let relaxed = ["--relax", "missing-key-identifiers", "--relax", "noncritical-basic-constraints"]
        let doy = shared.appendingPathComponent("real/jws/Doy-lee-session-pro-backend")
        let cases: [(URL, String, String)] = [
            (mock.appendingPathComponent("testNotification"), "notification", testCA),
            (mock.appendingPathComponent("transactionInfo"), "transaction", testCA),
            (mock.appendingPathComponent("renewalInfo"), "renewal-info", testCA),
            (mock.appendingPathComponent("wrongBundleId"), "notification", testCA),
            (doy.appendingPathComponent("notification-DID_RENEW-20251001T070838.jws"), "notification", appleRoot),
            (doy.appendingPathComponent("transaction-2000001024998954-20251001T070838.jws"), "transaction", appleRoot),
            (doy.appendingPathComponent("renewalinfo-2000001024993299-20251001T070838.jws"), "renewal-info", appleRoot),
            (shared.appendingPathComponent("real/jws/awa-go-iap/sandbox-renewalinfo-2023-05-23.jws"), "renewal-info", appleRoot),
            (
                shared.appendingPathComponent("real/jws/mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws"),
                "transaction", appleRoot
            ),
        ]
        var classified = 0
        for (file, kind, root) in cases {
            let r = try Subprocess.run(
                try sigil(), ["verify", "--root", root, "--explain"] + (root == testCA ? relaxed : []) + [file.path])
            let label = "\(file.lastPathComponent) (\(kind))"
            let explained = String(decoding: r.stderr, as: UTF8.self)
            if explained.contains("\(kind): the only kind whose") {
                classified += 1
                // Classified: it verifies as that kind, or fails for a reason of its own (Apple's
                // wrongBundleId notification carries no environment), never as another kind.
                if r.status == 0 { XCTAssertEqual(try json(r.stdout)["type"] as? String, kind, label) }
                XCTAssertFalse(explained.contains("AMBIGUOUS_PAYLOAD_KIND"), label)
            } else {
                XCTAssertEqual(r.status, 1, label)
                XCTAssertTrue(explained.contains("AMBIGUOUS_PAYLOAD_KIND"), "\(label): \(explained)")
                XCTAssertTrue(explained.contains("could be") && explained.contains("--type \(kind)"), "\(label): \(explained)")
            }
            for other in ["transaction", "renewal-info", "notification", "app-transaction", "realtime"] where other != kind {
                XCTAssertFalse(
                    explained.contains("\(other): the only kind whose"), "\(label) taken for \(other)")
            }
        }
        XCTAssertGreaterThanOrEqual(classified, cases.count - 1, "only payloads without a distinguishing member may be refused")
        // Apple's renewalInfo resource carries only environment and signedDate: refused, not taken for a transaction.
        let renewal = try Subprocess.run(
            try sigil(), ["verify", "--root", testCA] + relaxed + [mock.appendingPathComponent("renewalInfo").path])
        XCTAssertEqual(renewal.status, 1)
        XCTAssertTrue(String(decoding: renewal.stderr, as: UTF8.self).contains("renewal-info"))
        let named = try Subprocess.run(
            try sigil(),
            ["verify", "--root", testCA, "--type", "renewal-info"] + relaxed + [mock.appendingPathComponent("renewalInfo").path])
        XCTAssertEqual(named.status, 0, String(decoding: named.stderr, as: UTF8.self))
        // Without --relax the test root is refused: no silent acceptance.
        let strict = try Subprocess.run(
            try sigil(), ["verify", "--root", testCA, "--type", "renewal-info", mock.appendingPathComponent("renewalInfo").path])
        XCTAssertEqual(strict.status, 1, String(decoding: strict.stderr, as: UTF8.self))

        // Report-only output names the bundle id it did not enforce; --bundle-id enforces it.
        let transaction = doy.appendingPathComponent("transaction-2000001024998954-20251001T070838.jws").path
        let reported = try json(try Subprocess.run(try sigil(), ["verify", "--root", appleRoot, transaction]).stdout)
        let identity = try XCTUnwrap((reported["verification"] as? [String: Any])?["identity"] as? [String: Any])
        XCTAssertEqual(identity["bundleId"] as? String, "com.loki-project.loki-messenger")
        XCTAssertEqual(identity["enforced"] as? Bool, false)
        XCTAssertNotNil(identity["note"])
        let wrong = try Subprocess.run(try sigil(), ["verify", "--root", appleRoot, "--bundle-id", "com.example.other", transaction])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(try assertFailureShape(wrong, "wrong bundle id")["error"] as? String, "appstore.INVALID_APP_IDENTIFIER")
        // Production with the bundle id enforced needs the app Apple id: the library's own code,
        // and the hint names the option.
        let noAppId = try Subprocess.run(
            try sigil(), ["verify", "--root", appleRoot, "--bundle-id", "com.example", "--environment", "Production", transaction])
        let report = try assertFailureShape(noAppId, "no app Apple id")
        XCTAssertEqual(report["error"] as? String, "appstore.APP_APPLE_ID_REQUIRED")
        XCTAssertTrue((report["hint"] as? String ?? "").contains("--app-apple-id"), "\(report)")
        // `auto` is no kind: leaving --type out is how the kind is told by the payload.
        let auto = try Subprocess.run(try sigil(), ["verify", "--root", appleRoot, "--type", "auto", transaction])
        XCTAssertEqual(try assertFailureShape(auto, "--type auto")["error"] as? String, "usage")
    }

    func testTokensAndExternalPurchaseToken() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let keyPath = dir.appendingPathComponent("AuthKey.p8").path
        let generated = try Subprocess.run(try sigil(), ["key", "generate", "--curve", "p256", "--out", keyPath])
        XCTAssertEqual(generated.status, 0, String(decoding: generated.stderr, as: UTF8.self))
        let token = try Subprocess.run(
            try sigil(),
            [
                "token", "app-store", "--key", keyPath, "--key-id", "KID", "--issuer-id", "iss",
                "--bundle-id", "com.example", "--issued-at", "1760000000", "--json",
            ])
        XCTAssertEqual(token.status, 0, String(decoding: token.stderr, as: UTF8.self))
        let claims = try XCTUnwrap(try json(token.stdout)["claims"] as? [String: Any])
        XCTAssertEqual(claims["aud"] as? String, "appstoreconnect-v1")
        XCTAssertEqual(claims["exp"] as? Int, 1_760_000_300)
        let tooLong = try Subprocess.run(
            try sigil(),
            [
                "token", "app-store", "--key", keyPath, "--key-id", "KID", "--issuer-id", "iss",
                "--bundle-id", "com.example", "--ttl", "3601",
            ])
        XCTAssertEqual(tooLong.status, 1)
        XCTAssertEqual(try json(tooLong.stderr)["error"] as? String, "tokens.invalidConfiguration")
        for args in [
            ["sign-in-with-apple", "--team-id", "T", "--client-id", "c"], ["reader", "--brand-id", "b", "--reader-id", "r"],
            ["external-purchase", "--issuer-id", "i", "--bundle-id", "b"],
            ["promotional-offer", "--version", "2", "--issuer-id", "i", "--bundle-id", "b", "--product-id", "p", "--offer-id", "o"],
            ["promotional-offer", "--version", "1", "--bundle-id", "b", "--product-id", "p", "--offer-id", "o"],
        ] {
            let r = try Subprocess.run(try sigil(), ["token"] + args + ["--key", keyPath, "--key-id", "KID"])
            XCTAssertEqual(r.status, 0, "\(args): \(String(decoding: r.stderr, as: UTF8.self))")
        }
        let epToken =
            "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MDYxNjk2MDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzA2MTczMjAwMDAwfQo="
        let decoded = try json(try Subprocess.run(try sigil(), ["external-purchase-token", "decode", epToken]).stdout)
        XCTAssertEqual(decoded["environment"] as? String, "Sandbox")
        XCTAssertEqual(decoded["tokenType"] as? String, "SERVICES")
        let strict = try Subprocess.run(try sigil(), ["external-purchase-token", "decode", "--strict", epToken])
        XCTAssertEqual(strict.status, 1)
    }
}
