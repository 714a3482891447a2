import Foundation
import SigilCore
import SigilTestSupport
import XCTest

/// RFC 2202 and RFC 4231 HMAC test cases.
final class HMACTests: XCTestCase {
    private func check<H: HashFunction>(_ type: H.Type, file: String, expectedCount: Int) throws {
        let vectors = try CAVPFile(url: TestPaths.vectors("rfc-hmac/\(file)"))
        var checked = 0
        for record in vectors.records {
            guard let key = CAVPFile.hex(record, "Key"), let message = CAVPFile.hex(record, "Msg"),
                let expected = CAVPFile.hex(record, "MD")
            else { continue }
            XCTAssertEqual(HMAC<H>.authenticationCode(key: key, message: message), expected, "\(file) #\(checked)")
            XCTAssertTrue(HMAC<H>.isValidAuthenticationCode(expected, key: key, message: message))
            var wrong = expected
            wrong[wrong.count - 1] ^= 1
            XCTAssertFalse(HMAC<H>.isValidAuthenticationCode(wrong, key: key, message: message))
            XCTAssertFalse(HMAC<H>.isValidAuthenticationCode(expected.dropLast(), key: key, message: message))
            checked += 1
        }
        XCTAssertEqual(checked, expectedCount, file)
    }

    func testRFC2202SHA1() throws { try check(SHA1.self, file: "rfc-2202-sha1.txt", expectedCount: 7) }
    func testRFC4231SHA256() throws { try check(SHA256.self, file: "rfc-4231-sha256.txt", expectedCount: 6) }
    func testRFC4231SHA384() throws { try check(SHA384.self, file: "rfc-4231-sha384.txt", expectedCount: 6) }
    func testRFC4231SHA512() throws { try check(SHA512.self, file: "rfc-4231-sha512.txt", expectedCount: 6) }

    /// RFC 4231 §4.6, test case 5: output truncated to 128 bits (absent from the vector files).
    func testRFC4231TruncatedCase() throws {
        let key = [UInt8](repeating: 0x0c, count: 20)
        let message = Array("Test With Truncation".utf8)
        let expected: [(String, [UInt8])] = [
            ("a3b6167473100ee06e0c796c2955552b", HMAC<SHA256>.authenticationCode(key: key, message: message)),
            ("3abf34c3503b2a23a46efc619baef897", HMAC<SHA384>.authenticationCode(key: key, message: message)),
            ("415fad6271580a531d4179bc891d87a6", HMAC<SHA512>.authenticationCode(key: key, message: message)),
        ]
        for (hex, mac) in expected { XCTAssertEqual(Hex.encode(mac.prefix(16)), hex) }
    }

    func testConstantTimeEquals() {
        XCTAssertTrue(ConstantTime.equals([UInt8](), [UInt8]()))
        XCTAssertTrue(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(ConstantTime.equals([1, 2, 3], [1, 2]))
        for bit in 0..<8 { XCTAssertFalse(ConstantTime.equals([0], [UInt8(1 << bit)])) }
    }
}
