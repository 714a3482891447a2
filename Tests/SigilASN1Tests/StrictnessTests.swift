import SigilASN1
import SigilTestSupport
import XCTest

/// X.690 framing rules: what DER rejects, what BER alone relaxes, and what both reject.
final class StrictnessTests: XCTestCase {
    func testRejectsNonMinimalLengthsInDERAcceptsInBER() throws {
        for hex in ["04 81 03 010203", "04 82 0003 010203", "30 81 03 020101", "04 84 00000003 010203"] {
            XCTAssertASN1Error(.invalidLength, try DER.parse(bytes(hex)), hex)
            let node = try BER.parse(bytes(hex))
            XCTAssertEqual(node.contentBytes.count, 3, hex)
        }
        // Long form with a leading zero octet but ≥ 128 bytes of content.
        let long = [0x04, 0x82, 0x00, 0x80] + [UInt8](repeating: 7, count: 128)
        XCTAssertASN1Error(.invalidLength, try DER.parse(long))
        XCTAssertEqual(try BER.parse(long).contentBytes.count, 128)
        // The minimal long form is fine in both.
        let minimal = [0x04, 0x81, 0x80] + [UInt8](repeating: 7, count: 128)
        XCTAssertEqual(try DER.parse(minimal).contentBytes.count, 128)
    }

    func testRejectsReservedAndOversizedLengths() {
        XCTAssertASN1Error(.invalidLength, try BER.parse(bytes("04 FF 00")))
        XCTAssertASN1Error(.invalidLength, try DER.parse(bytes("04 89 010000000000000000 00")))
        XCTAssertASN1Error(.truncated, try DER.parse(bytes("04 88 7FFFFFFFFFFFFFFF")))
        XCTAssertASN1Error(.truncated, try DER.parse(bytes("04 05 0102")))
        XCTAssertASN1Error(.truncated, try DER.parse(bytes("04 84 01")))
        XCTAssertASN1Error(.truncated, try DER.parse([UInt8]()))
    }

    func testRejectsIndefiniteLengthInDERAcceptsInBER() throws {
        let hex = "30 80 02 01 05 04 02 AABB 00 00"
        XCTAssertASN1Error(.indefiniteLength, try DER.parse(bytes(hex)))
        let node = try BER.parse(bytes(hex))
        XCTAssertTrue(node.isIndefiniteLength)
        XCTAssertEqual(node.children.count, 2)
        XCTAssertEqual(Array(node.encodedBytes), bytes(hex))
        // Nested indefinite lengths.
        let nested = try BER.parse(bytes("30 80 30 80 05 00 00 00 30 80 00 00 00 00"))
        XCTAssertEqual(allNodes(nested).count, 4)
        // Indefinite length on a primitive is refused even in BER.
        XCTAssertASN1Error(.indefiniteLength, try BER.parse(bytes("04 80 01 00 00")))
        // Missing, cut or malformed end-of-contents.
        XCTAssertASN1Error(.missingEndOfContents, try BER.parse(bytes("30 80 05 00")))
        XCTAssertASN1Error(.truncated, try BER.parse(bytes("30 80 05 00 00")))
        XCTAssertASN1Error(.missingEndOfContents, try BER.parse(bytes("30 80 05 00 00 01")))
        // End-of-contents outside an indefinite-length value.
        XCTAssertASN1Error(.invalidIdentifier, try BER.parse(bytes("30 02 00 00")))
        XCTAssertASN1Error(.invalidIdentifier, try BER.parse(bytes("00 00")))
    }

    func testBooleans() throws {
        XCTAssertEqual(try Bool(node: DER.parse(bytes("01 01 FF"))), true)
        XCTAssertEqual(try Bool(node: DER.parse(bytes("01 01 00"))), false)
        for value in ["01", "7F", "80", "FE"] {
            XCTAssertASN1Error(.invalidBoolean, try Bool(node: DER.parse(bytes("01 01 " + value))), value)
            XCTAssertEqual(try Bool(node: BER.parse(bytes("01 01 " + value))), true, value)
        }
        XCTAssertASN1Error(.invalidBoolean, try Bool(node: BER.parse(bytes("01 00"))))
        XCTAssertASN1Error(.invalidBoolean, try Bool(node: BER.parse(bytes("01 02 FFFF"))))
        XCTAssertEqual(DER.encode(true), bytes("01 01 FF"))
        XCTAssertEqual(DER.encode(false), bytes("01 01 00"))
    }

