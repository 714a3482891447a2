import Foundation
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

/// Interop both ways with the `openssl` CLI as an independent peer: keys it generates load here,
/// keys we write load there, and signatures cross in both directions, for P-256 and P-384 with
/// SHA-256/384/512.
final class OpenSSLInteropTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String], stdin: Data = Data()) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments, stdin: stdin)
        return result
    }

    private let cases: [(ECCurve, String, HashAlgorithm, String)] = [
        (.p256, "prime256v1", .sha256, "sha256"), (.p256, "prime256v1", .sha384, "sha384"), (.p256, "prime256v1", .sha512, "sha512"),
        (.p384, "secp384r1", .sha384, "sha384"), (.p384, "secp384r1", .sha256, "sha256"), (.p384, "secp384r1", .sha512, "sha512"),
    ]

    func testOpenSSLKeysAndSignaturesVerifyHere() throws {
        var rng = SeededGenerator(seed: 99)
        for (index, (curve, name, hash, digestName)) in cases.enumerated() {
            // PKCS#8 from genpkey, and SEC 1 from ecparam -genkey (with its EC PARAMETERS block).
            let pkcs8 = path("k\(index).pem")
            let sec1 = path("s\(index).pem")
            XCTAssertEqual(try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(name)", "-out", pkcs8]).status, 0)
            XCTAssertEqual(try openssl(["ecparam", "-name", name, "-genkey", "-out", sec1]).status, 0)
            for keyFile in [pkcs8, sec1] {
                guard case .privateKey(let key) = try ECKey(loading: Array(try Data(contentsOf: URL(fileURLWithPath: keyFile)))) else {
                    return XCTFail("\(keyFile) should load as a private key")
                }
                XCTAssertEqual(key.curve, curve)
                // openssl's public key (SPKI PEM) equals ours.
                let pub = try openssl(["pkey", "-in", keyFile, "-pubout"])
                guard case .publicKey(let theirPublic) = try ECKey(loading: Array(pub.stdout)) else { return XCTFail("pubout") }
                XCTAssertEqual(theirPublic, key.publicKey)
                // openssl signs, we verify.
                let message = Data(rng.bytes(Int.random(in: 0...3000, using: &rng)))
                let messageFile = path("m\(index)")
                try message.write(to: URL(fileURLWithPath: messageFile))
                let signed = try openssl(["dgst", "-\(digestName)", "-sign", keyFile, messageFile])
                XCTAssertEqual(signed.status, 0)
                let signature = try ECDSASignature(derEncoded: Array(signed.stdout), curve: curve)
                XCTAssertTrue(key.publicKey.isValidSignatureVartime(signature, for: Array(message), hash: hash), "\(name) \(digestName)")
                XCTAssertFalse(key.publicKey.isValidSignatureVartime(signature, for: Array(message) + [0], hash: hash))
            }
        }
    }

    func testOurKeysAndSignaturesVerifyInOpenSSL() throws {
        var rng = SeededGenerator(seed: 100)
        for (index, (curve, _, hash, digestName)) in cases.enumerated() {
            let key = ECDSAPrivateKey.generate(curve: curve, using: &rng)
            let pkcs8 = path("ours\(index).p8")
            let sec1 = path("ours\(index).sec1")
            let pub = path("ours\(index).pub")
            try key.pkcs8PEM.write(toFile: pkcs8, atomically: true, encoding: .utf8)
            try key.sec1PEM.write(toFile: sec1, atomically: true, encoding: .utf8)
            try key.publicKey.pemRepresentation.write(toFile: pub, atomically: true, encoding: .utf8)
            // openssl reads our private keys and derives the same public key.
            for file in [pkcs8, sec1] {
                let derived = try openssl(["pkey", "-in", file, "-pubout"])
                XCTAssertEqual(derived.status, 0, String(decoding: derived.stderr, as: UTF8.self))
                XCTAssertEqual(derived.stdoutString, key.publicKey.pemRepresentation)
            }
            XCTAssertEqual(try openssl(["pkey", "-pubin", "-in", pub, "-noout"]).status, 0)
            // We sign (deterministic and hedged), openssl verifies; a flipped message fails there.
            let message = Data(rng.bytes(Int.random(in: 0...3000, using: &rng)))
            let messageFile = path("msg\(index)")
            try message.write(to: URL(fileURLWithPath: messageFile))
            for extra in [[UInt8](), rng.bytes(32)] {
                let signature = key.signature(for: Array(message), hash: hash, extraEntropy: extra)
                let signatureFile = path("sig\(index)")
                try Data(signature.derRepresentation).write(to: URL(fileURLWithPath: signatureFile))
                let verified = try openssl(["dgst", "-\(digestName)", "-verify", pub, "-signature", signatureFile, messageFile])
                XCTAssertEqual(verified.status, 0, "\(curve) \(digestName): \(verified.stdoutString)")
                let tampered = try openssl(
                    ["dgst", "-\(digestName)", "-verify", pub, "-signature", signatureFile],
                    stdin: message + Data([1]))
                XCTAssertNotEqual(tampered.status, 0)
            }
        }
    }
}
