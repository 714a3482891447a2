import Foundation
import SigilASN1
import SigilApplePKI
import SigilCore
import SigilReceipts
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilPKCS7

/// Receipts made here: a payload encoded by the test, signed with `openssl cms -sign` (RSA and
/// ECDSA signers; DER and streamed BER; with and without signed attributes; SHA-1 and SHA-256),
/// parsed and verified by Sigil; each kind of tampering fails with its own error.
final class OpenSSLCMSTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-cms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    private func openssl(_ arguments: [String]) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return result
    }

    private func load(_ name: String) throws -> Certificate {
        try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))).first)
    }

    /// A payload in Apple's format: SET OF ReceiptAttribute, with one in-app record.
    static func encodePayload(bundleID: String, transactionID: String) throws -> [UInt8] {
        func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
            var writer = DERWriter()
            writer.appendSequence { seq in
                seq.append(ASN1Integer(type))
                seq.append(ASN1Integer(1))
                seq.append(ASN1OctetString(value))
            }
            return writer.bytes
        }
        func utf8(_ text: String) throws -> [UInt8] { DER.encode(try ASN1UTF8String(text)) }
        func ia5(_ text: String) throws -> [UInt8] { DER.encode(try ASN1IA5String(text)) }
        var inApp = DERWriter()
        inApp.appendSetOf([
            attribute(1701, DER.encode(ASN1Integer(1))), attribute(1702, try utf8("com.example.coins")),
            attribute(1703, try utf8(transactionID)), attribute(1704, try ia5("2025-03-04T05:06:07Z")),
            attribute(1719, DER.encode(ASN1Integer(1))),
        ])
        var payload = DERWriter()
        payload.appendSetOf([
            attribute(0, try utf8("ProductionSandbox")), attribute(2, try utf8(bundleID)), attribute(3, try utf8("42")),
            attribute(4, [1, 2, 3, 4]), attribute(5, [UInt8](repeating: 7, count: 20)),
            attribute(12, try ia5("2025-03-04T05:06:08+0100")), attribute(17, inApp.bytes), attribute(9999, [0xAB]),
        ])
        return payload.bytes
    }

    func testOpenSSLSignedReceipts() throws {
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path(name))) }
        try write("ca.cnf", "[ext]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\nsubjectKeyIdentifier=hash\n")
        try write("leaf.cnf", "[ext]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n")
        let payload = try OpenSSLCMSTests.encodePayload(bundleID: "com.example.app", transactionID: "2000000000000001")
        try Data(payload).write(to: URL(fileURLWithPath: path("payload.bin")))
        // A minute after the certificates below are made (their notBefore is the moment of signing).
        let now = Int64(Date().timeIntervalSince1970) + 60
        for (kind, keyArguments) in [
            ("rsa", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]),
            ("ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
        ] {
            for name in ["root", "signer", "other"] { try openssl(["genpkey"] + keyArguments + ["-out", path("\(kind)-\(name).key")]) }
            try openssl([
                "req", "-x509", "-new", "-key", path("\(kind)-root.key"), "-subj", "/CN=CMS Root \(kind)", "-days", "10",
                "-config", path("ca.cnf"), "-extensions", "ext", "-out", path("\(kind)-root.pem"),
            ])
            try openssl([
                "req", "-x509", "-new", "-key", path("\(kind)-other.key"), "-subj", "/CN=CMS Root \(kind)", "-days", "10",
                "-config", path("ca.cnf"), "-extensions", "ext", "-out", path("\(kind)-other.pem"),
            ])
            try openssl([
                "req", "-new", "-key", path("\(kind)-signer.key"), "-subj", "/CN=Receipt Signer \(kind)", "-out", path("\(kind).csr"),
            ])
            try openssl([
                "x509", "-req", "-in", path("\(kind).csr"), "-CA", path("\(kind)-root.pem"), "-CAkey", path("\(kind)-root.key"),
                "-set_serial", "5", "-days", "3", "-extfile", path("leaf.cnf"), "-extensions", "ext", "-out", path("\(kind)-signer.pem"),
            ])
            let root = try load("\(kind)-root.pem")
            let other = try load("\(kind)-other.pem")
            let signer = try load("\(kind)-signer.pem")
            let verifier = CMSSignedDataVerifier(trustedRoots: [root])
            for digest in ["sha1", "sha256"] {
                for stream in [false, true] {
                    for attributes in [true, false] {
                        let label = "\(kind) \(digest) \(stream ? "BER stream" : "DER") \(attributes ? "with" : "without") attributes"
                        let out = path("signed.der")
                        try openssl(
                            [
                                "cms", "-sign", "-binary", "-nodetach", "-in", path("payload.bin"), "-signer", path("\(kind)-signer.pem"),
                                "-inkey", path("\(kind)-signer.key"), "-md", digest, "-outform", "DER", "-out", out,
                            ]
                                + (stream ? ["-stream"] : []) + (attributes ? [] : ["-noattr"]))
                        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
                        if stream { XCTAssertThrowsError(try DER.parse(bytes), "\(label): -stream writes indefinite lengths") }
                        let signed = try CMSSignedData(berEncoded: bytes)
                        XCTAssertEqual(signed.content, payload, label)
                        let verified = try verifier.verify(signed, at: now)
                        XCTAssertEqual(verified.chain, [signer, root], label)
                        // Every field round-trips.
                        let receipt = try AppReceipt(payload: try XCTUnwrap(signed.payload))
                        XCTAssertEqual(receipt.bundleID, "com.example.app", label)
                        XCTAssertEqual(receipt.appVersion, "42")
                        XCTAssertEqual(receipt.receiptType, "ProductionSandbox")
                        XCTAssertEqual(receipt.opaqueValue, [1, 2, 3, 4])
                        XCTAssertEqual(receipt.creationDate, ReceiptAttribute.parseDate("2025-03-04T04:06:08Z"))
                        XCTAssertEqual(receipt.transactionID(), "2000000000000001")
                        XCTAssertEqual(receipt.inAppPurchases.first?.productID, "com.example.coins")
                        XCTAssertEqual(receipt.inAppPurchases.first?.isInIntroOfferPeriod, true)
                        XCTAssertEqual(receipt.attributes.first { $0.type == 9999 }?.value, [0xAB], "unknown attributes kept")

                        func code(_ body: () throws -> CMSSignedDataVerifier.Verified) -> PKCS7Error.Code? {
                            do {
                                _ = try body()
                                return nil
                            } catch { return (error as? PKCS7Error)?.code }
                        }
                        // A changed payload byte.
                        var tampered = bytes
                        if let at = find(Array(payload.suffix(8)), in: bytes) {
                            tampered[at] ^= 0x01
                            XCTAssertEqual(
                                code { try verifier.verify(try CMSSignedData(berEncoded: tampered), at: now) },
                                attributes ? .contentDigestMismatch : .invalidSignature, "\(label): payload byte")
                        } else if !stream {
                            XCTFail("\(label): payload not found in the message")
                        }
                        // A changed signed attribute (the signing time's last digit).
                        if attributes,
                            let at = find(
                                Array("Z".utf8), in: bytes,
                                after: find([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05], in: bytes) ?? 0)
                        {
                            var changed = bytes
                            changed[at - 1] = changed[at - 1] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
                            XCTAssertEqual(
                                code { try verifier.verify(try CMSSignedData(berEncoded: changed), at: now) }, .invalidSignature,
                                "\(label): signed attribute")
                        }
                        // A signer not chained to the trusted root (same-name root, another key).
                        XCTAssertEqual(
                            code { try CMSSignedDataVerifier(trustedRoots: [other]).verify(signed, at: now) }, .untrustedSigner, label)
                        // An expired signer at the chosen time.
                        XCTAssertEqual(
                            code { try verifier.verify(signed, at: signer.validity.notAfter + 60) }, .signerNotValidAtTime, label)
                    }
                }
            }
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8], after start: Int = 0) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