    /// X.690 8.3.2 applies to BER as well as DER, so both reject non-minimal INTEGERs.
    func testRejectsNonMinimalIntegersInBoth() throws {
        for hex in ["02 02 0000", "02 02 007F", "02 02 FFFF", "02 02 FF80", "02 03 000080", "02 00"] {
            XCTAssertASN1Error(.invalidInteger, try ASN1Integer(node: DER.parse(bytes(hex))), hex)
            XCTAssertASN1Error(.invalidInteger, try ASN1Integer(node: BER.parse(bytes(hex))), hex)
        }
        let cases: [(String, Int64)] = [
            ("02 01 00", 0), ("02 01 7F", 127), ("02 02 0080", 128), ("02 01 80", -128),
            ("02 02 FF7F", -129), ("02 01 FF", -1), ("02 02 0100", 256),
            ("02 08 7FFFFFFFFFFFFFFF", .max), ("02 08 8000000000000000", .min),
        ]
        for (hex, value) in cases {
            let integer = try ASN1Integer(node: DER.parse(bytes(hex)))
            XCTAssertEqual(integer.int64Value, value, hex)
            XCTAssertEqual(DER.encode(ASN1Integer(value)), bytes(hex), hex)
        }
        let big = try ASN1Integer(node: DER.parse(bytes("02 09 00FFFFFFFFFFFFFFFF")))
        XCTAssertNil(big.int64Value)
        XCTAssertASN1Error(.integerOutOfRange, try big.intValue())
        XCTAssertEqual(big.unsignedMagnitude, [UInt8](repeating: 0xFF, count: 8))
        XCTAssertEqual(ASN1Integer(unsignedMagnitude: [0, 0, 0x80]).twosComplementBytes, [0, 0x80])
        XCTAssertEqual(ASN1Integer(unsignedMagnitude: [UInt8]()).twosComplementBytes, [0])
        XCTAssertNil(try ASN1Integer(node: DER.parse(bytes("02 01 80"))).unsignedMagnitude)
    }

    func testRejectsWrongConstructedBits() throws {
        // Must be primitive in both: BOOLEAN, INTEGER, NULL, OID.
        for hex in ["21 03 01 01 FF", "22 03 02 01 05", "25 00", "26 03 06 01 00"] {
            XCTAssertASN1Error(.invalidConstruction, try DER.parse(bytes(hex)), hex)
            XCTAssertASN1Error(.invalidConstruction, try BER.parse(bytes(hex)), hex)
        }
        // Must be constructed in both: SEQUENCE, SET.
        for hex in ["10 00", "11 00", "10 01 05"] {
            XCTAssertASN1Error(.invalidConstruction, try DER.parse(bytes(hex)), hex)
            XCTAssertASN1Error(.invalidConstruction, try BER.parse(bytes(hex)), hex)
        }
        // Strings: primitive in DER, segmented allowed in BER.
        let segmentedOctets = "24 08 04 02 AABB 04 02 CCDD"
        XCTAssertASN1Error(.invalidConstruction, try DER.parse(bytes(segmentedOctets)))
        XCTAssertEqual(try ASN1OctetString(node: BER.parse(bytes(segmentedOctets))).bytes, bytes("AABBCCDD"))
        let nestedSegments = "24 80 04 01 01 24 80 04 01 02 00 00 04 00 00 00"
        XCTAssertEqual(try ASN1OctetString(node: BER.parse(bytes(nestedSegments))).bytes, [1, 2])
        XCTAssertASN1Error(.unexpectedTag, try ASN1OctetString(node: BER.parse(bytes("24 03 02 01 01"))))
        let segmentedUTF8 = "2C 07 0C 02 6869 0C 01 21"
        XCTAssertASN1Error(.invalidConstruction, try DER.parse(bytes(segmentedUTF8)))
        XCTAssertEqual(try ASN1UTF8String(node: BER.parse(bytes(segmentedUTF8))).value, "hi!")
        let segmentedBits = "23 08 03 02 00 AA 03 02 04 B0"
        XCTAssertEqual(try ASN1BitString(node: BER.parse(bytes(segmentedBits))).bytes, [0xAA, 0xB0])
        XCTAssertASN1Error(.invalidBitString, try ASN1BitString(node: BER.parse(bytes("23 08 03 02 04 A0 03 02 00 B0"))))
        // A context tag may be either.
        XCTAssertNoThrow(try DER.parse(bytes("A0 03 02 01 01")))
        XCTAssertNoThrow(try DER.parse(bytes("80 01 01")))
        // Decoders check the form too.
        XCTAssertASN1Error(.invalidConstruction, try ASN1.sequence(DER.parse(bytes("80 00")), identifier: .contextSpecific(0)) { _ in })
    }

