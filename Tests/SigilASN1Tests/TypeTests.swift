import SigilASN1
import SigilTestSupport
import XCTest

final class TypeTests: XCTestCase {
    func testObjectIdentifiers() throws {
        let cases: [(String, String)] = [
            ("1.2.840.10045.2.1", "06 07 2A8648CE3D0201"),
            ("1.3.132.0.34", "06 05 2B81040022"),
            ("1.2.840.113635.100.6.11.1", "06 0A 2A864886F7636406 0B01"),
            ("2.5.4.3", "06 03 550403"),
            ("0.0", "06 01 00"),
            ("2.999.3", "06 03 883703"),
            ("1.2.18446744073709551615", "06 0B 2A 81FFFFFFFFFFFFFFFF7F"),
        ]
        for (dotted, hex) in cases {
            let oid = try ASN1ObjectIdentifier(dotted: dotted)
            XCTAssertEqual(DER.encode(oid), bytes(hex), dotted)
            XCTAssertEqual(try ASN1ObjectIdentifier(node: DER.parse(bytes(hex))), oid, dotted)
            XCTAssertEqual(oid.dotted, dotted)
        }
        XCTAssertEqual([1, 2, 840, 10045, 3, 1, 7] as ASN1ObjectIdentifier, try ASN1ObjectIdentifier(dotted: "1.2.840.10045.3.1.7"))
        // Arc overflow (2^64), non-minimal sub-identifier, truncated last sub-identifier, empty.
        for hex in ["06 0B 2A 82808080808080808000", "06 03 2A 8001", "06 02 2A 86", "06 00"] {
            XCTAssertASN1Error(.invalidObjectIdentifier, try ASN1ObjectIdentifier(node: DER.parse(bytes(hex))), hex)
        }
        for text in ["", "1", "3.1", "1.40", "1..2", "1.02", "1.2.", "1.2.18446744073709551616", "a.b", "-1.2", "1.2 "] {
            XCTAssertASN1Error(.invalidObjectIdentifier, try ASN1ObjectIdentifier(dotted: text), text)
        }
    }

    func testBitStrings() throws {
        let bits = try ASN1BitString(node: DER.parse(bytes("03 03 06 6E 40")))
        XCTAssertEqual(bits.bytes, [0x6E, 0x40])
        XCTAssertEqual(bits.unusedBits, 6)
        XCTAssertEqual(DER.encode(bits), bytes("03 03 06 6E 40"))
        XCTAssertEqual(try ASN1BitString(node: DER.parse(bytes("03 01 00"))).bytes, [])
        XCTAssertASN1Error(.invalidBitString, try ASN1BitString(node: DER.parse(bytes("03 00"))))
        XCTAssertASN1Error(.invalidBitString, try ASN1BitString(node: DER.parse(bytes("03 01 01"))))
        XCTAssertASN1Error(.invalidBitString, try ASN1BitString(node: DER.parse(bytes("03 02 08 00"))))
        XCTAssertASN1Error(.invalidBitString, try ASN1BitString(node: DER.parse(bytes("03 02 01 01"))))
        XCTAssertEqual(try ASN1BitString(node: BER.parse(bytes("03 02 01 01"))).bytes, [1])
        XCTAssertThrowsError(try ASN1BitString(bytes: [0x01], unusedBits: 1))
    }

    func testNullAndOctetString() throws {
        XCTAssertNoThrow(try ASN1Null(node: DER.parse(bytes("05 00"))))
        XCTAssertASN1Error(.invalidNull, try ASN1Null(node: DER.parse(bytes("05 01 00"))))
        XCTAssertEqual(DER.encode(ASN1Null()), bytes("05 00"))
        XCTAssertEqual(try ASN1OctetString(node: DER.parse(bytes("04 00"))).bytes, [])
        XCTAssertEqual(DER.encode(ASN1OctetString([1, 2])), bytes("04 02 0102"))
        // Implicit tagging replaces the tag.
        var writer = DERWriter()
        writer.append(ASN1OctetString([9]), identifier: .contextSpecific(2))
        XCTAssertEqual(writer.bytes, bytes("82 01 09"))
        XCTAssertEqual(try ASN1OctetString(node: DER.parse(writer.bytes), identifier: .contextSpecific(2)).bytes, [9])
        XCTAssertASN1Error(.unexpectedTag, try ASN1OctetString(node: DER.parse(writer.bytes)))
    }

