import SigilCore
import XCTest

@testable import SigilBase

/// Issue 46: `SecretMemory` (the one wipe) and the ECDSA private key's scalar storage, watched
/// through the wipe log: each test shows the wipe happened, in place, to the storage that held the
/// secret, and that the bytes read back as zero before the memory was released.
final class SecretMemoryTests: XCTestCase {
    private func address(_ bytes: [UInt8]) -> UInt { bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }

    func testWipeZeroesAnArrayInPlaceAndIsLogged() {
        var secret: [UInt8] = (1...48).map { UInt8($0) }
        let before = address(secret)
        let (inPlace, wipes) = SecretMemory.observingWipes { SecretMemory.wipe(&secret) }
        XCTAssertTrue(inPlace)
        XCTAssertEqual(secret, [UInt8](repeating: 0, count: 48))
        XCTAssertEqual(address(secret), before)
        let wipe = wipes.first { $0.address == before }
        XCTAssertEqual(wipe?.count, 48)
        XCTAssertEqual(wipe?.zeroed, true)
        XCTAssertEqual(wipe?.inPlace, true)
    }

    func testASharedArrayIsNotWipedInPlace() {
        var secret: [UInt8] = [1, 2, 3, 4]
        let other = secret
        XCTAssertFalse(SecretMemory.wipe(&secret))
        XCTAssertEqual(secret, [0, 0, 0, 0])
        XCTAssertEqual(other, [1, 2, 3, 4])  // the other holder's storage is untouched
        var empty: [UInt8] = []
        XCTAssertTrue(SecretMemory.wipe(&empty))
    }

    func testWipeOfRawMemoryAndOwnedCopy() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xA5)
        SecretMemory.wipe(buffer)
        XCTAssertTrue(buffer.allSatisfy { $0 == 0 })
        let original: [UInt8] = [9, 8, 7]
        let copy = SecretMemory.ownedCopy(of: original)
        XCTAssertEqual(copy, original)
        XCTAssertNotEqual(address(copy), address(original))  // `Array(original)` would share it
    }

    /// The key keeps its scalar in storage of its own (not the caller's array, which `Array(_:)`
    /// would share), exports fresh copies, and wipes its storage in place when released.
    func testECDSAPrivateKeyScalarIsWipedInPlaceWhenReleased() throws {
        for curve in ECCurve.allCases {
            let raw = (0..<curve.byteCount).map { UInt8(truncatingIfNeeded: 0x11 &+ $0 &* 7) }
            var storage: UInt = 0
            let (_, wipes) = try SecretMemory.observingWipes { () throws -> Void in
                storage = try useAndReleaseKey(raw, curve: curve)
            }
            XCTAssertNotEqual(storage, address(raw), "the key shares the caller's array")
            let wipe = wipes.first { $0.address == storage }
            XCTAssertNotNil(wipe, "\(curve): the scalar's storage was not wiped when the key was released")
            XCTAssertEqual(wipe?.count, curve.byteCount)
            XCTAssertEqual(wipe?.zeroed, true)
            XCTAssertEqual(wipe?.inPlace, true, "\(curve): the scalar's storage was shared when the key was released")
            XCTAssertEqual(raw, (0..<curve.byteCount).map { UInt8(truncatingIfNeeded: 0x11 &+ $0 &* 7) })
        }
    }

    /// Makes a key from `raw`, signs and exports with it, and returns its storage's address; the
    /// key is released on return.
    private func useAndReleaseKey(_ raw: [UInt8], curve: ECCurve) throws -> UInt {
        let key = try ECDSAPrivateKey(rawRepresentation: raw, curve: curve)
        let exported = key.rawRepresentation
        XCTAssertEqual(exported, raw)
        XCTAssertNotEqual(address(exported), key.secretStorageAddress, "rawRepresentation hands out the key's own storage")
        let signature = key.signature(for: Array("issue 46".utf8), hash: .sha256)
        XCTAssertTrue(key.publicKey.isValidSignatureVartime(signature, for: Array("issue 46".utf8), hash: .sha256))
        return key.secretStorageAddress
    }
}
