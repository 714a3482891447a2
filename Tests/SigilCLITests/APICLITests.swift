import Foundation
import SigilTestSupport
import XCTest

/// `sigil api …` and `sigil siwa …` against the loopback stand-in for Apple's servers, which
/// refuses any request whose token (or client secret) does not verify with openssl.
final class APICLITests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: APICLITests.self).path
    }

    private func json(_ result: Subprocess.Result) throws -> Any {
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return try JSONSerialization.jsonObject(with: result.stdout)
    }

    func testAPIAndSignInWithAppleCommands() throws {
        guard let openssl = Subprocess.which("openssl") else {
            return XCTFail("openssl is not installed; the server checks tokens with it")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-api-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let p8 = dir.appendingPathComponent("key.p8").path
        let publicPEM = dir.appendingPathComponent("pub.pem").path
        XCTAssertEqual(try Subprocess.run(try sigil(), ["key", "generate", "--curve", "p256", "--out", p8]).status, 0)
        XCTAssertEqual(try Subprocess.run(openssl, ["pkey", "-in", p8, "-pubout", "-out", publicPEM]).status, 0)
        // The Sign in with Apple routes: an RSA key (openssl) and its JWKS, built by sigil itself
        // would be circular, so the JWK comes from openssl's modulus printout.
        let rsa = dir.appendingPathComponent("rsa.pem").path
        XCTAssertEqual(
            try Subprocess.run(openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", rsa]).status, 0)
        let modulusHex = try Subprocess.run(openssl, ["rsa", "-in", rsa, "-noout", "-modulus"]).stdoutString
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: "")
        let modulus = stride(from: 0, to: modulusHex.count, by: 2).map { i -> UInt8 in
            let start = modulusHex.index(modulusHex.startIndex, offsetBy: i)
            return UInt8(modulusHex[start..<modulusHex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        func b64url(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let jwks = dir.appendingPathComponent("jwks.json").path
        try Data(#"{"keys":[{"kty":"RSA","kid":"cli1","alg":"RS256","use":"sig","n":"\#(b64url(modulus))","e":"AQAB"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: jwks))
        let now = Int(Date().timeIntervalSince1970)
        let header = b64url(Array(#"{"alg":"RS256","kid":"cli1"}"#.utf8))
        let payload = b64url(
            Array(
                #"{"iss":"https://appleid.apple.com","aud":"com.example.web","sub":"user.1","iat":\#(now - 5),"exp":\#(now + 600),"email_verified":"true"}"#
                    .utf8))
        let signature = try Subprocess.run(openssl, ["dgst", "-sha256", "-sign", rsa], stdin: Data("\(header).\(payload)".utf8))
        let idToken = "\(header).\(payload).\(b64url(Array(signature.stdout)))"
        try Data(idToken.utf8).write(to: URL(fileURLWithPath: jwks + ".idtoken"))
        // A Sign in with Apple server notification as Apple POSTs it: events is a string of JSON.
        let events = #"{\"type\":\"consent-revoked\",\"sub\":\"user.1\",\"event_time\":\#(now * 1000 - 700)}"#
        let eventPayload = b64url(
            Array(
                #"{"iss":"https://appleid.apple.com","aud":"com.example.web","iat":\#(now - 5),"exp":\#(now + 86_400),"jti":"j-1","events":"\#(events)"}"#
                    .utf8))
        let eventSignature = try Subprocess.run(openssl, ["dgst", "-sha256", "-sign", rsa], stdin: Data("\(header).\(eventPayload)".utf8))
        let notificationBody = dir.appendingPathComponent("siwa-notification.json").path
        try Data(#"{"payload":"\#(header).\#(eventPayload).\#(b64url(Array(eventSignature.stdout)))"}"#.utf8)
            .write(to: URL(fileURLWithPath: notificationBody))

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SigilHTTPTests/Fixtures/apple_api_server.py")
        let server = try LoopbackScript(
            script: script, arguments: [publicPEM, "issuer-1", "com.example", jwks, "TEAM123456", "com.example.web"])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let common = [
            "api", "--key", p8, "--key-id", "KEY1", "--issuer-id", "issuer-1", "--bundle-id", "com.example", "--base-url", base,
            "--timeout", "5",
        ]

        let info = try json(try Subprocess.run(try sigil(), common + ["transaction-info", "1000"])) as? [String: Any]
        XCTAssertEqual(info?["signedTransactionInfo"] as? String, "signed-1000", "the server accepted the CLI's token")
        let pages =
            try json(try Subprocess.run(try sigil(), common + ["--all", "transaction-history", "1000", "productId=a", "sort=DESCENDING"]))
            as? [[String: Any]]
        XCTAssertEqual(pages?.flatMap { $0["signedTransactions"] as? [String] ?? [] }, ["t1", "t2", "t3"])
        let done = try json(try Subprocess.run(try sigil(), common + ["realtime-url-set", "https://example.com/rt"])) as? [String: Any]
        XCTAssertEqual(done?["status"] as? String, "ok")
        let url = try json(try Subprocess.run(try sigil(), common + ["realtime-url"])) as? [String: Any]
        XCTAssertEqual(url?["realtimeURL"] as? String, "https://example.com/rt")
        // DeviceCheck from the shell: the emulator checks the token (iss the team id) with openssl.
        let device = Data("cli-device".utf8).base64EncodedString()
        func deviceCheck(_ sub: String, _ extra: [String] = []) throws -> [String: Any]? {
            try json(
                try Subprocess.run(
                    try sigil(),
                    ["devicecheck", sub, "--key", p8, "--key-id", "KEY1", "--team-id", "TEAM123456", "--base-url", base, "--timeout", "5"]
                        + extra + [device])) as? [String: Any]
        }
        XCTAssertEqual(try deviceCheck("validate")?["valid"] as? Bool, true)
        XCTAssertEqual(try deviceCheck("query")?["found"] as? Bool, false)
        XCTAssertEqual(try deviceCheck("update", ["--bit0", "true", "--bit1", "false"])?["status"] as? String, "ok")
        let queried = try deviceCheck("query")
        XCTAssertEqual(queried?["bit0"] as? Bool, true)
        XCTAssertEqual(queried?["bit1"] as? Bool, false)
        let minted =
            try json(
                try Subprocess.run(
                    try sigil(), ["token", "devicecheck", "--key", p8, "--key-id", "KEY1", "--team-id", "TEAM123456", "--json"]))
            as? [String: Any]
        XCTAssertEqual((minted?["claims"] as? [String: Any])?["iss"] as? String, "TEAM123456")

        // An Advanced Commerce server call: the body file decoded strictly, the signed data printed.
        let revoke = dir.appendingPathComponent("revoke.json").path
        try Data(
            #"{"requestInfo":{"requestReferenceId":"2f6a1c7e-0d7b-4d55-9d0e-5b6a77c1e010"},"refundReason":"LEGAL","refundRiskingPreference":true,"refundType":"FULL"}"#
                .utf8
        ).write(to: URL(fileURLWithPath: revoke))
        let revoked =
            try json(try Subprocess.run(try sigil(), common + ["--body", revoke, "advanced-commerce-revoke", "2000000009"]))
            as? [String: Any]
        XCTAssertEqual(revoked?["signedTransactionInfo"] as? String, "ac-revoke-2000000009")
        XCTAssertEqual(revoked?["signedRenewalInfo"] as? String, "ac-renewal-2000000009")
        let report = dir.appendingPathComponent("report.json").path
        try Data(#"{"requestIdentifier":"1cdc286e-7389-417c-b58f-7a7d196e5bbe","externalPurchaseId":"tok","status":"NO_LINE_ITEM"}"#.utf8)
            .write(to: URL(fileURLWithPath: report))
        let sent = try json(try Subprocess.run(try sigil(), common + ["--body", report, "external-purchase-report"])) as? [String: Any]
        XCTAssertEqual(sent?["requestIdentifier"] as? String, "1cdc286e-7389-417c-b58f-7a7d196e5bbe")

        // Apple's error body → exit 1, {error: api.http404, message with the named code}.
        let missing = try Subprocess.run(try sigil(), common + ["transaction-info", "missing"])
        XCTAssertEqual(missing.status, 1)
        let failure = try JSONSerialization.jsonObject(with: missing.stderr) as? [String: Any]
        XCTAssertEqual(failure?["error"] as? String, "api.http404")
        XCTAssertTrue((failure?["message"] as? String ?? "").contains("4040010"))
        let usage = try Subprocess.run(try sigil(), common + ["no-such-endpoint"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: usage.stderr) as? [String: Any])?["error"] as? String, "usage")

        // sigil siwa token --code, with the id_token verified against the served JWKS.
        let siwa = [
            "siwa", "token", "--key", p8, "--key-id", "KEY1", "--team-id", "TEAM123456", "--client-id", "com.example.web", "--base-url",
            base,
        ]
        let exchanged = try json(try Subprocess.run(try sigil(), siwa + ["--code", "c-1", "--verify"])) as? [String: Any]
        XCTAssertEqual((exchanged?["response"] as? [String: Any])?["refresh_token"] as? String, "refresh-c-1")
        XCTAssertEqual((exchanged?["identity"] as? [String: Any])?["sub"] as? String, "user.1")
        let refreshed = try json(try Subprocess.run(try sigil(), siwa + ["--refresh-token", "refresh-c-1"])) as? [String: Any]
        XCTAssertEqual(refreshed?["access_token"] as? String, "access-refreshed")
        let expired = try Subprocess.run(try sigil(), siwa + ["--code", "expired-code"])
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: expired.stderr) as? [String: Any])?["error"] as? String, "siwa.invalid_grant")

        // sigil siwa verify-id-token, from a JWKS file and from the server's URL; a wrong client id fails.
        for source in [jwks, base + "/auth/keys"] {
            let verified =
                try json(
                    try Subprocess.run(
                        try sigil(), ["siwa", "verify-id-token", "--client-id", "com.example.web", "--jwks", source, idToken]))
                as? [String: Any]
            XCTAssertEqual(verified?["sub"] as? String, "user.1")
            XCTAssertEqual(verified?["email_verified"] as? Bool, true)
        }
        let wrongAudience = try Subprocess.run(
            try sigil(), ["siwa", "verify-id-token", "--client-id", "com.other", "--jwks", jwks, idToken])
        XCTAssertEqual(wrongAudience.status, 1)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: wrongAudience.stderr) as? [String: Any])?["error"] as? String, "jose.audienceMismatch")

        // sigil siwa notification verify: the POSTed body, keys from the server's URL; another client id fails.
        let event =
            try json(
                try Subprocess.run(
                    try sigil(),
                    ["siwa", "notification", "verify", "--client-id", "com.example.web", "--jwks", base + "/auth/keys", notificationBody]))
            as? [String: Any]
        XCTAssertEqual((event?["event"] as? [String: Any])?["type"] as? String, "consent-revoked")
        XCTAssertEqual((event?["event"] as? [String: Any])?["sub"] as? String, "user.1")
        XCTAssertEqual(event?["identity"] as? String, "jti:j-1")
        let otherClient = try Subprocess.run(
            try sigil(), ["siwa", "notification", "verify", "--client-id", "com.other", "--jwks", jwks, notificationBody])
        XCTAssertEqual(otherClient.status, 1)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: otherClient.stderr) as? [String: Any])?["error"] as? String, "jose.audienceMismatch")
    }
}

