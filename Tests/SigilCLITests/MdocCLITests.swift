import Foundation
import SigilCBOR
import SigilCipher
import SigilCore
import SigilJOSE
import SigilKeys
import SigilMdoc
import SigilTestSupport
import SigilX509
import XCTest

/// `sigil mdoc verify|request|open` on ISO/IEC 18013-5 Annex D (`Scripts/vectors-dir mdoc`): no
/// element value appears on stdout, in `--explain` or in an error report unless `--values` asks.
final class MdocCLITests: XCTestCase {
    private func sigil(_ arguments: [String], stdin: Data = Data()) throws -> Subprocess.Result {
        try Subprocess.run(try TestPaths.builtProduct("sigil", besideBundleOf: MdocCLITests.self).path, arguments, stdin: stdin)
    }

    private func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sigil-mdoc-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func annexD(_ name: String) throws -> String { try AnnexD.path(name) }

    private func readerKey() throws -> [UInt8] { try AnnexD.key("ephemeral-reader-key").d }

    /// `sigil mdoc verify` prints the document every door answers in `response`
    /// (``VerifiedDeviceResponse/answerJSON(values:)``), values included when asked.
    func testVerifyPrintsTheAnswerDocumentsResponse() throws {
        let key = try temporary("reader-key-answer", readerKey())
        let printed = try sigil([
            "mdoc", "verify", "--iaca", try annexD("iaca-root.der"), "--transcript", try annexD("session-transcript-bytes.cbor"),
            "--at", "2021-01-01T00:00:00Z", "--reader-key", key, "--values", try annexD("device-response.cbor"),
        ])
        XCTAssertEqual(printed.status, 0, String(decoding: printed.stderr, as: UTF8.self))
        let verified = try MdocVerifier(trustedIACARoots: [Certificate(derEncoded: AnnexD.bytes("iaca-root.der"))]).verify(
            deviceResponse: AnnexD.bytes("device-response.cbor"),
            sessionTranscript: SessionTranscript(bytes: AnnexD.bytes("session-transcript-bytes.cbor")),
            readerKey: MdocVerifier.ReaderKey(ephemeralReaderKey: readerKey()), at: 1_609_459_200)
        let expected = try JSONSerialization.jsonObject(with: Data(verified.answerJSON(values: true).serialized.utf8))
        let cli = try JSONSerialization.jsonObject(with: printed.stdout)
        XCTAssertEqual(cli as? NSDictionary, expected as? NSDictionary)
    }

