import SigilASN1
import SigilBase
import XCTest

@testable import SigilX509

/// The texts the verifier matches (names, DNS names, mailboxes, URIs) are compared as UTF-8
/// bytes, with ASCII case folded where RFC 5280 asks for case-insensitivity, and never through
/// `Character` (grapheme breaking) or Unicode's case tables: these pin that reading, the edge
/// cases included.
final class ByteTextMatchingTests: XCTestCase {
    private typealias Check = NameConstraintsCheck

    /// A one-RDN name: commonName with `value` under the string tag `tag` (UTF8String by default).
    private func commonName(_ value: String, tag: UInt8 = 0x0C) throws -> DistinguishedName {
        let text = Array(value.utf8)
        let attribute: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03, tag, UInt8(text.count)] + text
        let sequence: [UInt8] = [0x30, UInt8(attribute.count)] + attribute
        let set: [UInt8] = [0x31, UInt8(sequence.count)] + sequence
        return try DistinguishedName(node: DER.parse([0x30, UInt8(set.count)] + set))
    }

    func testNamesMatchWithASCIICaseAndSpacesFoldedOnly() throws {
        XCTAssertTrue(try commonName("Apple  Root CA").matches(commonName(" apple root ca ")))
        XCTAssertTrue(try commonName("APPLE ROOT CA", tag: 0x13).matches(commonName("apple root ca")), "PrintableString and UTF8String")
        XCTAssertFalse(try commonName("Apple Root CA").matches(commonName("Apple Root CA 2")))
        XCTAssertFalse(try commonName("Apple Root CA").matches(commonName("AppleRoot CA")), "a space is not removed inside")
        XCTAssertTrue(try commonName("Zürich").matches(commonName("zürich")), "ASCII letters fold beside others")
        XCTAssertFalse(try commonName("ZÜRICH").matches(commonName("zürich")), "non-ASCII letters do not fold (as in OpenSSL)")
        XCTAssertFalse(try commonName("caf\u{E9}").matches(commonName("cafe\u{301}")), "no Unicode normalization: bytes differ")
        XCTAssertTrue(try commonName("Apple Root CA").isWithin(commonName("apple root ca")))
    }

    func testRFC4514EscapingIsPerScalar() {
        XCTAssertEqual(AttributeTypeAndValue.escape("a,b+c"), "a\\,b\\+c")
        XCTAssertEqual(AttributeTypeAndValue.escape(" #lead and trail "), "\\ #lead and trail\\ ")
        XCTAssertEqual(AttributeTypeAndValue.escape("#x"), "\\#x")
        XCTAssertEqual(AttributeTypeAndValue.escape("nul\u{0}"), "nul\\00")
        // A combining mark after a leading space: the space is its own scalar, so it is escaped.
        XCTAssertEqual(AttributeTypeAndValue.escape(" \u{301}x"), "\\ \u{301}x")
        XCTAssertEqual(AttributeTypeAndValue.escape("Zürich"), "Zürich")
    }

    func testNameShapesAreReadFromBytes() {
        XCTAssertTrue(Check.isWellFormedName(.dnsName("a.example.com")))
        XCTAssertFalse(Check.isWellFormedName(.dnsName("a..example.com")))
        XCTAssertFalse(Check.isWellFormedName(.dnsName(".example.com")))
        XCTAssertFalse(Check.isWellFormedName(.dnsName("example.com.")))
        XCTAssertFalse(Check.isWellFormedName(.dnsName("")))
        XCTAssertTrue(Check.isWellFormedName(.rfc822Name("user@example.com")))
        XCTAssertFalse(Check.isWellFormedName(.rfc822Name("@example.com")))
        XCTAssertFalse(Check.isWellFormedName(.rfc822Name("a@b@example.com")))
        XCTAssertFalse(Check.isWellFormedName(.rfc822Name("user@example..com")))
        XCTAssertFalse(Check.isWellFormedName(.rfc822Name("user.example.com")))

        XCTAssertTrue(Check.isValidSubtree(.dnsName("")))
        XCTAssertTrue(Check.isValidSubtree(.dnsName(".example.com")))
        XCTAssertFalse(Check.isValidSubtree(.dnsName("*.example.com")))
        XCTAssertFalse(Check.isValidSubtree(.dnsName("..example.com")))
        XCTAssertTrue(Check.isValidSubtree(.rfc822Name("user@example.com")))
        XCTAssertTrue(Check.isValidSubtree(.rfc822Name(".example.com")))
        XCTAssertTrue(Check.isValidSubtree(.rfc822Name("example.com")))
        XCTAssertFalse(Check.isValidSubtree(.rfc822Name("@example.com")))
        XCTAssertFalse(Check.isValidSubtree(.rfc822Name("a@b@example.com")))
    }

    func testPreferredDNSNameSyntax() {
        for good in ["example.com", "*", "*.example.com", "xn--bcher-kva.example", "a-1.b2"] {
            XCTAssertTrue(RFC5280Policy.isPreferredDNSName(good), good)
        }
        for bad in [
            "", ".", "a..b", "a.", ".a", "*a.example.com", "a*.example.com", "a.*.example.com", "**", "*.", "exa mple.com",
            "bücher.example",
        ] {
            XCTAssertFalse(RFC5280Policy.isPreferredDNSName(bad), bad)
        }
    }

    func testMatchingIsByBytesWithASCIICaseFolded() {
        XCTAssertTrue(Check.dnsName("A.EXAMPLE.com", isWithin: ".example.COM"))
        XCTAssertFalse(Check.dnsName("a.exämple.com", isWithin: "exÄmple.com"), "only ASCII folds")
        XCTAssertFalse(Check.mailbox("caf\u{E9}@example.com", isWithin: "cafe\u{301}@example.com"), "local parts compare as bytes")
        XCTAssertTrue(Check.mailbox("user@sub.Example.com", isWithin: ".example.com"))
        XCTAssertEqual(Check.uriHost("HTTPS://Host.Example.com"), "host.example.com")
        XCTAssertNil(Check.uriHost("https:/host"))
        XCTAssertEqual(Check.uriHost("https://ü.example/"), "ü.example")
    }

    func testUTF8TextHelpers() {
        XCTAssertTrue("SANDBOX_123".utf8HasPrefix("SANDBOX"))
        XCTAssertFalse("SANDBO".utf8HasPrefix("SANDBOX"))
        XCTAssertTrue("a.example.com".utf8HasSuffix(".example.com"))
        XCTAssertFalse("com".utf8HasSuffix(".com"))
        XCTAssertFalse("caf\u{E9}".utf8Equals("cafe\u{301}"))
        XCTAssertEqual("AbC-Ü".asciiLowercased, "abc-Ü")
        XCTAssertEqual("aBc-ü".asciiUppercased, "ABC-ü")
        XCTAssertEqual("abcdef".shortened(toScalars: 6), "abcdef")
        XCTAssertEqual("abcdefg".shortened(toScalars: 6), "abcdef…")
        XCTAssertEqual("e\u{301}e\u{301}".shortened(toScalars: 3), "e\u{301}e…")
    }
}