    func testIdentifiers() throws {
        // High-tag-number form: [31] and [201] context-specific, [APPLICATION 1000000].
        XCTAssertEqual(try DER.parse(bytes("9F 1F 00")).identifier, .contextSpecific(31))
        XCTAssertEqual(try DER.parse(bytes("9F 81 49 00")).identifier, .contextSpecific(201))
        let app = try DER.parse(bytes("5F BD 84 40 00"))
        XCTAssertEqual(app.identifier, .application(1_000_000))
        // Round trip of the identifier encoding.
        for hex in ["9F 1F 00", "9F 81 49 00", "5F BD 84 40 00", "DF 8F FF FF FF 7F 00"] {
            XCTAssertEqual(reencode(try DER.parse(bytes(hex))), bytes(hex), hex)
        }
        XCTAssertASN1Error(.invalidIdentifier, try DER.parse(bytes("9F 80 1F 00")), "leading zero group")
        XCTAssertASN1Error(.invalidIdentifier, try BER.parse(bytes("9F 80 1F 00")), "leading zero group")
        XCTAssertASN1Error(.invalidIdentifier, try DER.parse(bytes("9F 1E 00")), "low number in high form")
        XCTAssertASN1Error(.invalidIdentifier, try DER.parse(bytes("9F 90 80 80 80 00 00")), "tag overflow")
        XCTAssertASN1Error(.truncated, try DER.parse(bytes("9F 81")))
        XCTAssertASN1Error(.truncated, try DER.parse(bytes("9F")))
        XCTAssertEqual(ASN1Identifier.sequence.description, "SEQUENCE")
        XCTAssertEqual(ASN1Identifier.contextSpecific(3).description, "[3]")
    }

    func testDepthLimit() throws {
        func nested(_ depth: Int) -> [UInt8] {
            var der: [UInt8] = [0x05, 0x00]
            for _ in 1..<depth { der = DERWriterHelper.wrap(der) }
            return der
        }
        XCTAssertNoThrow(try DER.parse(nested(50)))
        XCTAssertASN1Error(.tooDeep, try DER.parse(nested(51)))
        XCTAssertASN1Error(.tooDeep, try DER.parse(nested(5), limits: ASN1ParseLimits(maximumDepth: 4)))
        // A nesting bomb of indefinite-length SEQUENCEs in BER.
        let bomb: [UInt8] = Array([[UInt8]](repeating: [0x30, 0x80], count: 20_000).joined())
        XCTAssertASN1Error(.tooDeep, try BER.parse(bomb))
        XCTAssertASN1Error(.tooLarge, try DER.parse(nested(3), limits: ASN1ParseLimits(maximumInputBytes: 4)))
        // A configured depth above the ceiling is not honoured (no stack overflow by configuration).
        let unbounded = ASN1ParseLimits(maximumDepth: .max)
        XCTAssertNoThrow(try DER.parse(nested(ASN1ParseLimits.depthCeiling), limits: unbounded))
        XCTAssertASN1Error(.tooDeep, try DER.parse(nested(ASN1ParseLimits.depthCeiling + 1), limits: unbounded))
        XCTAssertASN1Error(.tooDeep, try BER.parse(bomb, limits: unbounded))
        // Element count: 100,000 NULLs in one SEQUENCE against a limit of 50,000.
        let nulls = [UInt8](Array([[UInt8]](repeating: [0x05, 0x00], count: 100_000).joined()))
        let many = DERWriterHelper.wrap(nulls)
        XCTAssertEqual(try DER.parse(many).children.count, 100_000)
        XCTAssertASN1Error(.tooLarge, try DER.parse(many, limits: ASN1ParseLimits(maximumElements: 50_000)))
    }

