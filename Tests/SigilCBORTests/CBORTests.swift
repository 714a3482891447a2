import SigilCBOR
import SigilTestSupport
import XCTest

/// RFC 8949 Appendix A (the examples of the supported subset), every refusal kind with its
/// offset, the limits, and round trips through the encoder.
final class CBORTests: XCTestCase {
    func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex) ?? [] }

    func assertRefused(
        _ hex: String, _ code: CBORError.Code, at offset: Int? = nil, options: CBORDecodingOptions = .strict,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try CBOR.decode(bytes(hex), options: options), file: file, line: line) { error in
            guard let error = error as? CBORError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, code, "\(hex): \(error)", file: file, line: line)
            if let offset { XCTAssertEqual(error.offset, offset, "\(hex): \(error)", file: file, line: line) }
        }
    }

    // MARK: RFC 8949 Appendix A

    /// Appendix A's examples in the strict subset: decoded to the value and encoded back to the same bytes.
    func testAppendixAStrictSubset() throws {
        let examples: [(String, CBORValue)] = [
            ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
            ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
            ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(UInt64.max)),
            ("3bffffffffffffffff", .negative(UInt64.max)), ("20", .integer(-1)), ("29", .integer(-10)), ("3863", .integer(-100)),
            ("3903e7", .integer(-1000)), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("40", .bytes([])),
            ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")),
            ("62225c", .text("\"\\")), ("62c3bc", .text("\u{00FC}")), ("63e6b0b4", .text("\u{6C34}")),
            ("64f0908591", .text("\u{10151}")), ("80", .array([])),
            ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
            ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
            ("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .unsigned(UInt64($0)) })),
            ("a0", .map([])), ("a201020304", .map(pairs: [(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
            ("a26161016162820203", .map(pairs: [(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])),
            ("826161a161626163", .array([.text("a"), .map(pairs: [(.text("b"), .text("c"))])])),
            (
                "a56161614161626142616361436164614461656145",
                .map(pairs: ["a", "b", "c", "d", "e"].map { (.text($0), .text($0.uppercased())) })
            ),
        ]
        for (hex, value) in examples {
            XCTAssertEqual(try CBOR.decode(bytes(hex)), value, hex)
            XCTAssertEqual(try CBOR.decode(bytes(hex), options: CBORDecodingOptions(requireSortedMapKeys: true)), value, hex)
            XCTAssertEqual(Hex.encode(CBOR.encode(value)), hex, hex)
        }
    }

    /// Appendix A's floats, accepted only when the caller opts in.
    func testAppendixAFloats() throws {
        let floats = CBORDecodingOptions(allowFloats: true)
        let examples: [(String, Double)] = [
            ("f90000", 0.0), ("f93c00", 1.0), ("fb3ff199999999999a", 1.1), ("f93e00", 1.5), ("f97bff", 65504.0),
            ("fa47c35000", 100000.0), ("fa7f7fffff", 3.4028234663852886e+38), ("fb7e37e43c8800759c", 1.0e+300),
            ("f90001", 5.960464477539063e-8), ("f90400", 0.00006103515625), ("f9c400", -4.0), ("fbc010666666666666", -4.1),
            ("f97c00", .infinity), ("f9fc00", -.infinity), ("fa7f800000", .infinity), ("fb7ff0000000000000", .infinity),
        ]
        for (hex, expected) in examples {
            XCTAssertEqual(try CBOR.decode(bytes(hex), options: floats), .float(expected), hex)
            assertRefused(hex, .floatNotAllowed, at: 0)
        }
        guard case .float(let negativeZero) = try CBOR.decode(bytes("f98000"), options: floats) else { return XCTFail() }
        XCTAssertEqual(negativeZero, 0)
        XCTAssertEqual(negativeZero.sign, .minus)
        for nan in ["f97e00", "fa7fc00000", "fb7ff8000000000000"] {
            guard case .float(let value) = try CBOR.decode(bytes(nan), options: floats) else { return XCTFail(nan) }
            XCTAssertTrue(value.isNaN, nan)
        }
        XCTAssertEqual(Hex.encode(CBOR.encode(.float(100000.0))), "fa47c35000")
        XCTAssertEqual(Hex.encode(CBOR.encode(.float(1.1))), "fb3ff199999999999a")
    }

    /// Appendix A's tags, accepted (uninterpreted) only when the caller opts in.
    func testAppendixATags() throws {
        let tags = CBORDecodingOptions(allowTags: true)
        let examples: [(String, CBORValue)] = [
            ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, .text("2013-03-21T20:04:00Z"))),
            ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))), ("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
            ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, .text("http://www.example.com"))),
            ("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        ]
        for (hex, value) in examples {
            XCTAssertEqual(try CBOR.decode(bytes(hex), options: tags), value, hex)
            XCTAssertEqual(Hex.encode(CBOR.encode(value)), hex)
            assertRefused(hex, .tagNotAllowed, at: 0)
        }
    }

    /// Appendix A's indefinite-length items, accepted only when the caller opts in.
    func testAppendixAIndefiniteLengths() throws {
        let indefinite = CBORDecodingOptions(allowIndefiniteLengths: true)
        let one = CBORValue.unsigned(1)
        let twoThree = CBORValue.array([.unsigned(2), .unsigned(3)])
        let fourFive = CBORValue.array([.unsigned(4), .unsigned(5)])
        let examples: [(String, CBORValue, Int)] = [
            ("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), 0), ("7f657374726561646d696e67ff", .text("streaming"), 0),
            ("9fff", .array([]), 0), ("9f018202039f0405ffff", .array([one, twoThree, fourFive]), 0),
            ("9f01820203820405ff", .array([one, twoThree, fourFive]), 0), ("83018202039f0405ff", .array([one, twoThree, fourFive]), 5),
            ("83019f0203ff820405", .array([one, twoThree, fourFive]), 2),
            ("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { .unsigned(UInt64($0)) }), 0),
            ("bf61610161629f0203ffff", .map(pairs: [(.text("a"), one), (.text("b"), twoThree)]), 0),
            ("826161bf61626163ff", .array([.text("a"), .map(pairs: [(.text("b"), .text("c"))])]), 3),
            ("bf6346756ef563416d7421ff", .map(pairs: [(.text("Fun"), .bool(true)), (.text("Amt"), .integer(-2))]), 0),
        ]
        for (hex, value, offset) in examples {
            XCTAssertEqual(try CBOR.decode(bytes(hex), options: indefinite), value, hex)
            assertRefused(hex, .indefiniteLength, at: offset)
        }
    }

    /// Appendix A's simple values other than false, true and null, and undefined: refused.
    func testOtherSimpleValuesRefused() {
        for hex in ["f7", "f0", "f8ff", "e0", "f818"] { assertRefused(hex, .unsupportedSimpleValue, at: 0) }
        assertRefused("f810", .unsupportedSimpleValue, at: 0)  // the two-byte form below 32 is not well-formed
    }

    // MARK: Refusals

    func testNonMinimalHeadsRefused() {
        for hex in ["1800", "1817", "190000", "1900ff", "1a0000ffff", "1b00000000ffffffff", "3800", "5801ff", "780161", "9800", "b800"] {
            assertRefused(hex, .nonMinimalArgument, at: 0)
        }
        assertRefused("821800", .nonMinimalArgument, at: 1)
    }

    func testReservedAndMisplacedIndefinite() {
        for hex in ["1c", "1d", "1e", "3c", "5c", "fc", "fd", "fe"] { assertRefused(hex, .reservedAdditionalInfo, at: 0) }
        assertRefused("ff", .invalidIndefiniteItem, at: 0)
        assertRefused("8201ff", .invalidIndefiniteItem, at: 2)
        let indefinite = CBORDecodingOptions(allowIndefiniteLengths: true)
        for hex in ["1f", "3f", "df"] { assertRefused(hex, .invalidIndefiniteItem, at: 0, options: indefinite) }
        // A chunk of another type, or itself indefinite.
        assertRefused("5f6161ff", .invalidIndefiniteItem, at: 1, options: indefinite)
        assertRefused("5f5f4101ffff", .invalidIndefiniteItem, at: 1, options: indefinite)
        assertRefused("7f4161ff", .invalidIndefiniteItem, at: 1, options: indefinite)
        // No break.
        assertRefused("9f01", .truncated, at: 2, options: indefinite)
        assertRefused("5f4101", .truncated, at: 3, options: indefinite)
    }

    func testTruncatedAtEveryPrefix() throws {
        let object = CBOR.encode(
            .map(pairs: [
                (.text("fmt"), .text("apple-appattest")),
                (
                    .text("attStmt"),
                    .map(pairs: [(.text("x5c"), .array([.bytes(Array(repeating: 7, count: 300))])), (.text("receipt"), .bytes([1]))])
                ),
                (.text("authData"), .bytes(Array(repeating: 9, count: 40))), (.integer(-70000), .integer(1 << 40)),
            ]))
        XCTAssertNoThrow(try CBOR.decode(object))
        for length in 0..<object.count {
            XCTAssertThrowsError(try CBOR.decode(Array(object.prefix(length)))) { error in
                XCTAssertEqual((error as? CBORError)?.code, .truncated, "prefix \(length)")
            }
        }
        assertRefused("5affffffff00", .truncated, at: 0)
        assertRefused("5bffffffffffffffff00", .truncated, at: 0)
        assertRefused("9bffffffffffffffff", .truncated, at: 0)
        assertRefused("bbffffffffffffffff", .truncated, at: 0)
        assertRefused("9a00010000", .truncated, at: 0)
    }

    func testTrailingBytesRefused() {
        assertRefused("0000", .trailingBytes, at: 1)
        assertRefused("a0ff", .trailingBytes, at: 1)
        XCTAssertEqual(try? CBOR.decodePrefix(bytes("a0ff")).end, 1)
    }

    func testInvalidUTF8Refused() {
        // A lone continuation byte, an overlong "/", a UTF-16 surrogate, a truncated sequence, beyond U+10FFFF.
        for hex in ["6180", "62c0af", "63eda080", "62e282", "64f4908080"] { assertRefused(hex, .invalidUTF8, at: 0) }
        assertRefused("82616161ff", .invalidUTF8, at: 3)
    }

    func testDuplicateKeysRefusedAndOrderOnRequest() {
        assertRefused("a201020103", .duplicateMapKey, at: 3)
        assertRefused("a2616101616102", .duplicateMapKey, at: 4)
        // Equal values written differently cannot both be shortest form, so one item is one encoding.
        let sorted = CBORDecodingOptions(requireSortedMapKeys: true)
        XCTAssertNoThrow(try CBOR.decode(bytes("a203040102")))  // {3: 4, 1: 2}: any order by default
        assertRefused("a203040102", .unsortedMapKeys, at: 3, options: sorted)
        // Deterministic order compares encodings: 10 (0x0a) < 100 (0x1864) < -1 (0x20) < "z" < "aa" < [100] < [-1] < false.
        let ordered = "a80a001864002000617a0062616100811864008120 00f400".replacingOccurrences(of: " ", with: "")
        XCTAssertNoThrow(try CBOR.decode(bytes(ordered), options: sorted))
        XCTAssertEqual(Hex.encode(CBOR.encode(try CBOR.decode(bytes("a203040102")), sortingMapKeys: true)), "a201020304")
    }

    func testNestedDuplicateKeysRefusedAndHashAgreesWithEquality() throws {
        // {[1, {2: "x"}]: 0, [1, {2: "x"}]: 1}: the same array key twice, a map inside it.
        assertRefused("a28201a1026178008201a102617801", .duplicateMapKey, at: 8)
        // The same key but for the text deep inside ("x" / "y") is another key.
        XCTAssertNoThrow(try CBOR.decode(bytes("a28201a1026178008201a102617901")))
        let values: [CBORValue] = [
            .unsigned(1), .negative(1), .bytes([1]), .text("\u{1}"), .array([.unsigned(1)]), .bool(true), .null,
            .map(pairs: [(.unsigned(2), .text("x"))]), .map(pairs: [(.unsigned(2), .text("y"))]),
            .map(pairs: [(.negative(2), .text("x"))]), .tagged(1, .unsigned(1)), .tagged(2, .unsigned(1)),
            .float(0.0), .float(-0.0), .array([.array([.unsigned(1)])]), .array([]), .map([]), .bytes([]),
        ]
        for a in values {
            for b in values where a == b {
                XCTAssertEqual(a.hashValue, b.hashValue, "\(a) == \(b) with different hashes")
            }
        }
        // 0.0 == −0.0, so the two floats are one member; every other value is distinct.
        XCTAssertEqual(Set(values).count, values.count - 1)
        XCTAssertEqual(Set(values + values).count, values.count - 1)
    }

    // MARK: Limits

    func testDepthLimit() throws {
        let nested = Array(repeating: UInt8(0x81), count: 15) + [0x00]
        XCTAssertNoThrow(try CBOR.decode(nested))
        assertRefused(Hex.encode(Array(repeating: UInt8(0x81), count: 16) + [0x00]), .tooDeep, at: 16)
        let bomb = Array(repeating: UInt8(0x81), count: 100_000) + [0x00]
        XCTAssertThrowsError(try CBOR.decode(bomb, options: CBORDecodingOptions(maximumDepth: 1_000_000))) { error in
            XCTAssertEqual((error as? CBORError)?.code, .tooDeep)
            XCTAssertEqual((error as? CBORError)?.offset, CBORDecodingOptions.depthCeiling)
        }
        let tagged = Array(repeating: UInt8(0xC1), count: 50) + [0x00]
        XCTAssertThrowsError(try CBOR.decode(tagged, options: CBORDecodingOptions(allowTags: true))) { error in
            XCTAssertEqual((error as? CBORError)?.code, .tooDeep)
        }
    }

    func testItemAndSizeLimits() {
        let array = [0x99, 0x01, 0x00] + Array(repeating: UInt8(0), count: 256)
        XCTAssertNoThrow(try CBOR.decode(array))
        assertRefused(Hex.encode(array), .tooManyItems, at: 102, options: CBORDecodingOptions(maximumItems: 100))
        XCTAssertThrowsError(try CBOR.decode(array, options: CBORDecodingOptions(maximumInputBytes: 100))) { error in
            XCTAssertEqual((error as? CBORError)?.code, .tooLarge)
            XCTAssertEqual((error as? CBORError)?.offset, 0)
        }
        // Every chunk of an indefinite string counts as an item.
        let chunks: [UInt8] = [0x5F] + [UInt8](repeating: 0x40, count: 200) + [0xFF]
        XCTAssertThrowsError(
            try CBOR.decode(chunks, options: CBORDecodingOptions(allowIndefiniteLengths: true, maximumItems: 100))
        ) { error in XCTAssertEqual((error as? CBORError)?.code, .tooManyItems) }
    }

    // MARK: Round trips

    func testRandomRoundTrips() throws {
        var rng = SeededGenerator(seed: 0xCB0B)
        func random(_ depth: Int) -> CBORValue {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 8), using: &rng) {
            case 0: return .unsigned(UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng))
            case 1: return .negative(UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng))
            case 2: return .bytes(rng.bytes(Int.random(in: 0...300, using: &rng)))
            case 3: return .text(String(repeating: "é水𐅑a", count: Int.random(in: 0...20, using: &rng)))
            case 4: return [CBORValue.bool(true), .bool(false), .null][Int.random(in: 0...2, using: &rng)]
            case 5: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in random(depth + 1) })
            default:
                var entries: [CBORMapEntry] = []
                for i in 0..<Int.random(in: 0...5, using: &rng) {
                    entries.append(CBORMapEntry(key: .integer(Int64(i) - 2), value: random(depth + 1)))
                }
                return .map(entries)
            }
        }
        for _ in 0..<300 {
            let value = random(0)
            let encoded = CBOR.encode(value)
            XCTAssertEqual(try CBOR.decode(encoded), value)
            let sorted = CBOR.encode(value, sortingMapKeys: true)
            XCTAssertEqual(CBOR.encode(try CBOR.decode(sorted, options: CBORDecodingOptions(requireSortedMapKeys: true))), sorted)
        }
    }

    func testAccessorsAndErrorShape() throws {
        let value = try CBOR.decode(bytes("a26161016162820203"))
        XCTAssertEqual(value["a"], .unsigned(1))
        XCTAssertEqual(value["b"]?.arrayValue?.count, 2)
        XCTAssertNil(value["c"])
        XCTAssertEqual(CBORValue.integer(-1000).int64Value, -1000)
        XCTAssertNil(CBORValue.unsigned(UInt64.max).int64Value)
        let error = CBORError(.truncated, "x", offset: 3)
        XCTAssertEqual(error.qualifiedCode, "cbor.truncated")
        XCTAssertEqual(error.description, "truncated at byte 3: x")
    }
}
