import Foundation
import SigilTestSupport
import XCTest

/// `sigil crl show`, `sigil x509 verify --crl`, and the CLI side of the parsing findings
/// (x509 show on a PEM file with a key block, ocsp show on a CertID with an unknown hash), on
/// PKITS and pyca/cryptography files.
final class CRLCLITests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: CRLCLITests.self).path
    }

    private func pkits(_ path: String) -> String { TestPaths.vectors("pkits/\(path)").path }

    func testCRLShow() throws {
        let shown = try Subprocess.run(try sigil(), ["crl", "show", "--json", pkits("crls/indirectCRLCA5CRL.crl")])
        XCTAssertEqual(shown.status, 0, String(decoding: shown.stderr, as: UTF8.self))
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: shown.stdout) as? [[String: Any]])
        let crl = try XCTUnwrap(objects.first)
        XCTAssertEqual(crl["issuer"] as? String, "OU=indirectCRL CA5,O=Test Certificates 2011,C=US")
        XCTAssertEqual(crl["thisUpdate"] as? String, "2010-01-01T08:30:00Z")
        XCTAssertEqual(crl["nextUpdate"] as? String, "2030-12-31T08:30:00Z")
        XCTAssertEqual(crl["crlNumber"] as? String, "1")
        XCTAssertEqual(crl["entryCount"] as? Int, 11)
        XCTAssertEqual((crl["issuingDistributionPoint"] as? [String: Any])?["indirectCRL"] as? Bool, true)
        let entries = try XCTUnwrap(crl["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 11)
        XCTAssertEqual(entries[0]["serial"] as? String, "01")
        XCTAssertEqual(entries[0]["reason"] as? String, "keyCompromise")
        XCTAssertNil(entries[0]["certificateIssuer"])
        XCTAssertEqual(entries[1]["certificateIssuer"] as? [String], ["DirName:CN=indirectCRL CA6,O=Test Certificates 2011,C=US"])
        let extensions = try XCTUnwrap(crl["extensions"] as? [[String: Any]])
        XCTAssertTrue(extensions.contains { $0["name"] as? String == "cRLNumber" && $0["value"] as? String == "1" })

        // PEM "X509 CRL" and the human form.
        let der = try Data(contentsOf: URL(fileURLWithPath: pkits("crls/deltaCRLCA1deltaCRL.crl")))
        let pemFile = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-crl-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: pemFile) }
        try Data(
            "-----BEGIN X509 CRL-----\n\(der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed]))\n-----END X509 CRL-----\n"
                .utf8
        )
        .write(to: pemFile)
        let human = try Subprocess.run(try sigil(), ["crl", "show", pemFile.path])
        XCTAssertEqual(human.status, 0, String(decoding: human.stderr, as: UTF8.self))
        XCTAssertTrue(human.stdoutString.contains("deltaCRLIndicator: "), human.stdoutString)
        XCTAssertTrue(human.stdoutString.contains("revoked "), human.stdoutString)
        // Not a CRL: a JSON error on stderr, non-zero exit.
        let bad = try Subprocess.run(try sigil(), ["crl", "show", pkits("certs/GoodCACert.crt")])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(String(decoding: bad.stderr, as: UTF8.self).contains("\"error\""))
    }

    func testVerifyWithCRLs() throws {
        let base = [
            "x509", "verify", "--root", pkits("certs/TrustAnchorRootCertificate.crt"), "--intermediate", pkits("certs/GoodCACert.crt"),
            "--at", "2020-01-01T00:00:00Z", "--minimum-rsa-bits", "1024",
        ]
        let crls = ["--crl", pkits("crls/GoodCACRL.crl"), "--crl", pkits("crls/TrustAnchorRootCRL.crl")]
        // PKITS 4.1.1 path: valid with and without CRLs; 4.4.3: valid without, revoked with.
        XCTAssertEqual(try Subprocess.run(try sigil(), base + crls + [pkits("certs/ValidCertificatePathTest1EE.crt")]).status, 0)
        XCTAssertEqual(try Subprocess.run(try sigil(), base + [pkits("certs/InvalidRevokedEETest3EE.crt")]).status, 0)
        let revoked = try Subprocess.run(try sigil(), base + crls + [pkits("certs/InvalidRevokedEETest3EE.crt")])
        XCTAssertEqual(revoked.status, 1)
        let result = try assertFailureShape(revoked, "revoked")
        XCTAssertEqual(result["error"] as? String, "chain.invalid")
        XCTAssertTrue(
            (result["failures"] as? [[String: String]] ?? []).contains { $0["reason"]?.contains("is revoked") == true }, "\(result)")
        // Without the root's CRL, the intermediate's status is undetermined: fails.
        let missing = try Subprocess.run(
            try sigil(), base + ["--crl", pkits("crls/GoodCACRL.crl"), pkits("certs/ValidCertificatePathTest1EE.crt")])
        XCTAssertEqual(missing.status, 1, missing.stdoutString)
    }

    func testShowOnMixedPEMAndUnknownHashOCSP() throws {
        let der = try Data(contentsOf: URL(fileURLWithPath: pkits("certs/GoodCACert.crt")))
        let body = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let mixed =
            "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nMAMCAQA=\n-----END PRIVATE KEY-----\n"
            + "-----BEGIN X509 CERTIFICATE-----\n\(body)\n-----END X509 CERTIFICATE-----\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-mixed-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(mixed.utf8).write(to: file)
        let shown = try Subprocess.run(try sigil(), ["x509", "show", "--json", file.path])
        XCTAssertEqual(shown.status, 0, String(decoding: shown.stderr, as: UTF8.self))
        XCTAssertEqual((try JSONSerialization.jsonObject(with: shown.stdout) as? [[String: Any]])?.count, 2)
        XCTAssertTrue(String(decoding: shown.stderr, as: UTF8.self).contains("skipped a PEM block \"PRIVATE KEY\""))

        let ocsp = try Subprocess.run(try sigil(), ["ocsp", "show", TestPaths.vectors("pyca/resp-unknown-hash-alg.der").path])
        XCTAssertEqual(ocsp.status, 0, String(decoding: ocsp.stderr, as: UTF8.self))
        let response = try XCTUnwrap(JSONSerialization.jsonObject(with: ocsp.stdout) as? [String: Any])
        let single = try XCTUnwrap((response["responses"] as? [[String: Any]])?.first)
        XCTAssertEqual((single["certID"] as? [String: Any])?["hashAlgorithm"] as? String, "1.3.14.3.2.26.17")
        XCTAssertEqual(single["status"] as? String, "revoked")
        XCTAssertNotNil(single["certIDNote"])
    }
}