/// `sigil demo`, the README's main job: every step passes, offline, in seconds.
final class DemoCLITests: XCTestCase {
    func testDemoPassesEveryStep() throws {
        let sigil = try TestPaths.builtProduct("sigil", besideBundleOf: DemoCLITests.self).path
        let started = Date()
        let result = try Subprocess.run(sigil, ["demo", "--seconds", "0.05"])
        let output = result.stdoutString
        XCTAssertEqual(result.status, 0, output + String(decoding: result.stderr, as: UTF8.self))
        XCTAssertTrue(output.contains("ALL STEPS PASSED"), output)
        XCTAssertFalse(output.contains("[FAIL]"), output)
        for step in ["== 1.", "== 2.", "== 3.", "== 4.", "== 5.", "== 6.", "== 7.", "== 8."] { XCTAssertTrue(output.contains(step), step) }
        // With openssl installed (CI installs it) the OCSP step really ran against the loopback responder.
        if Subprocess.which("openssl") != nil { XCTAssertTrue(output.contains("leaf status good"), output) }
        // 43 checks: the App Store trace includes the identity step and the certificate verifier's
        // own six (two signatures, the basics, two policies, the path); the receipt step four (one
        // of them another app's receipt refused); App Attest has six.
        XCTAssertEqual(output.components(separatedBy: "[PASS]").count - 1, 43, "every check of the demo reported PASS")
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }
}
