import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

/// RSA public key encodings (SPKI rsaEncryption and id-RSASSA-PSS, PKCS#1, PEM, JWK) against
/// Wycheproof's keys and the openssl CLI, and RSA signatures made by openssl verified here.
final class RSAKeyTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-rsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String]) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return result
    }

    private func groups(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: TestPaths.vectors("wycheproof/\(file).json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(json["testGroups"] as? [[String: Any]])
    }

    func testWycheproofKeysInEveryEncoding() throws {
        var checked = 0
        for file in [
            "rsa_signature_2048_sha256_test", "rsa_signature_3072_sha384_test", "rsa_signature_4096_sha512_test",
            "rsa_signature_8192_sha256_test", "rsa_pss_2048_sha256_mgf1_32_test",
        ] {
            for group in try groups(file) {
                let publicKey = try XCTUnwrap(group["publicKey"] as? [String: Any])
                let modulus = Array(try XCTUnwrap((publicKey["modulus"] as? String).flatMap(Hex.decode)).drop { $0 == 0 })
                let exponent = Array(try XCTUnwrap((publicKey["publicExponent"] as? String).flatMap(Hex.decode)).drop { $0 == 0 })
                let spki = try XCTUnwrap((group["publicKeyDer"] as? String).flatMap(Hex.decode))
                let pkcs1 = try XCTUnwrap((group["publicKeyAsn"] as? String).flatMap(Hex.decode))
                let fromSPKI = try RSAPublicKey(spkiDER: spki)
                XCTAssertEqual(fromSPKI.modulus, modulus)
                XCTAssertEqual(fromSPKI.exponent, exponent)
                XCTAssertEqual(try RSAPublicKey(pkcs1DER: pkcs1), fromSPKI)
                XCTAssertEqual(fromSPKI.spkiDER, spki, "SPKI re-encodes byte for byte")
                XCTAssertEqual(fromSPKI.pkcs1DER, pkcs1)
                XCTAssertEqual(try RSAPublicKey(loading: Array((group["publicKeyPem"] as? String ?? "").utf8)), fromSPKI)
                XCTAssertEqual(try RSAPublicKey(loading: spki), fromSPKI)
                XCTAssertEqual(try RSAPublicKey(loading: pkcs1), fromSPKI)
                if let jwk = group["keyJwk"] as? [String: Any], let n = jwk["n"] as? String, let e = jwk["e"] as? String {
                    XCTAssertEqual(try RSAPublicKey(jwkModulus: n, exponent: e), fromSPKI)
                    XCTAssertEqual(fromSPKI.jwkModulus, n)
                    XCTAssertEqual(fromSPKI.jwkExponent, e)
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 5, "one or more groups per file")
    }

    /// Keys declared id-RSASSA-PSS with parameters: the restriction is read and written back exactly.
    func testPSSParameterKeys() throws {
        var checked = 0
        for group in try groups("rsa_pss_2048_sha256_mgf1_32_params_test") {
            let spki = try XCTUnwrap((group["publicKeyDer"] as? String).flatMap(Hex.decode))
            let info = try RSAPublicKeyInfo(spkiDER: spki)
            XCTAssertTrue(info.isPSSOnly)
            let restriction = try XCTUnwrap(info.pssRestriction)
            XCTAssertEqual(restriction.hash, .sha256)
            XCTAssertEqual(restriction.maskGenerationHash, .sha256)
            XCTAssertEqual(restriction.saltLength, group["sLen"] as? Int)
            XCTAssertEqual(info.spkiDER, spki, "id-RSASSA-PSS SPKI re-encodes byte for byte")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0)
        // DEFAULT values encoded explicitly are not DER and are refused; so are other MGFs and trailers.
        let sha1Explicit: [UInt8] = [0x30, 0x0B, 0xA0, 0x09, 0x30, 0x07, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A]
        XCTAssertThrowsError(try RSASSAPSSParameters(derEncoded: sha1Explicit))
        let salt20: [UInt8] = [0x30, 0x05, 0xA2, 0x03, 0x02, 0x01, 0x14]
        XCTAssertThrowsError(try RSASSAPSSParameters(derEncoded: salt20))
        let trailer2: [UInt8] = [0x30, 0x05, 0xA3, 0x03, 0x02, 0x01, 0x02]
        XCTAssertThrowsError(try RSASSAPSSParameters(derEncoded: trailer2))
        let empty: [UInt8] = [0x30, 0x00]
        XCTAssertEqual(try RSASSAPSSParameters(derEncoded: empty).parameters, .init(hash: .sha1, maskGenerationHash: .sha1, saltLength: 20))
        for parameters in [
            RSAPublicKey.PSSParameters(hash: .sha256), .init(hash: .sha384, maskGenerationHash: .sha1, saltLength: 0),
            .init(hash: .sha512, saltLength: 20),
        ] {
            XCTAssertEqual(try RSASSAPSSParameters(derEncoded: RSASSAPSSParameters(parameters).derRepresentation).parameters, parameters)
        }
    }

    func testHostileEncodingsAreTypedErrors() throws {
        let group = try XCTUnwrap(try groups("rsa_signature_2048_sha256_test").first)
        let spki = try XCTUnwrap((group["publicKeyDer"] as? String).flatMap(Hex.decode))
        // Every truncation and a trailing byte: a SigilKeysError, never a crash.
        for length in 0..<spki.count {
            XCTAssertThrowsError(try RSAPublicKey(spkiDER: spki.prefix(length))) { XCTAssertTrue($0 is SigilKeysError) }
        }
        XCTAssertThrowsError(try RSAPublicKey(spkiDER: spki + [0]))
        // A negative modulus, a zero exponent, rsaEncryption without NULL.
        let negative: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x03]
        XCTAssertThrowsError(try RSAPublicKey(pkcs1DER: negative)) { XCTAssertEqual(($0 as? SigilKeysError)?.code, .invalidKey) }
        var noNull = spki
        // 30 82 01 22 30 0d 06 09 <oid 9 bytes> 05 00 → drop the NULL (lengths adjusted).
        noNull.removeSubrange(17..<19)
        noNull[3] -= 2
        noNull[5] -= 2
        XCTAssertThrowsError(try RSAPublicKey(spkiDER: noNull))
        // JWK: padding, a leading zero byte and non-base64url characters are refused.
        let key = try RSAPublicKey(spkiDER: spki)
        XCTAssertThrowsError(try RSAPublicKey(jwkModulus: key.jwkModulus + "=", exponent: "AQAB"))
        XCTAssertThrowsError(try RSAPublicKey(jwkModulus: Base64.encode([0] + key.modulus, alphabet: .url), exponent: "AQAB"))
        XCTAssertThrowsError(try RSAPublicKey(jwkModulus: key.jwkModulus, exponent: "AQ+B"))
        // EC keys are not RSA keys.
        let ec = ECDSAPrivateKey.generate(curve: .p256).publicKey.spkiDER
        XCTAssertThrowsError(try RSAPublicKey(spkiDER: ec)) { XCTAssertEqual(($0 as? SigilKeysError)?.code, .unsupportedAlgorithm) }
    }

    /// openssl generates keys and signs (PKCS#1 v1.5 and PSS, SHA-1/256/384/512); we load every
    /// encoding it writes and verify; our encodings load in openssl and verify its signatures there.
    func testOpenSSLInterop() throws {
        var rng = SeededGenerator(seed: 71)
        for (bits, index) in [(2048, 0), (3072, 1)] {
            let keyFile = path("rsa\(index).pem")
            _ = try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", keyFile])
            let spkiPEM = try openssl(["pkey", "-in", keyFile, "-pubout"]).stdout
            let spkiDER = try openssl(["pkey", "-in", keyFile, "-pubout", "-outform", "DER"]).stdout
            let pkcs1PEM = try openssl(["rsa", "-in", keyFile, "-RSAPublicKey_out"]).stdout
            let key = try RSAPublicKey(loading: Array(spkiPEM))
            XCTAssertEqual(key.modulusBits, bits)
            XCTAssertEqual(try RSAPublicKey(loading: Array(spkiDER)), key)
            XCTAssertEqual(try RSAPublicKey(loading: Array(pkcs1PEM)), key)
            XCTAssertEqual(key.spkiDER, Array(spkiDER), "our SPKI equals openssl's")
            // Our PEM loads in openssl and names the same key.
            let ourPEM = path("ours\(index).pem")
            try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: ourPEM))
            let reread = try openssl(["pkey", "-pubin", "-in", ourPEM, "-outform", "DER"]).stdout
            XCTAssertEqual(Array(reread), key.spkiDER)
            for (hash, name) in [(HashAlgorithm.sha1, "sha1"), (.sha256, "sha256"), (.sha384, "sha384"), (.sha512, "sha512")] {
                let message = rng.bytes(Int.random(in: 0...2000, using: &rng))
                let messageFile = path("m\(index)\(name)")
                try Data(message).write(to: URL(fileURLWithPath: messageFile))
                let pkcs1Signature = Array(try openssl(["dgst", "-\(name)", "-sign", keyFile, messageFile]).stdout)
                XCTAssertTrue(key.isValidPKCS1v15SignatureVartime(pkcs1Signature, for: message, hash: hash), "PKCS#1 \(name)")
                XCTAssertFalse(key.isValidPKCS1v15SignatureVartime(pkcs1Signature, for: message + [1], hash: hash))
                XCTAssertFalse(key.isValidPSSSignatureVartime(pkcs1Signature, for: message, parameters: .init(hash: hash)))
                for saltOption in ["digest", "max", "0"] {
                    let pss = Array(
                        try openssl([
                            "dgst", "-\(name)", "-sign", keyFile, "-sigopt", "rsa_padding_mode:pss",
                            "-sigopt", "rsa_pss_saltlen:\(saltOption)", messageFile,
                        ]).stdout)
                    let salt =
                        switch saltOption {
                        case "digest": hash.digestByteCount
                        case "max": (bits - 1 + 7) / 8 - hash.digestByteCount - 2
                        default: 0
                        }
                    let parameters = RSAPublicKey.PSSParameters(hash: hash, maskGenerationHash: hash, saltLength: salt)
                    XCTAssertTrue(
                        key.isValidPSSSignatureVartime(pss, for: message, parameters: parameters), "PSS \(name) salt \(saltOption)")
                    XCTAssertFalse(key.isValidPSSSignatureVartime(pss, for: message + [1], parameters: parameters))
                    XCTAssertFalse(key.isValidPKCS1v15SignatureVartime(pss, for: message, hash: hash))
                    if salt > 0 {
                        XCTAssertFalse(
                            key.isValidPSSSignatureVartime(pss, for: message, parameters: .init(hash: hash, saltLength: salt - 1)))
                    }
                }
            }
        }
    }
}
