import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// Every path of each accelerated hash: portable Swift and the CPU's kernels (CSigilIntrinsics), each
/// forced with `DigestBackend.forced` — SHA-256 (FIPS 180-4 §6.2.2) on the SHA extensions and on AVX2
/// and BMI2, SHA-384 and SHA-512 (§6.4.2, §6.5) on AVX2 and BMI2, and on arm64 both on the ARMv8 SHA-2
/// instructions. Each runs NIST SHAVS short, long and Monte Carlo and RFC 4231 HMAC; all paths agree
/// on random inputs of every length 0…1,000 and on random streaming splits. On a CPU without a kernel
/// its half is skipped, and says so. (This machine is x86-64: the arm64 kernels are checked as C under
/// qemu-user by Scripts/check-arm64-kernels; here only their selection logic runs, in
/// testBackendsOfTheOtherArchitectureAreNeverAvailable.)
final class DigestBackendTests: XCTestCase {
    /// Runs `body` with the given path forced, then restores the process's choice.
    private func on<T>(_ backend: DigestBackend, for algorithm: HashAlgorithm, _ body: () throws -> T) throws -> T {
        let saved = DigestBackend.forced
        defer { DigestBackend.forced = saved }
        DigestBackend.forced = backend
        XCTAssertEqual(DigestBackend.current(for: algorithm), backend)
        return try body()
    }

    /// The fastest accelerated backend for `algorithm`, or a skip naming what the CPU lacks.
    private func accelerated(for algorithm: HashAlgorithm) throws -> DigestBackend {
        guard let backend = DigestBackend.accelerated(for: algorithm) else {
            #if arch(arm64)
            throw XCTSkip(
                """
                This CPU (or OS) has no accelerated \(algorithm.rawValue) path (no ARMv8 \(algorithm == .sha256 ? "SHA-256" : "SHA-512") \
                instructions): only the portable path was tested here.
                """)
            #else
            throw XCTSkip(
                """
                This CPU (or OS) has no accelerated \(algorithm.rawValue) path (neither SHA extensions, CPUID.(EAX=7,ECX=0):EBX \
                bit 29, nor AVX2 and BMI2, bits 5 and 8, with AVX, SSSE3 and YMM state enabled in XCR0): only the portable \
                path was tested here.
                """)
            #endif
        }
        return backend
    }

    /// `backend` when this CPU can run it for `algorithm`, or a skip naming what the CPU lacks.
    private func require(_ backend: DigestBackend, for algorithm: HashAlgorithm) throws -> DigestBackend {
        guard DigestBackend.available(for: algorithm).contains(backend) else {
            let flags =
                switch backend {
                case .x86AVX2: "`avx2` and `bmi2`"
                case .x86SHAExtensions: "`sha_ni`"
                case .armv8SHA2: algorithm == .sha256 ? "`sha2`" : "`sha512`"
                case .portable: "nothing"
                }
            throw XCTSkip(
                "This CPU (or OS) lacks \(flags) in /proc/cpuinfo: the \(backend.rawValue) path of \(algorithm.rawValue) was NOT tested here."
            )
        }
        return backend
    }

    /// Every accelerated backend for `algorithm` on this CPU, or a skip when there is none.
    private func allAccelerated(for algorithm: HashAlgorithm) throws -> [DigestBackend] {
        _ = try accelerated(for: algorithm)
        return DigestBackend.available(for: algorithm).filter { $0 != .portable }
    }

    /// SHAVS short, long and Monte Carlo for `H` (files named `<prefix>ShortMsg.rsp` …) on `backend`.
    private func shavs<H: HashFunction>(_ type: H.Type, _ algorithm: HashAlgorithm, prefix: String, on backend: DigestBackend) throws {
        try on(backend, for: algorithm) {
            try DigestVectorTests.checkMessages(H.self, file: "\(prefix)ShortMsg.rsp")
            try DigestVectorTests.checkMessages(H.self, file: "\(prefix)LongMsg.rsp")
            try DigestVectorTests.checkMonte(H.self, file: "\(prefix)Monte.rsp")
        }
    }

