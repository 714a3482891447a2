import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

/// The constant-time PEM decoder used for key files agrees with PEMDocument on every valid input
/// and on mutations of the body, and refuses what RFC 7468 / RFC 4648 refuse.
final class SecretPEMTests: XCTestCase {
    func der(_ text: String) throws -> [UInt8] {
        let blocks = try SecretPEM.decode(Array(text.utf8))
        XCTAssertEqual(blocks.count, 1)
        return blocks.first?.der ?? []
    }

    func testAgreesWithPEMDocumentOnKeys() throws {
        for i in 0..<40 {
            let key = ECDSAPrivateKey.generate(curve: i % 2 == 0 ? .p256 : .p384)
            let pem = key.pkcs8PEM
            XCTAssertEqual(try der(pem), key.pkcs8DER)
            XCTAssertEqual(try der(pem), try PEMDocument.parseAll(pem).first?.derBytes)
            // CRLF, trailing blanks, explanatory text, an EC PARAMETERS block first.
            let crlf = pem.replacingOccurrences(of: "\n", with: "\r\n")
            XCTAssertEqual(try der(crlf), key.pkcs8DER)
            let blanks = pem.replacingOccurrences(of: "\n", with: " \t\n")
            XCTAssertEqual(try der(blanks), key.pkcs8DER)
            let explained = "Subject: test key\nanother line\n" + pem
            XCTAssertEqual(try der(explained), key.pkcs8DER)
            let loaded = try ECKey(
                loading: Array(("-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + pem).utf8))
            guard case .privateKey(let back) = loaded else { return XCTFail("not a private key") }
            XCTAssertEqual(back.rawRepresentation, key.rawRepresentation)
            // SEC 1 "EC PRIVATE KEY" too.
            let sec1 = PEMDocument(label: "EC PRIVATE KEY", derBytes: key.sec1DER).pemString
            XCTAssertEqual(try der(sec1), key.sec1DER)
        }
    }

    func testRefusals() throws {
        let pem = ECDSAPrivateKey.generate(curve: .p256).pkcs8PEM
        var lines = pem.split(separator: "\n").map(String.init)
        func refused(_ text: String, _ why: String) {
            XCTAssertThrowsError(try SecretPEM.decode(Array(text.utf8)), why)
        }
        var bad = lines
        bad[1] = "*" + bad[1].dropFirst()
        refused(bad.joined(separator: "\n"), "a character outside the alphabet")
        refused(pem.replacingOccurrences(of: "-----END PRIVATE KEY-----", with: ""), "no END line")
        refused(pem.replacingOccurrences(of: "-----END PRIVATE KEY-----", with: "-----END PUBLIC KEY-----"), "labels differ")
        bad = lines
        bad[1] = String(bad[1].dropLast())
        refused(bad.joined(separator: "\n"), "length not a multiple of 4")
        // Non-canonical final bits: "QQ==" is 'A'; "QR==" has spare bits set.
        refused("-----BEGIN X-----\nQR==\n-----END X-----\n", "spare bits set")
        XCTAssertEqual(try der("-----BEGIN X-----\nQQ==\n-----END X-----\n"), [0x41])
        refused("-----BEGIN X-----\nQ=Q=\n-----END X-----\n", "padding in the middle")
        refused("-----BEGIN X-----\n-----BEGIN Y-----\n", "BEGIN inside a block")
        lines.insert("Proc-Type: 4,ENCRYPTED", at: 1)
        refused(lines.joined(separator: "\n"), "encrypted PEM headers")
    }

    /// Floods of short lines (explanatory text and blank lines before the block, blank and
    /// whitespace-only lines inside it, blank lines after it) read the same through both readers.
    func testLineFloodsAgreeWithPEMDocument() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let lines = key.pkcs8PEM.split(separator: "\n").map(String.init)
        let body = lines[1..<(lines.count - 1)].joined(separator: "\n\n")
        let flood =
            String(repeating: "text\n\n", count: 5_000) + lines[0] + "\n" + String(repeating: " \r\n", count: 5_000)
            + body + "\n" + lines[lines.count - 1] + "\n" + String(repeating: "\n", count: 5_000)
        XCTAssertEqual(try der(flood), key.pkcs8DER)
        XCTAssertEqual(try PEMDocument.parseAll(flood).map(\.derBytes), [key.pkcs8DER])
    }

    /// Seeded mutations of a key's PEM body: SecretPEM and PEMDocument accept the same inputs and
    /// return the same DER.
    func testMutationsAgreeWithPEMDocument() throws {
        var rng = SeededGenerator(seed: 0x9E3_7795)
        let pem = Array(ECDSAPrivateKey.generate(curve: .p256).pkcs8PEM.utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-* \r\n\t:".utf8)
        var agreed = 0
        var accepted = 0
        for _ in 0..<3000 {
            var text = pem
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 28..<(text.count - 26), using: &rng)  // inside the body
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: text[at] = alphabet.randomElement(using: &rng) ?? 0x41
                case 1: text.remove(at: at)
                default: text.insert(alphabet.randomElement(using: &rng) ?? 0x41, at: at)
                }
            }
            let secret = try? SecretPEM.decode(text).map(\.der)
            let plain = try? PEMDocument.parseAll(String(decoding: text, as: UTF8.self)).map(\.derBytes)
            XCTAssertEqual(secret, plain, String(decoding: text, as: UTF8.self))
            if secret == plain { agreed += 1 }
            if secret != nil { accepted += 1 }
        }
        XCTAssertEqual(agreed, 3000)
        XCTAssertGreaterThan(accepted, 100, "the mutations must include accepted inputs to compare")
    }
}
