import Foundation
import SigilASN1
import SigilCBOR
import SigilCore
import SigilKeys
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// `sigil appattest attestation|assertion|receipt` on Apple's sample (read through
/// `Scripts/vectors-dir appattest`) and on the in-memory App Attest PKI.
final class AppAttestCLITests: XCTestCase {
    private func sigil(_ arguments: [String], stdin: Data = Data()) throws -> Subprocess.Result {
        try Subprocess.run(try TestPaths.builtProduct("sigil", besideBundleOf: AppAttestCLITests.self).path, arguments, stdin: stdin)
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    private func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sigil-appattest-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testAppleSampleAttestationAndReceipt() throws {
        let folder = try TestPaths.requireAppAttestVectors()
        let object = folder.appendingPathComponent("apple-guide-attestation.cbor").path
        let root = folder.appendingPathComponent("Apple_App_Attestation_Root_CA.pem").path
        let challengeHex = Hex.encode(Array("example_server_challenge".utf8))
        let common = ["--team-id", "1234567890", "--bundle-id", "com.example.myapp", "--root", root, "--at", "2026-04-21T00:00:00Z"]

        let verified = try sigil(["appattest", "attestation"] + common + ["--client-data-hash", challengeHex, "--explain", object])
        XCTAssertEqual(verified.status, 0, String(decoding: verified.stderr, as: UTF8.self))
        let out = try json(verified.stdout)
        XCTAssertEqual(out["keyId"] as? String, "zgSY9YSD+7TaDXssY6WlOPVS1K3Lmk+pFhlcSWE+ZV0=")
        XCTAssertEqual(out["environment"] as? String, "production")
        XCTAssertEqual(out["counter"] as? Int, 0)
        XCTAssertEqual(out["appId"] as? String, "1234567890.com.example.myapp")
        XCTAssertEqual((out["extensions"] as? [String: Any])?["validationCategory"] as? Int, 1)
        XCTAssertEqual((out["extensions"] as? [String: Any])?["bundleVersion"] as? String, "1")
        XCTAssertEqual((out["receipt"] as? [String: Any])?["receiptType"] as? String, "ATTEST")
        // Receipt times print as signed, their milliseconds kept.
        XCTAssertEqual((out["receipt"] as? [String: Any])?["creationTime"] as? String, "2026-04-21T18:13:12.153Z")
        XCTAssertEqual((out["policy"] as? [String: Any])?["enforced"] as? Bool, false)
        XCTAssertEqual((out["authenticatorData"] as? [String: Any])?["form"] as? String, "attestation")
        // A policy that accepts only App Store builds refuses Apple's sample (category 1, platform).
        let storeOnly = try sigil(
            ["appattest", "attestation"] + common
                + ["--client-data-hash", challengeHex, "--allow-category", "app-store", "--when-absent", "accept", object])
        XCTAssertEqual(storeOnly.status, 1)
        XCTAssertEqual(try json(storeOnly.stderr)["error"] as? String, "appattest.policyNotMet")
        let platform = try sigil(
            ["appattest", "attestation"] + common
                + [
                    "--client-data-hash", challengeHex, "--allow-category", "platform", "--allow-category", "4", "--when-absent", "refuse",
                    object,
                ])
        XCTAssertEqual(platform.status, 0, String(decoding: platform.stderr, as: UTF8.self))
        XCTAssertEqual((try json(platform.stdout)["policy"] as? [String: Any])?["enforced"] as? Bool, true)
        let noAbsentChoice = try sigil(
            ["appattest", "attestation"] + common + ["--client-data-hash", challengeHex, "--allow-category", "platform", object])
        XCTAssertEqual(try json(noAbsentChoice.stderr)["error"] as? String, "usage")
        XCTAssertEqual((out["certificate"] as? [String: Any])?["appId"] as? String, "1234567890.com.example.myapp")
        let explained = String(decoding: verified.stderr, as: UTF8.self)
        XCTAssertTrue(explained.contains("attestation step 9"), explained)
        XCTAssertTrue(explained.contains("verdict: VALID"), explained)

        // The base64 text on standard input gives the same key.
        let base64 = try Data(contentsOf: folder.appendingPathComponent("apple-guide-attestation.b64"))
        let fromStdin = try sigil(["appattest", "attestation"] + common + ["--client-data-hash", challengeHex, "-"], stdin: base64)
        XCTAssertEqual(try json(fromStdin.stdout)["keyId"] as? String, "zgSY9YSD+7TaDXssY6WlOPVS1K3Lmk+pFhlcSWE+ZV0=")

        // Refusals: exit 1, {"error": "appattest.<code>", "message": the step}.
        let hashed = try sigil(["appattest", "attestation"] + common + ["--client-data", "example_server_challenge", object])
        XCTAssertEqual(hashed.status, 1)
        XCTAssertEqual(try json(hashed.stderr)["error"] as? String, "appattest.nonceMismatch")
        XCTAssertTrue((try json(hashed.stderr)["message"] as? String)?.contains("step 4") ?? false)
        let development = try sigil(
            ["appattest", "attestation"] + common + ["--client-data-hash", challengeHex, "--environment", "development", object])
        XCTAssertEqual(try json(development.stderr)["error"] as? String, "appattest.environmentMismatch")
        let late = try sigil(
            [
                "appattest", "attestation", "--team-id", "1234567890", "--bundle-id", "com.example.myapp", "--root", root, "--at",
                "2026-05-01T00:00:00Z",
                "--client-data-hash", challengeHex, object,
            ])
        XCTAssertEqual(try json(late.stderr)["error"] as? String, "appattest.certificateNotValidAtTime")
        let apple = try TestPaths.requireAppleVectors()
        let g3 = apple.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer").path
        let wrongRoot = try sigil(
            ["appattest", "attestation", "--team-id", "1", "--bundle-id", "b", "--root", g3, "--client-data-hash", challengeHex, object])
        XCTAssertEqual(try json(wrongRoot.stderr)["error"] as? String, "appattest.rootNotPinned")

        // The receipt inside, verified to Apple Root CA - G3 at its creation time.
        let value = try CBOR.decode(Array(try Data(contentsOf: URL(fileURLWithPath: object))))
        let receipt = try temporary("receipt", try XCTUnwrap(value["attStmt"]?["receipt"]?.bytesValue))
        let checked = try sigil([
            "appattest", "receipt", "--root", g3, "--team-id", "1234567890", "--bundle-id", "com.example.myapp", receipt,
        ])
        XCTAssertEqual(checked.status, 0, String(decoding: checked.stderr, as: UTF8.self))
        let fields = try json(checked.stdout)
        XCTAssertEqual(fields["receiptType"] as? String, "ATTEST")
        XCTAssertEqual(fields["environment"] as? String, "production")
        XCTAssertEqual(fields["time"] as? String, "2026-04-21T18:13:12Z")
        XCTAssertEqual((fields["chain"] as? [String])?.count, 3)
        let otherApp = try sigil(["appattest", "receipt", "--root", g3, "--team-id", "1234567890", "--bundle-id", "com.other", receipt])
        XCTAssertEqual(try json(otherApp.stderr)["error"] as? String, "appattest.receiptAppIDMismatch")
        let untrusted = try sigil([
            "appattest", "receipt", "--root", root, "--team-id", "1234567890", "--bundle-id", "com.example.myapp", receipt,
        ])
        XCTAssertEqual(try json(untrusted.stderr)["error"] as? String, "appattest.receiptNotTrusted")

        // Without --root: the receipt is checked against the built-in Apple Root CA - G3, the
        // attestation against the installed App Attestation root — missing until `sigil roots install`.
        let roots = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-appattest-roots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: roots) }
        let sigilPath = try TestPaths.builtProduct("sigil", besideBundleOf: AppAttestCLITests.self).path
        let env = ["SIGIL_ROOTS": roots.path]
        let builtIn = try Subprocess.run(
            sigilPath, ["appattest", "receipt", "--team-id", "1234567890", "--bundle-id", "com.example.myapp", receipt], environment: env)
        // The App ID is required: a verifier is built for one app.
        let noAppID = try Subprocess.run(sigilPath, ["appattest", "receipt", receipt], environment: env)
        XCTAssertNotEqual(noAppID.status, 0)
        XCTAssertTrue(
            String(decoding: noAppID.stderr, as: UTF8.self).contains("--team-id"), String(decoding: noAppID.stderr, as: UTF8.self))
        XCTAssertEqual(builtIn.status, 0, String(decoding: builtIn.stderr, as: UTF8.self))
        let noRoot = [
            "appattest", "attestation", "--team-id", "1234567890", "--bundle-id", "com.example.myapp", "--at", "2026-04-21T00:00:00Z",
        ]
        let missing = try Subprocess.run(sigilPath, noRoot + ["--client-data-hash", challengeHex, object], environment: env)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(try json(missing.stderr)["error"] as? String, "roots.missingRoot")
        XCTAssertTrue(
            (try json(missing.stderr)["message"] as? String ?? "").contains("sigil roots install Apple_App_Attestation_Root_CA.pem"))
        XCTAssertEqual(try Subprocess.run(sigilPath, ["roots", "install", root], environment: env).status, 0)
        let installed = try Subprocess.run(sigilPath, noRoot + ["--client-data-hash", challengeHex, object], environment: env)
        XCTAssertEqual(installed.status, 0, String(decoding: installed.stderr, as: UTF8.self))
        XCTAssertEqual(try json(installed.stdout)["keyId"] as? String, "zgSY9YSD+7TaDXssY6WlOPVS1K3Lmk+pFhlcSWE+ZV0=")
    }

    /// Every real device's assertion (AT set, 37 bytes) verifies through the CLI with the inputs of
    /// its case in cases.json, and is refused with the counter it carries as the stored one.
    func testRealDeviceAssertions() throws {
        let folder = try TestPaths.requireAppAttestVectors().appendingPathComponent("real-devices")
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("cases.json"))) as? [String: Any])
        let cases = try XCTUnwrap(document["cases"] as? [[String: Any]]).filter { $0["assertion"] is String }
        // Every assertion file on disk has its case.
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
            ($0 as NSString).lastPathComponent.hasPrefix("assertion")
        }
        XCTAssertEqual(Set(cases.compactMap { $0["assertion"] as? String }), Set(files))
        XCTAssertGreaterThanOrEqual(cases.count, 11)
        for entry in cases {
            let file = folder.appendingPathComponent(try XCTUnwrap(entry["assertion"] as? String)).path
            let appID = try XCTUnwrap(entry["appId"] as? String)
            let dot = try XCTUnwrap(appID.firstIndex(of: "."))
            let key = try XCTUnwrap(entry["credentialPublicKeyX962"] as? String)
            let counter = try XCTUnwrap(entry["counter"] as? Int)
            let common = [
                "--public-key", key, "--team-id", String(appID[..<dot]), "--bundle-id", String(appID[appID.index(after: dot)...]),
                "--client-data-hash", try XCTUnwrap(entry["assertionClientDataHash"] as? String),
            ]
            let accepted = try sigil(["appattest", "assertion"] + common + ["--previous-counter", String(counter - 1), file])
            XCTAssertEqual(accepted.status, 0, "\(file): " + String(decoding: accepted.stderr, as: UTF8.self))
            let out = try json(accepted.stdout)
            XCTAssertEqual(out["counter"] as? Int, counter, file)
            let authData = try XCTUnwrap(out["authenticatorData"] as? [String: Any])
            XCTAssertEqual(authData["length"] as? Int, 37, file)
            XCTAssertEqual(authData["flags"] as? String, "0x40", file)
            XCTAssertEqual(authData["attestedCredentialDataFlag"] as? Bool, true, file)
            let replayed = try sigil(["appattest", "assertion"] + common + ["--previous-counter", String(counter), file])
            XCTAssertEqual(try json(replayed.stderr)["error"] as? String, "appattest.counterNotIncreasing", file)
        }
    }

    func testAssertion() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let clientData = #"{"challenge":"c1","action":"buy"}"#
        let assertion = try temporary(
            "assertion",
            AppleShapedAttestationPKI.assertion(
                key: key, appID: "ABCDE12345.com.example.sigil", counter: 0x8000_0005, clientDataHash: SHA256.hash(Array(clientData.utf8))))
        let pem = try temporary("key.pem", Array(PEMDocument(label: "PUBLIC KEY", derBytes: key.publicKey.spkiDER).pemString.utf8))
        let common = ["--team-id", "ABCDE12345", "--bundle-id", "com.example.sigil", "--client-data", clientData]
        let accepted = try sigil(
            ["appattest", "assertion", "--public-key", pem, "--previous-counter", "2147483648"] + common + [assertion])
        XCTAssertEqual(accepted.status, 0, String(decoding: accepted.stderr, as: UTF8.self))
        XCTAssertEqual(try json(accepted.stdout)["counter"] as? Int, 0x8000_0005)
        let hex = try sigil(
            ["appattest", "assertion", "--public-key", Hex.encode(key.publicKey.uncompressedRepresentation)] + common + [assertion])
        XCTAssertEqual(try json(hex.stdout)["counter"] as? Int, 0x8000_0005)
        let replay = try sigil(["appattest", "assertion", "--public-key", pem, "--previous-counter", "2147483653"] + common + [assertion])
        XCTAssertEqual(replay.status, 1)
        XCTAssertEqual(try json(replay.stderr)["error"] as? String, "appattest.counterNotIncreasing")
        let otherData = try sigil(
            [
                "appattest", "assertion", "--public-key", pem, "--team-id", "ABCDE12345", "--bundle-id", "com.example.sigil",
                "--client-data", "x", assertion,
            ])
        XCTAssertEqual(try json(otherData.stderr)["error"] as? String, "appattest.invalidSignature")
        let usage = try sigil(["appattest", "assertion", "--public-key", pem, "--team-id", "A", "--bundle-id", "B", assertion])
        XCTAssertEqual(try json(usage.stderr)["error"] as? String, "usage")
    }
}