    func testCharacterStrings() throws {
        XCTAssertEqual(try ASN1UTF8String(node: DER.parse(bytes("0C 04 C3BC6E69"))).value, "üni")
        XCTAssertASN1Error(.invalidString, try ASN1UTF8String(node: DER.parse(bytes("0C 02 C0AF"))), "overlong")
        XCTAssertASN1Error(.invalidString, try ASN1UTF8String(node: DER.parse(bytes("0C 03 EDA080"))), "surrogate")
        XCTAssertASN1Error(.invalidString, try ASN1UTF8String(node: DER.parse(bytes("0C 01 C3"))), "truncated")
        XCTAssertEqual(try ASN1PrintableString(node: DER.parse(bytes("13 05 4170706C65"))).value, "Apple")
        XCTAssertASN1Error(.invalidString, try ASN1PrintableString(node: DER.parse(bytes("13 01 40"))), "@")
        XCTAssertASN1Error(.invalidString, try ASN1PrintableString(node: DER.parse(bytes("13 01 2A"))), "*")
        XCTAssertEqual(try ASN1IA5String(node: DER.parse(bytes("16 03 612E62"))).value, "a.b")
        XCTAssertASN1Error(.invalidString, try ASN1IA5String(node: DER.parse(bytes("16 01 80"))))
        XCTAssertASN1Error(.invalidString, try ASN1VisibleString(node: DER.parse(bytes("1A 01 0A"))))
        XCTAssertASN1Error(.invalidString, try ASN1NumericString(node: DER.parse(bytes("12 01 41"))))
        XCTAssertEqual(try ASN1BMPString(node: DER.parse(bytes("1E 04 00410416"))).value, "AЖ")
        XCTAssertASN1Error(.invalidString, try ASN1BMPString(node: DER.parse(bytes("1E 03 004100"))), "odd length")
        XCTAssertASN1Error(.invalidString, try ASN1BMPString(node: DER.parse(bytes("1E 02 D800"))), "surrogate")
        XCTAssertEqual(DER.encode(try ASN1BMPString("AЖ")), bytes("1E 04 00410416"))
        XCTAssertASN1Error(.invalidString, try ASN1BMPString("😀"))
        XCTAssertASN1Error(.invalidString, try ASN1PrintableString("a@b"))
        XCTAssertEqual(DER.encode(try ASN1UTF8String("ü")), bytes("0C 02 C3BC"))
    }

    /// The in-place UTF-8 check accepts exactly what the standard library's `String(validating:)`
    /// accepts: every one- and two-octet input, every three-octet input whose lead is E0–EF (and
    /// the continuation edges around it), every four-octet lead F0–F7 with each second octet and
    /// edge continuations, and random longer inputs mixing valid sequences with stray octets.
    func testUTF8ValidationMatchesTheStandardLibrary() {
        func check(_ input: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
            let expected = String(validating: input, as: UTF8.self) != nil
            if ASN1UTF8String.isValidContent(input[...]) != expected {
                XCTFail("\(input.map { String($0, radix: 16) }) expected \(expected)", file: file, line: line)
            }
        }
        for a in 0...255 {
            check([UInt8(a)])
            for b in 0...255 { check([UInt8(a), UInt8(b)]) }
        }
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for a in 0xE0...0xEF {
            for b in 0...255 {
                for c in edges { check([UInt8(a), UInt8(b), c]) }
            }
        }
        for a in 0xF0...0xF7 {
            for b in 0...255 {
                for c in edges {
                    for d in edges { check([UInt8(a), UInt8(b), c, d]) }
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            [0x41], [0xC3, 0xBC], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0x9F, 0xBF],
            [0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xFF],
        ]
        for _ in 0..<20_000 {
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                input += pieces[Int.random(in: 0..<6, using: &generator)]
            }
            if Bool.random(using: &generator) {
                input.insert(contentsOf: pieces[Int.random(in: 0..<pieces.count, using: &generator)], at: 0)
            }
            check(input)
            // The check on a slice not starting at 0 (content inside a larger document).
            let padded = [0x30, 0x00] + input
            XCTAssertEqual(ASN1UTF8String.isValidContent(padded[2...]), String(validating: input, as: UTF8.self) != nil)
        }
    }

