import Foundation
import SigilTestSupport
import XCTest

@testable import SigilCore

/// RSA PKCS#1 v1.5 and PSS verification against Wycheproof (Vectors/wycheproof, see its
/// PROVENANCE.md for the decisions on `acceptable`), and the key rules of RSAPublicKey.
final class RSAVectorTests: XCTestCase {
    struct Counts { var valid = 0, invalid = 0, acceptable = 0, acceptableAccepted = 0, skippedGroups = 0 }

    private func hash(_ name: String) -> HashAlgorithm? {
        ["SHA-1": .sha1, "SHA-256": .sha256, "SHA-384": .sha384, "SHA-512": .sha512][name]
    }

    /// Runs one file; `verify` returns whether the signature is accepted. Every valid case must be
    /// accepted, every invalid one rejected; acceptable ones go through `acceptable(flags, accepted)`.
    private func run(
        _ file: String, minimumBits: Int = 2048,
        verify: (RSAPublicKey, [String: Any], [UInt8], [UInt8]) -> Bool,
        acceptable: ([String], Bool, String) -> Void
    ) throws -> Counts {
        let data = try Data(contentsOf: TestPaths.vectors("wycheproof/\(file).json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var counts = Counts()
        for group in try XCTUnwrap(json["testGroups"] as? [[String: Any]]) {
            // Groups using a hash Sigil does not implement (SHA-224 here) are skipped and counted.
            let hashes = [group["sha"], group["mgfSha"]].compactMap { $0 as? String }
            guard hashes.allSatisfy({ hash($0) != nil }) else {
                counts.skippedGroups += 1
                continue
            }
            // Verification files carry publicKey {modulus, publicExponent}; the generation file
            // carries privateKey with the same two fields.
            let keyObject = try XCTUnwrap((group["publicKey"] ?? group["privateKey"]) as? [String: Any])
            let modulus = try XCTUnwrap((keyObject["modulus"] as? String).flatMap(Hex.decode))
            let exponent = try XCTUnwrap((keyObject["publicExponent"] as? String).flatMap(Hex.decode))
            let key = try RSAPublicKey(modulus: modulus, exponent: exponent, minimumModulusBits: minimumBits)
            for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
                let id = test["tcId"] as? Int ?? -1
                let message = try XCTUnwrap((test["msg"] as? String).flatMap(Hex.decode))
                let signature = try XCTUnwrap((test["sig"] as? String).flatMap(Hex.decode))
                let accepted = verify(key, group, message, signature)
                let label = "\(file) tcId \(id) (\(test["comment"] ?? ""))"
                switch test["result"] as? String {
                case "valid":
                    XCTAssertTrue(accepted, "\(label) should verify")
                    counts.valid += 1
                case "invalid":
                    XCTAssertFalse(accepted, "\(label) should be rejected")
                    counts.invalid += 1
                default:
                    acceptable(test["flags"] as? [String] ?? [], accepted, label)
                    counts.acceptable += 1
                    if accepted { counts.acceptableAccepted += 1 }
                }
            }
        }
        return counts
    }

    func testWycheproofPKCS1v15() throws {
        let files = [
            "rsa_signature_2048_sha256_test", "rsa_signature_2048_sha384_test", "rsa_signature_2048_sha512_test",
            "rsa_signature_3072_sha256_test", "rsa_signature_3072_sha384_test", "rsa_signature_3072_sha512_test",
            "rsa_signature_4096_sha256_test", "rsa_signature_4096_sha384_test", "rsa_signature_4096_sha512_test",
            "rsa_signature_8192_sha256_test", "rsa_signature_8192_sha384_test", "rsa_signature_8192_sha512_test",
        ]
        for file in files {
            let counts = try run(
                file,
                verify: { key, group, message, signature in
                    guard let hash = self.hash(group["sha"] as? String ?? "") else { return false }
                    return key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: hash)
                },
                acceptable: { flags, accepted, label in
                    // MissingNull: rejected by design (strict DigestInfo).
                    XCTAssertEqual(flags, ["MissingNull"], "\(label): unexpected acceptable case")
                    XCTAssertFalse(accepted, "\(label): a DigestInfo without NULL must be rejected")
                })
            XCTAssertGreaterThan(counts.valid, 0, file)
            XCTAssertGreaterThan(counts.invalid, 0, file)
        }
    }

