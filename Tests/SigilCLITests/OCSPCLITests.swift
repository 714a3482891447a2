import Foundation
import SigilTestSupport
import XCTest

/// `sigil ocsp request|show|check` end to end with openssl as the peer.
final class OCSPCLITests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: OCSPCLITests.self).path
    }

    func testRequestShowAndCheck() throws {
        let openssl = try Subprocess.require("openssl")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-ocsp-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func run(_ arguments: [String]) throws {
            let result = try Subprocess.run(openssl, arguments)
            XCTAssertEqual(result.status, 0, "openssl \(arguments): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        try Data("[ext]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n".utf8).write(
            to: URL(fileURLWithPath: path("ca.cnf")))
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
            "-subj", "/CN=CLI CA", "-days", "5", "-config", path("ca.cnf"), "-extensions", "ext", "-out", path("ca.pem"),
        ])
        try run([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("leaf.key"), "-subj", "/CN=leaf",
            "-out", path("leaf.csr"),
        ])
        try run([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial", "77",
            "-days", "5", "-out", path("leaf.pem"),
        ])

        // request: the same bytes as openssl for SHA-1 and SHA-256 without a nonce.
        for (flag, name) in [([String](), "sha1"), (["--sha256"], "sha256")] {
            let ours = try Subprocess.run(
                try sigil(),
                [
                    "ocsp", "request", "--cert", path("leaf.pem"), "--issuer", path("ca.pem"),
                    "--no-nonce", "--out", path("ours-\(name).der"),
                ] + flag)
            XCTAssertEqual(ours.status, 0, ours.stdoutString)
            try run(
                ["ocsp", "-issuer", path("ca.pem")] + (name == "sha256" ? ["-sha256"] : []) + [
                    "-cert", path("leaf.pem"), "-no_nonce", "-reqout", path("theirs-\(name).der"),
                ])
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: path("ours-\(name).der"))),
                try Data(contentsOf: URL(fileURLWithPath: path("theirs-\(name).der"))), name)
        }

        // show: openssl answers our request (leaf revoked in its index).
        try Data("R\t351231235959Z\t260101120000Z,superseded\t4D\tunknown\t/CN=leaf\n".utf8).write(
            to: URL(fileURLWithPath: path("index.txt")))
        try run([
            "ocsp", "-index", path("index.txt"), "-CA", path("ca.pem"), "-rsigner", path("ca.pem"), "-rkey", path("ca.key"),
            "-reqin", path("ours-sha1.der"), "-respout", path("resp.der"), "-ndays", "1",
        ])
        let shown = try Subprocess.run(try sigil(), ["ocsp", "show", "--json", path("resp.der")])
        XCTAssertEqual(shown.status, 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
        XCTAssertEqual(json["responseStatus"] as? String, "successful")
        let single = try XCTUnwrap((json["responses"] as? [[String: Any]])?.first)
        XCTAssertEqual(single["status"] as? String, "revoked")
        XCTAssertEqual(single["reasonName"] as? String, "superseded")
        XCTAssertEqual(single["revocationTime"] as? String, "2026-01-01T12:00:00Z")
        XCTAssertEqual((single["certID"] as? [String: Any])?["serialNumber"] as? String, "4d")

        // check: a responder that is not there is a retryable failure, exit 2, with its hint.
        let check = try Subprocess.run(
            try sigil(),
            [
                "ocsp", "check", "--cert", path("leaf.pem"), "--issuer", path("ca.pem"),
                "--url", "http://127.0.0.1:9/", "--timeout", "2",
            ])
        XCTAssertEqual(check.status, 2, check.stdoutString)
        let failure = try assertFailureShape(check, "ocsp check")
        XCTAssertEqual(failure["error"] as? String, "ocsp.retryable")
        XCTAssertTrue((failure["hint"] as? String ?? "").contains("try again"), "\(failure)")
    }
}
