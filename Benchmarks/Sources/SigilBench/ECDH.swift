@_spi(Benchmarks) import SigilCore

// P-256 ECDH with a fresh peer key per call, per second (for Benchmarks/python/ecdh.py, a child
// process between its own rounds: `--ecdh-rate SECONDS`, JSON on standard output): the peer's
// uncompressed point read and validated, then d·Q — by `sharedSecret(with:)` (the constant-time
// fixed window) and by the comb over a per-call table it replaced (`sharedSecretByComb`), in one
// run. The 64 peers are taken in turn, so nothing is cached between calls.
enum ECDHBenchError: Error { case pathsDisagree }

func ecdhRates(seconds: Double) throws -> [String: Double] {
    let key = ECDSAPrivateKey.generate(curve: .p256)
    let peers = (0..<64).map { _ in ECDSAPrivateKey.generate(curve: .p256).publicKey.uncompressedRepresentation }
    for peer in peers {
        let point = try ECDSAPublicKey(sec1Representation: peer, curve: .p256)
        guard try key.sharedSecret(with: point) == key.sharedSecretByComb(with: point) else { throw ECDHBenchError.pathsDisagree }
    }
    // A different peer for each call, its point read (and validated) inside the timed call.
    var next = 0
    var sink: UInt8 = 0
    func rate(_ body: (ECDSAPublicKey) throws -> [UInt8]) throws -> Double {
        try childRate(seconds: seconds) {
            next += 1
            sink ^= try body(ECDSAPublicKey(sec1Representation: peers[next % 64], curve: .p256))[0]
        }
    }
    defer { withExtendedLifetime(sink) {} }
    return [
        "fixedWindow": try rate { try key.sharedSecret(with: $0) },
        "comb": try rate { try key.sharedSecretByComb(with: $0) },
    ]
}
