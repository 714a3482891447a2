import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

/// Wycheproof ECDSA groups with DER signatures: strict ECDSA-Sig-Value decoding plus verification.
/// Every `valid` case verifies, every `invalid` one (BER encodings, extra bytes, wrong lengths,
/// out-of-range values, arithmetic edge cases) is rejected. These files have no `acceptable` cases;
/// if one appears, the test fails so its decision gets documented.
final class WycheproofDERTests: XCTestCase {
    private func run(_ file: String, _ curve: ECCurve, _ hash: HashAlgorithm) throws {
        let data = try Data(contentsOf: TestPaths.vectors("wycheproof/\(file).json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var valid = 0
        var invalid = 0
        var acceptable = 0
        for group in try XCTUnwrap(json["testGroups"] as? [[String: Any]]) {
            // The key both ways: from the raw point and from the SPKI DER, which must agree.
            let publicKey = try XCTUnwrap(group["publicKey"] as? [String: Any])
            let point = try XCTUnwrap((publicKey["uncompressed"] as? String).flatMap(Hex.decode))
            let spki = try XCTUnwrap((group["publicKeyDer"] as? String).flatMap(Hex.decode))
            let key = try ECDSAPublicKey(spkiDER: spki)
            XCTAssertEqual(key, try ECDSAPublicKey(sec1Representation: point, curve: curve))
            XCTAssertEqual(key.spkiDER, spki, "SPKI re-encodes byte for byte")
            for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
                let id = test["tcId"] as? Int ?? -1
                let message = try XCTUnwrap((test["msg"] as? String).flatMap(Hex.decode))
                let der = try XCTUnwrap((test["sig"] as? String).flatMap(Hex.decode))
                var verified = false
                if let signature = try? ECDSASignature(derEncoded: der, curve: curve) {
                    verified = key.isValidSignatureVartime(signature, for: message, hash: hash)
                    if verified { XCTAssertEqual(signature.derRepresentation, der, "tcId \(id): valid DER re-encodes exactly") }
                }
                switch test["result"] as? String {
                case "valid":
                    XCTAssertTrue(verified, "\(file) tcId \(id) \(test["comment"] ?? "") should verify")
                    valid += 1
                case "invalid":
                    XCTAssertFalse(verified, "\(file) tcId \(id) \(test["comment"] ?? "") should be rejected")
                    invalid += 1
                default:
                    acceptable += 1
                }
            }
        }
        XCTAssertGreaterThan(valid, 0)
        XCTAssertGreaterThan(invalid, 0)
        XCTAssertEqual(acceptable, 0, "\(file) has acceptable cases: decide and document them")
    }

    func testSecp256r1SHA256() throws { try run("ecdsa_secp256r1_sha256_test", .p256, .sha256) }
    func testSecp256r1SHA512() throws { try run("ecdsa_secp256r1_sha512_test", .p256, .sha512) }
    func testSecp384r1SHA384() throws { try run("ecdsa_secp384r1_sha384_test", .p384, .sha384) }
    func testSecp384r1SHA512() throws { try run("ecdsa_secp384r1_sha512_test", .p384, .sha512) }
    func testSecp384r1SHA256() throws { try run("ecdsa_secp384r1_sha256_test", .p384, .sha256) }
}
