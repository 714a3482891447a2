import Foundation
import SigilTestSupport
import XCTest

/// `sigil x509 verify` with the RFC 5280 policy inputs, name constraints and a dirty bag of
/// candidate intermediates, on NIST PKITS paths (Vectors/pkits).
final class X509PolicyCLITests: XCTestCase {
    private let p1 = "2.16.840.1.101.3.2.1.48.1", p2 = "2.16.840.1.101.3.2.1.48.2"

    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: X509PolicyCLITests.self).path
    }

    private func pkits(_ name: String) -> String { TestPaths.vectors("pkits/certs/\(name).crt").path }

    /// Runs `x509 verify` on a PKITS path (intermediates from the anchor down, then the leaf).
    private func verify(
        _ path: [String], _ leaf: String, _ options: [String] = [],
        extraCandidates: [String] = [], relaxed: Bool = true
    ) throws -> (status: Int32, json: [String: Any]) {
        var arguments = [
            "x509", "verify", "--root", pkits("TrustAnchorRootCertificate"), "--at", "2020-01-01T00:00:00Z",
            "--minimum-rsa-bits", "1024",
        ]
        // 16 PKITS CA certificates carry a non-critical policyConstraints (§4.2.1.11).
        if relaxed { arguments += ["--relax", "noncritical-policy-constraints"] }
        for name in path { arguments += ["--intermediate", pkits(name)] }
        for file in extraCandidates { arguments += ["--intermediate", file] }
        let result = try Subprocess.run(try sigil(), arguments + options + [pkits(leaf)])
        // A valid chain on stdout; an invalid one is a failure, in the one shape on stderr.
        let json =
            result.status == 0
            ? try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stdoutString)
            : try assertFailureShape(result, leaf)
        return (result.status, json)
    }

    /// Each failure as "rule: reason".
    private func failures(_ json: [String: Any]) -> [String] {
        (json["failures"] as? [[String: String]] ?? []).map { "\($0["rule"] ?? ""): \($0["reason"] ?? "")" }
    }

    func testPolicyInputsAndValidPolicySet() throws {
        // PKITS 4.10.1: Mapping1to2CA maps NIST-test-policy-1 to -2.
        let mapped = try verify(["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", ["--initial-policy", p1])
        XCTAssertEqual(mapped.status, 0, "\(mapped.json)")
        let policies = try XCTUnwrap(mapped.json["validPolicies"] as? [String: Any])
        XCTAssertEqual(policies["userConstrained"] as? [String], [p1])
        // Without the named relaxation Mapping1to2CA's non-critical policyConstraints is refused.
        let strict = try verify(["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", ["--initial-policy", p1], relaxed: false)
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(failures(strict.json).contains { $0.hasPrefix("RFC 5280 §4.2.1.11: ") }, "\(failures(strict.json))")
        let wrongPolicy = try verify(["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", ["--initial-policy", p2])
        XCTAssertEqual(wrongPolicy.status, 1)
        XCTAssertTrue(failures(wrongPolicy.json).contains { $0.hasPrefix("RFC 5280 §6.1.5 (g): ") }, "\(failures(wrongPolicy.json))")
        let inhibited = try verify(["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", ["--inhibit-policy-mapping"])
        XCTAssertEqual(inhibited.status, 1)
        XCTAssertTrue(failures(inhibited.json).contains { $0.hasPrefix("RFC 5280 §6.1.3 (f): ") }, "\(failures(inhibited.json))")
        // PKITS 4.8.2: no policies anywhere — fine by default, refused when an explicit policy is required.
        XCTAssertEqual(try verify(["NoPoliciesCACert"], "AllCertificatesNoPoliciesTest2EE").status, 0)
        let explicit = try verify(["NoPoliciesCACert"], "AllCertificatesNoPoliciesTest2EE", ["--require-explicit-policy"])
        XCTAssertEqual(explicit.status, 1)
        XCTAssertTrue(failures(explicit.json).contains { $0.hasPrefix("RFC 5280 §6.1.3 (f): ") }, "\(failures(explicit.json))")
        // PKITS 4.12.3: anyPolicy below inhibitAnyPolicy 1 — valid, unless anyPolicy is inhibited from the start.
        let path = ["inhibitAnyPolicy1CACert", "inhibitAnyPolicy1subCA1Cert"]
        XCTAssertEqual(try verify(path, "inhibitAnyPolicyTest3EE").status, 0)
        XCTAssertEqual(try verify(path, "inhibitAnyPolicyTest3EE", ["--inhibit-any-policy"]).status, 1)
        // A malformed OID is a usage error.
        XCTAssertNotEqual(
            try Subprocess.run(
                try sigil(),
                [
                    "x509", "verify", "--root", pkits("TrustAnchorRootCertificate"),
                    "--initial-policy", "not-an-oid", pkits("ValidCertificatePathTest1EE"),
                ]
            ).status, 0)
    }

    func testNameConstraintFailuresNameTheirRule() throws {
        let notPermitted = try verify(["nameConstraintsDN1CACert"], "InvalidDNnameConstraintsTest2EE")
        XCTAssertEqual(notPermitted.status, 1)
        XCTAssertTrue(failures(notPermitted.json).contains { $0.hasPrefix("RFC 5280 §6.1.3 (b): ") }, "\(failures(notPermitted.json))")
        let excluded = try verify(["nameConstraintsDNS1CACert"], "InvalidDNSnameConstraintsTest31EE")
        XCTAssertEqual(excluded.status, 1)
        XCTAssertTrue(failures(excluded.json).contains { $0.hasPrefix("RFC 5280 §6.1.3 (") }, "\(failures(excluded.json))")
        XCTAssertEqual(try verify(["nameConstraintsDN1CACert"], "ValidDNnameConstraintsTest1EE").status, 0)
    }

    func testUnparsableCandidatesAreSkippedWithAWarning() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-cli-bag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.der")
        try Data([0x30, 0x03, 0x02, 0x01]).write(to: garbage)
        // A PEM bundle: a key block, a certificate block holding junk, and the real CA.
        let ca = try Data(contentsOf: URL(fileURLWithPath: pkits("GoodCACert")))
        let bundle = directory.appendingPathComponent("bundle.pem")
        let pem =
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n"
            + "-----BEGIN CERTIFICATE-----\n" + ca.base64EncodedString(options: .lineLength64Characters) + "\n-----END CERTIFICATE-----\n"
        try Data(pem.utf8).write(to: bundle)
        let result = try verify([], "ValidCertificatePathTest1EE", extraCandidates: [garbage.path, bundle.path])
        XCTAssertEqual(result.status, 0, "\(result.json)")
        let warnings = result.json["warnings"] as? [String] ?? []
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("garbage.der") })
        XCTAssertTrue(warnings.contains { $0.contains("PRIVATE KEY") })
        XCTAssertEqual((result.json["chain"] as? [String])?.count, 3)
    }
}
