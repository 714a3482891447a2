import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

final class KeyFormatTests: XCTestCase {
    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestPaths.fixtures("SigilASN1Tests", name)))
    }

    /// The committed openssl-made keys: PKCS#8 and SEC 1 of the same P-256 key agree, re-encode
    /// byte for byte, and the SPKI of the P-384 key round-trips.
    func testOpenSSLFixtures() throws {
        let pkcs8 = try fixture("ec-p256-pkcs8.der")
        let sec1 = try fixture("ec-p256-sec1.der")
        let a = try ECDSAPrivateKey(pkcs8DER: pkcs8)
        let b = try ECDSAPrivateKey(sec1DER: sec1)
        XCTAssertEqual(a.rawRepresentation, b.rawRepresentation)
        XCTAssertEqual(a.publicKey, b.publicKey)
        XCTAssertEqual(a.pkcs8DER, pkcs8)
        XCTAssertEqual(b.sec1DER, sec1)
        let spki = try fixture("ec-p384-spki.der")
        let publicKey = try ECDSAPublicKey(spkiDER: spki)
        XCTAssertEqual(publicKey.curve, .p384)
        XCTAssertEqual(publicKey.spkiDER, spki)
        XCTAssertEqual(try PEMDocument(pemString: publicKey.pemRepresentation).derBytes, spki)
        if case .privateKey(let loaded) = try ECKey(loading: Array(a.pkcs8PEM.utf8)) {
            XCTAssertEqual(loaded.publicKey, a.publicKey)
        } else {
            XCTFail("PKCS#8 PEM should load as a private key")
        }
        if case .privateKey(let loaded) = try ECKey(loading: sec1) {
            XCTAssertEqual(loaded.publicKey, a.publicKey)
        } else {
            XCTFail("SEC 1 DER should load as a private key")
        }
        if case .publicKey(let loaded) = try ECKey(loading: spki) {
            XCTAssertEqual(loaded, publicKey)
        } else {
            XCTFail("SPKI DER should load as a public key")
        }
    }

    func testRejections() throws {
        let pkcs8 = try fixture("ec-p256-pkcs8.der")
        // Every prefix and a trailing byte are rejected; nothing crashes on mutations.
        for cut in 0..<pkcs8.count { XCTAssertThrowsError(try ECDSAPrivateKey(pkcs8DER: pkcs8.prefix(cut))) }
        XCTAssertThrowsError(try ECDSAPrivateKey(pkcs8DER: pkcs8 + [0]))
        var rng = SeededGenerator(seed: 8)
        for _ in 0..<3000 {
            var mutated = pkcs8
            mutated[Int.random(in: 0..<mutated.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0...7, using: &rng))
            _ = try? ECDSAPrivateKey(pkcs8DER: mutated)
            _ = try? ECKey(loading: mutated)
        }
        // A SEC 1 key whose embedded public key belongs to another key.
        let key = try ECDSAPrivateKey(sec1DER: fixture("ec-p256-sec1.der"))
        let other = ECDSAPrivateKey.generate(curve: .p256)
        var writer = DERWriter()
        writer.appendSequence { seq in
            seq.append(ASN1Integer(1))
            seq.append(ASN1OctetString(key.rawRepresentation))
            seq.appendExplicit(.contextSpecific(0)) { $0.append(KeyOIDs.secp256r1) }
            seq.appendExplicit(.contextSpecific(1)) { $0.append(ASN1BitString(wholeBytes: other.publicKey.uncompressedRepresentation)) }
        }
        XCTAssertThrowsError(try ECDSAPrivateKey(sec1DER: writer.bytes)) {
            XCTAssertEqual(($0 as? SigilKeysError)?.code, .inconsistent)
        }
        // A P-256 scalar labelled P-384 in [0]: the scalar length no longer fits the curve.
        var mislabelled = DERWriter()
        mislabelled.appendSequence { seq in
            seq.append(ASN1Integer(1))
            seq.append(ASN1OctetString(key.rawRepresentation))
            seq.appendExplicit(.contextSpecific(0)) { $0.append(KeyOIDs.secp384r1) }
        }
        XCTAssertThrowsError(try ECDSAPrivateKey(sec1DER: mislabelled.bytes))
        // DER signatures: BER length forms and negative values are refused.
        let signature = key.signature(for: [1, 2, 3], hash: .sha256)
        let der = signature.derRepresentation
        XCTAssertEqual(try ECDSASignature(derEncoded: der, curve: .p256), signature)
        XCTAssertThrowsError(try ECDSASignature(derEncoded: der + [0], curve: .p256))
        XCTAssertThrowsError(try ECDSASignature(derEncoded: [0x30, 0x81, UInt8(der.count - 2)] + der.dropFirst(2), curve: .p256))
        XCTAssertThrowsError(try ECDSASignature(derEncoded: [0x30, 0x06, 0x02, 0x01, 0xFF, 0x02, 0x01, 0x01], curve: .p256))
    }
}
