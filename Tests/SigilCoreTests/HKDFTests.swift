import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// HKDF against RFC 5869 Appendix A (the SHA-256 cases A.1–A.3 and the SHA-1 cases A.4–A.7, in
/// pyca/cryptography's vector files), and its length limits.
final class HKDFTests: XCTestCase {
    /// The cases of one file: `Hash`, `IKM`, `salt`, `info`, `L`, `PRK`, `OKM` lines, each case
    /// ending at its `OKM` (blank lines fall inside cases in these files).
    private func cases(_ file: String) throws -> [[String: String]] {
        let text = try String(contentsOf: TestPaths.vectors("rfc-hkdf/\(file)"), encoding: .utf8)
        var cases: [[String: String]] = []
        var current: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            current[key] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if key == "OKM" {
                cases.append(current)
                current = [:]
            }
        }
        return cases
    }

    private func check<H: HashFunction>(_ type: H.Type, file: String, expectedCount: Int) throws {
        let cases = try cases(file)
        XCTAssertEqual(cases.count, expectedCount, file)
        for (index, record) in cases.enumerated() {
            let label = "\(file) case \(index + 1)"
            let ikm = try XCTUnwrap(Hex.decode(record["IKM"] ?? ""), label)
            let salt = try XCTUnwrap(Hex.decode(record["salt"] ?? ""), label)
            let info = try XCTUnwrap(Hex.decode(record["info"] ?? ""), label)
            let length = try XCTUnwrap(Int(record["L"] ?? ""), label)
            let prk = try XCTUnwrap(Hex.decode(record["PRK"] ?? ""), label)
            let okm = try XCTUnwrap(Hex.decode(record["OKM"] ?? ""), label)
            XCTAssertEqual(HKDF<H>.extract(salt: salt, inputKeyMaterial: ikm), prk, label)
            XCTAssertEqual(try HKDF<H>.expand(pseudorandomKey: prk, info: info, outputByteCount: length), okm, label)
            XCTAssertEqual(try HKDF<H>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: length), okm, label)
            // Every shorter output is a prefix of the longer one (§2.3: T(1) ‖ T(2) ‖ …).
            for shorter in [0, 1, H.digestByteCount - 1, H.digestByteCount, H.digestByteCount + 1] where shorter <= length {
                XCTAssertEqual(
                    try HKDF<H>.expand(pseudorandomKey: prk, info: info, outputByteCount: shorter), Array(okm.prefix(shorter)), label)
            }
        }
    }

    func testRFC5869SHA256() throws { try check(SHA256.self, file: "rfc-5869-HKDF-SHA256.txt", expectedCount: 3) }
    func testRFC5869SHA1() throws { try check(SHA1.self, file: "rfc-5869-HKDF-SHA1.txt", expectedCount: 4) }

    /// An empty salt and HashLen zeros are the same key (§2.2), as A.7 relies on.
    func testEmptySaltIsZeros() {
        let ikm = [UInt8](repeating: 0x0c, count: 22)
        XCTAssertEqual(
            HKDF<SHA256>.extract(salt: [UInt8](), inputKeyMaterial: ikm),
            HKDF<SHA256>.extract(salt: [UInt8](repeating: 0, count: 32), inputKeyMaterial: ikm))
    }

    /// At most 255 digests (§2.3), never a negative length, never a pseudorandom key shorter than a
    /// digest; each refused with `invalidLength`, none trapping.
    func testLengthLimits() throws {
        let prk = [UInt8](repeating: 7, count: 32)
        XCTAssertEqual(try HKDF<SHA256>.expand(pseudorandomKey: prk, info: [UInt8](), outputByteCount: 255 * 32).count, 255 * 32)
        for length in [255 * 32 + 1, -1, Int.max, Int.min] {
            XCTAssertThrowsError(try HKDF<SHA256>.expand(pseudorandomKey: prk, info: [UInt8](), outputByteCount: length)) {
                XCTAssertEqual(($0 as? SigilCoreError)?.code, .invalidLength, "\(length)")
            }
        }
        XCTAssertThrowsError(try HKDF<SHA256>.expand(pseudorandomKey: Array(prk.prefix(31)), info: [UInt8](), outputByteCount: 16)) {
            XCTAssertEqual(($0 as? SigilCoreError)?.code, .invalidLength)
        }
        XCTAssertEqual(
            try HKDF<SHA1>.expand(pseudorandomKey: Array(prk.prefix(20)), info: [UInt8](), outputByteCount: 255 * 20).count, 255 * 20)
    }
}