    func testSequenceReaderConsumesEverything() throws {
        let node = try DER.parse(bytes("30 06 02 01 01 02 01 02"))
        XCTAssertASN1Error(.unexpectedElementCount, try ASN1.sequence(node) { reader in _ = try reader.next(.integer) })
        XCTAssertASN1Error(
            .unexpectedElementCount,
            try ASN1.sequence(node) { reader in
                for _ in 0..<3 { _ = try reader.next(.integer) }
            })
        XCTAssertASN1Error(.unexpectedTag, try ASN1.sequence(node) { reader in _ = try reader.next(.boolean) })
        let values = try ASN1.sequence(node) { reader -> [Int64] in
            XCTAssertNil(reader.nextIfPresent(.boolean))
            return [try ASN1Integer(node: reader.next()).int64Value ?? -1, try ASN1Integer(node: reader.next()).int64Value ?? -1]
        }
        XCTAssertEqual(values, [1, 2])
        XCTAssertASN1Error(.unexpectedTag, try ASN1.sequence(node, identifier: .set) { _ in })
        // Explicit tags hold exactly one element.
        XCTAssertEqual(
            try ASN1.explicit(DER.parse(bytes("A1 03 02 01 07")), tag: .contextSpecific(1)) { try ASN1Integer(node: $0).int64Value }, 7)
        XCTAssertASN1Error(.unexpectedElementCount, try ASN1.explicit(DER.parse(bytes("A1 00")), tag: .contextSpecific(1)) { $0 })
        XCTAssertASN1Error(
            .unexpectedElementCount,
            try ASN1.explicit(DER.parse(bytes("A1 06 02 01 07 02 01 08")), tag: .contextSpecific(1)) { $0 })
    }

    func testSetOfOrdering() throws {
        let sorted = "31 06 02 01 01 02 01 02"
        let unsorted = "31 06 02 01 02 02 01 01"
        XCTAssertEqual(try ASN1.setOf(DER.parse(bytes(sorted))) { $0 }.count, 2)
        XCTAssertASN1Error(.unsortedSet, try ASN1.setOf(DER.parse(bytes(unsorted))) { $0 })
        XCTAssertEqual(try ASN1.setOf(BER.parse(bytes(unsorted))) { $0 }.count, 2)
        // Shorter encodings compare as if padded with zero octets (X.690 11.6).
        XCTAssertNoThrow(try ASN1.setOf(DER.parse(bytes("31 07 04 01 00 04 02 00 00"))) { $0 })
        var writer = DERWriter()
        writer.appendSetOf([bytes("02 01 02"), bytes("02 01 01")])
        XCTAssertEqual(writer.bytes, bytes(sorted))
    }

    func testTrailingBytesAtEveryLevel() throws {
        XCTAssertASN1Error(.trailingBytes, try DER.parse(bytes("05 00 00")))
        // A child overrunning its parent is a truncation of the parent's content.
        XCTAssertASN1Error(.truncated, try DER.parse(bytes("30 03 04 02 01")))
        XCTAssertNoThrow(try DER.parse(bytes("30 04 04 02 01 02")))
    }
}

enum DERWriterHelper {
    static func wrap(_ inner: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { $0.appendEncoded(inner) }
        return writer.bytes
    }
}
