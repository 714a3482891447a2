import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

final class FixtureTests: XCTestCase {
    /// Every DER fixture parses, every node decodes as its tagged type, and re-encoding gives
    /// back the same bytes.
    func testDERFixturesParseDecodeAndRoundTrip() throws {
        for name in Fixtures.derNames {
            let der = try Fixtures.bytes(name)
            let root = try DER.parse(der)
            XCTAssertEqual(Array(root.encodedBytes), der, name)
            for node in allNodes(root) {
                XCTAssertNil(decodeAsTaggedType(node), "\(name): node at \(node.offset) \(node.identifier)")
            }
            XCTAssertEqual(reencode(root), der, "\(name) round trip")
            // The same bytes are valid BER too, with the same tree.
            XCTAssertEqual(reencode(try BER.parse(der)), der, "\(name) under BER")
        }
    }

    /// DER fixtures: every strict prefix and the fixture plus one trailing byte are rejected, by
    /// both readers.
    func testDERFixturesRejectEveryPrefixAndTrailingByte() throws {
        for name in Fixtures.derNames + [Fixtures.berName] {
            let data = try Fixtures.bytes(name)
            for cut in 0..<data.count {
                let prefix = Array(data[..<cut])
                XCTAssertThrowsError(try DER.parse(prefix), "\(name) prefix \(cut) under DER")
                XCTAssertThrowsError(try BER.parse(prefix), "\(name) prefix \(cut) under BER")
            }
            for extra: UInt8 in [0x00, 0x05, 0xFF] {
                XCTAssertASN1Error(.trailingBytes, try BER.parse(data + [extra]), "\(name) + \(extra)")
                if name != Fixtures.berName {
                    XCTAssertASN1Error(.trailingBytes, try DER.parse(data + [extra]), "\(name) + \(extra)")
                }
            }
        }
    }

    /// The streamed CMS fixture is BER only: DER refuses its indefinite lengths, BER reads it, and
    /// its segmented OCTET STRING content concatenates to the 3,000 signed bytes.
    func testBERFixture() throws {
        let ber = try Fixtures.bytes(Fixtures.berName)
        XCTAssertASN1Error(.indefiniteLength, try DER.parse(ber))
        let root = try BER.parse(ber)
        XCTAssertTrue(root.isIndefiniteLength)
        let nodes = allNodes(root)
        let content = nodes.first { $0.identifier == .octetString && $0.isConstructed }
        let octets = try XCTUnwrap(content.map { try ASN1OctetString(node: $0) })
        XCTAssertEqual(octets.bytes.count, 3000)
        for node in nodes { XCTAssertNil(decodeAsTaggedType(node), "node at \(node.offset) \(node.identifier)") }
        // Re-encoding with definite lengths gives a tree that DER framing accepts apart from the
        // segmented string, and BER reads back to the same content.
        let definite = reencode(root)
        let reread = allNodes(try BER.parse(definite))
        XCTAssertEqual(reread.count, nodes.count)
        XCTAssertEqual(
            try reread.first { $0.identifier == .octetString && $0.isConstructed }.map { try ASN1OctetString(node: $0).bytes },
            octets.bytes)
    }

    /// The tree matches `openssl asn1parse` (an independent parser) node for node: offset,
    /// depth, header length, content length (or indefinite) and form.
    func testTreesMatchOpenSSLAsn1parse() throws {
        let openssl = try Subprocess.require("openssl")
        for name in Fixtures.derNames + [Fixtures.berName] {
            let data = try Fixtures.bytes(name)
            let result = try Subprocess.run(openssl, ["asn1parse", "-inform", "DER", "-in", Fixtures.url(name).path])
            XCTAssertEqual(result.status, 0, name)
            var theirs: [String] = []
            for line in result.stdoutString.split(separator: "\n") where !line.contains("prim: EOC") {
                // "   15:d=2  hl=2 l=inf  cons: SEQUENCE"
                let fields = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "=" }).map(String.init)
                guard fields.count >= 8 else { continue }
                theirs.append("\(fields[0]) d\(fields[2]) hl\(fields[4]) l\(fields[6]) \(fields[7])")
            }
            let root = name.hasSuffix(".ber") ? try BER.parse(data) : try DER.parse(data)
            let ours = allNodes(root).map { node -> String in
                let headerLength = node.contentBytes.startIndex - node.encodedBytes.startIndex
                let length = node.isIndefiniteLength ? "inf" : String(node.contentBytes.count)
                return "\(node.offset) d\(node.depth - 1) hl\(headerLength) l\(length) \(node.isConstructed ? "cons" : "prim")"
            }
            XCTAssertEqual(ours, theirs, name)
        }
    }

    /// Apple's real certificates and Apple's library test certificates (the Apple third-party data) parse,
    /// decode and round-trip; each is also cut at every prefix.
    func testSharedAppleCertificates() throws {
        let certificates = try Fixtures.sharedCertificates()
        XCTAssertFalse(certificates.isEmpty, "the Apple third-party data holds certificates")
        for (name, der) in certificates {
            let root = try DER.parse(der)
            XCTAssertEqual(reencode(root), der, name)
            for node in allNodes(root) { XCTAssertNil(decodeAsTaggedType(node), "\(name) at \(node.offset)") }
            for cut in stride(from: 0, to: der.count, by: 1) {
                XCTAssertThrowsError(try DER.parse(der[..<cut]), "\(name) prefix \(cut)")
            }
            XCTAssertASN1Error(.trailingBytes, try DER.parse(der + [0]), name)
        }
    }
}
