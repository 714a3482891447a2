import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// NIST CAVP SHAVS byte-oriented vectors: Short, Long and Monte Carlo messages for every hash.
/// SHA-256, SHA-384 and SHA-512 run on the backend `DigestBackend.current(for:)` names; DigestBackendTests
/// reruns their files on each backend in turn.
final class DigestVectorTests: XCTestCase {
    static func checkMessages<H: HashFunction>(_ type: H.Type, file: String) throws {
        let vectors = try CAVPFile(url: TestPaths.vectors("nist-cavp-sha/\(file)"))
        var checked = 0
        for record in vectors.records {
            guard let lenText = record["Len"], let bits = Int(lenText),
                let message = CAVPFile.hex(record, "Msg"), let expected = CAVPFile.hex(record, "MD")
            else { continue }
            XCTAssertEqual(bits % 8, 0, "\(file): byte-oriented files only")
            let input = Array(message.prefix(bits / 8))
            XCTAssertEqual(H.hash(input), expected, "\(file) Len=\(bits)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 60, "\(file) should hold many records; found \(checked)")
    }

    /// SHAVS §6.4 Monte Carlo procedure (see Vectors/nist-cavp-sha/PROVENANCE.md).
    static func checkMonte<H: HashFunction>(_ type: H.Type, file: String) throws {
        let vectors = try CAVPFile(url: TestPaths.vectors("nist-cavp-sha/\(file)"))
        guard var seed = vectors.records.compactMap({ CAVPFile.hex($0, "Seed") }).first else {
            return XCTFail("\(file) has no Seed")
        }
        let expected = vectors.records.filter { $0["COUNT"] != nil }.compactMap { CAVPFile.hex($0, "MD") }
        XCTAssertEqual(expected.count, 100, "\(file) has 100 checkpoints")
        for (j, checkpoint) in expected.enumerated() {
            var md0 = seed
            var md1 = seed
            var md2 = seed
            for _ in 3...1002 {
                var h = H()
                h.update(md0)
                h.update(md1)
                h.update(md2)
                (md0, md1, md2) = (md1, md2, h.finalize())
            }
            XCTAssertEqual(md2, checkpoint, "\(file) COUNT=\(j)")
            seed = md2
        }
    }

    func testSHA1() throws {
        try Self.checkMessages(SHA1.self, file: "SHA1ShortMsg.rsp")
        try Self.checkMessages(SHA1.self, file: "SHA1LongMsg.rsp")
        try Self.checkMonte(SHA1.self, file: "SHA1Monte.rsp")
    }

    func testSHA256() throws {
        try Self.checkMessages(SHA256.self, file: "SHA256ShortMsg.rsp")
        try Self.checkMessages(SHA256.self, file: "SHA256LongMsg.rsp")
        try Self.checkMonte(SHA256.self, file: "SHA256Monte.rsp")
    }

    func testSHA384() throws {
        try Self.checkMessages(SHA384.self, file: "SHA384ShortMsg.rsp")
        try Self.checkMessages(SHA384.self, file: "SHA384LongMsg.rsp")
        try Self.checkMonte(SHA384.self, file: "SHA384Monte.rsp")
    }

    func testSHA512() throws {
        try Self.checkMessages(SHA512.self, file: "SHA512ShortMsg.rsp")
        try Self.checkMessages(SHA512.self, file: "SHA512LongMsg.rsp")
        try Self.checkMonte(SHA512.self, file: "SHA512Monte.rsp")
    }

    func testDigestSizes() {
        XCTAssertEqual(
            [SHA1.digestByteCount, SHA256.digestByteCount, SHA384.digestByteCount, SHA512.digestByteCount],
            [20, 32, 48, 64])
        XCTAssertEqual(
            [SHA1.blockByteCount, SHA256.blockByteCount, SHA384.blockByteCount, SHA512.blockByteCount],
            [64, 64, 128, 128])
    }
}

/// Streaming and one-shot agree for random splits of random messages, around every block boundary.
final class DigestStreamingTests: XCTestCase {
    private func checkSplits<H: HashFunction>(_ type: H.Type, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for trial in 0..<300 {
            let length = trial < 260 ? trial : Int.random(in: 0...5000, using: &rng)
            let message = rng.bytes(length)
            let oneShot = H.hash(message)
            var hasher = H()
            var position = 0
            while position < message.count {
                let step = Int.random(in: 0...min(200, message.count - position), using: &rng)
                hasher.update(message[position..<(position + step)])
                position += step
            }
            hasher.update([UInt8]())
            XCTAssertEqual(hasher.finalize(), oneShot, "\(H.name) length \(length)")
            // A copied state forks the computation without affecting the original.
            var a = H()
            a.update(message.prefix(length / 2))
            var b = a
            b.update(message.suffix(from: length / 2))
            a.update(message.suffix(from: length / 2))
            XCTAssertEqual(a.finalize(), b.finalize())
        }
    }

    func testRandomSplits() {
        checkSplits(SHA1.self, seed: 1)
        checkSplits(SHA256.self, seed: 2)
        checkSplits(SHA384.self, seed: 3)
        checkSplits(SHA512.self, seed: 4)
    }

    func testHMACStreamingMatchesOneShot() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            let key = rng.bytes(Int.random(in: 0...300, using: &rng))
            let message = rng.bytes(Int.random(in: 0...2000, using: &rng))
            var mac = HMAC<SHA384>(key: key)
            let cut = Int.random(in: 0...message.count, using: &rng)
            mac.update(message[..<cut])
            mac.update(message[cut...])
            XCTAssertEqual(mac.finalize(), HMAC<SHA384>.authenticationCode(key: key, message: message))
        }
    }
}