    /// RFC 4231 test cases for HMAC-`H` through `HMAC` and `HMACKey` on `backend`.
    private func rfc4231<H: HashFunction>(_ type: H.Type, _ algorithm: HashAlgorithm, file: String, on backend: DigestBackend) throws {
        let vectors = try CAVPFile(url: TestPaths.vectors("rfc-hmac/\(file)"))
        var checked = 0
        try on(backend, for: algorithm) {
            for record in vectors.records {
                guard let key = CAVPFile.hex(record, "Key"), let message = CAVPFile.hex(record, "Msg"),
                    let expected = CAVPFile.hex(record, "MD")
                else { continue }
                XCTAssertEqual(HMAC<H>.authenticationCode(key: key, message: message), expected, file)
                XCTAssertEqual(HMACKey<H>(key).authenticationCode(for: message), expected, file)
                checked += 1
            }
        }
        XCTAssertEqual(checked, 6, file)
    }

    func testPortableSHAVS() throws { try shavs(SHA256.self, .sha256, prefix: "SHA256", on: .portable) }

    // Each architecture's kernels are tested in its own build (an x86-64 build has no ARMv8 test to
    // skip: that path is checked as C under qemu-user by Scripts/check-arm64-kernels).
    #if arch(x86_64)
    func testSHAExtensionsSHAVS() throws {
        try shavs(SHA256.self, .sha256, prefix: "SHA256", on: try require(.x86SHAExtensions, for: .sha256))
    }

    func testAVX2SHAVS() throws { try shavs(SHA256.self, .sha256, prefix: "SHA256", on: try require(.x86AVX2, for: .sha256)) }
    #elseif arch(arm64)
    func testARMv8SHAVS() throws { try shavs(SHA256.self, .sha256, prefix: "SHA256", on: try require(.armv8SHA2, for: .sha256)) }
    #endif

    func testPortableSHA384SHA512SHAVS() throws {
        try shavs(SHA384.self, .sha384, prefix: "SHA384", on: .portable)
        try shavs(SHA512.self, .sha512, prefix: "SHA512", on: .portable)
    }

    func testAcceleratedSHA384SHA512SHAVS() throws {
        let fast = try accelerated(for: .sha512)
        try shavs(SHA384.self, .sha384, prefix: "SHA384", on: fast)
        try shavs(SHA512.self, .sha512, prefix: "SHA512", on: fast)
    }

    func testPortableHMAC() throws { try rfc4231(SHA256.self, .sha256, file: "rfc-4231-sha256.txt", on: .portable) }

    #if arch(x86_64)
    func testSHAExtensionsHMAC() throws {
        try rfc4231(SHA256.self, .sha256, file: "rfc-4231-sha256.txt", on: try require(.x86SHAExtensions, for: .sha256))
    }

    func testAVX2HMAC() throws { try rfc4231(SHA256.self, .sha256, file: "rfc-4231-sha256.txt", on: try require(.x86AVX2, for: .sha256)) }
    #elseif arch(arm64)
    func testARMv8HMAC() throws {
        try rfc4231(SHA256.self, .sha256, file: "rfc-4231-sha256.txt", on: try require(.armv8SHA2, for: .sha256))
    }
    #endif

    func testPortableHMACSHA384SHA512() throws {
        try rfc4231(SHA384.self, .sha384, file: "rfc-4231-sha384.txt", on: .portable)
        try rfc4231(SHA512.self, .sha512, file: "rfc-4231-sha512.txt", on: .portable)
    }

    func testAcceleratedHMACSHA384SHA512() throws {
        let fast = try accelerated(for: .sha512)
        try rfc4231(SHA384.self, .sha384, file: "rfc-4231-sha384.txt", on: fast)
        try rfc4231(SHA512.self, .sha512, file: "rfc-4231-sha512.txt", on: fast)
    }

