import Benchmark
@_spi(Benchmarks) import SigilCore

// Mallocs per operation on the fast paths (issue 3: "no allocation per field or point operation").
// Each benchmark runs a chain of 1000 operations per iteration; the malloc counter reports the
// total per iteration, so 0 means no allocation at all in the chain.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.mallocCountTotal, .wallClock], maxDuration: .seconds(1))
    for curve in [ECCurve.p256, .p384] {
        for operation in Microbenchmarks.Operation.allCases where operation != .gmpMultiplyConstantTime {
            Benchmark("\(curve) \(operation.rawValue) ×\(operation == .fieldInversion ? 10 : 1000)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(Microbenchmarks.run(operation, curve: curve, iterations: operation == .fieldInversion ? 10 : 1000))
                }
            }
        }
        let key = ECDSAPrivateKey.generate(curve: curve)
        let message = [UInt8](repeating: 0x61, count: 100)
        let hash: HashAlgorithm = curve == .p256 ? .sha256 : .sha384
        let signature = key.signature(for: message, hash: hash)
        Benchmark("\(curve) ECDSA sign") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(key.signature(for: message, hash: hash)) }
        }
        Benchmark("\(curve) ECDSA verify") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(key.publicKey.isValidSignatureVartime(signature, for: message, hash: hash)) }
        }
    }
}
