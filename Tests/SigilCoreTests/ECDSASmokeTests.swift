import SigilCore
import SigilTestSupport
import XCTest

final class ECDSASmokeTests: XCTestCase {
    /// RFC 6979 A.2.5: P-256, SHA-256, message "sample".
    func testRFC6979P256SHA256Sample() throws {
        let key = try ECDSAPrivateKey(
            rawRepresentation: Hex.decode("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")!, curve: .p256)
        XCTAssertEqual(Hex.encode(key.publicKey.x), "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        XCTAssertEqual(Hex.encode(key.publicKey.y), "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
        let signature = key.signature(for: Array("sample".utf8), hash: .sha256)
        XCTAssertEqual(Hex.encode(signature.r), "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716")
        XCTAssertEqual(Hex.encode(signature.s), "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8")
        XCTAssertTrue(key.publicKey.isValidSignatureVartime(signature, for: Array("sample".utf8), hash: .sha256))
        XCTAssertFalse(key.publicKey.isValidSignatureVartime(signature, for: Array("samplf".utf8), hash: .sha256))
    }
}