    /// Every length 0…1,000 of random bytes, and HMAC under random keys: every path, same digest.
    private func pathsAgreeOnEveryLength<H: HashFunction>(_ type: H.Type, _ algorithm: HashAlgorithm, seed: UInt64) throws {
        let fast = try allAccelerated(for: algorithm)
        var rng = SeededGenerator(seed: seed)
        let data = rng.bytes(1000)
        let keys = (0..<8).map { rng.bytes($0 * 37) }
        let hashes = { (0...1000).map { H.hash(data[..<$0]) } }
        let macs = { (0...1000).map { HMAC<H>.authenticationCode(key: keys[$0 % 8], message: data[..<$0]) } }
        let portable = try on(.portable, for: algorithm) { (hashes(), macs()) }
        for backend in fast {
            let accelerated = try on(backend, for: algorithm) { (hashes(), macs()) }
            for n in 0...1000 {
                XCTAssertEqual(portable.0[n], accelerated.0[n], "\(H.name) of \(n) bytes, \(backend.rawValue)")
                XCTAssertEqual(portable.1[n], accelerated.1[n], "HMAC-\(H.name) of \(n) bytes, \(backend.rawValue)")
            }
        }
    }

    func testPathsAgreeOnEveryLength() throws { try pathsAgreeOnEveryLength(SHA256.self, .sha256, seed: 0x5AA5_0017) }

    func testSHA384SHA512PathsAgreeOnEveryLength() throws {
        try pathsAgreeOnEveryLength(SHA384.self, .sha384, seed: 0x5AA5_0117)
        try pathsAgreeOnEveryLength(SHA512.self, .sha512, seed: 0x5AA5_0217)
    }

    /// Random update boundaries (including empty updates and runs of many blocks, odd and even
    /// counts) give the one-shot digest on every path, and the paths agree.
    private func pathsAgreeOnStreamingSplits<H: HashFunction>(_ type: H.Type, _ algorithm: HashAlgorithm, seed: UInt64) throws {
        let fast = try allAccelerated(for: algorithm)
        var rng = SeededGenerator(seed: seed)
        for trial in 0..<200 {
            let message = rng.bytes(trial < 130 ? trial : Int.random(in: 0...10_000, using: &rng))
            var cuts: [Int] = []
            var position = 0
            while position < message.count {
                position += Int.random(in: 0...min(700, message.count - position), using: &rng)
                cuts.append(position)
            }
            let streamed = {
                var hasher = H()
                var start = 0
                for cut in cuts {
                    hasher.update(message[start..<cut])
                    start = cut
                }
                return hasher.finalize()
            }
            let portable = try on(.portable, for: algorithm) { (streamed(), H.hash(message)) }
            XCTAssertEqual(portable.0, portable.1, "\(H.name) portable, \(message.count) bytes, cuts \(cuts)")
            for backend in fast {
                let accelerated = try on(backend, for: algorithm) { (streamed(), H.hash(message)) }
                XCTAssertEqual(accelerated.0, accelerated.1, "\(H.name) \(backend.rawValue), \(message.count) bytes, cuts \(cuts)")
                XCTAssertEqual(portable.1, accelerated.1, "\(H.name) \(backend.rawValue), \(message.count) bytes")
            }
        }
    }

    func testPathsAgreeOnStreamingSplits() throws { try pathsAgreeOnStreamingSplits(SHA256.self, .sha256, seed: 0x5AA5_0018) }

    func testSHA384SHA512PathsAgreeOnStreamingSplits() throws {
        try pathsAgreeOnStreamingSplits(SHA384.self, .sha384, seed: 0x5AA5_0118)
        try pathsAgreeOnStreamingSplits(SHA512.self, .sha512, seed: 0x5AA5_0218)
    }