    func testTimes() throws {
        let utc = try ASN1UTCTime(node: DER.parse(Array("\u{17}\u{0D}250301120000Z".utf8)))
        XCTAssertEqual(utc.description, "2025-03-01T12:00:00Z")
        XCTAssertEqual(utc.components.secondsSinceEpoch, 1_740_830_400)
        XCTAssertEqual(try ASN1UTCTime(node: DER.parse(Array("\u{17}\u{0D}500101000000Z".utf8))).components.year, 1950)
        XCTAssertEqual(try ASN1UTCTime(node: DER.parse(Array("\u{17}\u{0D}491231235959Z".utf8))).components.year, 2049)
        for bad in [
            "2503011200Z", "250301120000", "250301120000+0000", "2503011200000Z", "250230120000Z",
            "251301120000Z", "250301240000Z", "250301126000Z", "250301120060Z", "25030112000aZ", "2503011200 0Z",
        ] {
            let der = [0x17, UInt8(bad.utf8.count)] + Array(bad.utf8)
            XCTAssertASN1Error(.invalidTime, try ASN1UTCTime(node: DER.parse(der)), bad)
        }
        let generalized = try ASN1GeneralizedTime(node: DER.parse(Array("\u{18}\u{13}20240229235959.125Z".utf8)))
        XCTAssertEqual(generalized.description, "2024-02-29T23:59:59.125Z")
        XCTAssertEqual(DER.encode(generalized), Array("\u{18}\u{13}20240229235959.125Z".utf8))
        for bad in [
            "20230229000000Z", "20240101000000.Z", "20240101000000.10Z", "20240101000000", "202401010000Z",
            "20240101000000+0100", "20240101000000,5Z", "20241301000000Z", "2024010100000aZ", "20240101000000.1aZ",
        ] {
            let der = [0x18, UInt8(bad.utf8.count)] + Array(bad.utf8)
            XCTAssertASN1Error(.invalidTime, try ASN1GeneralizedTime(node: DER.parse(der)), bad)
        }
        // Epoch conversions against fixed points and a round trip over the whole UTCTime range.
        let points: [(Int64, String)] = [
            (0, "1970-01-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"), (2_524_607_999, "2049-12-31T23:59:59Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"), (-62_135_596_800, "0001-01-01T00:00:00Z"),
        ]
        for (seconds, text) in points {
            let c = try ASN1TimeComponents(secondsSinceEpoch: seconds)
            XCTAssertEqual(c.description, text)
            XCTAssertEqual(c.secondsSinceEpoch, seconds)
        }
        var rng = SeededGenerator(seed: 1950)
        for _ in 0..<5000 {
            let seconds = Int64.random(in: -631_152_000...2_524_607_999, using: &rng)
            let utcTime = try ASN1UTCTime(ASN1TimeComponents(secondsSinceEpoch: seconds))
            let reparsed = try ASN1UTCTime(node: DER.parse(DER.encode(utcTime)))
            XCTAssertEqual(reparsed.components.secondsSinceEpoch, seconds)
            let gt = ASN1GeneralizedTime(try ASN1TimeComponents(secondsSinceEpoch: seconds * 3))
            XCTAssertEqual(try ASN1GeneralizedTime(node: DER.parse(DER.encode(gt))).components.secondsSinceEpoch, seconds * 3)
        }
        XCTAssertThrowsError(try ASN1UTCTime(ASN1TimeComponents(year: 2050, month: 1, day: 1, hour: 0, minute: 0, second: 0)))
    }

    func testWriterLengthsAndNesting() throws {
        for size in [0, 1, 127, 128, 255, 256, 65_535, 65_536, 1 << 20] {
            var writer = DERWriter()
            writer.appendSequence { inner in inner.append(ASN1OctetString([UInt8](repeating: 0xAB, count: size))) }
            let node = try DER.parse(writer.bytes)
            let octets = try ASN1.sequence(node) { try ASN1OctetString(node: $0.next(.octetString)) }
            XCTAssertEqual(octets.bytes.count, size)
        }
        var writer = DERWriter()
        try writer.appendSequence { seq in
            seq.append(ASN1Integer(42))
            seq.appendExplicit(.contextSpecific(0)) { $0.append(true) }
            seq.append(try ASN1ObjectIdentifier(dotted: "1.2.3"))
        }
        XCTAssertEqual(writer.bytes, bytes("30 0C 02 01 2A A0 03 01 01 FF 06 02 2A03"))
    }
}
