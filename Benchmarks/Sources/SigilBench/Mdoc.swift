import Foundation
import SigilBase
import SigilCore
import SigilMdoc
import SigilX509

// ISO/IEC 18013-5 Annex D's DeviceResponse verified per second (for Benchmarks/python/mdoc.py, a
// child process between its own rounds: `--mdoc-rate DIR AT SECONDS`, JSON on standard output).
// DIR is Annex D's folder (Scripts/vectors-dir mdoc, then iso18013-5-annex-d): the response, the
// transcript, the IACA root, and keys.txt for the reader's ephemeral private key.
enum MdocBenchError: Error { case noReaderKey }

/// Responses per second: `full`, every step with the reader's key (the deviceMac's ECDH, HKDF and
/// HMAC included); `withoutDeviceMac`, the reader key withheld under `acceptUnverifiedDeviceMAC`
/// (every other step, the chain included).
func mdocRates(directory: String, at: Int64, seconds: Double) throws -> [String: Double] {
    func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) }
    let response = try read("device-response.cbor")
    let transcript = try SessionTranscript(bytes: read("session-transcript-bytes.cbor"))
    let root = try Certificate(derEncoded: read("iaca-root.der"))
    let keys = String(decoding: try read("keys.txt"), as: UTF8.self)
    guard let line = keys.split(separator: "\n").first(where: { $0.hasPrefix("ephemeral-reader-key ") }),
        let hex = line.split(separator: " ").first(where: { $0.hasPrefix("d=") })?.dropFirst(2), let d = Base16.decode(String(hex))
    else { throw MdocBenchError.noReaderKey }
    let readerKey = try ECDSAPrivateKey(rawRepresentation: d, curve: .p256)
    let verifier = MdocVerifier(trustedIACARoots: [root])
    let relaxed = MdocVerifier(trustedIACARoots: [root], relaxations: [.acceptUnverifiedDeviceMAC])
    _ = try verifier.verify(deviceResponse: response, sessionTranscript: transcript, readerKey: .privateKey(readerKey), at: at)
    func rate(_ body: () throws -> Void) rethrows -> Double { try childRate(seconds: seconds, body) }
    return [
        "full": try rate {
            _ = try verifier.verify(deviceResponse: response, sessionTranscript: transcript, readerKey: .privateKey(readerKey), at: at)
        },
        "withoutDeviceMac": try rate {
            _ = try relaxed.verify(deviceResponse: response, sessionTranscript: transcript, readerKey: .notHeld, at: at)
        },
    ]
}
