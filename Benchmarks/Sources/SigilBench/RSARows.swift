import Crypto
import Foundation
import SigilCore
import _CryptoExtras

/// RSA-2048 PKCS#1 v1.5 / SHA-256 verification of `message` under a fresh key: Sigil against
/// swift-crypto (BoringSSL) in this process, then against `openssl speed rsa2048` (its verify/s:
/// the RSA public operation and the padding check of a digest, no hashing) run right after.
func rsaRows(harness: inout Harness, message: [UInt8], seconds: Double) throws -> [Row] {
    let theirKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    let theirSignature = try theirKey.signature(for: message, padding: .insecurePKCS1v1_5)
    let ourKey = try SigilCore.RSAPublicKey(spkiDER: Array(theirKey.publicKey.derRepresentation))
    let signatureBytes = Array(theirSignature.rawRepresentation)
    guard ourKey.isValidPKCS1v15SignatureVartime(signatureBytes, for: message, hash: .sha256) else {
        FileHandle.standardError.write(Data("RSA cross-check failed\n".utf8))
        exit(1)
    }
    let ours = harness.opsPerSecond { ourKey.isValidPKCS1v15SignatureVartime(signatureBytes, for: message, hash: .sha256) ? 1 : 0 }
    let theirs = harness.opsPerSecond {
        theirKey.publicKey.isValidSignature(theirSignature, for: message, padding: .insecurePKCS1v1_5) ? 1 : 0
    }
    var rows = [
        Row(name: "RSA-2048 PKCS#1 v1.5 verify", sigil: ours, reference: theirs, referenceName: "swift-crypto _RSA.Signing", bytesPerOp: 0)
    ]
    if let openssl = opensslSpeedRSAVerify(bits: 2048, seconds: seconds) {
        rows.append(
            Row(
                name: "RSA-2048 PKCS#1 v1.5 verify", sigil: ours, reference: openssl, referenceName: "openssl speed rsa2048 (verify/s)",
                bytesPerOp: 0))
    }
    return rows
}

/// RSA PKCS#1 v1.5 / SHA-256 verification of `message` at 2,048 and 4,096 bits with each
/// multi-precision backend forced (MPNBackend): RSAVP1 on portable Swift, what Embedded Swift runs,
/// against GMP's `mpn` functions, the regular build's default, in the same run.
func mpnBackendRows(harness: inout Harness, message: [UInt8]) throws -> [Row] {
    let saved = MPNBackend.forced
    defer { MPNBackend.forced = saved }
    func compare(_ name: String, _ body: () -> UInt64) -> Row {
        var rates: [MPNBackend: Double] = [:]
        for backend in [MPNBackend.gmp, .portable] {
            MPNBackend.forced = backend
            rates[backend] = harness.opsPerSecond(body)
        }
        return Row(
            name: "\(name), portable Swift backend", sigil: rates[.portable] ?? 0, reference: rates[.gmp] ?? 0,
            referenceName: "Sigil on GMP (the default backend)", bytesPerOp: 0)
    }
    var rows: [Row] = []
    for size in [_RSA.Signing.KeySize.bits2048, .bits4096] {
        let theirKey = try _RSA.Signing.PrivateKey(keySize: size)
        let signature = Array(try theirKey.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        let key = try SigilCore.RSAPublicKey(spkiDER: Array(theirKey.publicKey.derRepresentation))
        for backend in [MPNBackend.gmp, .portable] {
            MPNBackend.forced = backend
            guard key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: .sha256) else {
                FileHandle.standardError.write(Data("RSA cross-check failed on the \(backend.rawValue) backend\n".utf8))
                exit(1)
            }
        }
        rows.append(
            compare("RSA-\(size.bitCount) PKCS#1 v1.5 verify") {
                key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: .sha256) ? 1 : 0
            })
    }
    return rows
}
