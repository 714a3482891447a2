import Foundation
import SigilCBOR
import XCTest

@testable import SigilMdoc
@testable import SigilService

/// Every kind of element value as the mdoc answer writes it, including those Annex D never holds:
/// each must be one valid JSON text (parsed back by Foundation's independent reader), typed as
/// documented, with no member name twice.
final class MdocAnswerEncodingTests: XCTestCase {
    private func json(_ item: CBORValue) throws -> Any {
        let text = MdocElementValue(item).answerJSON.serialized
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    func testEveryValueKindIsValidJSON() throws {
        XCTAssertEqual(try json(.text("Doe")) as? String, "Doe")
        XCTAssertEqual(try json(.unsigned(42)) as? Int, 42)
        XCTAssertEqual(try json(.negative(41)) as? Int, -42)
        XCTAssertEqual(try json(.bool(true)) as? Bool, true)
        XCTAssertTrue(try json(.null) is NSNull)
        XCTAssertEqual(try json(.float(1.5)) as? Double, 1.5)
        XCTAssertEqual(try json(.bytes([0, 1, 2])) as? String, "AAEC")
        XCTAssertEqual(try json(.tagged(1004, .text("2019-10-20"))) as? String, "2019-10-20")
        XCTAssertEqual(try json(.tagged(100, .unsigned(1))) as? String, "1970-01-02")
        XCTAssertEqual(try json(.tagged(0, .text("2020-10-01T13:30:02.5Z"))) as? String, "2020-10-01T13:30:02.5Z")
        let tagged = try XCTUnwrap(try json(.tagged(24, .bytes([1]))) as? [String: Any])
        XCTAssertEqual(tagged["tag"] as? Int, 24)
        XCTAssertEqual(tagged["value"] as? String, "AQ==")
        let array = try XCTUnwrap(try json(.array([.unsigned(1), .text("a")])) as? [Any])
        XCTAssertEqual(array.count, 2)
        XCTAssertEqual(array[0] as? Int, 1)
        XCTAssertEqual(array[1] as? String, "a")
        // Beyond 64 bits: text, never a number JSON readers would round.
        XCTAssertEqual(try json(.unsigned(UInt64.max)) as? String, String(UInt64.max))
        XCTAssertNotNil(try json(.negative(UInt64.max)) as? String)
    }

    /// Non-finite floats are not JSON numbers: written as text.
    func testNonFiniteFloatsAreText() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            XCTAssertNotNil(try json(.float(value)) as? String, "\(value)")
        }
    }

    /// A map with text keys is an object; one with any other key (which could print like a text
    /// key) is an array of {"key", "value"}, so no member name is ever written twice.
    func testMapsNeverRepeatAMemberName() throws {
        let object = try XCTUnwrap(
            try json(.map([CBORMapEntry(key: .text("a"), value: .unsigned(1)), CBORMapEntry(key: .text("b"), value: .null)]))
                as? [String: Any])
        XCTAssertEqual(object.count, 2)
        let mixed = CBORValue.map([CBORMapEntry(key: .text("1"), value: .text("x")), CBORMapEntry(key: .unsigned(1), value: .text("y"))])
        let pairs = try XCTUnwrap(try json(mixed) as? [[String: Any]])
        XCTAssertEqual(pairs.count, 2)
        XCTAssertEqual(pairs[0]["key"] as? String, "1")
        XCTAssertEqual(pairs[1]["key"] as? Int, 1)
    }
}