    func testWycheproofGenerationFilesVerify() throws {
        // Groups per file that use SHA-224 (not implemented here) and are skipped.
        let expectedSkips = [1024: 1, 1536: 1, 2048: 1, 3072: 0, 4096: 0]
        for bits in [1024, 1536, 2048, 3072, 4096] {
            let file = "rsa_pkcs1_\(bits)_sig_gen_test"
            let counts = try run(
                file, minimumBits: 1024,
                verify: { key, group, message, signature in
                    guard let hash = self.hash(group["sha"] as? String ?? "") else { return false }
                    return key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: hash)
                },
                acceptable: { flags, accepted, label in
                    XCTAssertTrue(Set(flags).isSubset(of: ["SmallModulus", "WeakHash", "SmallPublicKey"]), "\(label): \(flags)")
                    XCTAssertTrue(accepted, "\(label): valid signature under an allowed key")
                })
            XCTAssertGreaterThan(counts.valid + counts.acceptable, 0, file)
            XCTAssertEqual(counts.skippedGroups, expectedSkips[bits], "\(file): only SHA-224 groups are skipped")
        }
        // Without the caller's permission, a 1024-bit key is refused outright.
        let data = try Data(contentsOf: TestPaths.vectors("wycheproof/rsa_pkcs1_1024_sig_gen_test.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let group = try XCTUnwrap((json["testGroups"] as? [[String: Any]])?.first)
        let keyObject = try XCTUnwrap(group["privateKey"] as? [String: Any])
        let modulus = try XCTUnwrap((keyObject["modulus"] as? String).flatMap(Hex.decode))
        XCTAssertThrowsError(try RSAPublicKey(modulus: modulus, exponent: [1, 0, 1])) { error in
            XCTAssertEqual((error as? SigilCoreError)?.code, .invalidKey)
        }
    }

    func testWycheproofPSS() throws {
        let files = [
            "rsa_pss_2048_sha1_mgf1_20_test", "rsa_pss_2048_sha256_mgf1_0_test", "rsa_pss_2048_sha256_mgf1_32_test",
            "rsa_pss_2048_sha256_mgf1sha1_20_test", "rsa_pss_2048_sha384_mgf1_48_test",
            "rsa_pss_3072_sha256_mgf1_32_test", "rsa_pss_4096_sha256_mgf1_32_test",
            "rsa_pss_4096_sha512_mgf1_64_test", "rsa_pss_misc_test", "rsa_pss_2048_sha256_mgf1_32_params_test",
        ]
        for file in files {
            let counts = try run(
                file,
                verify: { key, group, message, signature in
                    guard let hash = self.hash(group["sha"] as? String ?? ""),
                        let mgfHash = self.hash(group["mgfSha"] as? String ?? ""),
                        let saltLength = group["sLen"] as? Int
                    else { return false }
                    let parameters = RSAPublicKey.PSSParameters(hash: hash, maskGenerationHash: mgfHash, saltLength: saltLength)
                    return key.isValidPSSSignatureVartime(signature, for: message, parameters: parameters)
                }, acceptable: { _, _, label in XCTFail("\(label): no acceptable PSS cases expected") })
            XCTAssertGreaterThan(counts.valid, 0, file)
            // rsa_pss_misc_test holds only valid cases, over every pair of message and MGF1
            // hashes; its 54 groups that use SHA-224 are skipped (16 pairs × 6 groups remain).
            if file == "rsa_pss_misc_test" {
                XCTAssertEqual(counts.skippedGroups, 54)
                XCTAssertEqual(counts.valid, 96)
            } else {
                XCTAssertGreaterThan(counts.invalid, 0, file)
                XCTAssertEqual(counts.skippedGroups, 0, file)
            }
        }
    }

    func testKeyRules() throws {
        var rng = SeededGenerator(seed: 61)
        var modulus = rng.bytes(256)
        modulus[0] |= 0x80
        modulus[255] |= 1
        XCTAssertNoThrow(try RSAPublicKey(modulus: modulus, exponent: [1, 0, 1]))
        XCTAssertNoThrow(try RSAPublicKey(modulus: [0, 0] + modulus, exponent: [0, 3]), "leading zeros are dropped")
        XCTAssertEqual(try RSAPublicKey(modulus: [0] + modulus, exponent: [0, 1, 0, 1]).modulus, modulus)
        func code(_ body: () throws -> RSAPublicKey) -> SigilCoreError.Code? {
            do {
                _ = try body()
                return nil
            } catch { return (error as? SigilCoreError)?.code }
        }
        var even = modulus
        even[255] &= 0xFE
        XCTAssertEqual(code { try RSAPublicKey(modulus: even, exponent: [1, 0, 1]) }, .invalidKey, "even modulus")
        XCTAssertEqual(code { try RSAPublicKey(modulus: modulus, exponent: [1, 0, 0]) }, .invalidKey, "even exponent")
        XCTAssertEqual(code { try RSAPublicKey(modulus: modulus, exponent: [1]) }, .invalidKey, "e = 1")
        XCTAssertEqual(code { try RSAPublicKey(modulus: modulus, exponent: []) }, .invalidKey, "e = 0")
        XCTAssertEqual(code { try RSAPublicKey(modulus: modulus, exponent: modulus) }, .invalidKey, "e = n")
        XCTAssertEqual(code { try RSAPublicKey(modulus: Array(modulus.dropFirst()), exponent: [3]) }, .invalidKey, "2040 bits")
        XCTAssertEqual(
            code { try RSAPublicKey(modulus: [0x80] + [UInt8](repeating: 0, count: 1024) + [1], exponent: [3]) },
            .invalidKey, "over 8192 bits")
        XCTAssertEqual(code { try RSAPublicKey(modulus: modulus, exponent: [3], minimumModulusBits: 512) }, .invalidLength)
        // Signature lengths other than k, and s ≥ n, are invalid without any exponentiation result.
        let key = try RSAPublicKey(modulus: modulus, exponent: [1, 0, 1])
        let digest = SHA256.hash([UInt8]())
        XCTAssertFalse(key.isValidPKCS1v15SignatureVartime(rng.bytes(255), digest: digest, hash: .sha256))
        XCTAssertFalse(key.isValidPKCS1v15SignatureVartime(rng.bytes(257), digest: digest, hash: .sha256))
        XCTAssertFalse(key.isValidPKCS1v15SignatureVartime(modulus, digest: digest, hash: .sha256))
        XCTAssertFalse(key.isValidPSSSignatureVartime(modulus, digest: digest, parameters: .init(hash: .sha256)))
        XCTAssertFalse(key.isValidPKCS1v15SignatureVartime(rng.bytes(256), digest: [1, 2, 3], hash: .sha256), "digest length")
    }

    /// RSAVP1 on the per-key limbs (mpn, no mpz) against GMP's mpz_powm through BigNum, for
    /// moduli of 1024 to 8192 bits whose length is not a whole number of limbs too, exponents 3,
    /// 65537 and a random odd one of 520 bits (more than eight limbs), and s = 0, 1, 2, n − 1 (accepted), n and n + 1 (refused)
    /// besides random values below n.
    func testVerificationPrimitiveAgainstGMP() throws {
        var rng = SeededGenerator(seed: 7301)
        for bits in [1024, 1031, 2048, 2056, 3072, 4096, 8192] {
            let byteCount = (bits + 7) / 8
            var modulus = rng.bytes(byteCount)
            modulus[0] = modulus[0] & UInt8(0xFF >> ((8 - bits % 8) % 8)) | UInt8(1 << ((bits - 1) % 8))
            modulus[byteCount - 1] |= 1
            var bigExponent = rng.bytes(65)
            bigExponent[bigExponent.count - 1] |= 1
            bigExponent[0] |= 0x80
            let n = BigNum(magnitude: modulus)
            for exponent in [[3], [1, 0, 1], bigExponent] as [[UInt8]] {
                let key = try RSAPublicKey(modulus: modulus, exponent: exponent, minimumModulusBits: 1024)
                XCTAssertEqual(key.modulusBits, bits)
                let e = BigNum(magnitude: exponent)
                var inputs: [BigNum] = [BigNum(0), BigNum(1), BigNum(2), n - BigNum(1)]
                inputs += (0..<(bits > 4096 ? 2 : 6)).map { _ in (try? BigNum(magnitude: rng.bytes(byteCount)).mod(n)) ?? BigNum(0) }
                for s in inputs {
                    let sBytes = try s.bytes(width: byteCount)
                    let expected = try s.power(e, modulo: n).bytes(width: byteCount)
                    XCTAssertEqual(
                        key.verificationPrimitiveVartime(sBytes, outputByteCount: byteCount), expected,
                        "\(bits) bits, e \(exponent.count) bytes")
                    // A width too small for m is I2OSP's "integer too large" exactly when m needs it.
                    let fitsShorter = expected[0] == 0
                    XCTAssertEqual(key.verificationPrimitiveVartime(sBytes, outputByteCount: byteCount - 1) != nil, fitsShorter)
                }
                for above in [n, n + BigNum(1)] {
                    XCTAssertNil(key.verificationPrimitiveVartime(try above.bytes(width: byteCount), outputByteCount: byteCount), "s ≥ n")
                }
            }
        }
    }

    /// MGF1 against an independent implementation (python hashlib), for each hash and several lengths.
    func testMGF1AgainstPython() throws {
        let python = try Subprocess.require("python3")
        for hash in HashAlgorithm.allCases {
            let name = ["SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"][hash.rawValue]!
            let seed = Array("mgf1 seed".utf8)
            let script = """
                import hashlib,sys
                seed=b'mgf1 seed'; out=b''; c=0
                while len(out) < 300:
                    out += hashlib.\(name)(seed + c.to_bytes(4,'big')).digest(); c += 1
                sys.stdout.write(out[:300].hex())
                """
            let result = try Subprocess.run(python, ["-c", script])
            XCTAssertEqual(Hex.encode(RSAPublicKey.mgf1(seed: seed, length: 300, hash: hash)), result.stdoutString)
            XCTAssertEqual(
                RSAPublicKey.mgf1(seed: seed, length: 7, hash: hash),
                Array(RSAPublicKey.mgf1(seed: seed, length: 300, hash: hash).prefix(7)))
        }
    }
}
