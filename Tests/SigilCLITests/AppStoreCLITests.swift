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
        XCTAssertEqual(try json(tooLong.stderr)["error"] as? String, "INVALID_CONFIGURATION")
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
