import Foundation
import SigilASN1
import SigilCore
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// `sigil receipt show|transaction-id|verify|legacy` on the real receipts.
final class ReceiptCLITests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: ReceiptCLITests.self).path
    }

    private func json(_ result: Subprocess.Result) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stdoutString)
    }

    func testReceiptCommands() throws {
        let shared = try TestPaths.requireAppleVectors()
        let base = shared.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let production = base.appendingPathComponent("receipt-production").path
        let root = base.appendingPathComponent("AppleIncRootCertificate.cer").path

        let shown = try json(try Subprocess.run(try sigil(), ["receipt", "show", "--json", production]))
        XCTAssertEqual(shown["bundleId"] as? String, "org.getpure.pure-iphone")
        XCTAssertEqual(shown["creationDate"] as? String, "2024-02-23T17:27:16Z")
        XCTAssertEqual((shown["inApp"] as? [[String: Any]])?.count, 4)

        let first = try json(try Subprocess.run(try sigil(), ["receipt", "transaction-id", production]))
        XCTAssertEqual(first["transactionId"] as? String, "340001196262039")
        let last = try json(try Subprocess.run(try sigil(), ["receipt", "transaction-id", "--last", production]))
        XCTAssertEqual(last["transactionId"] as? String, "340001311555626")

        let verified = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root, production])
        XCTAssertEqual(verified.status, 0, verified.stdoutString)
        XCTAssertEqual((try json(verified)["chain"] as? [String])?.count, 3)
        // Later than the signer's validity: exit 1 with the reason; a wrong GUID: exit 1. Both
        // failures, on stderr in the one shape.
        let late = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root, "--at", "2030-01-01T00:00:00Z", production])
        XCTAssertEqual(late.status, 1)
        XCTAssertEqual(try assertFailureShape(late, "late")["error"] as? String, "pkcs7.signerNotValidAtTime")
        let guid = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root, "--guid", "00112233", production])
        XCTAssertEqual(guid.status, 1)
        XCTAssertEqual(try assertFailureShape(guid, "guid")["error"] as? String, "pkcs7.deviceMismatch")

        let legacy = try json(
            try Subprocess.run(
                try sigil(),
                [
                    "receipt", "legacy", "--json",
                    shared.appendingPathComponent(
                        "real/receipts/voltrue2-in-app-purchase/legacy-transaction-receipt-sandbox-2012-mindmob.b64"
                    ).path,
                ]))
        XCTAssertEqual(legacy["transactionId"] as? String, "1000000046178817")
        XCTAssertEqual(legacy["environment"] as? String, "Sandbox")
    }

    /// `sigil receipt verify --explain`: every step with its clause on stderr, the failing one marked.
    func testReceiptVerifyExplain() throws {
        let shared = try TestPaths.requireAppleVectors()
        let base = shared.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let production = base.appendingPathComponent("receipt-production").path
        let root = base.appendingPathComponent("AppleIncRootCertificate.cer").path
        let ok = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root, "--explain", production])
        XCTAssertEqual(ok.status, 0)
        let trace = String(decoding: ok.stderr, as: UTF8.self)
        // Every step, in the order it runs: the SignedData is parsed before its payload is read,
        // the time is chosen from the payload before the signer's chain is validated at it.
        var position = trace.startIndex
        for clause in [
            "RFC 5652 §5.1", "Apple: receipt fields", "RFC 5280 §6.1.1", "RFC 5652 §5.3", "RFC 5652 §5.4", "RFC 5652 §5.6",
            "RFC 5280 §6.1 (RFC 5280 + Apple receipt)",
        ] {
            guard let found = trace.range(of: clause, range: position..<trace.endIndex) else {
                return XCTFail("\(clause) missing or out of order in:\n\(trace)")
            }
            position = found.upperBound
        }
        XCTAssertTrue(trace.hasSuffix("verdict: VALID\n"), trace)
        XCTAssertFalse(trace.contains("[FAIL]"), trace)
        // The wrong root: the chain step fails and says so; the verdict names the error.
        let g3 = shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer").path
        let bad = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", g3, "--explain", production])
        XCTAssertEqual(bad.status, 1)
        let badTrace = String(decoding: bad.stderr, as: UTF8.self)
        XCTAssertTrue(badTrace.contains("[FAIL] signer chain"), badTrace)
        XCTAssertTrue(badTrace.contains("verdict: untrustedSigner"), badTrace)
    }

    /// `--format verify-receipt`: Apple's verifyReceipt body offline, its statuses, and in_app
    /// equal to what `sigil receipt show` reads.
    func testVerifyReceiptFormat() throws {
        let shared = try TestPaths.requireAppleVectors()
        let base = shared.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let root = base.appendingPathComponent("AppleIncRootCertificate.cer").path
        for (name, environment) in [("receipt-production", "production"), ("receipt-sandbox-g5", "sandbox")] {
            let file = base.appendingPathComponent(name).path
            let other = environment == "production" ? "sandbox" : "production"
            let ok = try Subprocess.run(
                try sigil(), ["receipt", "verify", "--root", root, "--format", "verify-receipt", "--endpoint", environment, file])
            XCTAssertEqual(ok.status, 0, ok.stdoutString)
            let body = try json(ok)
            XCTAssertEqual(body["status"] as? Int, 0)
            XCTAssertEqual(body["environment"] as? String, environment == "production" ? "Production" : "Sandbox")
            let inApp = try XCTUnwrap((body["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
            let shown = try XCTUnwrap(try json(try Subprocess.run(try sigil(), ["receipt", "show", file]))["inApp"] as? [[String: Any]])
            XCTAssertEqual(inApp.count, shown.count, name)
            for (mine, theirs) in zip(inApp, shown) {
                XCTAssertEqual(mine["transaction_id"] as? String, theirs["transactionId"] as? String, name)
                XCTAssertEqual(mine["original_transaction_id"] as? String, theirs["originalTransactionId"] as? String, name)
                XCTAssertEqual(mine["product_id"] as? String, theirs["productId"] as? String, name)
                XCTAssertEqual(mine["quantity"] as? String, (theirs["quantity"] as? Int).map(String.init), name)
            }
            let wrong = try Subprocess.run(
                try sigil(), ["receipt", "verify", "--root", root, "--format", "verify-receipt", "--endpoint", other, file])
            XCTAssertEqual(wrong.status, 1)
            XCTAssertEqual(try json(wrong)["status"] as? Int, environment == "production" ? 21008 : 21007, name)
        }
    }

    /// A receipt whose signer chains to the trusted root but lacks Apple's receipt-signing OID is
    /// refused by `sigil receipt verify` by default, with the typed failure and its rule; the
    /// relaxation is named (`--any-signer`).
    func testForgedSignerRefusedByDefault() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let (fake, fakeKey) = try pki.unmarkedLeaf(commonName: "Fake Receipt Signing", notBefore: now - 86_400, notAfter: now + 86_400)
        let payload = try AppReceiptBuilder(
            appItemID: 1, bundleID: "com.example", appVersion: "1", originalApplicationVersion: "1", creationDate: now,
            opaqueValue: [1], deviceGUID: [2], inAppPurchases: []
        ).payload()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-receipt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("root.der")
        try Data(pki.root.derBytes).write(to: root)
        func write(_ name: String, signer: Certificate, key: ECDSAPrivateKey) throws -> String {
            let url = dir.appendingPathComponent(name)
            try Data(
                try AppReceiptBuilder.signedData(
                    content: payload, signer: signer, signerKey: key, certificates: [signer, pki.intermediate])
            ).write(to: url)
            return url.path
        }
        let genuine = try write("genuine", signer: pki.leaf, key: pki.leafKey)
        let forged = try write("forged", signer: fake, key: fakeKey)
        XCTAssertEqual(try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root.path, genuine]).status, 0)
        let refused = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root.path, forged])
        XCTAssertEqual(refused.status, 1)
        let out = try assertFailureShape(refused, "forged")
        XCTAssertEqual(out["error"] as? String, "pkcs7.untrustedSigner")
        let failures = try XCTUnwrap(out["failures"] as? [[String: Any]], "\(out)")
        XCTAssertTrue(
            failures.contains {
                ($0["rule"] as? String) == "Apple receipt" && (($0["reason"] as? String) ?? "").contains("1.2.840.113635.100.6.11.1")
            },
            "\(failures)")
        let relaxed = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root.path, "--any-signer", forged])
        XCTAssertEqual(relaxed.status, 0, relaxed.stdoutString)
    }

    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-receipt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The real Xcode receipt (Apple's library's `xcode-app-receipt-with-transaction`) verifies
    /// through the documented Xcode path — `--xcode-certificate` with Xcode's StoreKit certificate,
    /// or by name the one it carries — and is refused without it; an Xcode-signed JWS verifies with
    /// `sigil verify --xcode-certificate` and Xcode's JWS certificate, not with another.
    func testXcodeReceiptAndJWSThroughTheXcodePath() throws {
        let shared = try TestPaths.requireAppleVectors()
        let xcodeData = shared.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/xcode")
        let receipt = xcodeData.appendingPathComponent("xcode-app-receipt-with-transaction").path
        let storeKit = shared.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt/xcode-local/StoreKitTestCertificate.cer").path
        let incRoot = shared.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt/AppleIncRootCertificate.cer").path
        let bundle = "com.example.naturelab.backyardbirds.example"

        let ok = try Subprocess.run(try sigil(), ["receipt", "verify", "--xcode-certificate", storeKit, "--bundle-id", bundle, receipt])
        XCTAssertEqual(ok.status, 0, ok.stdoutString)
        let out = try json(ok)
        XCTAssertEqual(out["trust"] as? String, "xcodeCertificate")
        XCTAssertEqual((out["chain"] as? [String])?.count, 1)
        XCTAssertEqual((out["identity"] as? [String: Any])?["enforced"] as? Bool, true)
        XCTAssertEqual((out["environment"] as? [String: Any])?["value"] as? String, "Xcode")
        let carried = try Subprocess.run(try sigil(), ["receipt", "verify", "--xcode-carried-certificate", receipt])
        XCTAssertEqual(carried.status, 0, carried.stdoutString)
        XCTAssertEqual(try json(carried)["trust"] as? String, "xcodeCarriedCertificate")
        // Refused without the Xcode path: Apple's receipt root, or Xcode's certificate as a plain
        // root without the relaxation.
        let appStore = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", incRoot, receipt])
        XCTAssertEqual(appStore.status, 1)
        XCTAssertEqual(try assertFailureShape(appStore, "appStore")["error"] as? String, "pkcs7.untrustedSigner")
        let plain = try Subprocess.run(
            try sigil(), ["receipt", "verify", "--root", storeKit, "--any-signer", "--environment", "xcode", receipt])
        XCTAssertEqual(plain.status, 1)
        XCTAssertEqual(try assertFailureShape(plain, "plain")["error"] as? String, "pkcs7.untrustedSigner")
        // Another bundle id: the typed identity error.
        let other = try Subprocess.run(
            try sigil(), ["receipt", "verify", "--xcode-certificate", storeKit, "--bundle-id", "com.example.other", receipt])
        XCTAssertEqual(other.status, 1)
        XCTAssertEqual(try assertFailureShape(other, "other")["error"] as? String, "pkcs7.invalidAppIdentifier")
        // Xcode's certificate is the only trust for Xcode receipts.
        let mixed = try Subprocess.run(try sigil(), ["receipt", "verify", "--xcode-certificate", storeKit, "--root", incRoot, receipt])
        XCTAssertNotEqual(mixed.status, 0)

        // The Xcode-signed JWS with Xcode's JWS certificate (the one its x5c holds, saved to a file).
        let appTransaction = xcodeData.appendingPathComponent("xcode-signed-app-transaction")
        let compact = try String(contentsOf: appTransaction, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var header = String(compact.split(separator: ".")[0]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        header += String(repeating: "=", count: (4 - header.count % 4) % 4)
        let headerJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(Data(base64Encoded: header))) as? [String: Any])
        let x5c = try XCTUnwrap((headerJSON["x5c"] as? [String])?.first)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jwsCertificate = dir.appendingPathComponent("xcode-jws.cer")
        try XCTUnwrap(Data(base64Encoded: x5c)).write(to: jwsCertificate)
        let jws = try Subprocess.run(
            try sigil(),
            ["verify", "--type", "app-transaction", "--xcode-certificate", jwsCertificate.path, "--bundle-id", bundle, appTransaction.path])
        XCTAssertEqual(jws.status, 0, String(decoding: jws.stderr, as: UTF8.self))
        let verification = try XCTUnwrap(try json(jws)["verification"] as? [String: Any])
        XCTAssertEqual(verification["trust"] as? String, "xcodeSelfSigned")
        let wrong = try Subprocess.run(
            try sigil(),
            ["verify", "--type", "app-transaction", "--xcode-certificate", storeKit, "--bundle-id", bundle, appTransaction.path])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(try assertFailureShape(wrong, "wrong Xcode certificate")["error"] as? String, "appstore.VERIFICATION_FAILURE")
    }

    /// App A's receipt from device D, checked for app B with D's GUID: `invalidAppIdentifier`;
    /// for A it verifies and the device hash matches; without --bundle-id the JSON says the bundle
    /// id was not enforced. The verifyReceipt format answers as Apple's endpoint without
    /// --bundle-id, 21003 with B's.
    func testAnotherAppsReceiptFromTheSameDevice() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let guid: [UInt8] = Array("device-D-guid-16".utf8)
        let hex = guid.map { String(format: "%02x", $0) }.joined()
        let payload = try AppReceiptBuilder(
            appItemID: 1, bundleID: "com.example.a", appVersion: "1", originalApplicationVersion: "1", creationDate: now,
            opaqueValue: [9, 8, 7], deviceGUID: guid
        ).payload()
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("root.der")
        try Data(pki.root.derBytes).write(to: root)
        let file = dir.appendingPathComponent("receipt")
        try Data(
            try AppReceiptBuilder.signedData(
                content: payload, signer: pki.leaf, signerKey: pki.leafKey, certificates: [pki.leaf, pki.intermediate])
        ).write(to: file)
        let base = ["receipt", "verify", "--root", root.path, "--guid", hex]

        let forB = try Subprocess.run(try sigil(), base + ["--bundle-id", "com.example.b", file.path])
        XCTAssertEqual(forB.status, 1)
        XCTAssertEqual(try assertFailureShape(forB, "forB")["error"] as? String, "pkcs7.invalidAppIdentifier")
        let forA = try Subprocess.run(try sigil(), base + ["--bundle-id", "com.example.a", "--environment", "sandbox", file.path])
        XCTAssertEqual(forA.status, 0, forA.stdoutString)
        XCTAssertEqual(try json(forA)["deviceHashMatches"] as? Bool, true)
        XCTAssertEqual((try json(forA)["identity"] as? [String: Any])?["enforced"] as? Bool, true)
        let reportOnly = try Subprocess.run(try sigil(), base + [file.path])
        XCTAssertEqual(reportOnly.status, 0, reportOnly.stdoutString)
        let identity = try XCTUnwrap(try json(reportOnly)["identity"] as? [String: Any])
        XCTAssertEqual(identity["enforced"] as? Bool, false)
        XCTAssertEqual(identity["bundleId"] as? String, "com.example.a")
        XCTAssertTrue((identity["note"] as? String ?? "").contains("not enforced"), "\(identity)")
        XCTAssertNotNil((try json(reportOnly)["environment"] as? [String: Any])?["note"])
        // An environment not accepted.
        let production = try Subprocess.run(try sigil(), base + ["--environment", "production", file.path])
        XCTAssertEqual(production.status, 1)
        XCTAssertEqual(try assertFailureShape(production, "production")["error"] as? String, "pkcs7.invalidEnvironment")
        // The verifyReceipt body: Apple's (no bundle id checked) without --bundle-id, 21003 with B's.
        let dropIn = ["receipt", "verify", "--root", root.path, "--format", "verify-receipt", "--endpoint", "sandbox"]
        let apple = try Subprocess.run(try sigil(), dropIn + [file.path])
        XCTAssertEqual(apple.status, 0, apple.stdoutString)
        XCTAssertEqual((try json(apple)["receipt"] as? [String: Any])?["bundle_id"] as? String, "com.example.a")
        let enforced = try Subprocess.run(try sigil(), dropIn + ["--bundle-id", "com.example.b", file.path])
        XCTAssertEqual(try json(enforced)["status"] as? Int, 21003)
    }

    /// A receipt of a test PKI whose certificates carry no key identifiers: refused, then verified
    /// with `--relax missing-key-identifiers` (the names of `sigil verify`).
    func testTestPKIWithoutKeyIdentifiers() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400, keyIdentifiers: false)
        let payload = try AppReceiptBuilder(
            bundleID: "com.example", appVersion: "1", originalApplicationVersion: "1", creationDate: now, opaqueValue: [1], deviceGUID: [2]
        ).payload()
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("root.der")
        try Data(pki.root.derBytes).write(to: root)
        let file = dir.appendingPathComponent("receipt")
        try Data(
            try AppReceiptBuilder.signedData(
                content: payload, signer: pki.leaf, signerKey: pki.leafKey, certificates: [pki.leaf, pki.intermediate])
        ).write(to: file)
        let strict = try Subprocess.run(try sigil(), ["receipt", "verify", "--root", root.path, "--bundle-id", "com.example", file.path])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(try assertFailureShape(strict, "strict")["error"] as? String, "pkcs7.untrustedSigner")
        let relaxed = try Subprocess.run(
            try sigil(),
            ["receipt", "verify", "--root", root.path, "--bundle-id", "com.example", "--relax", "missing-key-identifiers", file.path])
        XCTAssertEqual(relaxed.status, 0, relaxed.stdoutString)
    }
}
