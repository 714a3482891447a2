import Foundation
import SigilTestSupport
import XCTest

@testable import SigilJOSE

/// `JSONValue.nearestDouble(toNumber:)` (no strtod, for Embedded Swift) against `Double(text)`
/// (the C library's strtod): bit for bit on the hard cases of decimal-to-binary conversion and on
/// random numbers of every shape, and nil exactly for text outside the JSON grammar.
final class NearestDoubleTests: XCTestCase {
    private func assertSame(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let expected = Double(text) else { return XCTFail("Double(\(text)) is nil", file: file, line: line) }
        guard let found = JSONValue.nearestDouble(toNumber: text) else {
            return XCTFail("\(text): nil, Double gives \(expected)", file: file, line: line)
        }
        XCTAssertEqual(found.bitPattern, expected.bitPattern, "\(text): \(found), Double gives \(expected)", file: file, line: line)
    }

    func testHardCases() {
        let cases = [
            "0", "-0", "0.0", "-0.0", "0e10", "-0e-10", "1", "-1", "1.5", "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "-1e400", "2e-324",
            "2.4703282292062327e-324", "2.4703282292062328e-324", "4.9406564584124654e-324", "5e-324", "1e-400", "2.2250738585072011e-308",
            "2.2250738585072012e-308", "2.2250738585072014e-308", "9007199254740992", "9007199254740993", "9007199254740994",
            "9007199254740995", "9007199254740993.0000000000000001", "18014398509481985", "1697680122257.447", "1698149000000.5",
            "99999999999999999", "100000000000000000", "99999999999999999.5", "1e17", "1E+2", "1e-5", "123456.789e3",
            "7.2057594037927933e16", "0.000000000000000000000000000001", "1000000000000000000000000000000",
            "9999999999999999999999999999999999999999999999999999999999999999", "0.1e-310", "123456789012345678901234567890e-340",
            "4.9e-324", "2.47e-324", "2.48e-324", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
        ].filter { Double($0) != nil }
        for text in cases { assertSame(text) }
    }

    func testRandomNumbersOfEveryShape() {
        var rng = SeededGenerator(seed: 0x4E44)
        func digits(_ count: Int) -> String {
            var text = ""
            for _ in 0..<count { text.append(Character(Unicode.Scalar(UInt8.random(in: 0x30...0x39, using: &rng)))) }
            return text
        }
        for _ in 0..<20_000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let integerLength = Int.random(in: 1...25, using: &rng)
            var integer = digits(integerLength)
            while integer.count > 1 && integer.first == "0" { integer.removeFirst() }
            text += integer
            if Bool.random(using: &rng) { text += "." + digits(Int.random(in: 1...30, using: &rng)) }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: break
            case 1: text += "e" + String(Int.random(in: -30...30, using: &rng))
            case 2: text += "E+" + String(Int.random(in: 0...330, using: &rng))
            default: text += "e-" + String(Int.random(in: 280...360, using: &rng))
            }
            assertSame(text)
        }
        // Doubles printed back (shortest and 17 digits), and the exact midpoints between two
        // neighbouring Doubles (ties go to the even one) and just above them.
        for _ in 0..<5_000 {
            let value = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            assertSame(value.description)
            assertSame(String(format: "%.17g", value))
        }
        for _ in 0..<3_000 {
            let value = Double.random(in: 1e-6...1e18, using: &rng)
            let midpoint = Self.exactMidpointAbove(value)
            assertSame(midpoint)
            assertSame(midpoint.contains("e") ? midpoint.replacingOccurrences(of: "e", with: ".000001e") : midpoint + ".000001")
        }
    }

    /// The decimal text of the exact midpoint between `value` (positive, normal) and the next
    /// Double up: (2m + 1) × 2^(e−1) for value = m × 2^e, m the 53-bit significand.
    private static func exactMidpointAbove(_ value: Double) -> String {
        let m = UInt64(value.significandBitPattern | 1 << 52)
        let e = Int(value.exponent) - 52
        var digits = Array(String(2 * m + 1).utf8).map { Int($0) - 48 }
        func multiply(by factor: Int) {
            var carry = 0
            for i in digits.indices.reversed() {
                let p = digits[i] * factor + carry
                digits[i] = p % 10
                carry = p / 10
            }
            while carry > 0 {
                digits.insert(carry % 10, at: 0)
                carry /= 10
            }
        }
        let t = e - 1
        if t >= 0 {
            for _ in 0..<t { multiply(by: 2) }
            return String(digits.map { Character(String($0)) })
        }
        for _ in 0..<(-t) { multiply(by: 5) }
        return String(digits.map { Character(String($0)) }) + "e\(t)"
    }

    func testOnlyTheJSONGrammar() {
        for text in ["", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "0x10", "inf", "nan", "1 ", " 1", "1.5.2", "1ee5", "١"] {
            XCTAssertNil(JSONValue.nearestDouble(toNumber: text), text)
        }
        XCTAssertEqual(JSONValue.nearestDouble(toNumber: "1e99999999999999999999"), .infinity)
        XCTAssertEqual(JSONValue.nearestDouble(toNumber: "-1e-99999999999999999999")?.bitPattern, (-0.0).bitPattern)
    }
}
