import Foundation
import SigilApplePay
import SigilCipher
import SigilCore
import SigilKeys
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilBase

/// Tokens minted by SigilTestPKI's `AppleShapedPaymentPKI` (EC_v1 and RSA_v1, with applicationData,
/// which no public real token has): pyca/cryptography decrypts them independently (so the
/// encryption side is not Sigil checking itself), and Sigil verifies and decrypts them.
final class TestPKITokenTests: XCTestCase {
    static let signingTime: Int64 = 1_790_000_000
    static let payment = Array(
        #"{"applicationPrimaryAccountNumber":"4111111111111111","applicationExpirationDate":"291231","currencyCode":"978","transactionAmount":1999,"deviceManufacturerIdentifier":"040010030273","paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"QUJDREVGR0hJSktMTU5PUFFSU1Q=","eciIndicator":"7"},"merchantTokenIdentifier":"DNITHE000000000000000001"}"#
            .utf8)

    private struct Fixture {
        let pki: AppleShapedPaymentPKI
        let ecKey: ECDSAPrivateKey
        let ecCertificate: Certificate
        let rsaPEM: String
        let rsaKey: RSAPrivateKey
    }

    private func fixture() throws -> Fixture {
        var generator = SeededGenerator(seed: 0xA99E_0038)
        let pki = try AppleShapedPaymentPKI.generate(
            notBefore: Self.signingTime - 86_400, notAfter: Self.signingTime + 86_400, using: &generator)
        let ecKey = ECDSAPrivateKey.generate(curve: .p256, using: &generator)
        let certificate = try pki.merchantCertificate(
            subjectPublicKeyInfo: ecKey.publicKey.spkiDER, merchantIdentifier: "merchant.com.example.sigil",
            notBefore: Self.signingTime - 86_400, notAfter: Self.signingTime + 86_400)
        struct Group: Decodable { let privateKeyPem: String }
        struct File: Decodable { let testGroups: [Group] }
        let wycheproof = try JSONDecoder().decode(
            File.self, from: Data(contentsOf: TestPaths.vectors("wycheproof/rsa_oaep_2048_sha256_mgf1sha256_test.json")))
        let pem = try XCTUnwrap(wycheproof.testGroups.first?.privateKeyPem)
        return Fixture(pki: pki, ecKey: ecKey, ecCertificate: certificate, rsaPEM: pem, rsaKey: try RSAPrivateKey(loading: Array(pem.utf8)))
    }

    private func tokens(_ f: Fixture) throws -> [(name: String, json: [UInt8], keyPEM: String, merchantIdentifier: String)] {
        var generator = SeededGenerator(seed: 7)
        let ec = try f.pki.ecToken(
            payment: Self.payment, merchant: f.ecKey.publicKey, merchantIdentifier: "merchant.com.example.sigil",
            ephemeral: ECDSAPrivateKey.generate(curve: .p256, using: &generator), transactionId: generator.bytes(32),
            applicationData: SHA256.hash(Array("order 38".utf8)), signingTime: Self.signingTime)
        let rsa = try f.pki.rsaToken(
            payment: Self.payment, merchant: f.rsaKey.publicKey, symmetricKey: generator.bytes(32), seed: generator.bytes(32),
            transactionId: generator.bytes(32), applicationData: SHA256.hash(Array("order 39".utf8)), signingTime: Self.signingTime)
        return [
            ("EC_v1", ec, f.ecKey.pkcs8PEM, "merchant.com.example.sigil"),
            ("RSA_v1", rsa, f.rsaPEM, "merchant.com.example.rsa"),
        ]
    }

