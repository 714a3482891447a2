import Foundation
import SigilTestSupport
import XCTest

/// `sigil x509 show` and `sigil x509 verify` end to end on Apple's real certificates.
final class X509CLITests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: X509CLITests.self).path
    }

    func testShowAndVerify() throws {
        let shared = try TestPaths.requireAppleVectors()
        let root = shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer").path
        let g6 = shared.appendingPathComponent("real/apple-pki/AppleWWDRCAG6.cer").path
        let leaf = shared.appendingPathComponent("real/from-apple-library-tests/receipt-signing-leaf-2025-serial-47c287cd.der").path

        let shown = try Subprocess.run(try sigil(), ["x509", "show", "--json", g6, leaf])
        XCTAssertEqual(shown.status, 0)
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: shown.stdout) as? [[String: Any]])
        XCTAssertEqual(objects.count, 2)
        let first = objects[0]
        for key in [
            "version", "serial", "signatureAlgorithm", "issuer", "subject", "notBefore", "notAfter", "publicKey", "extensions", "sha256",
        ] {
            XCTAssertNotNil(first[key], key)
        }
        XCTAssertEqual(first["notBefore"] as? String, "2021-03-17T20:37:10Z")
        XCTAssertEqual((first["publicKey"] as? [String: Any])?["curve"] as? String, "P-384")
        XCTAssertEqual((first["signatureAlgorithm"] as? [String: Any])?["oid"] as? String, "1.2.840.10045.4.3.3")
        XCTAssertTrue((first["subject"] as? String ?? "").hasPrefix("C=US,O=Apple Inc.,OU=G6,CN=Apple Worldwide Developer Relations"))
        let extensions = try XCTUnwrap(first["extensions"] as? [[String: Any]])
        XCTAssertTrue(extensions.contains { $0["oid"] as? String == "1.2.840.113635.100.6.2.1" })

        // Valid inside the leaf's validity (2025-09-19 .. 2027-10-13); expired after.
        let arguments = ["x509", "verify", "--root", root, "--intermediate", g6, "--policy", "apple-signed-data"]
        let valid = try Subprocess.run(try sigil(), arguments + ["--at", "2026-01-01T00:00:00Z", leaf])
        XCTAssertEqual(valid.status, 0, valid.stdoutString)
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: valid.stdout) as? [String: Any])
        XCTAssertEqual(result["valid"] as? Bool, true)
        XCTAssertEqual((result["chain"] as? [String])?.count, 3)
        // --explain: the verifier's own steps on stderr, in the order they ran, then the verdict.
        let explained = try Subprocess.run(try sigil(), arguments + ["--explain", "--at", "2026-01-01T00:00:00Z", leaf])
        XCTAssertEqual(explained.status, 0)
        let steps = String(decoding: explained.stderr, as: UTF8.self)
        let order = ["RFC 5280 §6.1.1", "signature on", "RFC 5280 §6.1.3 (a)(2), §6.1.4 (k)–(o)", "policy RFC 5280", "verdict: VALID"]
        let positions = order.compactMap { steps.range(of: $0)?.lowerBound }
        XCTAssertEqual(positions.count, order.count, steps)
        XCTAssertEqual(positions, positions.sorted(), steps)
        let expired = try Subprocess.run(try sigil(), arguments + ["--at", "1900000000", leaf])
        XCTAssertEqual(expired.status, 1)
        let failure = try assertFailureShape(expired, "expired")
        XCTAssertEqual(failure["error"] as? String, "chain.invalid")
        XCTAssertTrue(
            (failure["failures"] as? [[String: String]] ?? []).contains { $0["reason"]?.contains("expired") == true }, "\(failure)")
        // Without the intermediate there is no path; a bad time is a usage error on stderr.
        XCTAssertEqual(try Subprocess.run(try sigil(), ["x509", "verify", "--root", root, leaf]).status, 1)
        let usage = try Subprocess.run(try sigil(), arguments + ["--at", "yesterday", leaf])
        XCTAssertNotEqual(usage.status, 0)
        XCTAssertTrue(String(decoding: usage.stderr, as: UTF8.self).contains("\"error\""))
    }
}
