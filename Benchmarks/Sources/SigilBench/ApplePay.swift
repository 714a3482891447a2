import Foundation
import SigilASN1
import SigilApplePay
import SigilX509

// Apple Pay EC_v1: one real token (Apple-signed, 2021) verified (CMS signature, chain to Apple Root
// CA - G3 with both marker OIDs, signing time) and decrypted (ECDH on P-256, the one-step KDF,
// AES-256-GCM, the payment data parsed) per call, at its signing time. The comparison with
// pyca/cryptography doing the same steps is Benchmarks/python/applepay.py, which runs this as a
// child process (`--applepay-rate DIR AT SECONDS`, JSON on standard output) between its own rounds.
enum ApplePayBenchError: Error { case noCertificate }

/// Rates of the three operations, or with `iterations` that many of `only` and nothing else (for
/// callgrind: instructions per operation from two counts).
func applePayRates(directory: String, at: Int64, seconds: Double, only: String? = nil, iterations: Int = 0) throws -> [String: Double] {
    func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) }
    let token = try PaymentToken(json: read("token.json"))
    let certificatePEM = String(decoding: try read("merchant_cert.pem"), as: UTF8.self)
    guard let document = try PEMDocument.parseAll(certificatePEM).first(where: { $0.label == "CERTIFICATE" }) else {
        throw ApplePayBenchError.noCertificate
    }
    let certificate = try Certificate(derEncoded: document.derBytes)
    let decryptor = PaymentTokenDecryptor(merchantKeys: [try MerchantKey(privateKey: read("merchant_key.pem"), certificate: certificate)])
    let verifier = try PaymentTokenVerifier()
    _ = try verifier.verify(token, at: at)
    _ = try decryptor.decrypt(token)
    if let only {
        for _ in 0..<iterations {
            if only != "decrypt" { _ = try verifier.verify(token, at: at) }
            if only != "verify" { _ = try decryptor.decrypt(token) }
        }
        return [:]
    }
    func rate(_ body: () throws -> Void) rethrows -> Double { try childRate(seconds: seconds, body) }
    return [
        "verifyDecrypt": try rate {
            _ = try verifier.verify(token, at: at)
            _ = try decryptor.decrypt(token)
        },
        "decrypt": try rate { _ = try decryptor.decrypt(token) },
        "verify": try rate { _ = try verifier.verify(token, at: at) },
    ]
}
