import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// Our digests and HMACs against an independent implementation (Python's hashlib/hmac, which uses
/// OpenSSL) on every message length 0…1000 and on multi-MiB inputs.
final class DigestCrossCheckTests: XCTestCase {
    private static let script = """
        import sys, hashlib, hmac
        data = open(sys.argv[1], 'rb').read()
        mode = sys.argv[2]
        lengths = range(0, 1001) if mode == 'all' else [int(x) for x in sys.argv[3:]]
        for n in lengths:
            m = data[:n]
            key = data[:n % 200]
            row = [hashlib.new(a, m).hexdigest() for a in ('sha1', 'sha256', 'sha384', 'sha512')]
            row += [hmac.new(key, m, a).hexdigest() for a in ('sha1', 'sha256', 'sha384', 'sha512')]
            print(n, ' '.join(row))
        """

    private func ours(_ message: ArraySlice<UInt8>, key: ArraySlice<UInt8>) -> [String] {
        [
            SHA1.hash(message), SHA256.hash(message), SHA384.hash(message), SHA512.hash(message),
            HMAC<SHA1>.authenticationCode(key: key, message: message),
            HMAC<SHA256>.authenticationCode(key: key, message: message),
            HMAC<SHA384>.authenticationCode(key: key, message: message),
            HMAC<SHA512>.authenticationCode(key: key, message: message),
        ].map { Hex.encode($0) }
    }

    private func compare(data: [UInt8], mode: String, lengths: [Int]) throws -> Int {
        let python = try Subprocess.require("python3")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dataURL = dir.appendingPathComponent("data.bin")
        let scriptURL = dir.appendingPathComponent("digests.py")
        try Data(data).write(to: dataURL)
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(python, [scriptURL.path, dataURL.path, mode] + lengths.map(String.init))
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        var compared = 0
        for line in result.stdoutString.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 9, let n = Int(fields[0]) else {
                XCTFail("bad line \(line)")
                continue
            }
            XCTAssertEqual(ours(data[..<n], key: data[..<(n % 200)]), Array(fields[1...]), "length \(n)")
            compared += 1
        }
        return compared
    }

    func testEveryLengthUpTo1000() throws {
        var rng = SeededGenerator(seed: 0x5167_11)
        let compared = try compare(data: rng.bytes(1000), mode: "all", lengths: [])
        XCTAssertEqual(compared, 1001)
    }

    func testMultiMebibyteInputs() throws {
        var rng = SeededGenerator(seed: 0x5167_12)
        let size = 5 * 1_048_576 + 13
        let data = rng.bytes(size)
        let compared = try compare(data: data, mode: "some", lengths: [1_048_576, 3 * 1_048_576 + 1, size])
        XCTAssertEqual(compared, 3)
    }
}
