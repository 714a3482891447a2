import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// The valgrind constant-time check (as libsecp256k1's ctime test): runs Tests/SigilCTime under
/// memcheck with every private key, nonce input and hedging entropy marked undefined. A clean
/// run means no branch and no memory index depends on them outside the declassification points.
/// The harness's `--leaky` mode adds one secret-dependent branch and must be caught, which shows
/// the check can fail.
final class ConstantTimeTests: XCTestCase {
    /// The harness binary, copied and stripped of DWARF 5 debug info (which valgrind 3.19 cannot read).
    private func harness() throws -> String {
        let built = try TestPaths.builtProduct("sigil-ctime", besideBundleOf: ConstantTimeTests.self)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-ctime-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: built, to: copy)
        let strip = try Subprocess.require("strip")
        XCTAssertEqual(try Subprocess.run(strip, ["--strip-debug", copy.path]).status, 0)
        return copy.path
    }

    private func valgrind(_ binary: String, _ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(
            try Subprocess.require("valgrind"),
            ["--error-exitcode=42", "--track-origins=yes", "-q", binary] + arguments)
    }

    func testSigningPathIsConstantTimeUnderValgrind() throws {
        let binary = try harness()
        defer { try? FileManager.default.removeItem(atPath: binary) }
        let clean = try valgrind(binary, [])
        let report = String(decoding: clean.stderr, as: UTF8.self)
        XCTAssertTrue(
            clean.stdoutString.contains("valgrind: 1, shim: 1"),
            "the harness must run under valgrind with the memcheck shim: \(clean.stdoutString)")
        XCTAssertEqual(clean.status, 0, "memcheck found a secret-dependent branch or index:\n\(report)")
        XCTAssertFalse(report.contains("uninitialised"), report)
        XCTAssertTrue(clean.stdoutString.contains("PEM key loading: done"), clean.stdoutString)
        // valgrind hides the SHA extensions from CPUID, so the AVX2 SHA-256 (and HMAC) ran under memcheck
        // on a CPU with AVX2 and BMI2 (valgrind reports them), the portable one otherwise; the harness
        // then ran the direct HMACs on both.
        let avx2 = DigestBackend.available(for: .sha256).contains(.x86AVX2)
        XCTAssertTrue(
            clean.stdoutString.contains("SHA-256 backend: \(avx2 ? "x86-64 AVX2 and BMI2" : "portable Swift")"), clean.stdoutString)
        XCTAssertTrue(clean.stdoutString.contains("SHA-256 HMAC with secret inputs: portable Swift"), clean.stdoutString)
        if avx2 {
            XCTAssertTrue(
                clean.stdoutString.contains("SHA-256 HMAC with secret inputs: x86-64 AVX2 and BMI2"),
                "the SHA-256 AVX2 kernel must run under memcheck on a CPU that has it: \(clean.stdoutString)")
        }
        // valgrind (3.19) does report AVX2, BMI2 and the YMM state, so the SHA-384/512 kernel ran under
        // memcheck with secret inputs (the signatures' hashing and RFC 6979 HMACs, and the direct HMACs),
        // and the harness then reran the direct HMACs on the portable path.
        XCTAssertTrue(clean.stdoutString.contains("SHA-384/512 HMAC with secret inputs: portable Swift"), clean.stdoutString)
        if DigestBackend.accelerated(for: .sha512) == .x86AVX2 {
            XCTAssertTrue(
                clean.stdoutString.contains("SHA-384/512 HMAC with secret inputs: x86-64 AVX2 and BMI2"),
                "the AVX2 kernel must run under memcheck on a CPU that has it: \(clean.stdoutString)")
        }
        XCTAssertTrue(
            clean.stdoutString.contains("token builders: 9 tokens"),
            "PKCS#8/SEC 1 key loading and every token builder ran under memcheck: \(clean.stdoutString)")

        // The decryption primitives (SigilCipher): AES-GCM and GHASH on each path this CPU offers,
        // ECDH with the KDF, RSA-OAEP decryption.
        // (Under valgrind the CPU probe sees AES-NI and PCLMULQDQ where the CPU has them: valgrind
        // executes both.)
        XCTAssertTrue(clean.stdoutString.contains("AES-GCM with secret key and data: portable Swift"), clean.stdoutString)
        let aesniOnCPU =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))
            .map { $0.contains(" aes ") && $0.contains(" pclmulqdq ") } ?? false
        if aesniOnCPU {
            XCTAssertTrue(
                clean.stdoutString.contains("AES-GCM with secret key and data: x86-64 AES-NI and PCLMULQDQ"), clean.stdoutString)
        }
        XCTAssertTrue(clean.stdoutString.contains("ECDH and KDF with a secret scalar: done"), clean.stdoutString)
        XCTAssertTrue(clean.stdoutString.contains("RSA-OAEP decryption with a secret exponent: done"), clean.stdoutString)

        let leaky = try valgrind(binary, ["--leaky"])
        XCTAssertEqual(leaky.status, 42, "the deliberate leak must be reported")
        XCTAssertTrue(String(decoding: leaky.stderr, as: UTF8.self).contains("Conditional jump or move depends on uninitialised value"))
    }

    /// The cipher section is really under test: one lookup in a table indexed by a secret AES key
    /// byte (what a table-driven AES does) must be reported.
    func testTableIndexedByAESKeyIsCaught() throws {
        let binary = try harness()
        defer { try? FileManager.default.removeItem(atPath: binary) }
        let leaky = try valgrind(binary, ["--leaky-aes"])
        XCTAssertEqual(leaky.status, 42, "memcheck must report a table index computed from a secret AES key byte")
        XCTAssertTrue(String(decoding: leaky.stderr, as: UTF8.self).contains("uninitialised"))
    }

    /// The PEM layer is really under test: decoding the same key files with the table-driven
    /// general-purpose PEM reader instead of SecretPEM must be reported.
    func testTableDrivenPEMDecodingIsCaught() throws {
        let binary = try harness()
        defer { try? FileManager.default.removeItem(atPath: binary) }
        let table = try valgrind(binary, ["--table-pem"])
        XCTAssertEqual(table.status, 42, "memcheck must report the table-driven base64 decoding of a secret PEM body")
        XCTAssertTrue(String(decoding: table.stderr, as: UTF8.self).contains("uninitialised"))
    }
}
