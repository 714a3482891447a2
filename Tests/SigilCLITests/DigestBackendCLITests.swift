import Foundation
import SigilTestSupport
import XCTest

/// `sigil overview` reports which SHA-256 and SHA-384/512 paths run; SIGIL_PORTABLE_DIGESTS=1 forces the
/// portable one, SIGIL_DIGEST_BACKEND=avx2 the AVX2 kernels and SIGIL_DIGEST_BACKEND=armv8 the arm64
/// ones for the whole process (the CLI's self-check then passes on that path too).
final class DigestBackendCLITests: XCTestCase {
    private func overview(portable: Bool, backend: String? = nil) throws -> (json: [String: Any], text: String) {
        let sigil = try TestPaths.builtProduct("sigil", besideBundleOf: DigestBackendCLITests.self).path
        // The child inherits this process's environment; set the variables only around the runs.
        if portable { setenv("SIGIL_PORTABLE_DIGESTS", "1", 1) } else { unsetenv("SIGIL_PORTABLE_DIGESTS") }
        if let backend { setenv("SIGIL_DIGEST_BACKEND", backend, 1) } else { unsetenv("SIGIL_DIGEST_BACKEND") }
        defer {
            unsetenv("SIGIL_PORTABLE_DIGESTS")
            unsetenv("SIGIL_DIGEST_BACKEND")
        }
        let json = try Subprocess.run(sigil, ["overview", "--json"])
        XCTAssertEqual(json.status, 0, String(decoding: json.stderr, as: UTF8.self))
        let text = try Subprocess.run(sigil, ["overview"])
        XCTAssertEqual(text.status, 0)
        return (try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]), text.stdoutString)
    }

    /// SIGIL_DIGEST_BACKEND=avx2 runs SHA-256 on the AVX2 kernel even where the SHA extensions exist
    /// (and portable Swift where the CPU has no AVX2); the self-check passes on it.
    func testOverviewReportsTheForcedAVX2Path() throws {
        let forced = try overview(portable: false, backend: "avx2")
        let backend = try XCTUnwrap(forced.json["digestBackend"] as? [String: Any])
        XCTAssertEqual(forced.json["passed"] as? Bool, true)
        XCTAssertEqual(backend["forced"] as? String, "avx2")
        XCTAssertEqual(backend["portableForced"] as? Bool, false)
        let available = try XCTUnwrap(backend["sha256Available"] as? [String])
        let expected = available.contains("x86-64 AVX2 and BMI2") ? "x86-64 AVX2 and BMI2" : "portable Swift"
        XCTAssertEqual(backend["sha256"] as? String, expected)
        XCTAssertTrue(forced.text.contains("SHA-256 runs on: \(expected), forced (SIGIL_DIGEST_BACKEND=avx2)"), forced.text)
        // The shorthand wins over the general variable.
        let portable = try overview(portable: true, backend: "avx2")
        let portableBackend = try XCTUnwrap(portable.json["digestBackend"] as? [String: Any])
        XCTAssertEqual(portableBackend["sha256"] as? String, "portable Swift")
        XCTAssertEqual(portableBackend["forced"] as? String, "portable")
    }

    /// SIGIL_DIGEST_BACKEND=armv8 forces the arm64 kernels: on x86-64 (or an arm64 CPU without the
    /// instructions) every hash falls back to portable Swift, overview says the forced path does not
    /// exist here, and the self-check passes.
    func testOverviewReportsTheForcedARMv8Path() throws {
        let forced = try overview(portable: false, backend: "armv8")
        let backend = try XCTUnwrap(forced.json["digestBackend"] as? [String: Any])
        XCTAssertEqual(forced.json["passed"] as? Bool, true)
        XCTAssertEqual(backend["forced"] as? String, "armv8")
        let available = try XCTUnwrap(backend["sha256Available"] as? [String])
        let expected = available.contains("ARMv8 SHA-2 instructions") ? "ARMv8 SHA-2 instructions" : "portable Swift"
        #if arch(x86_64)
        XCTAssertEqual(expected, "portable Swift", "an x86-64 CPU lists no arm64 backend: \(available)")
        XCTAssertEqual(backend["sha384sha512"] as? String, "portable Swift")
        #endif
        XCTAssertEqual(backend["sha256"] as? String, expected)
        let reason = expected == "portable Swift" ? " (the forced path does not exist for it here)" : ""
        XCTAssertTrue(forced.text.contains("SHA-256 runs on: \(expected), forced (SIGIL_DIGEST_BACKEND=armv8)\(reason)"), forced.text)
    }

    func testOverviewReportsTheDigestBackend() throws {
        let forced = try overview(portable: true)
        let forcedBackend = try XCTUnwrap(forced.json["digestBackend"] as? [String: Any])
        XCTAssertEqual(forcedBackend["sha256"] as? String, "portable Swift")
        XCTAssertEqual(forcedBackend["portableForced"] as? Bool, true)
        XCTAssertEqual(forced.json["passed"] as? Bool, true)
        XCTAssertEqual(forcedBackend["sha384sha512"] as? String, "portable Swift")
        XCTAssertTrue(forced.text.contains("SHA-256 runs on: portable Swift"), forced.text)
        XCTAssertTrue(forced.text.contains("SHA-384 and SHA-512 run on: portable Swift"), forced.text)

        let automatic = try overview(portable: false)
        let backend = try XCTUnwrap(automatic.json["digestBackend"] as? [String: Any])
        XCTAssertEqual(backend["portableForced"] as? Bool, false)
        XCTAssertEqual(automatic.json["passed"] as? Bool, true)
        let available = try XCTUnwrap(backend["accelerationAvailable"] as? String)
        // With SHA extensions the accelerated path runs by default; without, the portable one.
        XCTAssertEqual(backend["sha256"] as? String, available == "none" ? "portable Swift" : available)
        XCTAssertTrue(automatic.text.contains("SHA-256 runs on: \(backend["sha256"] as? String ?? "?")"), automatic.text)
        // With AVX2 and BMI2 the SHA-384/512 kernel runs by default; without, the portable path.
        let available512 = try XCTUnwrap(backend["sha384sha512AccelerationAvailable"] as? String)
        XCTAssertEqual(backend["sha384sha512"] as? String, available512 == "none" ? "portable Swift" : available512)
        XCTAssertTrue(
            automatic.text.contains("SHA-384 and SHA-512 run on: \(backend["sha384sha512"] as? String ?? "?")"), automatic.text)
    }
}
