import Foundation
import SigilApplePay
import SigilCore
import SigilTestSupport
import SigilX509
import XCTest

/// The real Apple-signed tokens of the shared Apple Pay data (`Scripts/vectors-dir applepay`):
/// each verifies at its signing time and decrypts to the plaintext whose SHA-256 expected.json
/// gives; tampering with any signed field is refused by the signature step; a token for another
/// key is refused by publicKeyHash before decryption; a flipped ciphertext bit fails the GCM tag.
final class RealTokenTests: XCTestCase {
    static let decryptable = ["spreedly-gala", "spreedly-gala-2014", "payu-sandbox", "sepuka-sandbox"]

    private func directory() throws -> URL { try TestPaths.requireApplePayVectors() }

    private func expected() throws -> [String: Any] {
        let data = try Data(contentsOf: directory().appendingPathComponent("expected.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func seconds(_ rfc3339: String) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        return Int64(try XCTUnwrap(formatter.date(from: rfc3339)).timeIntervalSince1970)
    }

    private func bytes(_ folder: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory().appendingPathComponent(folder).appendingPathComponent(name)))
    }

    func merchantKey(_ folder: String) throws -> MerchantKey {
        let key = try bytes(folder, "merchant_key.pem")
        let certificatePath = try directory().appendingPathComponent(folder).appendingPathComponent("merchant_cert.pem")
        if FileManager.default.fileExists(atPath: certificatePath.path) {
            let certificate = try XCTUnwrap(Certificate.load(Array(Data(contentsOf: certificatePath))).first)
            return try MerchantKey(privateKey: key, certificate: certificate)
        }
        return try MerchantKey(privateKey: key, merchantIdentifier: String(decoding: try bytes(folder, "merchant_id.txt"), as: UTF8.self))
    }

