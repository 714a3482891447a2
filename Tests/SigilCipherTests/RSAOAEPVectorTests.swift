import Foundation
import SigilCipher
import SigilCore
import SigilTestSupport
import XCTest

/// RSA-OAEP decryption and RSA private-key loading against pyca/cryptography's OAEP vectors (RSA
/// Laboratories' SHA-1 file and the SHA-256/MGF1-SHA-256 file derived from NIST's) and Wycheproof's
/// 2048-bit SHA-1, 2048- and 3072-bit SHA-256 groups (keys loaded from their PKCS#8 DER, PEM and the
/// PKCS#1 DER inside).
final class RSAOAEPVectorTests: XCTestCase {
    private struct Example {
        var n: [UInt8] = []
        var e: [UInt8] = []
        var d: [UInt8] = []
        var message: [UInt8] = []
        var ciphertext: [UInt8] = []
    }

    /// The RSA Laboratories vector layout: `# Label:` lines, each followed by hex lines.
    private func examples(_ name: String) throws -> [Example] {
        let text = try String(contentsOf: TestPaths.vectors("rsa-oaep/\(name)"), encoding: .utf8)
        var fields: [(label: String, hex: String)] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                fields.append((line.dropFirst().trimmingCharacters(in: .whitespaces), ""))
            } else if !fields.isEmpty, !line.isEmpty, line.allSatisfy({ $0.isHexDigit || $0 == " " }) {
                fields[fields.count - 1].hex += line.replacingOccurrences(of: " ", with: "")
            }
        }
        var result: [Example] = []
        var key = Example()
        var inPrivate = false
        var message: [UInt8]?
        for (label, hex) in fields {
            let bytes = Hex.decode(hex.count % 2 == 1 ? "0" + hex : hex) ?? []
            switch label {
            case "Private key": inPrivate = true
            case "Public key": inPrivate = false
            case "Modulus:" where inPrivate: key.n = bytes
            case "Public exponent:" where inPrivate: key.e = bytes
            case "Exponent:" where inPrivate: key.d = bytes
            case "Message to be encrypted:", "Message:": message = bytes
            case "Encryption:":
                var example = key
                example.message = message ?? []
                example.ciphertext = bytes
                result.append(example)
            default: break
            }
        }
        return result
    }

    func testPycaOAEPVectors() throws {
        for (file, hash) in [("oaep-vect.txt", HashAlgorithm.sha1), ("oaep-sha256-sha256.txt", .sha256)] {
            let all = try examples(file)
            XCTAssertEqual(all.count, 60, file)
            var keys: [[UInt8]: RSAPrivateKey] = [:]
            for example in all {
                let key =
                    try keys[example.n]
                    ?? RSAPrivateKey(modulus: example.n, publicExponent: example.e, privateExponent: example.d, minimumModulusBits: 1024)
                keys[example.n] = key
                XCTAssertEqual(try key.decryptOAEP(example.ciphertext, hash: hash), example.message, file)
                var flipped = example.ciphertext
                flipped[flipped.count / 2] ^= 0x10
                XCTAssertThrowsError(try key.decryptOAEP(flipped, hash: hash)) {
                    XCTAssertEqual(($0 as? CipherError)?.code, .decryptionFailed)
                }
            }
            print("pyca OAEP \(file): \(all.count) decryptions, \(keys.count) keys")
        }
    }

    private struct WycheproofFile: Decodable {
        struct Group: Decodable {
            let sha: String
            let mgfSha: String
            let privateKeyPkcs8: String
            let privateKeyPem: String
            let tests: [Test]
        }
        struct Test: Decodable {
            let tcId: Int
            let msg: String
            let ct: String
            let label: String
            let result: String
        }
        let testGroups: [Group]
    }

    func testWycheproofRSAOAEP() throws {
        for name in ["rsa_oaep_2048_sha1_mgf1sha1_test", "rsa_oaep_2048_sha256_mgf1sha256_test", "rsa_oaep_3072_sha256_mgf1sha256_test"] {
            let file = try JSONDecoder().decode(WycheproofFile.self, from: Data(contentsOf: TestPaths.vectors("wycheproof/\(name).json")))
            var counts: [String: Int] = [:]
            for group in file.testGroups {
                let hash: HashAlgorithm = group.sha == "SHA-1" ? .sha1 : .sha256
                XCTAssertEqual(group.sha, group.mgfSha)
                let der = Hex.decode(group.privateKeyPkcs8)!
                let key = try RSAPrivateKey(pkcs8DER: der)
                // The same key as PEM, and as the PKCS#1 DER inside the PKCS#8 OCTET STRING.
                let fromPEM = try RSAPrivateKey(loading: Array(group.privateKeyPem.utf8))
                XCTAssertEqual(fromPEM.publicKey, key.publicKey)
                XCTAssertEqual(der[22], 0x04)
                let pkcs1 = Array(der[26...])
                XCTAssertEqual(try RSAPrivateKey(pkcs1DER: pkcs1).publicKey, key.publicKey)
                XCTAssertEqual(try RSAPrivateKey(loading: pkcs1).publicKey, key.publicKey)
                XCTAssertEqual(try RSAPrivateKey(loading: der).publicKey, key.publicKey)
                for test in group.tests {
                    let decrypted = try? key.decryptOAEP(Hex.decode(test.ct)!, hash: hash, label: Hex.decode(test.label)!)
                    if test.result == "valid" {
                        XCTAssertEqual(decrypted, Hex.decode(test.msg)!, "\(name) tcId \(test.tcId)")
                    } else {
                        XCTAssertNil(decrypted, "\(name) tcId \(test.tcId)")
                    }
                    counts[test.result, default: 0] += 1
                }
            }
            print("Wycheproof \(name): \(counts.sorted { $0.key < $1.key })")
            XCTAssertGreaterThan(counts["invalid", default: 0], 10)
        }
    }

    func testRefusesInconsistentAndMalformedKeys() throws {
        let example = try XCTUnwrap(try examples("oaep-sha256-sha256.txt").first)
        var wrongD = example.d
        wrongD[wrongD.count - 1] ^= 2
        XCTAssertThrowsError(
            try RSAPrivateKey(modulus: example.n, publicExponent: example.e, privateExponent: wrongD, minimumModulusBits: 1024)
        ) { XCTAssertEqual(($0 as? CipherError)?.code, .invalidPrivateKey) }
        XCTAssertThrowsError(try RSAPrivateKey(loading: Array("not a key".utf8)))
        XCTAssertThrowsError(try RSAPrivateKey(pkcs1DER: [0x30, 0x03, 0x02, 0x01, 0x01]))
        let key = try RSAPrivateKey(modulus: example.n, publicExponent: example.e, privateExponent: example.d, minimumModulusBits: 1024)
        XCTAssertFalse(key.description.contains(Hex.encode(example.d.prefix(8))))
        // A ciphertext of the wrong length, and one not below n.
        XCTAssertThrowsError(try key.decryptOAEP(Array(example.ciphertext.dropLast())))
        XCTAssertThrowsError(try key.decryptOAEP([UInt8](repeating: 0xFF, count: example.ciphertext.count)))
    }
}
