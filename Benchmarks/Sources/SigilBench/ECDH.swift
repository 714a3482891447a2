import Dispatch
@_spi(Benchmarks) import SigilCore

// P-256 ECDH with a fresh peer key per call, per second (for Benchmarks/python/ecdh.py, a child
// process between its own rounds: `--ecdh-rate SECONDS`, JSON on standard output): the peer's
// uncompressed point read and validated, then d·Q — by `sharedSecret(with:)` (the constant-time
// fixed window) and by the comb over a per-call table it replaced (`sharedSecretByComb`), in one
// run. The 64 peers are taken in turn, so nothing is cached between calls.
func ecdhRates(seconds: Double) throws -> [String: Double] {
    let key = ECDSAPrivateKey.generate(curve: .p256)
    let peers = (0..<64).map { _ in ECDSAPrivateKey.generate(curve: .p256).publicKey.uncompressedRepresentation }
    for peer in peers {
        let point = try ECDSAPublicKey(sec1Representation: peer, curve: .p256)
        guard try key.sharedSecret(with: point) == key.sharedSecretByComb(with: point) else { fatalError("the two ECDH paths disagree") }
    }
    func rate(_ body: (ECDSAPublicKey) throws -> [UInt8]) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0
        var sink: UInt8 = 0
        while Double(DispatchTime.now().uptimeNanoseconds - start) < seconds * 1e9 {
            for index in 0..<16 {
                guard let point = try? ECDSAPublicKey(sec1Representation: peers[(count + index) % 64], curve: .p256) else { continue }
                sink ^= try body(point)[0]
            }
            count += 16
        }
        withExtendedLifetime(sink) {}
        return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return [
        "fixedWindow": try rate { try key.sharedSecret(with: $0) },
        "comb": try rate { try key.sharedSecretByComb(with: $0) },
    ]
}