    func testEveryDecryptableTokenVerifiesAtItsSigningTimeAndDecrypts() throws {
        let expected = try expected()
        let verifier = try PaymentTokenVerifier()
        for folder in Self.decryptable {
            let facts = try XCTUnwrap(expected[folder] as? [String: Any])
            let token = try PaymentToken(json: bytes(folder, "token.json"))
            XCTAssertEqual(token.version.rawValue, facts["version"] as? String)
            let signingTime = try seconds(XCTUnwrap(facts["signingTime"] as? String))
            let trace = VerificationTrace()
            let verified = try verifier.verify(token, at: signingTime, trace: trace)
            XCTAssertEqual(verified.signingTime, signingTime, folder)
            let leaf = try XCTUnwrap(facts["leaf"] as? [String: Any])
            XCTAssertEqual(verified.chain.first?.serialNumberHex.lowercased(), (leaf["serial"] as? String)?.lowercased(), folder)
            XCTAssertEqual(verified.chain.count, 3)
            let key = try merchantKey(folder)
            XCTAssertEqual(Hex.encode(key.merchantIdentifierHash).uppercased(), facts["merchantIdHash"] as? String, folder)
            XCTAssertEqual(key.publicKeyHash, token.publicKeyHash, folder)
            let payment = try PaymentTokenDecryptor(merchantKeys: [key]).decrypt(token)
            XCTAssertEqual(Hex.encode(SHA256.hash(payment.plaintext)), facts["plaintext_sha256"] as? String, folder)
            XCTAssertEqual(payment.plaintext, try bytes(folder, "plaintext.json"), folder)
            let plain = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(payment.plaintext)) as? [String: Any])
            XCTAssertEqual(payment.applicationPrimaryAccountNumber, plain["applicationPrimaryAccountNumber"] as? String)
            XCTAssertEqual(payment.currencyCode, plain["currencyCode"] as? String)
            XCTAssertFalse(payment.description.contains(payment.applicationPrimaryAccountNumber))
            XCTAssertFalse("\(payment)".contains(payment.applicationPrimaryAccountNumber))
            var dumped = ""
            dump(payment, to: &dumped)
            XCTAssertFalse(dumped.contains(payment.applicationPrimaryAccountNumber), dumped)
            if case .threeDSecure(let cryptogram, _) = payment.paymentData {
                XCTAssertFalse(trace.steps.map(\.description).joined().contains(cryptogram))
            } else {
                XCTFail("\(folder): 3-D Secure expected")
            }
        }
    }

    func testSignatureOnlyTokensVerifyAtTheirSigningTime() throws {
        let facts = try XCTUnwrap(try expected()["signature-only"] as? [String: Any])
        let verifier = try PaymentTokenVerifier()
        XCTAssertEqual(facts.count, 3)
        for (file, value) in facts {
            let fact = try XCTUnwrap(value as? [String: Any])
            let token = try PaymentToken(json: bytes("signature-only", file))
            XCTAssertEqual(token.version.rawValue, fact["version"] as? String)
            let time = try seconds(XCTUnwrap(fact["signingTime"] as? String))
            XCTAssertEqual(try verifier.verify(token, at: time + 299).signingTime, time, file)
            // Outside the 5-minute window: refused, typed.
            XCTAssertThrowsError(try verifier.verify(token, at: time + 301)) {
                XCTAssertEqual(($0 as? ApplePayError)?.code, .signingTimeOutsideWindow, file)
            }
        }
    }

    /// A tampered field: base64 decoded, one bit flipped, re-encoded (or hex for transactionId).
    private func tampered(
        _ json: [UInt8], _ path: [String], hex: Bool = false, append: String? = nil, at position: (([UInt8]) -> Int)? = nil
    ) throws -> [UInt8] {
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        var header = root["header"] as? [String: Any] ?? [:]
        if let append {
            header[path[1]] = append
        } else {
            let current = try XCTUnwrap((path.count == 1 ? root[path[0]] : header[path[1]]) as? String)
            var raw = hex ? try XCTUnwrap(Hex.decode(current)) : Array(try XCTUnwrap(Data(base64Encoded: current)))
            raw[position?(raw) ?? raw.count / 2] ^= 0x01
            let text = hex ? Hex.encode(raw) : Data(raw).base64EncodedString()
            if path.count == 1 { root[path[0]] = text } else { header[path[1]] = text }
        }
        root["header"] = header
        return Array(try JSONSerialization.data(withJSONObject: root))
    }

    func testTamperingWithAnySignedFieldIsRefusedBySignature() throws {
        let json = try bytes("spreedly-gala", "token.json")
        let time = try seconds("2021-09-01T19:03:06Z")
        let verifier = try PaymentTokenVerifier()
        XCTAssertNoThrow(try verifier.verify(PaymentToken(json: json), at: time))
        let cases: [(String, [UInt8])] = [
            ("data", try tampered(json, ["data"])),
            // Another point on P-256 (a flipped bit leaves the curve, refused at decoding below).
            (
                "ephemeralPublicKey",
                try tampered(
                    json, ["header", "ephemeralPublicKey"],
                    append: Data(ECDSAPrivateKey.generate(curve: .p256).publicKey.spkiDER).base64EncodedString())
            ),
            ("transactionId", try tampered(json, ["header", "transactionId"], hex: true)),
            ("applicationData added", try tampered(json, ["header", "applicationData"], append: String(repeating: "ab", count: 32))),
            // The signature value itself: the ECDSA-Sig-Value sits just before the trailing
            // end-of-contents octets of the BER SignedData.
            (
                "signature value",
                try tampered(json, ["signature"]) { raw in (raw.lastIndex { $0 != 0 } ?? raw.count) - 10 }
            ),
        ]
        // A certificate inside the signature: the chain step refuses it.
        XCTAssertThrowsError(try verifier.verify(PaymentToken(json: tampered(json, ["signature"])), at: time)) {
            XCTAssertEqual(($0 as? ApplePayError)?.code, .untrustedSigner)
        }
        XCTAssertThrowsError(try PaymentToken(json: tampered(json, ["header", "ephemeralPublicKey"]))) {
            XCTAssertEqual(($0 as? ApplePayError)?.code, .invalidEphemeralPublicKey)
        }
        for (field, bytes) in cases {
            XCTAssertThrowsError(try verifier.verify(PaymentToken(json: bytes), at: time), field) {
                let error = $0 as? ApplePayError
                XCTAssertEqual(error?.code, .invalidSignature, "\(field): \($0)")
                XCTAssertEqual(error?.step, "signature", field)
            }
        }
    }

    func testAnotherMerchantsKeyIsRefusedByPublicKeyHashBeforeDecryption() throws {
        let token = try PaymentToken(json: bytes("spreedly-gala", "token.json"))
        let others = try ["payu-sandbox", "sepuka-sandbox"].map(merchantKey)
        XCTAssertThrowsError(try PaymentTokenDecryptor(merchantKeys: others).decrypt(token)) {
            XCTAssertEqual(($0 as? ApplePayError)?.code, .unknownMerchantKey)
            XCTAssertEqual(($0 as? ApplePayError)?.step, "merchant key")
        }
        // Among several keys (a rotation), the one named by publicKeyHash is chosen.
        let payment = try PaymentTokenDecryptor(merchantKeys: others + [merchantKey("spreedly-gala")]).decrypt(token)
        XCTAssertEqual(payment.paymentDataType, "3DSecure")
    }

    func testFlippedCiphertextBitFailsTheTag() throws {
        let json = try tampered(try bytes("sepuka-sandbox", "token.json"), ["data"])
        XCTAssertThrowsError(try PaymentTokenDecryptor(merchantKeys: [merchantKey("sepuka-sandbox")]).decrypt(PaymentToken(json: json))) {
            let error = $0 as? ApplePayError
            XCTAssertEqual(error?.code, .tagMismatch)
            XCTAssertEqual(error?.step, "decryption")
            XCTAssertTrue(error?.clause.contains("SP 800-38D") ?? false)
        }
    }

    func testUnknownVersionAndMalformedTokensAreTyped() throws {
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes("spreedly-gala", "token.json"))) as? [String: Any])
        root["version"] = "EC_v2"
        XCTAssertThrowsError(try PaymentToken(json: Array(JSONSerialization.data(withJSONObject: root)))) {
            XCTAssertEqual(($0 as? ApplePayError)?.code, .unknownVersion)
        }
        for text in ["", "[]", "{}", #"{"version":"EC_v1"}"#, #"{"version":"EC_v1","data":"!!","signature":"","header":{}}"#] {
            XCTAssertThrowsError(try PaymentToken(json: Array(text.utf8))) {
                XCTAssertEqual(($0 as? ApplePayError)?.code, .malformedToken, text)
            }
        }
    }
}