    func testVerifyPrintsValuesOnlyWhenAsked() throws {
        let key = try temporary("reader-key", readerKey())
        let common = [
            "mdoc", "verify", "--iaca", try annexD("iaca-root.der"), "--transcript", try annexD("session-transcript-bytes.cbor"),
            "--at", "2021-01-01T00:00:00Z",
        ]
        let verified = try sigil(common + ["--reader-key", key, "--explain", try annexD("device-response.cbor")])
        XCTAssertEqual(verified.status, 0, String(decoding: verified.stderr, as: UTF8.self))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: verified.stdout) as? [String: Any])
        let document = try XCTUnwrap((json["documents"] as? [[String: Any]])?.first)
        XCTAssertEqual(document["deviceAuthentication"] as? String, "deviceMac")
        XCTAssertEqual(document["deviceAuthenticated"] as? Bool, true)
        XCTAssertEqual((document["issuerSigned"] as? [[String: Any]])?.count, 6)
        let stderr = String(decoding: verified.stderr, as: UTF8.self)
        XCTAssertTrue(stderr.contains("verdict: VALID"), stderr)
        for printed in [verified.stdoutString, stderr] {
            XCTAssertFalse(printed.contains("Doe"), printed)
            XCTAssertFalse(printed.contains("123456789"), printed)
        }

        let withValues = try sigil(common + ["--reader-key", key, "--values", try annexD("device-response.cbor")])
        XCTAssertEqual(withValues.status, 0)
        XCTAssertTrue(withValues.stdoutString.contains("\"Doe\""), withValues.stdoutString)
        XCTAssertTrue(withValues.stdoutString.contains("2019-10-20"))

        // Without the reader key: refused with its code, and the relaxation says what it gives up.
        let refused = try sigil(common + ["--explain", try annexD("device-response.cbor")])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            String(decoding: refused.stderr, as: UTF8.self).contains("mdoc.deviceMACNotVerifiable"),
            String(decoding: refused.stderr, as: UTF8.self))
        let relaxed = try sigil(common + ["--accept-unverified-mac", try annexD("device-response.cbor")])
        XCTAssertEqual(relaxed.status, 0)
        let relaxedDocument = try XCTUnwrap(
            ((try JSONSerialization.jsonObject(with: relaxed.stdout) as? [String: Any])?["documents"] as? [[String: Any]])?.first)
        XCTAssertEqual(relaxedDocument["deviceAuthenticated"] as? Bool, false)
        // After expiry, and a changed value: refused, no value printed.
        let expired = try sigil(
            [
                "mdoc", "verify", "--iaca", try annexD("iaca-root.der"), "--transcript", try annexD("session-transcript-bytes.cbor"),
                "--reader-key", key,
                "--at", "2022-01-01T00:00:00Z", "--explain", try annexD("device-response.cbor"),
            ])
        XCTAssertEqual(expired.status, 1)
        XCTAssertTrue(
            String(decoding: expired.stderr, as: UTF8.self).contains("mdoc.documentNotValidAtTime"),
            String(decoding: expired.stderr, as: UTF8.self))
        XCTAssertFalse(expired.stdoutString.contains("Doe") || String(decoding: expired.stderr, as: UTF8.self).contains("Doe"))
    }

    /// The web flow: `request` prints a request, an answer sealed to it (here by Sigil's HPKE) opens
    /// with `open`; Annex D's document carries a deviceMac, which the web flow cannot check.
    func testRequestAndOpen() throws {
        let server = ECDSAPrivateKey.generate(curve: .p256)
        let keyFile = try temporary("server.pem", Array(server.pkcs8PEM.utf8))
        let requested = try sigil([
            "mdoc", "request", "--origin", "https://example.com", "--recipient-key", keyFile, "--element", "family_name", "--element",
            "org.iso.18013.5.1/age_over_21",
        ])
        XCTAssertEqual(requested.status, 0, String(decoding: requested.stderr, as: UTF8.self))
        for bad in ["", "/", "org.iso.18013.5.1/", "/family_name"] {
            let refused = try sigil(["mdoc", "request", "--origin", "https://example.com", "--recipient-key", keyFile, "--element", bad])
            XCTAssertEqual(refused.status, 1, bad)
            XCTAssertTrue(String(decoding: refused.stderr, as: UTF8.self).contains("\"usage\""), bad)
        }
        let request = try XCTUnwrap(JSONSerialization.jsonObject(with: requested.stdout) as? [String: Any])
        let transcript = try XCTUnwrap((request["sessionTranscript"] as? String).flatMap(Hex.decode))
        let requestFile = try temporary("request.json", Array(requested.stdout))

        let response = try Array(Data(contentsOf: URL(fileURLWithPath: annexD("device-response.cbor"))))
        let sealed = try HPKE.seal(response, recipientKey: server.publicKey, info: transcript, mode: .base)
        let encrypted = CBOR.encode(
            .array([
                .text("dcapi"),
                .map(pairs: [(.text("enc"), .bytes(sealed.encapsulatedKey)), (.text("cipherText"), .bytes(sealed.ciphertext))]),
            ]))
        let answer = try temporary("answer.cbor", encrypted)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sigil-mdoc-\(ProcessInfo.processInfo.processIdentifier)-opened"
        ).path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
        let common = [
            "mdoc", "open", "--request", requestFile, "--key", keyFile, "--iaca", try annexD("iaca-root.der"), "--at",
            "2021-01-01T00:00:00Z",
        ]
        // Annex D's document carries a deviceMac, which no web session (no reader key in its
        // transcript) can have made: refused, relaxation or not; --out still holds what opened.
        for extra in [[], ["--accept-unverified-mac"]] {
            let refused = try sigil(common + extra + ["--out", out, answer])
            XCTAssertEqual(refused.status, 1)
            XCTAssertTrue(
                String(decoding: refused.stderr, as: UTF8.self).contains("mdoc.invalidDeviceMAC"),
                String(decoding: refused.stderr, as: UTF8.self))
        }
        XCTAssertEqual(try Array(Data(contentsOf: URL(fileURLWithPath: out))), response)
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        // Another server key: the answer does not open.
        let otherKey = try temporary("other.pem", Array(ECDSAPrivateKey.generate(curve: .p256).pkcs8PEM.utf8))
        let wrong = try sigil(["mdoc", "open", "--request", requestFile, "--key", otherKey, "--iaca", try annexD("iaca-root.der"), answer])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(
            String(decoding: wrong.stderr, as: UTF8.self).contains("mdoc.decryptionFailed"), String(decoding: wrong.stderr, as: UTF8.self))
    }
}
