import Foundation
import SigilCipher
import SigilCore
import SigilTestSupport
import XCTest

@testable import SigilBase

/// Issue 46: the AES key schedule, the RSA private exponent's limbs, the copies RSA key loading
/// makes of the secret numbers and DER, and the one-step KDF's copies of Z are wiped (watched
/// through `SecretMemory`'s wipe log: the wipe happened to the storage that held the secret, in
/// place, and the bytes read back as zero before the memory was released).
final class SecretWipeTests: XCTestCase {
    func testAESKeyScheduleIsWipedWhenReleased() throws {
        for (keyLength, scheduleLength) in [(16, 176), (32, 240)] {
            let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: 0x3C &+ $0 &* 11) }
            var storage: (address: UInt, count: Int) = (0, 0)
            let (_, wipes) = try SecretMemory.observingWipes { () throws -> Void in storage = try sealAndRelease(key) }
            XCTAssertEqual(storage.count, scheduleLength)
            let schedule = wipes.first { $0.address == storage.address }
            XCTAssertNotNil(schedule, "AES-\(keyLength * 8): the key schedule was not wiped when released")
            XCTAssertEqual(schedule?.count, scheduleLength)
            XCTAssertEqual(schedule?.zeroed, true)
            // The array the expansion was built in, wiped in place once copied.
            XCTAssertTrue(
                wipes.contains { $0.address != storage.address && $0.count == scheduleLength && $0.inPlace && $0.zeroed },
                "AES-\(keyLength * 8): the expansion's array was not wiped")
        }
    }

    private func sealAndRelease(_ key: [UInt8]) throws -> (address: UInt, count: Int) {
        let gcm = try AESGCM(key: key)
        let iv = [UInt8](repeating: 7, count: 12)
        let sealed = try gcm.seal(Array("issue 46".utf8), iv: iv)
        XCTAssertEqual(try gcm.open(sealed.ciphertext, iv: iv, tag: sealed.tag), Array("issue 46".utf8))
        return gcm.keyScheduleStorage
    }

    private struct WycheproofFile: Decodable {
        struct Group: Decodable {
            let privateKeyPem: String
            let privateKeyPkcs8: String
        }
        let testGroups: [Group]
    }

    func testRSAPrivateExponentAndLoadingCopiesAreWiped() throws {
        let file = try JSONDecoder().decode(
            WycheproofFile.self,
            from: Data(contentsOf: TestPaths.vectors("wycheproof/rsa_oaep_2048_sha256_mgf1sha256_test.json")))
        let group = try XCTUnwrap(file.testGroups.first)
        let der = try XCTUnwrap(Hex.decode(group.privateKeyPkcs8))
        let pkcs1Length = der.count - 26  // the PKCS#1 DER inside the PKCS#8 OCTET STRING
        var storage: (address: UInt, count: Int) = (0, 0)
        let (_, wipes) = try SecretMemory.observingWipes { () throws -> Void in
            storage = try loadUseAndRelease(Array(group.privateKeyPem.utf8))
        }
        XCTAssertEqual(storage.count, 256)
        let exponent = wipes.first { $0.address == storage.address }
        XCTAssertNotNil(exponent, "d's limbs were not wiped when the key was released")
        XCTAssertEqual(exponent?.count, 256)
        XCTAssertEqual(exponent?.zeroed, true)
        let inPlace = wipes.filter { $0.inPlace && $0.zeroed }
        // The PEM's decoded DER and the PKCS#1 DER inside it.
        XCTAssertTrue(inPlace.contains { $0.count == der.count }, "the DER decoded from PEM was not wiped")
        XCTAssertTrue(inPlace.contains { $0.count == pkcs1Length }, "the PKCS#1 DER inside PKCS#8 was not wiped")
        // d (256 bytes) and p, q, dP, dQ, qInv (about 128 bytes each, read and never used).
        XCTAssertGreaterThanOrEqual(inPlace.filter { $0.count == 256 }.count, 1, "d's bytes were not wiped")
        XCTAssertGreaterThanOrEqual(inPlace.filter { (120...128).contains($0.count) }.count, 5, "p, q, dP, dQ, qInv were not wiped")
        XCTAssertTrue(wipes.allSatisfy(\.zeroed))
    }

    private func loadUseAndRelease(_ pem: [UInt8]) throws -> (address: UInt, count: Int) {
        let key = try RSAPrivateKey(loading: pem)
        XCTAssertThrowsError(try key.decryptOAEP([UInt8](repeating: 1, count: 256)))
        return key.privateExponentStorage
    }

    func testConcatKDFWipesItsCopiesOfTheSharedSecret() throws {
        let z = [UInt8](repeating: 0x5A, count: 32)
        let fixedInfo = Array("fixed info".utf8)
        let (key, wipes) = try SecretMemory.observingWipes { try ConcatKDF.deriveKey(sharedSecret: z, fixedInfo: fixedInfo, length: 40) }
        XCTAssertEqual(key.count, 40)
        XCTAssertTrue(
            wipes.contains { $0.count == 4 + z.count + fixedInfo.count && $0.inPlace && $0.zeroed }, "the KDF input holding Z was not wiped"
        )
        XCTAssertGreaterThanOrEqual(wipes.filter { $0.count == 32 && $0.inPlace && $0.zeroed }.count, 2, "the hash outputs were not wiped")
        XCTAssertTrue(wipes.contains { $0.count == 24 && $0.zeroed }, "the cut tail was not wiped")
        XCTAssertEqual(z, [UInt8](repeating: 0x5A, count: 32))
    }
}