    /// The CPUID probes agree with what the kernel reports to /proc/cpuinfo (Linux on x86-64; Linux
    /// lists `avx` and `avx2` only when it has enabled the YMM state, so XGETBV is covered too).
    func testProbeMatchesProcCpuinfo() throws {
        #if os(Linux) && arch(x86_64)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            return XCTFail("/proc/cpuinfo has no flags line")
        }
        let set = Set(flags.split(separator: " ").map(String.init))
        let sha256 = set.contains("sha_ni") && set.contains("ssse3") && set.contains("sse4_1")
        let avx2 = ["avx2", "bmi2", "avx", "ssse3"].allSatisfy(set.contains)
        XCTAssertEqual(
            DigestBackend.available(for: .sha256).contains(.x86SHAExtensions), sha256, "SHA-256 extensions: CPUID vs /proc/cpuinfo flags")
        XCTAssertEqual(DigestBackend.available(for: .sha256).contains(.x86AVX2), avx2, "SHA-256 AVX2: CPUID vs /proc/cpuinfo flags")
        XCTAssertEqual(
            DigestBackend.accelerated(for: .sha256), sha256 ? .x86SHAExtensions : avx2 ? .x86AVX2 : nil, "SHA-256: fastest first")
        XCTAssertEqual(DigestBackend.accelerated(for: .sha384) == .x86AVX2, avx2, "SHA-384: CPUID vs /proc/cpuinfo flags")
        XCTAssertEqual(DigestBackend.accelerated(for: .sha512) == .x86AVX2, avx2, "SHA-512: CPUID vs /proc/cpuinfo flags")
        XCTAssertNil(DigestBackend.accelerated(for: .sha1))
        #elseif os(Linux) && arch(arm64)
        // Linux lists the HWCAP bits as words of the Features line: `sha2` (HWCAP_SHA2), `sha512`.
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let features = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("Features") }) else {
            return XCTFail("/proc/cpuinfo has no Features line")
        }
        let set = Set(features.split(separator: " ").map(String.init))
        XCTAssertEqual(DigestBackend.accelerated(for: .sha256) == .armv8SHA2, set.contains("sha2"), "SHA-256: HWCAP vs /proc/cpuinfo")
        XCTAssertEqual(DigestBackend.accelerated(for: .sha384) == .armv8SHA2, set.contains("sha512"), "SHA-384: HWCAP vs /proc/cpuinfo")
        XCTAssertEqual(DigestBackend.accelerated(for: .sha512) == .armv8SHA2, set.contains("sha512"), "SHA-512: HWCAP vs /proc/cpuinfo")
        XCTAssertNil(DigestBackend.accelerated(for: .sha1))
        #else
        throw XCTSkip("the probes are checked against /proc/cpuinfo on Linux x86-64 and arm64 only")
        #endif
    }

    /// The backends of the architecture this build is not for are never available and, forced,
    /// leave every hash on portable Swift; the build's own backends are the only accelerated ones.
    func testBackendsOfTheOtherArchitectureAreNeverAvailable() throws {
        #if arch(x86_64)
        let foreign: [DigestBackend] = [.armv8SHA2]
        let native: Set<DigestBackend> = [.x86SHAExtensions, .x86AVX2]
        #elseif arch(arm64)
        let foreign: [DigestBackend] = [.x86SHAExtensions, .x86AVX2]
        let native: Set<DigestBackend> = [.armv8SHA2]
        #else
        let foreign: [DigestBackend] = [.x86SHAExtensions, .x86AVX2, .armv8SHA2]
        let native: Set<DigestBackend> = []
        #endif
        XCTAssertEqual(Set(foreign).union(native).union([.portable]), Set(DigestBackend.allCases))
        let saved = DigestBackend.forced
        defer { DigestBackend.forced = saved }
        for algorithm in HashAlgorithm.allCases {
            let available = DigestBackend.available(for: algorithm)
            XCTAssertEqual(available.last, .portable, algorithm.rawValue)
            for backend in available where backend != .portable {
                XCTAssertTrue(native.contains(backend), "\(backend.rawValue) listed for \(algorithm.rawValue) on this architecture")
            }
        }
        for backend in foreign {
            DigestBackend.forced = backend
            XCTAssertEqual(DigestBackend.forced, backend, "a foreign backend is still recorded as forced")
            for algorithm in HashAlgorithm.allCases {
                XCTAssertEqual(DigestBackend.current(for: algorithm), .portable, "\(backend.rawValue) forced, \(algorithm.rawValue)")
            }
            // Hashing still works, on the portable path: FIPS 180-4's "abc" examples.
            XCTAssertEqual(
                SHA256.hash(Array("abc".utf8)), Hex.decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
            XCTAssertEqual(
                SHA384.hash(Array("abc".utf8)),
                Hex.decode("cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"))
        }
    }

    /// Forcing and releasing the portable path switches every hash's backend.
    func testForcingThePortablePath() throws {
        let saved = DigestBackend.forced
        defer { DigestBackend.forced = saved }
        DigestBackend.forcePortable = true
        XCTAssertEqual(DigestBackend.forced, .portable)
        XCTAssertEqual(DigestBackend.current, .portable)
        for algorithm in HashAlgorithm.allCases {
            XCTAssertEqual(DigestBackend.current(for: algorithm), .portable, algorithm.rawValue)
        }
        DigestBackend.forcePortable = false
        XCTAssertNil(DigestBackend.forced)
        XCTAssertEqual(DigestBackend.current, DigestBackend.accelerated ?? .portable)
        for algorithm in HashAlgorithm.allCases {
            XCTAssertEqual(
                DigestBackend.current(for: algorithm), DigestBackend.accelerated(for: algorithm) ?? .portable, algorithm.rawValue)
        }
    }

    /// A forced path runs for every hash that has it on this CPU, portable Swift for the others.
    func testForcingEachPath() throws {
        let saved = DigestBackend.forced
        defer { DigestBackend.forced = saved }
        for backend in DigestBackend.allCases {
            DigestBackend.forced = backend
            XCTAssertEqual(DigestBackend.forced, backend)
            XCTAssertEqual(DigestBackend.forcePortable, backend == .portable)
            for algorithm in HashAlgorithm.allCases {
                let expected = DigestBackend.available(for: algorithm).contains(backend) ? backend : .portable
                XCTAssertEqual(DigestBackend.current(for: algorithm), expected, "\(backend.rawValue) forced, \(algorithm.rawValue)")
            }
        }
        XCTAssertEqual(DigestBackend.allCases.map(\.environmentName), ["portable", "sha-extensions", "avx2", "armv8"])
    }

    /// One key schedule reused for many messages gives the same MACs as keying each time, for
    /// keys shorter than, equal to and longer than the block (RFC 2104 §2).
    func testHMACKeyReuse() {
        var rng = SeededGenerator(seed: 0x5AA5_0019)
        for keyLength in [0, 1, 32, 63, 64, 65, 127, 128, 129, 300] {
            let key = rng.bytes(keyLength)
            let schedule256 = HMACKey<SHA256>(key)
            let schedule384 = HMACKey<SHA384>(key)
            for _ in 0..<5 {
                let message = rng.bytes(Int.random(in: 0...300, using: &rng))
                XCTAssertEqual(
                    schedule256.authenticationCode(for: message),
                    HMAC<SHA256>.authenticationCode(key: key, message: message), "key \(keyLength)")
                XCTAssertEqual(
                    schedule384.authenticationCode(for: message),
                    HMAC<SHA384>.authenticationCode(key: key, message: message), "key \(keyLength)")
                var streamed = HMAC(key: schedule256)
                streamed.update(message.prefix(7))
                streamed.update(message.dropFirst(7))
                XCTAssertEqual(streamed.finalize(), schedule256.authenticationCode(for: message))
            }
        }
    }
}
