import Foundation
import SigilTestSupport
import XCTest

/// The `sigil` executable end to end: JSON on stdout, JSON errors on stderr, exit codes.
final class CLITests: XCTestCase {
    /// The built `sigil` beside the test bundle (this target depends on it, so it is built).
    private func sigil() throws -> String {
        try TestPaths.builtProduct("sigil", besideBundleOf: CLITests.self).path
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testOverviewSelfCheckPasses() throws {
        let result = try Subprocess.run(try sigil(), ["overview", "--json"])
        XCTAssertEqual(result.status, 0)
        let report = try json(result.stdout)
        XCTAssertEqual(report["passed"] as? Bool, true)
        let checks = try XCTUnwrap(report["selfCheck"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(checks.count, 10)
        XCTAssertTrue(checks.allSatisfy { $0["passed"] as? Bool == true })
        // The capability list is the build's own commands (as --help lists them), each with its
        // abstract, and nothing kept by hand beside it.
        let help = try Subprocess.run(try sigil(), ["--experimental-dump-help"])
        let tree = try XCTUnwrap((JSONSerialization.jsonObject(with: help.stdout) as? [String: Any])?["command"] as? [String: Any])
        let registered = (tree["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
            .filter { $0 != "overview" && $0 != "help" }
        XCTAssertEqual(report["commands"] as? [String], registered)
        let available = try XCTUnwrap(report["available"] as? [[String: String]])
        XCTAssertEqual(available.compactMap { $0["command"] }, registered)
        XCTAssertTrue(available.allSatisfy { !($0["abstract"] ?? "").isEmpty }, "\(available)")
        XCTAssertNil(report["planned"])
        let text = try Subprocess.run(try sigil(), [])
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdoutString.contains("checks passed"))
        XCTAssertFalse(text.stdoutString.contains("Planned"))
        for command in registered { XCTAssertTrue(text.stdoutString.contains("\n  \(command) "), command) }
    }

    func testDigestMatchesOpenSSL() throws {
        let openssl = try Subprocess.require("openssl")
        var rng = SeededGenerator(seed: 77)
        let data = Data(rng.bytes(5000))
        for algorithm in ["sha1", "sha256", "sha384", "sha512"] {
            let ours = try json(Subprocess.run(try sigil(), ["digest", "-a", algorithm, "-"], stdin: data).stdout)
            let theirs = try Subprocess.run(openssl, ["dgst", "-\(algorithm)", "-r"], stdin: data).stdoutString
            XCTAssertEqual(ours["digest"] as? String, theirs.split(separator: " ").first.map(String.init), algorithm)
            let mac = try json(
                Subprocess.run(try sigil(), ["digest", "-a", algorithm, "--hmac-key-hex", "0b0b0b", "-"], stdin: data).stdout)
            let theirMac = try Subprocess.run(
                openssl, ["dgst", "-\(algorithm)", "-mac", "HMAC", "-macopt", "hexkey:0b0b0b", "-r"], stdin: data)
            XCTAssertEqual(mac["hmac"] as? String, theirMac.stdoutString.split(separator: " ").first.map(String.init), algorithm)
        }
    }

    func testASN1DumpAndErrors() throws {
        let fixture = TestPaths.fixtures("SigilASN1Tests", "ec-p256-params.der").path
        let dump = try Subprocess.run(try sigil(), ["asn1", "dump", fixture])
        XCTAssertEqual(dump.status, 0)
        let root = try XCTUnwrap(try json(dump.stdout)["root"] as? [String: Any])
        XCTAssertEqual(root["value"] as? String, "1.2.840.10045.3.1.7")
        XCTAssertEqual(root["tag"] as? String, "OBJECT IDENTIFIER")

        // Indefinite length: DER refuses with a JSON error on stderr and exit 1; --ber accepts.
        let indefinite = Data([0x30, 0x80, 0x05, 0x00, 0x00, 0x00])
        let refused = try Subprocess.run(try sigil(), ["asn1", "dump", "-"], stdin: indefinite)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stdout.isEmpty)
        let error = try json(refused.stderr)
        XCTAssertEqual(error["error"] as? String, "asn1.indefiniteLength")
        XCTAssertNotNil(error["message"] as? String)
        XCTAssertEqual(try Subprocess.run(try sigil(), ["asn1", "dump", "--ber", "-"], stdin: indefinite).status, 0)
    }

    func testPEMRoundTrip() throws {
        let der = try Data(contentsOf: TestPaths.fixtures("SigilASN1Tests", "ec-p384-spki.der"))
        let encoded = try Subprocess.run(try sigil(), ["pem", "encode", "--label", "PUBLIC KEY", "-"], stdin: der)
        XCTAssertEqual(encoded.status, 0)
        XCTAssertTrue(encoded.stdoutString.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let decoded = try json(Subprocess.run(try sigil(), ["pem", "decode", "-"], stdin: encoded.stdout).stdout)
        let blocks = try XCTUnwrap(decoded["blocks"] as? [[String: Any]])
        XCTAssertEqual(blocks.first?["label"] as? String, "PUBLIC KEY")
        XCTAssertEqual(blocks.first?["derBase64"] as? String, der.base64EncodedString())
        let notDER = try Subprocess.run(try sigil(), ["pem", "encode", "--label", "X", "-"], stdin: Data([1, 2, 3]))
        XCTAssertEqual(notDER.status, 1)
    }

    func testKeySignVerifyRoundTripWithOpenSSL() throws {
        let openssl = try Subprocess.require("openssl")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let message = Data("the message".utf8)
        try message.write(to: URL(fileURLWithPath: path("msg")))
        for (curve, digest) in [("p256", "sha256"), ("p384", "sha384")] {
            let generated = try Subprocess.run(try sigil(), ["key", "generate", "--curve", curve])
            XCTAssertEqual(generated.status, 0)
            try generated.stdout.write(to: URL(fileURLWithPath: path("\(curve).p8")))
            let shown = try json(Subprocess.run(try sigil(), ["key", "show", path("\(curve).p8")]).stdout)
            XCTAssertEqual(shown["type"] as? String, "private")
            XCTAssertNil(shown["d"], "the secret is never printed")
            try (shown["spkiPEM"] as? String ?? "").write(toFile: path("\(curve).pub"), atomically: true, encoding: .utf8)
            // We sign; openssl verifies; we verify; a changed message fails with exit 1.
            let signed = try Subprocess.run(
                try sigil(), ["sig", "sign", "--key", path("\(curve).p8"), "--out", path("\(curve).sig"), path("msg")])
            XCTAssertEqual(signed.status, 0)
            let theirs = try Subprocess.run(
                openssl, ["dgst", "-\(digest)", "-verify", path("\(curve).pub"), "-signature", path("\(curve).sig"), path("msg")])
            XCTAssertEqual(theirs.status, 0, theirs.stdoutString)
            let ours = try Subprocess.run(
                try sigil(), ["sig", "verify", "--key", path("\(curve).pub"), "--signature", path("\(curve).sig"), path("msg")])
            XCTAssertEqual(ours.status, 0)
            XCTAssertEqual(try json(ours.stdout)["valid"] as? Bool, true)
            let tampered = try Subprocess.run(
                try sigil(), ["sig", "verify", "--key", path("\(curve).pub"), "--signature", path("\(curve).sig"), "-"],
                stdin: message + Data([0]))
            XCTAssertEqual(tampered.status, 1)
            XCTAssertEqual(try assertFailureShape(tampered, "tampered")["error"] as? String, "signature.invalid")
            // openssl signs with the key we generated; we verify (raw format round trip too).
            let opensslSig = try Subprocess.run(openssl, ["dgst", "-\(digest)", "-sign", path("\(curve).p8"), path("msg")])
            try opensslSig.stdout.write(to: URL(fileURLWithPath: path("\(curve).osig")))
            XCTAssertEqual(
                try Subprocess.run(
                    try sigil(), ["sig", "verify", "--key", path("\(curve).p8"), "--signature", path("\(curve).osig"), path("msg")]
                ).status, 0)
            let raw = try Subprocess.run(
                try sigil(), ["sig", "sign", "--key", path("\(curve).p8"), "--format", "raw", "--out", path("\(curve).raw"), path("msg")])
            XCTAssertEqual(raw.status, 0)
            XCTAssertEqual(
                try Subprocess.run(
                    try sigil(),
                    ["sig", "verify", "--key", path("\(curve).pub"), "--format", "raw", "--signature", path("\(curve).raw"), path("msg")]
                ).status, 0)
        }
        let badKey = try Subprocess.run(try sigil(), ["key", "show", "-"], stdin: Data("not a key".utf8))
        XCTAssertEqual(badKey.status, 1)
        XCTAssertTrue((try json(badKey.stderr)["error"] as? String ?? "").hasPrefix("keys."))
    }

    /// Every row, in order, with the per-row fields; exactly two operations per row and thread
    /// (--iterations) so the test is quick whatever the build.
    func testBenchJSONShape() throws {
        let result = try Subprocess.run(try sigil(), ["bench", "--json", "--iterations", "2"])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        let report = try json(result.stdout)
        XCTAssertEqual(Set(report.keys), ["results", "machine"])
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        XCTAssertEqual(
            results.compactMap { $0["name"] as? String },
            [
                "P-256 sign", "P-256 verify (cold key)", "P-256 verify (repeated key)",
                "P-384 sign", "P-384 verify (cold key)", "P-384 verify (repeated key)", "P-256 ECDH (fresh peer key)",
                "SHA-256 1 KiB", "SHA-256 1 MiB", "SHA-384 1 KiB", "HMAC-SHA256 64 B", "RSA-2048 verify", "certificate decode",
                "App Store JWS verify (cached chain)", "App Store JWS verify (uncached chain)",
                "receipt parse (CMS + payload, 5 in-app records)", "OCSP response parse + verify",
                "App Store JWS verify (cached chain), all cores",
            ])
        for row in results {
            XCTAssertGreaterThan(row["opsPerSecond"] as? Double ?? 0, 0, "\(row)")
            XCTAssertGreaterThanOrEqual(row["threads"] as? Int ?? 0, 1)
            let p50 = try XCTUnwrap(row["p50Microseconds"] as? Double, "\(row)")
            let p99 = try XCTUnwrap(row["p99Microseconds"] as? Double, "\(row)")
            XCTAssertGreaterThan(p50, 0, "\(row)")
            XCTAssertGreaterThanOrEqual(p99, p50, "\(row)")
            let extra = Set(row.keys).subtracting(["name", "opsPerSecond", "threads", "p50Microseconds", "p99Microseconds"])
            XCTAssertTrue(extra.isEmpty || extra == ["scalingEfficiency"], "\(row)")
        }
        XCTAssertTrue(results.dropLast().allSatisfy { $0["threads"] as? Int == 1 }, "one thread unless told otherwise")
        let all = try XCTUnwrap(results.last)
        XCTAssertEqual(all["threads"] as? Int, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertGreaterThan(all["scalingEfficiency"] as? Double ?? 0, 0)
        let machine = try XCTUnwrap(report["machine"] as? [String: Any])
        XCTAssertEqual(machine["cores"] as? Int, ProcessInfo.processInfo.activeProcessorCount)
        // Without --json: a table, one line per result plus header and machine, latency columns.
        let table = try Subprocess.run(try sigil(), ["bench", "--seconds", "0.02", "--only", "SHA-256 1 KiB", "RSA-2048 verify"])
            .stdoutString
        let lines = table.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, table)
        XCTAssertTrue(lines.first?.contains("p50 µs") == true && lines.first?.contains("p99 µs") == true, table)
        XCTAssertTrue(lines[1].hasPrefix("SHA-256 1 KiB") && lines[2].hasPrefix("RSA-2048 verify"), table)
    }

    /// --only picks rows (in the list's order, whatever order they are named in); --threads runs
    /// each on that many threads ("all": every core); bad values are JSON errors.
    func testBenchOnlyAndThreads() throws {
        let result = try Subprocess.run(
            try sigil(),
            [
                "bench", "--json", "--seconds", "0.05", "--threads", "2",
                "--only", "RSA-2048 verify", "HMAC-SHA256 64 B",
            ])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        let rows = try XCTUnwrap(try json(result.stdout)["results"] as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["name"] as? String }, ["HMAC-SHA256 64 B", "RSA-2048 verify"])
        XCTAssertEqual(rows.compactMap { $0["threads"] as? Int }, [2, 2])
        XCTAssertTrue(rows.allSatisfy { ($0["opsPerSecond"] as? Double ?? 0) > 0 && $0["scalingEfficiency"] == nil })
        let all = try json(
            Subprocess.run(
                try sigil(),
                [
                    "bench", "--json", "--iterations", "3", "--threads", "all",
                    "--only", "certificate decode",
                ]
            ).stdout)
        let allRows = try XCTUnwrap(all["results"] as? [[String: Any]])
        XCTAssertEqual(allRows.count, 1)
        XCTAssertEqual(allRows.first?["threads"] as? Int, ProcessInfo.processInfo.activeProcessorCount)
        for (arguments, code) in [
            (["--only", "P-256 verify"], "bench.only"), (["--threads", "0"], "bench.threads"),
            (["--threads", "many"], "bench.threads"), (["--iterations", "0"], "bench.iterations"),
        ] {
            let failed = try Subprocess.run(try sigil(), ["bench", "--json"] + arguments)
            XCTAssertEqual(failed.status, 1, "\(arguments)")
            XCTAssertEqual(try json(failed.stderr)["error"] as? String, code, "\(arguments)")
        }
    }

    /// --key measures the user's own private key (PEM or DER, P-256 or P-384) in its curve's rows;
    /// a public key is refused, since sign needs the private half.
    func testBenchWithOwnKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        XCTAssertEqual(try Subprocess.run(try sigil(), ["key", "generate", "--curve", "p384", "--out", path("p384.p8")]).status, 0)
        XCTAssertEqual(
            try Subprocess.run(
                try sigil(),
                [
                    "key", "generate", "--curve", "p256", "--format", "sec1", "--der",
                    "--out", path("p256.der"),
                ]
            ).status, 0)
        for (file, curve) in [("p384.p8", "P-384"), ("p256.der", "P-256")] {
            let result = try Subprocess.run(
                try sigil(),
                [
                    "bench", "--json", "--iterations", "3", "--key", path(file),
                    "--only", "\(curve) sign", "\(curve) verify (cold key)", "\(curve) verify (repeated key)",
                ])
            XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
            let report = try json(result.stdout)
            XCTAssertEqual(report["key"] as? [String: String], ["curve": curve, "file": path(file)])
            XCTAssertEqual((report["results"] as? [[String: Any]])?.count, 3)
        }
        let shown = try json(Subprocess.run(try sigil(), ["key", "show", path("p384.p8")]).stdout)
        try (shown["spkiPEM"] as? String ?? "").write(toFile: path("p384.pub"), atomically: true, encoding: .utf8)
        let refused = try Subprocess.run(try sigil(), ["bench", "--json", "--key", path("p384.pub"), "--only", "P-384 sign"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try json(refused.stderr)["error"] as? String, "bench.key")
        let notAKey = try Subprocess.run(try sigil(), ["bench", "--json", "--key", path("missing.pem")])
        XCTAssertEqual(notAKey.status, 1)
    }
}
