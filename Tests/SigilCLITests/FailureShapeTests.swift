import Foundation
import SigilTestSupport
import XCTest

/// The one failure shape (ARCHITECTURE.md, convention 10): a non-zero exit, nothing on stdout,
/// and on stderr exactly one JSON object with `error` and `message` strings and at most
/// `failures` (`[{reason, rule}]`) and `hint` besides. Returns the object.
func assertFailureShape(_ result: Subprocess.Result, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> [String: Any]
{
    let stderr = String(decoding: result.stderr, as: UTF8.self)
    XCTAssertNotEqual(result.status, 0, "\(label): exit 0", file: file, line: line)
    XCTAssertTrue(result.stdout.isEmpty, "\(label): stdout holds \(result.stdoutString)", file: file, line: line)
    // One JSON object and nothing else (JSONSerialization refuses trailing text).
    let report = try XCTUnwrap(
        try? JSONSerialization.jsonObject(with: result.stderr) as? [String: Any], "\(label): stderr is not one JSON object: \(stderr)",
        file: file, line: line)
    XCTAssertNotNil(report["error"] as? String, "\(label): no error code: \(stderr)", file: file, line: line)
    XCTAssertNotNil(report["message"] as? String, "\(label): no message: \(stderr)", file: file, line: line)
    let extra = Set(report.keys).subtracting(["error", "message", "failures", "hint"])
    XCTAssertTrue(extra.isEmpty, "\(label): keys outside the shape \(extra.sorted())", file: file, line: line)
    if let hint = report["hint"] { XCTAssertNotNil(hint as? String, "\(label): hint is not a string", file: file, line: line) }
    if let failures = report["failures"] {
        let list = try XCTUnwrap(failures as? [[String: Any]], "\(label): failures is not a list of objects", file: file, line: line)
        XCTAssertFalse(list.isEmpty, "\(label): an empty failures list is left out, not printed", file: file, line: line)
        for failure in list {
            XCTAssertEqual(Set(failure.keys), ["reason", "rule"], "\(label): \(failure)", file: file, line: line)
            XCTAssertNotNil(failure["reason"] as? String, file: file, line: line)
            XCTAssertNotNil(failure["rule"] as? String, file: file, line: line)
        }
    }
    return report
}

/// Every command and subcommand the build registers fails in the one shape. The commands are
/// read from `sigil`'s own command tree (`--experimental-dump-help`), so a command added without
/// a failure case here makes this test fail.
final class FailureShapeTests: XCTestCase {
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: FailureShapeTests.self).path
    }

    /// Every command path ("token app-store"), groups included, from the built command tree.
    private func commandPaths() throws -> [String] {
        let dump = try Subprocess.run(try sigil(), ["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0)
        let tree = try XCTUnwrap(JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        let root = try XCTUnwrap(tree["command"] as? [String: Any])
        var paths: [String] = []
        func walk(_ command: [String: Any], _ prefix: [String]) {
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                paths.append((prefix + [name]).joined(separator: " "))
                walk(sub, prefix + [name])
            }
        }
        walk(root, [])
        return paths
    }

    func testEveryCommandFailsInTheOneShape() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-failure-shape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Input no parser accepts, and a file that is not there.
        let junk = dir.appendingPathComponent("junk").path
        try Data("not DER, PEM, JSON, CBOR or base64 !".utf8).write(to: URL(fileURLWithPath: junk))
        let badPEM = dir.appendingPathComponent("bad.pem").path
        try Data("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: badPEM))
        let missing = dir.appendingPathComponent("missing").path
        let key = ["--key", junk, "--key-id", "K"]
        let deviceCheck = ["--key", junk, "--key-id", "K", "--team-id", "T", "--base-url", "http://127.0.0.1:9"]
        let siwa = ["--key", junk, "--key-id", "K", "--team-id", "T", "--client-id", "C", "--base-url", "http://127.0.0.1:9"]
        let app = ["--team-id", "T", "--bundle-id", "B"]

        // One failing invocation per command; groups fail on an option they do not have.
        let cases: [String: [String]] = [
            "overview": ["--no-such-option"],
            "key": ["--no-such-option"],
            "key generate": ["--curve", "p256", "--out", dir.appendingPathComponent("no/such/dir/key.p8").path],
            "key show": [junk],
            "sig": ["--no-such-option"],
            "sig sign": ["--key", junk, junk],
            "sig verify": ["--key", junk, "--signature", junk, junk],
            "x509": ["--no-such-option"],
            "x509 show": [junk],
            "x509 verify": ["--root", missing, junk],
            "crl": ["--no-such-option"],
            "crl show": [junk],
            "ocsp": ["--no-such-option"],
            "ocsp request": ["--cert", junk, "--issuer", junk],
            "ocsp show": [junk],
            "ocsp check": ["--cert", junk, "--issuer", junk],
            "receipt": ["--no-such-option"],
            "receipt show": [junk],
            "receipt transaction-id": [junk],
            "receipt verify": ["--root", missing, junk],
            "receipt legacy": [junk],
            "token": ["--no-such-option"],
            "token app-store": key + ["--issuer-id", "I", "--bundle-id", "B"],
            "token external-purchase": key + ["--issuer-id", "I", "--bundle-id", "B"],
            "token sign-in-with-apple": key + ["--team-id", "T", "--client-id", "C"],
            "token reader": key + ["--brand-id", "B", "--reader-id", "R"],
            "token devicecheck": key + ["--team-id", "T"],
            "token promotional-offer": key + ["--bundle-id", "B", "--product-id", "P", "--offer-id", "O"],
            "jws": ["--no-such-option"],
            "jws decode": [junk],
            "verify": [junk],
            "external-purchase-token": ["--no-such-option"],
            "external-purchase-token decode": ["not-a-token"],
            "demo": ["--seconds", "not-a-number"],
            "api": key + ["--issuer-id", "I", "--bundle-id", "B", "--base-url", "http://127.0.0.1:9", "transaction-info", "1"],
            "siwa": ["--no-such-option"],
            "siwa token": siwa + ["--code", "c"],
            "siwa revoke": siwa + ["--token", "t"],
            "siwa verify-id-token": ["--client-id", "C", "--jwks", junk, "not.a.token"],
            "siwa notification": ["--no-such-option"],
            "notify": ["--no-such-option"],
            "notify test-pki": ["/proc/no-such-dir/pki"],
            "notify send": [
                "--url", "http://127.0.0.1:9/appstore/notifications", "--bundle-id", "B", "--key", missing, "--chain", missing,
            ],
            "siwa notification verify": ["--client-id", "C", "--jwks", junk, "not.a.token"],
            "bench": ["--iterations", "0"],
            "digest": ["--algorithm", "sha256", missing],
            "asn1": ["--no-such-option"],
            "asn1 dump": [junk],
            "pem": ["--no-such-option"],
            "pem decode": [badPEM],
            "pem encode": ["--label", "CERTIFICATE", missing],
            "roots": ["--no-such-option"],
            "roots list": ["--no-such-option"],
            "roots install": [junk],
            "devicecheck": ["--no-such-option"],
            "devicecheck query": deviceCheck + ["token"],
            "devicecheck update": deviceCheck + ["--bit0", "true", "--bit1", "false", "token"],
            "devicecheck validate": deviceCheck + ["token"],
            "appattest": ["--no-such-option"],
            "appattest attestation": app + ["--key-id", "k", "--client-data", "c", junk],
            "appattest assertion": app + ["--public-key", junk, "--client-data", "c", junk],
            "appattest receipt": app + ["--root", junk, junk],
            "applepay": ["--no-such-option"],
            "applepay verify": [junk],
            "applepay decrypt": ["--merchant-key", junk, "--merchant-id", "merchant.com.example", junk],
            "mdoc": ["--no-such-option"],
            "mdoc verify": ["--iaca", junk, "--transcript", junk, junk],
            "mdoc request": ["--origin", "https://example.com", "--recipient-key", junk],
            "mdoc open": ["--request", junk, "--key", junk, "--iaca", junk, junk],
        ]
        let paths = try commandPaths()
        XCTAssertGreaterThan(paths.count, 40, "\(paths)")
        XCTAssertEqual(Set(cases.keys).subtracting(paths).sorted(), [], "cases for commands the build does not have")
        XCTAssertEqual(Set(paths).subtracting(cases.keys).sorted(), [], "commands without a failure case")
        var codes: [String: String] = [:]
        for path in paths {
            guard let arguments = cases[path] else { continue }
            let result = try Subprocess.run(
                try sigil(), path.split(separator: " ").map(String.init) + arguments,
                environment: ["SIGIL_ROOTS": dir.appendingPathComponent("roots").path])
            let report = try assertFailureShape(result, path)
            codes[path] = report["error"] as? String
        }
        // The failures are the commands' own (their modules' codes), not only usage errors.
        XCTAssertEqual(codes["x509 show"], "x509.malformed", "\(codes)")
        XCTAssertEqual(codes["verify"], "appstore.INVALID_JWT_FORMAT", "\(codes)")
        XCTAssertEqual(codes["token app-store"], "tokens.invalidKey", "\(codes)")
        XCTAssertEqual(codes["applepay verify"], "applepay.malformedToken", "\(codes)")
        XCTAssertEqual(codes["applepay decrypt"], "applepay.invalidMerchantKey", "\(codes)")
        XCTAssertEqual(codes["mdoc verify"], "mdoc.invalidSessionTranscript", "\(codes)")
        XCTAssertEqual(codes["overview"], "usage")
        XCTAssertGreaterThan(codes.values.filter { $0 != "usage" }.count, 30, "\(codes)")
    }
}
