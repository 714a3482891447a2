import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// The two SHA-256 paths (FIPS 180-4 §6.2.2): portable Swift, forced with `DigestBackend.forcePortable`,
/// and the CPU's SHA-extension kernel (CSigilIntrinsics). Each runs NIST SHAVS short, long and Monte
/// Carlo and RFC 4231 HMAC; the two agree on random inputs of every length 0…1,000 and on random
/// streaming splits. On a CPU without SHA extensions the accelerated half is skipped, and says so.
final class DigestBackendTests: XCTestCase {
    /// Runs `body` with the given path, then restores the process's choice.
    private func on<T>(_ backend: DigestBackend, _ body: () throws -> T) throws -> T {
        let saved = DigestBackend.forcePortable
        defer { DigestBackend.forcePortable = saved }
        DigestBackend.forcePortable = backend == .portable
        XCTAssertEqual(DigestBackend.current, backend)
        return try body()
    }

    /// The accelerated backend, or a skip naming what the CPU lacks.
    private func accelerated() throws -> DigestBackend {
        guard let backend = DigestBackend.accelerated else {
            throw XCTSkip(
                """
                This CPU has no SHA extensions (CPUID.(EAX=7,ECX=0):EBX bit 29, `sha_ni` in /proc/cpuinfo, \
                with SSSE3 and SSE4.1): the accelerated SHA-256 path was NOT tested here, only the portable one.
                """)
        }
        return backend
    }

    private func shavs(on backend: DigestBackend) throws {
        try on(backend) {
            try DigestVectorTests.checkMessages(SHA256.self, file: "SHA256ShortMsg.rsp")
            try DigestVectorTests.checkMessages(SHA256.self, file: "SHA256LongMsg.rsp")
            try DigestVectorTests.checkMonte(SHA256.self, file: "SHA256Monte.rsp")
        }
    }

    private func rfc4231(on backend: DigestBackend) throws {
        let vectors = try CAVPFile(url: TestPaths.vectors("rfc-hmac/rfc-4231-sha256.txt"))
        var checked = 0
        try on(backend) {
            for record in vectors.records {
                guard let key = CAVPFile.hex(record, "Key"), let message = CAVPFile.hex(record, "Msg"),
                    let expected = CAVPFile.hex(record, "MD")
                else { continue }
                XCTAssertEqual(HMAC<SHA256>.authenticationCode(key: key, message: message), expected)
                XCTAssertEqual(HMACKey<SHA256>(key).authenticationCode(for: message), expected)
                checked += 1
            }
        }
        XCTAssertEqual(checked, 6)
    }

    func testPortableSHAVS() throws { try shavs(on: .portable) }

    func testAcceleratedSHAVS() throws { try shavs(on: try accelerated()) }

    func testPortableHMAC() throws { try rfc4231(on: .portable) }

    func testAcceleratedHMAC() throws { try rfc4231(on: try accelerated()) }

    /// Every length 0…1,000 of random bytes, and HMAC under random keys: both paths, same digest.
    func testPathsAgreeOnEveryLength() throws {
        let fast = try accelerated()
        var rng = SeededGenerator(seed: 0x5AA5_0017)
        let data = rng.bytes(1000)
        let keys = (0..<8).map { rng.bytes($0 * 19) }
        let hashes = { (0...1000).map { SHA256.hash(data[..<$0]) } }
        let macs = { (0...1000).map { HMAC<SHA256>.authenticationCode(key: keys[$0 % 8], message: data[..<$0]) } }
        let portable = try on(.portable) { (hashes(), macs()) }
        let accelerated = try on(fast) { (hashes(), macs()) }
        for n in 0...1000 {
            XCTAssertEqual(portable.0[n], accelerated.0[n], "SHA-256 of \(n) bytes")
            XCTAssertEqual(portable.1[n], accelerated.1[n], "HMAC-SHA256 of \(n) bytes")
        }
    }

    /// Random update boundaries (including empty updates and runs of many blocks) give the one-shot
    /// digest on both paths, and the paths agree.
    func testPathsAgreeOnStreamingSplits() throws {
        let fast = try accelerated()
        var rng = SeededGenerator(seed: 0x5AA5_0018)
        for trial in 0..<200 {
            let message = rng.bytes(trial < 130 ? trial : Int.random(in: 0...10_000, using: &rng))
            var cuts: [Int] = []
            var position = 0
            while position < message.count {
                position += Int.random(in: 0...min(700, message.count - position), using: &rng)
                cuts.append(position)
            }
            let streamed = {
                var hasher = SHA256()
                var start = 0
                for cut in cuts {
                    hasher.update(message[start..<cut])
                    start = cut
                }
                return hasher.finalize()
            }
            let portable = try on(.portable) { (streamed(), SHA256.hash(message)) }
            let accelerated = try on(fast) { (streamed(), SHA256.hash(message)) }
            XCTAssertEqual(portable.0, portable.1, "portable, \(message.count) bytes, cuts \(cuts)")
            XCTAssertEqual(accelerated.0, accelerated.1, "accelerated, \(message.count) bytes, cuts \(cuts)")
            XCTAssertEqual(portable.1, accelerated.1, "\(message.count) bytes")
        }
    }

    /// The CPUID probe agrees with what the kernel reports to /proc/cpuinfo (Linux on x86-64).
    func testProbeMatchesProcCpuinfo() throws {
        #if os(Linux) && arch(x86_64)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            return XCTFail("/proc/cpuinfo has no flags line")
        }
        let set = Set(flags.split(separator: " ").map(String.init))
        let expected = set.contains("sha_ni") && set.contains("ssse3") && set.contains("sse4_1")
        XCTAssertEqual(DigestBackend.accelerated == .x86SHAExtensions, expected, "CPUID vs /proc/cpuinfo flags")
        #else
        throw XCTSkip("the probe is checked against /proc/cpuinfo on Linux x86-64 only")
        #endif
    }

    /// Forcing and releasing the portable path switches ``DigestBackend/current``.
    func testForcingThePortablePath() throws {
        let saved = DigestBackend.forcePortable
        defer { DigestBackend.forcePortable = saved }
        DigestBackend.forcePortable = true
        XCTAssertEqual(DigestBackend.current, .portable)
        DigestBackend.forcePortable = false
        XCTAssertEqual(DigestBackend.current, DigestBackend.accelerated ?? .portable)
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
