import Foundation
import SigilCore
import SigilKeys
import SigilTestPKI
import SigilTestSupport
import XCTest

/// `sigil applepay verify|decrypt` on a real token (`Scripts/vectors-dir applepay`) and on test-PKI
/// tokens; no card number or cryptogram appears in `--explain`, in an error report or on stderr.
final class ApplePayCLITests: XCTestCase {
    private func sigil(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(try TestPaths.builtProduct("sigil", besideBundleOf: ApplePayCLITests.self).path, arguments)
    }

    private func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sigil-applepay-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testRealTokenVerifiesAndDecryptsWithoutCardDataInTheExplanation() throws {
        let folder = try TestPaths.requireApplePayVectors().appendingPathComponent("spreedly-gala")
        let token = folder.appendingPathComponent("token.json").path
        let plaintext = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("plaintext.json"))) as? [String: Any])
        let pan = try XCTUnwrap(plaintext["applicationPrimaryAccountNumber"] as? String)
        let cryptogram = try XCTUnwrap((plaintext["paymentData"] as? [String: Any])?["onlinePaymentCryptogram"] as? String)
        let at = ["--at", "2021-09-01T19:03:06Z"]

        let verified = try sigil(["applepay", "verify", "--explain"] + at + [token])
        XCTAssertEqual(verified.status, 0, String(decoding: verified.stderr, as: UTF8.self))
        let verifiedJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: verified.stdout) as? [String: Any])
        XCTAssertEqual(verifiedJSON["signingTime"] as? String, "2021-09-01T19:03:06Z")

        let decrypted = try sigil(
            [
                "applepay", "decrypt", "--explain", "--merchant-key", folder.appendingPathComponent("merchant_key.pem").path,
                "--merchant-cert", folder.appendingPathComponent("merchant_cert.pem").path,
            ] + at + [token])
        XCTAssertEqual(decrypted.status, 0, String(decoding: decrypted.stderr, as: UTF8.self))
        let out = try XCTUnwrap(JSONSerialization.jsonObject(with: decrypted.stdout) as? [String: Any])
        XCTAssertEqual((out["payment"] as? [String: Any])?["applicationPrimaryAccountNumber"] as? String, pan)
        let explanation = String(decoding: decrypted.stderr, as: UTF8.self)
        XCTAssertTrue(explanation.contains("AES-256-GCM tag"), explanation)
        XCTAssertTrue(explanation.contains("verdict: VALID"), explanation)
        XCTAssertFalse(explanation.contains(pan), explanation)
        XCTAssertFalse(explanation.contains(cryptogram), explanation)

        // Today the 2021 token is far outside the signing-time window: refused, in the one shape.
        let stale = try sigil([
            "applepay", "decrypt", "--explain", "--merchant-key", folder.appendingPathComponent("merchant_key.pem").path,
            "--merchant-cert", folder.appendingPathComponent("merchant_cert.pem").path, token,
        ])
        XCTAssertEqual(stale.status, 1)
        // stderr: the explanation, the verdict line, then the one failure object.
        let text = String(decoding: stale.stderr, as: UTF8.self)
        let start = try XCTUnwrap(text.range(of: "\n{", options: .backwards)).lowerBound
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any], text)
        XCTAssertEqual(report["error"] as? String, "applepay.signingTimeOutsideWindow")
        XCTAssertTrue(stale.stdout.isEmpty)
    }

    /// Issue 46, the attacker's re-framings of the real token (Apple's signature holds over each):
    /// 4 bytes of transactionId moved into applicationData — `verify` and `decrypt` refuse it
    /// applepay.invalidTransactionId; data's last 32 bytes moved into the header — `verify`
    /// accepts the signature (the replay key is the original's), `decrypt` refuses it
    /// applepay.tagMismatch. Exit status 1, nothing on stdout, the code in the failure report.
    func testReframedRealTokenIsRefusedWithItsCode() throws {
        let folder = try TestPaths.requireApplePayVectors().appendingPathComponent("spreedly-gala")
        let original = Array(try Data(contentsOf: folder.appendingPathComponent("token.json")))
        func reframed(_ change: (inout [UInt8], inout [UInt8], inout [UInt8]?) -> Void) throws -> String {
            var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(original)) as? [String: Any])
            var header = try XCTUnwrap(root["header"] as? [String: Any])
            var data = Array(try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(root["data"] as? String))))
            var id = try XCTUnwrap(Hex.decode(try XCTUnwrap(header["transactionId"] as? String)))
            var applicationData: [UInt8]?
            change(&data, &id, &applicationData)
            root["data"] = Data(data).base64EncodedString()
            header["transactionId"] = Hex.encode(id)
            header["applicationData"] = applicationData.map { Hex.encode($0) }
            root["header"] = header
            return try temporary("reframed-\(id.count)-\(data.count).json", Array(try JSONSerialization.data(withJSONObject: root)))
        }
        let shortened = try reframed { _, id, app in
            app = Array(id.suffix(4))
            id.removeLast(4)
        }
        let moved = try reframed { data, id, app in
            app = id
            id = Array(data.suffix(32))
            data.removeLast(32)
        }
        let at = ["--at", "2021-09-01T19:03:06Z"]
        let decrypt = [
            "applepay", "decrypt", "--merchant-key", folder.appendingPathComponent("merchant_key.pem").path,
            "--merchant-cert", folder.appendingPathComponent("merchant_cert.pem").path,
        ]
        for (arguments, code) in [
            (["applepay", "verify"] + at + [shortened], "applepay.invalidTransactionId"),
            (decrypt + at + [shortened], "applepay.invalidTransactionId"),
            (decrypt + at + [moved], "applepay.tagMismatch"),
        ] {
            let refused = try sigil(arguments)
            XCTAssertEqual(refused.status, 1, "\(arguments)")
            XCTAssertTrue(refused.stdout.isEmpty, "\(arguments)")
            let stderr = String(decoding: refused.stderr, as: UTF8.self)
            let start = try XCTUnwrap(stderr.range(of: "{")).lowerBound
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stderr[start...].utf8)) as? [String: Any], stderr)
            XCTAssertEqual(report["error"] as? String, code, stderr)
        }
        // The signature still holds over the 32-byte move: only decryption can refuse it.
        // The signature still holds over the 32-byte move (only decryption can refuse it), and the
        // replay key it prints is the original's.
        var replayKeys: [String] = []
        for token in [folder.appendingPathComponent("token.json").path, moved] {
            let verified = try sigil(["applepay", "verify"] + at + [token])
            XCTAssertEqual(verified.status, 0, String(decoding: verified.stderr, as: UTF8.self))
            let out = try XCTUnwrap(JSONSerialization.jsonObject(with: verified.stdout) as? [String: Any])
            replayKeys.append(try XCTUnwrap(out["replayKey"] as? String))
        }
        XCTAssertEqual(replayKeys[0], replayKeys[1])
        XCTAssertEqual(replayKeys[0].count, 64)
    }

    /// A token made for merchant identifier A, decrypted as merchant B: the tag fails, and neither
    /// the error report nor the explanation shows the payment.
    func testTagFailureReportsNoCardData() throws {
        var generator = SeededGenerator(seed: 0x38C1)
        let time: Int64 = 1_790_000_000
        let pki = try AppleShapedPaymentPKI.generate(notBefore: time - 3600, notAfter: time + 3600, using: &generator)
        let merchant = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let pan = "5204245250001488"
        let cryptogram = "AOxBnXWRsXaJAAoBYxAYgAABFA=="
        let payment = Array(
            #"{"applicationPrimaryAccountNumber":"\#(pan)","applicationExpirationDate":"281130","currencyCode":"840","transactionAmount":100,"deviceManufacturerIdentifier":"040010030273","paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"\#(cryptogram)"}}"#
                .utf8)
        let json = try pki.ecToken(
            payment: payment, merchant: merchant.publicKey, merchantIdentifier: "merchant.com.example.a",
            ephemeral: ECDSAPrivateKey.generate(curve: .p256, using: &generator), transactionId: generator.bytes(32), signingTime: time)
        let token = try temporary("token.json", json)
        let key = try temporary("key.pem", Array(merchant.pkcs8PEM.utf8))
        let root = try temporary("root.pem", Array(pki.root.pemRepresentation.utf8))
        let common = ["--root", root, "--at", String(time), "--merchant-key", key, "--explain"]

        let good = try sigil(["applepay", "decrypt"] + common + ["--merchant-id", "merchant.com.example.a", token])
        XCTAssertEqual(good.status, 0, String(decoding: good.stderr, as: UTF8.self))
        XCTAssertTrue(String(decoding: good.stdout, as: UTF8.self).contains(pan))
        XCTAssertFalse(String(decoding: good.stderr, as: UTF8.self).contains(pan))

        let wrong = try sigil(["applepay", "decrypt"] + common + ["--merchant-id", "merchant.com.example.b", token])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stdout.isEmpty)
        let stderr = String(decoding: wrong.stderr, as: UTF8.self)
        XCTAssertTrue(stderr.contains("applepay.tagMismatch"), stderr)
        for secret in [pan, cryptogram] {
            XCTAssertFalse(stderr.contains(secret), "\(secret) in \(stderr)")
        }
    }

    /// SIGIL_CIPHER_BACKEND=portable forces the portable AES and GHASH for the whole process:
    /// `sigil overview` says so, and a real token still decrypts to its plaintext on that path.
    func testForcedPortableCipherPath() throws {
        setenv("SIGIL_CIPHER_BACKEND", "portable", 1)
        defer { unsetenv("SIGIL_CIPHER_BACKEND") }
        let overview = try sigil(["overview", "--json"])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: overview.stdout) as? [String: Any])
        let cipher = try XCTUnwrap(json["cipherBackend"] as? [String: Any])
        XCTAssertEqual(cipher["current"] as? String, "portable Swift")
        XCTAssertEqual(cipher["forced"] as? String, "portable")
        let folder = try TestPaths.requireApplePayVectors().appendingPathComponent("sepuka-sandbox")
        let decrypted = try sigil([
            "applepay", "decrypt", "--at", "2019-06-07T08:39:15Z", "--merchant-key", folder.appendingPathComponent("merchant_key.pem").path,
            "--merchant-cert", folder.appendingPathComponent("merchant_cert.pem").path, folder.appendingPathComponent("token.json").path,
        ])
        XCTAssertEqual(decrypted.status, 0, String(decoding: decrypted.stderr, as: UTF8.self))
        let out = try XCTUnwrap(JSONSerialization.jsonObject(with: decrypted.stdout) as? [String: Any])
        let expected = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("plaintext.json"))) as? [String: Any])
        XCTAssertEqual(
            (out["payment"] as? [String: Any])?["applicationPrimaryAccountNumber"] as? String,
            expected["applicationPrimaryAccountNumber"] as? String)
    }
}
