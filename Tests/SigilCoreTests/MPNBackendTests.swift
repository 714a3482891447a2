import Foundation
import SigilTestSupport
import XCTest

@testable import SigilCore

/// MPNBackend: the selection (forced, current, the environment variable), and RSA verification
/// with each backend forced: the Wycheproof RSA signature files (PKCS#1 v1.5 and PSS) judged the
/// same by GMP and by portable Swift.
final class MPNBackendTests: XCTestCase {
    /// Runs `body` with `backend` forced, then restores the process's choice.
    private func with<T>(_ backend: MPNBackend?, _ body: () throws -> T) rethrows -> T {
        let saved = MPNBackend.forced
        defer { MPNBackend.forced = saved }
        MPNBackend.forced = backend
        return try body()
    }

    func testSelection() throws {
        XCTAssertEqual(MPNBackend.available, [.gmp, .portable])
        XCTAssertEqual(MPNBackend.allCases.map(\.environmentName), ["gmp", "portable"])
        XCTAssertEqual(MPNBackend.selectionEnvironmentVariable, "SIGIL_MPN_BACKEND")
        with(nil) {
            XCTAssertNil(MPNBackend.forced)
            XCTAssertEqual(MPNBackend.current, .gmp, "GMP is the regular build's default")
        }
        for backend in MPNBackend.allCases {
            with(backend) {
                XCTAssertEqual(MPNBackend.forced, backend)
                XCTAssertEqual(MPNBackend.current, backend)
            }
        }
    }

    /// SIGIL_MPN_BACKEND is read when the selection is made (once per process; a fresh one here).
    func testEnvironmentVariable() throws {
        let variable = MPNBackend.selectionEnvironmentVariable
        let saved = getenv(variable).map { String(cString: $0) }
        defer {
            if let saved { setenv(variable, saved, 1) } else { unsetenv(variable) }
        }
        for (text, expected) in [("portable", MPNBackend.portable), ("gmp", .gmp), ("", nil), ("Portable", nil), ("swift", nil)]
            as [(String, MPNBackend?)]
        {
            setenv(variable, text, 1)
            let selection = MPNSelection()
            XCTAssertEqual(selection.forced, expected, "SIGIL_MPN_BACKEND=\(text)")
            XCTAssertEqual(selection.usesPortable, expected == .portable, "SIGIL_MPN_BACKEND=\(text)")
        }
        unsetenv(variable)
        XCTAssertNil(MPNSelection().forced)
    }

    // MARK: - RSA vectors

    private func hash(_ name: String) -> HashAlgorithm? {
        ["SHA-1": .sha1, "SHA-256": .sha256, "SHA-384": .sha384, "SHA-512": .sha512][name]
    }

    /// Every test of a Wycheproof RSA file with a hash Sigil has, judged by GMP and by the portable
    /// path (on one key: a key holds nothing backend-specific). Valid cases must verify, invalid
    /// ones must not, and the verdicts must agree. Returns the number judged.
    private func judge(_ file: String, minimumBits: Int, pss: Bool) throws -> Int {
        let data = try Data(contentsOf: TestPaths.vectors("wycheproof/\(file).json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var judged = 0
        for group in try XCTUnwrap(json["testGroups"] as? [[String: Any]]) {
            // Groups with a hash Sigil does not implement (SHA-224) are skipped.
            guard let hash = hash(group["sha"] as? String ?? "") else { continue }
            let mgfHash = (group["mgfSha"] as? String).flatMap(self.hash)
            if pss && mgfHash == nil { continue }
            let keyObject = try XCTUnwrap((group["publicKey"] ?? group["privateKey"]) as? [String: Any])
            let modulus = try XCTUnwrap((keyObject["modulus"] as? String).flatMap(Hex.decode))
            let exponent = try XCTUnwrap((keyObject["publicExponent"] as? String).flatMap(Hex.decode))
            let key = try RSAPublicKey(modulus: modulus, exponent: exponent, minimumModulusBits: minimumBits)
            let parameters = RSAPublicKey.PSSParameters(hash: hash, maskGenerationHash: mgfHash, saltLength: group["sLen"] as? Int)
            for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
                let message = try XCTUnwrap((test["msg"] as? String).flatMap(Hex.decode))
                let signature = try XCTUnwrap((test["sig"] as? String).flatMap(Hex.decode))
                func verify() -> Bool {
                    pss
                        ? key.isValidPSSSignatureVartime(signature, for: message, parameters: parameters)
                        : key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: hash)
                }
                let label = "\(file) tcId \(test["tcId"] as? Int ?? -1)"
                let reference = with(.gmp) { verify() }
                XCTAssertEqual(with(.portable) { verify() }, reference, "\(label): portable")
                switch test["result"] as? String {
                case "valid": XCTAssertTrue(reference, "\(label) should verify")
                case "invalid": XCTAssertFalse(reference, "\(label) should be rejected")
                default: break
                }
                judged += 1
            }
        }
        return judged
    }

    func testWycheproofPKCS1v15WithEachBackend() throws {
        // The files RSAVectorTests runs, but at 8,192 bits (beyond the 4,096 the lengths test covers)
        // SHA-256 only: the three files hold the same kinds of signature under other hashes.
        for bits in [2048, 3072, 4096, 8192] {
            for hash in bits == 8192 ? ["sha256"] : ["sha256", "sha384", "sha512"] {
                XCTAssertGreaterThan(try judge("rsa_signature_\(bits)_\(hash)_test", minimumBits: 2048, pss: false), 100)
            }
        }
        for bits in [1024, 1536, 2048, 3072, 4096] {
            XCTAssertGreaterThan(try judge("rsa_pkcs1_\(bits)_sig_gen_test", minimumBits: 1024, pss: false), 10)
        }
    }

    func testWycheproofPSSWithEachBackend() throws {
        let files = [
            "rsa_pss_2048_sha1_mgf1_20_test", "rsa_pss_2048_sha256_mgf1_0_test", "rsa_pss_2048_sha256_mgf1_32_test",
            "rsa_pss_2048_sha256_mgf1sha1_20_test", "rsa_pss_2048_sha384_mgf1_48_test",
            "rsa_pss_3072_sha256_mgf1_32_test", "rsa_pss_4096_sha256_mgf1_32_test",
            "rsa_pss_4096_sha512_mgf1_64_test", "rsa_pss_misc_test", "rsa_pss_2048_sha256_mgf1_32_params_test",
        ]
        for file in files { XCTAssertGreaterThan(try judge(file, minimumBits: 2048, pss: true), 50, file) }
    }
}