    func testPycaDecryptsTheHelpersTokens() throws {
        let f = try fixture()
        let python = try Subprocess.require("python3")
        let script = TestPaths.repositoryRoot.appendingPathComponent("Tests/SigilApplePayTests/pyca_decrypt.py").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("applepay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for token in try tokens(f) {
            let tokenPath = directory.appendingPathComponent("\(token.name).json")
            let keyPath = directory.appendingPathComponent("\(token.name).pem")
            try Data(token.json).write(to: tokenPath)
            try Data(token.keyPEM.utf8).write(to: keyPath)
            let result = try Subprocess.run(python, [script, tokenPath.path, keyPath.path, token.merchantIdentifier])
            XCTAssertEqual(result.status, 0, "\(token.name): \(String(decoding: result.stderr, as: UTF8.self))")
            XCTAssertEqual(result.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines), Hex.encode(Self.payment), token.name)
        }
    }

    func testSigilVerifiesAndDecryptsTheHelpersTokens() throws {
        let f = try fixture()
        let verifier = try PaymentTokenVerifier(trustedRoots: [f.pki.root])
        let ecMerchant = try MerchantKey(privateKey: Array(f.ecKey.pkcs8PEM.utf8), certificate: f.ecCertificate)
        let rsaMerchant = try MerchantKey(privateKey: Array(f.rsaPEM.utf8), merchantIdentifier: "merchant.com.example.rsa")
        let decryptor = PaymentTokenDecryptor(merchantKeys: [rsaMerchant, ecMerchant])
        for token in try tokens(f) {
            let parsed = try PaymentToken(json: token.json)
            XCTAssertNotNil(parsed.applicationData)
            XCTAssertEqual(try verifier.verify(parsed, at: Self.signingTime + 10).signingTime, Self.signingTime)
            let payment = try decryptor.decrypt(parsed)
            XCTAssertEqual(payment.plaintext, Self.payment, token.name)
            XCTAssertEqual(payment.applicationPrimaryAccountNumber, "4111111111111111")
            XCTAssertEqual(payment.transactionAmount, "1999")
            XCTAssertEqual(payment.otherMembers.map(\.0), ["merchantTokenIdentifier"])
            guard case .threeDSecure(let cryptogram, let eci) = payment.paymentData else { return XCTFail("3DSecure expected") }
            XCTAssertEqual(cryptogram, "QUJDREVGR0hJSktMTU5PUFFSU1Q=")
            XCTAssertEqual(eci, "7")
            // applicationData is signed: changing it is refused by the signature step.
            let text = String(decoding: token.json, as: UTF8.self)
            let hash = Hex.encode(try XCTUnwrap(parsed.applicationData))
            let changed = text.replacingOccurrences(of: hash, with: String(hash.reversed()))
            XCTAssertThrowsError(try verifier.verify(PaymentToken(json: Array(changed.utf8)), at: Self.signingTime)) {
                XCTAssertEqual(($0 as? ApplePayError)?.code, .invalidSignature, token.name)
            }
            // Under Apple's real root the test chain is refused.
            XCTAssertThrowsError(try PaymentTokenVerifier().verify(parsed, at: Self.signingTime)) {
                XCTAssertEqual(($0 as? ApplePayError)?.code, .untrustedSigner, token.name)
            }
        }
        // An EC_v1 token given only the RSA key: refused by publicKeyHash before any decryption.
        let ec = try PaymentToken(json: tokens(f)[0].json)
        XCTAssertThrowsError(try PaymentTokenDecryptor(merchantKeys: [rsaMerchant]).decrypt(ec)) {
            XCTAssertEqual(($0 as? ApplePayError)?.code, .unknownMerchantKey)
        }
    }

    /// Issue 46: decryption wipes what it derives — for EC_v1 the ECDH shared secret Z, the KDF's
    /// hash output and the symmetric key (32 bytes each), for RSA_v1 the unwrapped key and OAEP's
    /// seed and seed mask — and the AES key schedule, each in place and zero before release.
    func testDecryptionWipesTheSharedSecretAndTheSymmetricKey() throws {
        let f = try fixture()
        let ecMerchant = try MerchantKey(privateKey: Array(f.ecKey.pkcs8PEM.utf8), certificate: f.ecCertificate)
        let rsaMerchant = try MerchantKey(privateKey: Array(f.rsaPEM.utf8), merchantIdentifier: "merchant.com.example.rsa")
        let decryptor = PaymentTokenDecryptor(merchantKeys: [rsaMerchant, ecMerchant])
        for token in try tokens(f) {
            let parsed = try PaymentToken(json: token.json)
            let (payment, wipes) = try SecretMemory.observingWipes { try decryptor.decrypt(parsed) }
            XCTAssertEqual(payment.plaintext, Self.payment, token.name)
            let keySized = wipes.filter { $0.count == 32 && $0.inPlace && $0.zeroed }
            XCTAssertGreaterThanOrEqual(keySized.count, 3, "\(token.name): the shared secret or the symmetric key was not wiped")
            XCTAssertTrue(wipes.contains { $0.count == 240 && $0.zeroed }, "\(token.name): the AES-256 key schedule was not wiped")
            XCTAssertTrue(wipes.allSatisfy(\.zeroed), token.name)
        }
    }
}
