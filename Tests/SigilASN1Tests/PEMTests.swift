import SigilASN1
import SigilTestSupport
import XCTest

final class PEMTests: XCTestCase {
    /// RFC 4648 §10 test vectors, both alphabets.
    func testBase64RFC4648Vectors() throws {
        let cases = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(try Base64.decode(Array(encoded.utf8)), Array(plain.utf8))
            let url = encoded.replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(Base64.encode(Array(plain.utf8), alphabet: .url), url)
            XCTAssertEqual(try Base64.decode(Array(url.utf8), alphabet: .url), Array(plain.utf8))
        }
        XCTAssertEqual(Base64.encode([0xFB, 0xFF], alphabet: .url), "-_8")
        XCTAssertEqual(Base64.encode([0xFB, 0xFF]), "+/8=")
    }

    func testBase64Strictness() {
        let bad: [(String, Base64.Alphabet, Base64.Padding?)] = [
            ("Zg", .standard, nil), ("Zg=", .standard, nil), ("Zh==", .standard, nil), ("Zg===", .standard, nil),
            ("Z===", .standard, nil), ("Zm9v\n", .standard, nil), ("Zm 9v", .standard, nil), ("Zm9v-_", .standard, nil),
            ("Zg==", .url, nil), ("Zm9v+/", .url, nil), ("Z", .url, nil), ("Zh", .url, nil), ("Zg=", .url, .optional),
            ("=Zg=", .standard, nil), ("Zg==Zg==", .standard, nil),
        ]
        for (text, alphabet, padding) in bad {
            XCTAssertASN1Error(.invalidBase64, try Base64.decode(Array(text.utf8), alphabet: alphabet, padding: padding), text)
        }
        XCTAssertEqual(try Base64.decode(Array("Zg==".utf8), alphabet: .url, padding: .optional), [0x66])
        XCTAssertEqual(try Base64.decode(Array("Zg".utf8), alphabet: .url, padding: .optional), [0x66])
    }

    func testBase64RandomRoundTrip() throws {
        var rng = SeededGenerator(seed: 64)
        for length in 0..<300 {
            let data = rng.bytes(length)
            XCTAssertEqual(try Base64.decode(Array(Base64.encode(data).utf8)), data)
            XCTAssertEqual(try Base64.decode(Array(Base64.encode(data, alphabet: .url).utf8), alphabet: .url), data)
        }
    }

    func testPEMRoundTripAndBundles() throws {
        let der = try Fixtures.bytes("ec-p256-cert.der")
        let document = PEMDocument(label: "CERTIFICATE", derBytes: der)
        let text = document.pemString
        XCTAssertTrue(text.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        XCTAssertTrue(text.split(separator: "\n").allSatisfy { $0.count <= 64 })
        XCTAssertEqual(try PEMDocument(pemString: text), document)
        XCTAssertEqual(try PEMDocument(pemString: text.replacingOccurrences(of: "\n", with: "\r\n")), document)
        let other = PEMDocument(label: "PUBLIC KEY", derBytes: try Fixtures.bytes("ec-p384-spki.der"))
        let bundle = "Subject: explanatory text\n" + text + "\nmore text\n" + other.pemString
        XCTAssertEqual(try PEMDocument.parseAll(bundle), [document, other])
        XCTAssertASN1Error(.invalidPEM, try PEMDocument(pemString: bundle))
        XCTAssertASN1Error(.invalidPEM, try PEMDocument(pemString: text, expectedLabels: ["PRIVATE KEY"]))
        XCTAssertEqual(try PEMDocument(pemString: text, expectedLabels: ["CERTIFICATE"]).derBytes, der)
        XCTAssertEqual(try PEMDocument.parseAll("no pem here"), [])
    }

    /// PEM produced by openssl parses to the DER openssl produces.
    func testAgreesWithOpenSSL() throws {
        let openssl = try Subprocess.require("openssl")
        for name in ["ec-p256-cert.der", "rsa-2048-cert.der", "ec-p384-ca-cert.der"] {
            let result = try Subprocess.run(openssl, ["x509", "-inform", "DER", "-in", Fixtures.url(name).path, "-outform", "PEM"])
            XCTAssertEqual(result.status, 0)
            let parsed = try PEMDocument(pemString: result.stdoutString, expectedLabels: ["CERTIFICATE"])
            XCTAssertEqual(parsed.derBytes, try Fixtures.bytes(name), name)
            XCTAssertEqual(parsed.pemString, result.stdoutString, name)
        }
    }

    /// Line handling of the one-pass reader: CR is dropped only before LF, the last line needs no
    /// line break, blank lines and trailing blanks are skipped, errors point at the line's UTF-8
    /// offset, and a flood of empty lines reads like any other text.
    func testPEMLineLayout() throws {
        let expected = [PEMDocument(label: "X", derBytes: [0x30, 0x00])]
        XCTAssertEqual(try PEMDocument.parseAll("-----BEGIN X-----\nMAA=\n-----END X-----"), expected)
        XCTAssertEqual(try PEMDocument.parseAll("-----BEGIN X-----\r\nMAA=\r\n-----END X-----\r\n"), expected)
        XCTAssertEqual(try PEMDocument.parseAll("é\n-----BEGIN X----- \t\n\nMA \n\nA=\t\n-----END X-----  \n"), expected)
        // A CR that does not end a line is part of it: this END line is body text, so no END line.
        XCTAssertASN1Error(.invalidPEM, try PEMDocument.parseAll("-----BEGIN X-----\nMAA=\n-----END X-----\r"))
        XCTAssertASN1Error(.invalidPEM, try PEMDocument.parseAll("-----BEGIN X-----\nMAA=\r\r\n-----END X-----\n"))
        XCTAssertEqual(try PEMDocument.parseAll("-----BEGIN -----\n-----END -----\n"), [PEMDocument(label: "", derBytes: [])])
        XCTAssertEqual(try PEMDocument.parseAll("\n\n-----\n---\n"), [])
        for (text, offset) in [
            ("ab\n-----END X-----\n", 3), ("é\r\n-----BEGIN X-----\nMAA=\n", 4),
            ("-----BEGIN X-----\nMAA=\n\n-----END Y-----\n", 24),
        ] {
            XCTAssertThrowsError(try PEMDocument.parseAll(text)) { error in
                XCTAssertEqual((error as? ASN1Error)?.offset, offset, text)
            }
        }
        let flood =
            String(repeating: "\n", count: 20_000) + "-----BEGIN X-----\n" + String(repeating: "\r\n", count: 20_000)
            + String(repeating: "MAA=\n", count: 1) + "-----END X-----\n" + String(repeating: "-\n", count: 20_000)
        XCTAssertEqual(try PEMDocument.parseAll(flood), expected)
    }

    func testPEMRejections() {
        let body = "MAA=\n"
        let cases = [
            "-----BEGIN X-----\n" + body,
            "-----BEGIN X-----\n" + body + "-----END Y-----\n",
            "-----END X-----\n",
            "-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n\n" + body + "-----END X-----\n",
            "-----BEGIN X-----\nMA A=\n-----END X-----\n",
            "-----BEGIN X-----\nMAA\n-----END X-----\n",
            "-----BEGIN X-----\n-----BEGIN X-----\n" + body + "-----END X-----\n",
        ]
        for text in cases { XCTAssertASN1Error(.invalidPEM, try PEMDocument.parseAll(text), text) }
        XCTAssertEqual(try PEMDocument(pemString: "-----BEGIN X-----\n" + body + "-----END X-----\n").derBytes, [0x30, 0x00])
    }
}
