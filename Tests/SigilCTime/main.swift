import SigilCTimeShim
import SigilCore

// The constant-time harness, run under valgrind memcheck by Tests/SigilCoreTests/ConstantTimeTests.swift.
//
// It marks every private key, nonce-derivation input and hedging entropy "undefined", then loads
// keys, derives public keys and signs on both curves with every hash. memcheck reports any
// conditional jump or memory address computed from undefined bytes, so a clean run means no
// branch and no table index depends on the secrets — except at the declassification points
// (Choice.isTrueVartime), which mark their public result defined.
//
// `--leaky` adds one deliberate secret-dependent branch, to show the check catches it.

ConstantTimeAudit.declassifyHook = { address, length in sigil_ctime_mark_public(address, length) }
let leaky = CommandLine.arguments.contains("--leaky")
var sink: UInt8 = 0

for curve in ECCurve.allCases {
    for hash in HashAlgorithm.allCases {
        var secret = [UInt8](repeating: 0, count: curve.byteCount)
        for i in secret.indices { secret[i] = UInt8(truncatingIfNeeded: 0x5A &+ i &* 29 &+ Int(hash.digestByteCount)) }
        let entropy = [UInt8](repeating: 0xA5, count: 32)
        secret.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        entropy.withUnsafeBytes { sigil_ctime_mark_secret($0.baseAddress, $0.count) }
        if leaky, secret[0] & 1 == 1 { sink &+= 1 }  // the deliberate leak
        guard let key = try? ECDSAPrivateKey(rawRepresentation: secret, curve: curve) else {
            print("key rejected")
            continue
        }
        let message: [UInt8] = Array("constant-time check \(curve.rawValue) \(hash.rawValue)".utf8)
        for extra in [[UInt8](), entropy] {
            let signature = key.signature(for: message, hash: hash, extraEntropy: extra).rawRepresentation
            signature.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
            sink &+= signature[0]
        }
        let exported = key.rawRepresentation
        exported.withUnsafeBytes { sigil_ctime_mark_public($0.baseAddress, $0.count) }
    }
}
print("ctime harness done (valgrind: \(sigil_ctime_running_on_valgrind()), shim: \(sigil_ctime_available()), sink \(sink))")
