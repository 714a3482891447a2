import ArgumentParser
import Foundation
import SigilCore

/// `sigil bench`: Sigil's own throughput, as JSON (the side-by-side comparison with swift-crypto
/// lives in Benchmarks/).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure P-256/P-384 sign and verify and SHA-256 throughput; JSON on stdout.")

    @Option(help: "Seconds per measurement.") var seconds: Double = 1

    func run() {
        var results: [[String: Any]] = []
        func measure(_ name: String, _ body: () -> Int) {
            let clock = ContinuousClock()
            var sink = 0
            var iterations = 0
            let start = clock.now
            let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
            var now = start
            while now < end {
                sink &+= body()
                iterations += 1
                now = clock.now
            }
            let elapsed = start.duration(to: now)
            let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            results.append(["name": name, "opsPerSecond": (Double(iterations) / secondsElapsed).rounded(), "threads": 1,
                            "checksum": sink & 1])
        }
        let message = [UInt8](repeating: 0x5A, count: 100)
        for curve in ECCurve.allCases {
            let key = ECDSAPrivateKey.generate(curve: curve)
            let hash = curve.defaultHash
            measure("\(curve.rawValue) sign") { Int(key.signature(for: message, hash: hash).r[0]) }
            let signature = key.signature(for: message, hash: hash)
            measure("\(curve.rawValue) verify") { key.publicKey.isValidSignatureVartime(signature, for: message, hash: hash) ? 1 : 0 }
        }
        let kib = [UInt8](repeating: 0xA5, count: 1024)
        measure("SHA-256 1 KiB") { Int(SHA256.hash(kib)[0]) }
        Output.printJSON(["results": results, "machine": ["cores": ProcessInfo.processInfo.activeProcessorCount,
                                                          "memoryBytes": ProcessInfo.processInfo.physicalMemory]])
    }
}
