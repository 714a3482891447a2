import Foundation
import SigilCipher
import SigilTestSupport
import XCTest

/// NIST CAVP GCM (gcmEncryptExtIV, gcmDecrypt; AES-128 and AES-256) and Wycheproof AES-GCM, each
/// run once on every available `CipherBackend` (the portable path always, AES-NI where the CPU has it).
final class AESGCMVectorTests: XCTestCase {
    override func tearDown() {
        CipherBackend.forced = nil
        super.tearDown()
    }

    /// The records of a CAVP GCM file: `Key = value` lines, and `FAIL` for a decryption that must fail.
    private func cavpRecords(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: TestPaths.vectors("nist-cavp-gcm/\(name)"), encoding: .utf8)
        var records: [[String: String]] = []
        var current: [String: String] = [:]
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                if current["Count"] != nil { records.append(current) }
                current = [:]
            } else if line == "FAIL" {
                current["FAIL"] = "1"
            } else if !line.hasPrefix("#"), !line.hasPrefix("["), let eq = line.firstIndex(of: "=") {
                current[line[..<eq].trimmingCharacters(in: .whitespaces)] =
                    line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            }
        }
        if current["Count"] != nil { records.append(current) }
        return records
    }

    private func bytes(_ record: [String: String], _ key: String) -> [UInt8] {
        Hex.decode(record[key] ?? "") ?? []
    }

    func testCAVPEncryptAndDecryptOnEveryBackend() throws {
        var counts: [String: Int] = [:]
        for backend in CipherBackend.available {
            CipherBackend.forced = backend
            XCTAssertEqual(CipherBackend.current, backend)
            for keySize in [128, 256] {
                let encrypt = try cavpRecords("gcmEncryptExtIV\(keySize).rsp")
                XCTAssertEqual(encrypt.count, 7875)
                for record in encrypt {
                    let gcm = try AESGCM(key: bytes(record, "Key"))
                    let tag = bytes(record, "Tag")
                    let sealed = try gcm.seal(
                        bytes(record, "PT"), iv: bytes(record, "IV"), additionalData: bytes(record, "AAD"),
                        tagLength: tag.count)
                    XCTAssertEqual(sealed.ciphertext, bytes(record, "CT"), "\(backend) encrypt \(keySize) \(record["Count"]!)")
                    XCTAssertEqual(sealed.tag, tag, "\(backend) encrypt \(keySize) \(record["Count"]!)")
                    counts["encrypt\(keySize)", default: 0] += 1
                }
                let decrypt = try cavpRecords("gcmDecrypt\(keySize).rsp")
                XCTAssertEqual(decrypt.count, 7875)
                var failures = 0
                for record in decrypt {
                    let gcm = try AESGCM(key: bytes(record, "Key"))
                    do {
                        let plaintext = try gcm.open(
                            bytes(record, "CT"), iv: bytes(record, "IV"), additionalData: bytes(record, "AAD"),
                            tag: bytes(record, "Tag"))
                        XCTAssertNil(record["FAIL"], "\(backend) decrypt \(keySize) \(record["Count"]!) should fail")
                        XCTAssertEqual(plaintext, bytes(record, "PT"))
                    } catch {
                        XCTAssertEqual(error.code, .authenticationFailed)
                        XCTAssertNotNil(record["FAIL"], "\(backend) decrypt \(keySize) \(record["Count"]!): \(error)")
                        failures += 1
                    }
                    counts["decrypt\(keySize)", default: 0] += 1
                }
                XCTAssertGreaterThan(failures, 3000)
            }
        }
        print("CAVP GCM records per backend run: \(counts.sorted { $0.key < $1.key })")
    }

    private struct WycheproofFile: Decodable {
        struct Group: Decodable {
            let keySize: Int
            let ivSize: Int
            let tests: [Test]
        }
        struct Test: Decodable {
            let tcId: Int
            let key: String
            let iv: String
            let aad: String
            let msg: String
            let ct: String
            let tag: String
            let result: String
        }
        let testGroups: [Group]
    }

    func testWycheproofAESGCMOnEveryBackend() throws {
        let file = try JSONDecoder().decode(
            WycheproofFile.self, from: Data(contentsOf: TestPaths.vectors("wycheproof/aes_gcm_test.json")))
        for backend in CipherBackend.available {
            CipherBackend.forced = backend
            var valid = 0
            var invalid = 0
            var skipped192 = 0
            for group in file.testGroups {
                for test in group.tests {
                    let key = Hex.decode(test.key)!
                    guard key.count != 24 else {
                        skipped192 += 1
                        continue
                    }
                    let iv = Hex.decode(test.iv)!
                    let aad = Hex.decode(test.aad)!
                    let msg = Hex.decode(test.msg)!
                    let ct = Hex.decode(test.ct)!
                    let tag = Hex.decode(test.tag)!
                    let name = "\(backend) tcId \(test.tcId)"
                    if test.result == "valid" {
                        let gcm = try AESGCM(key: key)
                        let sealed = try gcm.seal(msg, iv: iv, additionalData: aad)
                        XCTAssertEqual(sealed.ciphertext, ct, name)
                        XCTAssertEqual(sealed.tag, tag, name)
                        XCTAssertEqual(try gcm.open(ct, iv: iv, additionalData: aad, tag: tag), msg, name)
                        valid += 1
                    } else {
                        XCTAssertEqual(test.result, "invalid", name)
                        do {
                            _ = try AESGCM(key: key).open(ct, iv: iv, additionalData: aad, tag: tag)
                            XCTFail("\(name) was accepted")
                        } catch {
                            XCTAssertTrue([.authenticationFailed, .invalidIVLength].contains(error.code), "\(name): \(error)")
                        }
                        invalid += 1
                    }
                }
            }
            print("Wycheproof AES-GCM (\(backend)): \(valid) valid, \(invalid) invalid, \(skipped192) AES-192 skipped")
            XCTAssertGreaterThan(valid + invalid, 200)
        }
    }

    /// Apple Pay's shape: AES-256-GCM with a 16-byte all-zero IV and no additional data, random data
    /// of every length up to three blocks plus a tail, the same result on every backend.
    func testBackendsAgreeOnSixteenByteIV() throws {
        var generator = SeededGenerator(seed: 38)
        for length in [0, 1, 15, 16, 17, 63, 64, 65, 200, 1000] {
            let key = generator.bytes(32)
            let plaintext = generator.bytes(length)
            var results: [[UInt8]] = []
            for backend in CipherBackend.available {
                CipherBackend.forced = backend
                let sealed = try AESGCM(key: key).seal(plaintext, iv: [UInt8](repeating: 0, count: 16))
                results.append(sealed.ciphertext + sealed.tag)
                var flipped = sealed.ciphertext + sealed.tag
                if !flipped.isEmpty {
                    flipped[0] ^= 1
                    XCTAssertThrowsError(
                        try AESGCM(key: key).open(
                            Array(flipped.dropLast(16)), iv: [UInt8](repeating: 0, count: 16), tag: Array(flipped.suffix(16))))
                }
            }
            XCTAssertEqual(Set(results).count, 1, "length \(length)")
        }
    }

    func testRefusesBadLengths() {
        XCTAssertThrowsError(try AESGCM(key: [UInt8](repeating: 0, count: 24))) {
            XCTAssertEqual(($0 as? CipherError)?.code, .invalidKeyLength)
        }
        let gcm = try! AESGCM(key: [UInt8](repeating: 0, count: 32))
        XCTAssertThrowsError(try gcm.seal([1], iv: [])) { XCTAssertEqual(($0 as? CipherError)?.code, .invalidIVLength) }
        XCTAssertThrowsError(try gcm.open([1], iv: [0], tag: [1, 2])) {
            XCTAssertEqual(($0 as? CipherError)?.code, .invalidTagLength)
        }
    }
}
