import ArgumentParser
import Dispatch
import Foundation
import SigilAppStore
import SigilCore
import SigilKeys
import SigilOCSP
import SigilPKCS7
import SigilReceipts
import SigilTestPKI
import SigilX509

/// `sigil bench`: Sigil's own throughput and latency on this machine (the side-by-side comparison
/// with swift-crypto, swift-certificates and jwt-kit lives in Benchmarks/).
///
/// Every row is one entry of `BenchCommand.benchmarks`: a stable name and a set-up that returns
/// the operation to time. Set-up runs only for the rows selected (`--only`), so a row with costly
/// inputs (the generated PKI) costs nothing when it is not asked for. To add a row, add an entry.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Measure signature, digest, certificate, App Store JWS, receipt and OCSP throughput and latency; a table, or JSON with --json.",
        discussion: """
            Rows (names are stable across versions; pick some with --only, quoting names with spaces):
            \(BenchCommand.benchmarks.map { "  " + $0.name }.joined(separator: "\n"))

            Each row runs on --threads threads at once (default 1; "all" for every core) and reports the \
            total operations per second and the latency of one operation (median and 99th percentile, \
            in microseconds). The last row always runs on every core and also carries \
            "scalingEfficiency": its rate over cores × the single-thread rate of the same operation. \
            --key FILE measures your own EC private key (PEM or DER; P-256 or P-384) in the sign and \
            verify rows of its curve; the other rows use generated keys. \
            --iterations N runs exactly N operations per thread and row instead of --seconds (for \
            instruction counts under valgrind --tool=callgrind, which repeat exactly).

            --json prints {"results": [{"name", "opsPerSecond", "threads", "p50Microseconds", \
            "p99Microseconds"}…], "machine": {"cores", "memoryBytes", "os"}}, plus "key": {"curve", \
            "file"} with --key.
            """)

    @Option(help: "Seconds per measurement.") var seconds: Double = 1
    @Option(help: "Operations per thread and row instead of a time budget.") var iterations: Int?
    @Option(parsing: .upToNextOption, help: "Run only these rows (exact names, as listed below).") var only: [String] = []
    @Option(help: "Threads per row: a number, or \"all\" for every core.") var threads: String = "1"
    @Option(help: "An EC private key file (PEM or DER, P-256 or P-384) for the sign and verify rows of its curve.") var key: String?
    @Flag(help: "Print stable JSON instead of a table.") var json = false

    // MARK: - Rows

    /// One row: its stable name, and how to set it up (only when selected).
    struct Benchmark {
        let name: String
        /// Every core at once, whatever --threads says, with a scaling efficiency against one thread.
        var allCores = false
        let setUp: (BenchInputs) throws -> Workload
    }

    /// What a row times: `operation` (its result is summed so the work stays observable), with
    /// `before`/`after` around the measurement (e.g. turning the per-key tables off).
    struct Workload {
        let operation: @Sendable () -> Int
        var before: () -> Void = {}
        var after: () -> Void = {}
    }

    /// Every row, in output order.
    static var benchmarks: [Benchmark] {
        ecdsaBenchmarks(.p256) + ecdsaBenchmarks(.p384) + [
            Benchmark(name: "P-256 ECDH (fresh peer key)") { _ in
                // What HPKE, the mdoc deviceMac and Apple Pay's EC_v1 do once per message: read the
                // peer's uncompressed point (validated) and multiply it by the private scalar, a
                // different peer each call (64 of them, taken at random), so nothing is cached.
                let key = ECDSAPrivateKey.generate(curve: .p256)
                let peers = (0..<64).map { _ in ECDSAPrivateKey.generate(curve: .p256).publicKey.uncompressedRepresentation }
                return Workload {
                    guard let peer = try? ECDSAPublicKey(sec1Representation: peers[Int.random(in: 0..<64)], curve: .p256),
                        let secret = try? key.sharedSecret(with: peer)
                    else { return 0 }
                    return Int(secret[0])
                }
            },
            Benchmark(name: "SHA-256 1 KiB") { _ in
                let input = [UInt8](repeating: 0xA5, count: 1024)
                return Workload { Int(SHA256.hash(input)[0]) }
            },
            Benchmark(name: "SHA-256 1 MiB") { _ in
                let input = [UInt8](repeating: 0xA5, count: 1 << 20)
                return Workload { Int(SHA256.hash(input)[0]) }
            },
            Benchmark(name: "SHA-384 1 KiB") { _ in
                let input = [UInt8](repeating: 0xA5, count: 1024)
                return Workload { Int(SHA384.hash(input)[0]) }
            },
            Benchmark(name: "HMAC-SHA256 64 B") { _ in
                let key = [UInt8](repeating: 0x0B, count: 32)
                let message = [UInt8](repeating: 0x5A, count: 64)
                return Workload { Int(HMAC<SHA256>.authenticationCode(key: key, message: message)[0]) }
            },
            Benchmark(name: "RSA-2048 verify") { _ in
                let key = try RSAPublicKey(spkiDER: try base64(BenchVectors.rsaPublicKeySPKI))
                let signature = try base64(BenchVectors.rsaSignature)
                let message = Array(BenchVectors.rsaMessage.utf8)
                guard key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: .sha256) else {
                    throw CLIFailure(code: "bench.vector", message: "the embedded RSA signature does not verify")
                }
                return Workload { key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: .sha256) ? 1 : 0 }
            },
            Benchmark(name: "certificate decode") { inputs in
                let der = try inputs.pki().leaf.derBytes
                return Workload { (try? Certificate(derEncoded: der))?.extensions.count ?? 0 }
            },
            Benchmark(name: "App Store JWS verify (cached chain)") { inputs in
                let (jws, verifier) = try inputs.appStore(cached: true)
                return Workload { (try? verifier.verifyTransactionOffline(jws)) == nil ? 0 : 1 }
            },
            Benchmark(name: "App Store JWS verify (uncached chain)") { inputs in
                let (jws, verifier) = try inputs.appStore(cached: false)
                return Workload { (try? verifier.verifyTransactionOffline(jws)) == nil ? 0 : 1 }
            },
            Benchmark(name: "receipt parse (CMS + payload, 5 in-app records)") { inputs in
                let receiptDER = try inputs.receipt()
                return Workload {
                    guard let signed = try? CMSSignedData(berEncoded: receiptDER),
                        let parsed = try? AppReceipt(payload: signed.payload ?? [])
                    else { return 0 }
                    return parsed.inAppPurchases.count
                }
            },
            Benchmark(name: "OCSP response parse + verify") { _ in
                let ca = try Certificate(derEncoded: try base64(BenchVectors.ocspCA))
                let leaf = try Certificate(derEncoded: try base64(BenchVectors.ocspLeaf))
                let responseDER = try base64(BenchVectors.ocspResponse)
                let response = try OCSPResponse(derEncoded: responseDER)
                let at = (response.basic?.producedAt ?? 0) + 3600
                let verifier = OCSPResponseVerifier()
                guard (try? verifier.verify(response, certificate: leaf, issuer: ca, at: at))?.status == .good else {
                    throw CLIFailure(code: "bench.vector", message: "the embedded OCSP response does not verify as good")
                }
                return Workload {
                    guard let r = try? OCSPResponse(derEncoded: responseDER),
                        let v = try? verifier.verify(r, certificate: leaf, issuer: ca, at: at)
                    else { return 0 }
                    return v.status == .good ? 1 : 0
                }
            },
            Benchmark(name: "App Store JWS verify (cached chain), all cores", allCores: true) { inputs in
                let (jws, verifier) = try inputs.appStore(cached: true)
                return Workload { (try? verifier.verifyTransactionOffline(jws)) == nil ? 0 : 1 }
            },
        ]
    }

    /// Sign, cold verify (a key seen for the first time: no per-key table) and repeated-key verify
    /// (the per-key table built during the warm-up) over a 100-byte message with the curve's hash.
    static func ecdsaBenchmarks(_ curve: ECCurve) -> [Benchmark] {
        let message = [UInt8](repeating: 0x5A, count: 100)
        let hash = curve.defaultHash
        return [
            Benchmark(name: "\(curve.rawValue) sign") { inputs in
                let key = inputs.signingKey(curve)
                return Workload { Int(key.signature(for: message, hash: hash).r[0]) }
            },
            Benchmark(name: "\(curve.rawValue) verify (cold key)") { inputs in
                let key = inputs.signingKey(curve)
                let signature = key.signature(for: message, hash: hash)
                return Workload(
                    operation: { key.publicKey.isValidSignatureVartime(signature, for: message, hash: hash) ? 1 : 0 },
                    before: { ECDSAVerificationTables.isEnabled = false },
                    after: { ECDSAVerificationTables.isEnabled = true })
            },
            Benchmark(name: "\(curve.rawValue) verify (repeated key)") { inputs in
                let key = inputs.signingKey(curve)
                let signature = key.signature(for: message, hash: hash)
                return Workload { key.publicKey.isValidSignatureVartime(signature, for: message, hash: hash) ? 1 : 0 }
            },
        ]
    }

    // MARK: - Running

    func run() throws {
        do { try measureAll() } catch { CLIFailure(error).report() }
    }

    /// A measured row.
    struct Row {
        let name: String
        let result: BenchMeasurement
        let threads: Int
        var scalingEfficiency: Double?
    }

    func measureAll() throws {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let threadCount: Int
        if threads == "all" {
            threadCount = cores
        } else if let n = Int(threads), (1...1024).contains(n) {
            threadCount = n
        } else {
            throw CLIFailure(code: "bench.threads", message: "--threads takes a number from 1 to 1024 or \"all\", not \"\(threads)\"")
        }
        if let iterations, iterations < 1 {
            throw CLIFailure(code: "bench.iterations", message: "--iterations must be at least 1")
        }
        guard seconds > 0, seconds <= 3600 else {
            throw CLIFailure(code: "bench.seconds", message: "--seconds must be above 0 and at most 3600")
        }
        let known = Set(Self.benchmarks.map(\.name))
        if let unknown = only.first(where: { !known.contains($0) }) {
            throw CLIFailure(
                code: "bench.only",
                message: "no row named \"\(unknown)\"; rows: "
                    + Self.benchmarks.map { "\"\($0.name)\"" }.joined(separator: ", "))
        }
        let selected = only.isEmpty ? Self.benchmarks : Self.benchmarks.filter { only.contains($0.name) }

        var userKey: (curve: ECCurve, key: ECDSAPrivateKey)?
        if let key {
            let loaded = try ECKey(loading: Input.read(key))
            guard case .privateKey(let privateKey) = loaded else {
                throw CLIFailure(
                    code: "bench.key",
                    message: "\(key) holds a public key; --key needs a private key (sign uses it, verify checks its signatures)")
            }
            userKey = (privateKey.curve, privateKey)
        }
        let inputs = BenchInputs(userKey: userKey?.key)

        var rows: [Row] = []
        var checksum = 0
        for benchmark in selected {
            let workload = try benchmark.setUp(inputs)
            let count = benchmark.allCores ? cores : threadCount
            workload.before()
            let result = BenchMeasurement.run(workload.operation, threads: count, seconds: seconds, iterations: iterations)
            var efficiency: Double?
            if benchmark.allCores {
                // The same operation on one thread, for the scaling efficiency.
                let single = BenchMeasurement.run(workload.operation, threads: 1, seconds: seconds, iterations: iterations)
                checksum &+= single.checksum
                efficiency = ((result.opsPerSecond / (Double(count) * single.opsPerSecond)) * 1000).rounded() / 1000
            }
            workload.after()
            checksum &+= result.checksum
            rows.append(Row(name: benchmark.name, result: result, threads: count, scalingEfficiency: efficiency))
        }

        let machine: [String: Any] = [
            "cores": cores, "memoryBytes": ProcessInfo.processInfo.physicalMemory,
            "os": ProcessInfo.processInfo.operatingSystemVersionString,
        ]
        if json {
            let results: [[String: Any]] = rows.map { row in
                var item: [String: Any] = [
                    "name": row.name, "opsPerSecond": (row.result.opsPerSecond * 10).rounded() / 10,
                    "threads": row.threads,
                    "p50Microseconds": (row.result.p50Nanoseconds).rounded() / 1000,
                    "p99Microseconds": (row.result.p99Nanoseconds).rounded() / 1000,
                ]
                if let e = row.scalingEfficiency { item["scalingEfficiency"] = e }
                return item
            }
            var report: [String: Any] = ["results": results, "machine": machine]
            if let userKey, let key { report["key"] = ["curve": userKey.curve.rawValue, "file": key] }
            Output.printJSON(report)
        } else {
            print(
                "operation".padding(toLength: 50, withPad: " ", startingAt: 0) + "threads" + "ops/s".leftPadded(13)
                    + "p50 µs".leftPadded(11) + "p99 µs".leftPadded(11))
            for row in rows {
                let extra = row.scalingEfficiency.map { String(format: "   (scaling efficiency %.0f%%)", $0 * 100) } ?? ""
                print(
                    row.name.padding(toLength: 50, withPad: " ", startingAt: 0) + String(row.threads).leftPadded(7)
                        + String(format: "%.0f", row.result.opsPerSecond).leftPadded(13)
                        + Self.microseconds(row.result.p50Nanoseconds).leftPadded(11)
                        + Self.microseconds(row.result.p99Nanoseconds).leftPadded(11) + extra)
            }
            let keyNote = userKey.map { ", \($0.curve.rawValue) rows with the key in \(key ?? "")" } ?? ""
            print(
                "machine: \(cores) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)\(keyNote)"
            )
        }
        if checksum == Int.min { print("") }  // keeps every measured result observable
    }

    /// Runs `body` for `seconds` on the calling thread: (ops per second, the summed results).
    static func rate(_ seconds: Double, _ body: () -> Int) -> (Double, Int) {
        let result = BenchMeasurement.measureOneThread(body, seconds: seconds, iterations: nil)
        return (result.measurement([]).opsPerSecond, result.checksum)
    }

    static func microseconds(_ nanoseconds: Double) -> String {
        nanoseconds >= 100_000
            ? String(format: "%.0f", nanoseconds / 1000)
            : nanoseconds >= 10_000 ? String(format: "%.1f", nanoseconds / 1000) : String(format: "%.2f", nanoseconds / 1000)
    }

    static func base64(_ text: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: text) else {
            throw CLIFailure(code: "bench.vector", message: "an embedded vector is not base64")
        }
        return Array(data)
    }
}

/// Inputs shared by several rows, made on first use: the signing keys, the generated Apple-shaped
/// PKI, App Store JWS verifiers, a receipt.
final class BenchInputs {
    private let userKey: ECDSAPrivateKey?
    private var keys: [ECCurve: ECDSAPrivateKey] = [:]
    private var generatedPKI: AppleShapedTestPKI?
    private let now = Int64(Date().timeIntervalSince1970)

    init(userKey: ECDSAPrivateKey?) { self.userKey = userKey }

    /// The user's key for its curve (--key), else one generated key per curve.
    func signingKey(_ curve: ECCurve) -> ECDSAPrivateKey {
        if let userKey, userKey.curve == curve { return userKey }
        if let key = keys[curve] { return key }
        let key = ECDSAPrivateKey.generate(curve: curve)
        keys[curve] = key
        return key
    }

    func pki() throws -> AppleShapedTestPKI {
        if let generatedPKI { return generatedPKI }
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400 * 30)
        generatedPKI = pki
        return pki
    }

    /// A transaction JWS signed by the PKI's leaf, and a verifier with or without a chain cache.
    func appStore(cached: Bool) throws -> (jws: String, verifier: SigilAppStore.SignedDataVerifier) {
        let pki = try pki()
        let payload =
            #"{"transactionId":"2000000900000001","originalTransactionId":"2000000900000000","bundleId":"com.example.bench","productId":"com.example.bench.monthly","purchaseDate":1790000000000,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":\#(now * 1000),"environment":"Sandbox","storefront":"USA","price":4990,"currency":"USD"}"#
        let jws = try pki.signedData(payload: Array(payload.utf8))
        let verifier =
            cached
            ? try SigilAppStore.SignedDataVerifier(
                trustedRoots: [pki.root], bundleId: "com.example.bench", appAppleId: nil, environment: .sandbox)
            : try SigilAppStore.SignedDataVerifier(
                trustedRoots: [pki.root], bundleId: "com.example.bench", appAppleId: nil, environment: .sandbox,
                cache: ChainCache(timeToLive: 0))
        _ = try verifier.verifyTransactionOffline(jws)
        return (jws, verifier)
    }

    /// A signed receipt with five in-app purchase records.
    func receipt() throws -> [UInt8] {
        let pki = try pki()
        let receipt = AppReceiptBuilder(
            bundleID: "com.example.bench", appVersion: "1", originalApplicationVersion: "1", creationDate: now,
            opaqueValue: [1, 2, 3, 4], deviceGUID: Array(repeating: 7, count: 16),
            inAppPurchases: (0..<5).map {
                .init(
                    productID: "com.example.bench.p\($0)", transactionID: "100000000000000\($0)",
                    originalTransactionID: "100000000000000\($0)", purchaseDate: now - 60, originalPurchaseDate: now - 60)
            })
        return try AppReceiptBuilder.signedData(
            content: try receipt.payload(), signer: pki.leaf, signerKey: pki.leafKey,
            certificates: [pki.leaf, pki.intermediate])
    }
}

/// Throughput and per-operation latency of one row.
struct BenchMeasurement {
    var opsPerSecond: Double
    var p50Nanoseconds: Double
    var p99Nanoseconds: Double
    var checksum: Int

    /// Runs `operation` on `threads` threads at once, each for `seconds` (after a warm-up of a
    /// tenth of that, at least three operations) or for exactly `iterations` operations (after
    /// three warm-up operations). The rate is the sum of the threads' rates; the latencies come
    /// from every thread's timed operations.
    static func run(_ operation: @escaping @Sendable () -> Int, threads: Int, seconds: Double, iterations: Int?) -> BenchMeasurement {
        if threads == 1 { return measureOneThread(operation, seconds: seconds, iterations: iterations).measurement([]) }
        let results = ThreadResults(count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            results.store(measureOneThread(operation, seconds: seconds, iterations: iterations), at: index)
        }
        let all = results.all
        return all[0].measurement(Array(all.dropFirst()))
    }

    /// One thread's timing: operations, elapsed nanoseconds, latency samples.
    struct ThreadResult {
        var operations = 0
        var nanoseconds: UInt64 = 0
        var samples = LatencySamples()
        var checksum = 0

        func measurement(_ others: [ThreadResult]) -> BenchMeasurement {
            let everyone = [self] + others
            let rate = everyone.reduce(0.0) { $0 + Double($1.operations) / (Double(max($1.nanoseconds, 1)) / 1e9) }
            let sorted = everyone.flatMap(\.samples.values).sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : Double(sorted[Int((Double(sorted.count - 1) * p).rounded())])
            }
            return BenchMeasurement(
                opsPerSecond: rate, p50Nanoseconds: percentile(0.5), p99Nanoseconds: percentile(0.99),
                checksum: everyone.reduce(0) { $0 &+ $1.checksum })
        }
    }

    static func measureOneThread(_ operation: () -> Int, seconds: Double, iterations: Int?) -> ThreadResult {
        var result = ThreadResult()
        let budget = UInt64(seconds * 1e9)
        var t0 = DispatchTime.now().uptimeNanoseconds
        let warmEnd = t0 + budget / 10
        var warm = 0
        while warm < 3 || (iterations == nil && DispatchTime.now().uptimeNanoseconds < warmEnd) {
            result.checksum &+= operation()
            warm += 1
        }
        t0 = DispatchTime.now().uptimeNanoseconds
        let start = t0
        while true {
            result.checksum &+= operation()
            let t1 = DispatchTime.now().uptimeNanoseconds
            result.samples.add(t1 - t0)
            result.operations += 1
            t0 = t1
            if let iterations {
                if result.operations >= iterations { break }
            } else if t1 - start >= budget {
                break
            }
        }
        result.nanoseconds = t0 - start
        return result
    }
}

/// A bounded, evenly spread sample of latencies: every operation until the buffer fills, then
/// every second one of those kept and every second one recorded, and so on (no allocation once full).
struct LatencySamples {
    static let capacity = 1 << 16
    private(set) var values: [UInt64] = []
    private var stride = 1
    private var seen = 0

    init() { values.reserveCapacity(LatencySamples.capacity) }

    mutating func add(_ nanoseconds: UInt64) {
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        if values.count == LatencySamples.capacity {
            var kept = 0
            for i in Swift.stride(from: 0, to: values.count, by: 2) {
                values[kept] = values[i]
                kept += 1
            }
            values.removeLast(values.count - kept)
            stride *= 2
            guard seen % stride == 0 else { return }
        }
        values.append(nanoseconds)
    }
}

/// One slot per thread, written once by its own thread.
private final class ThreadResults: @unchecked Sendable {
    private var slots: [BenchMeasurement.ThreadResult]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: BenchMeasurement.ThreadResult(), count: count) }

    func store(_ result: BenchMeasurement.ThreadResult, at index: Int) { lock.withLock { slots[index] = result } }

    var all: [BenchMeasurement.ThreadResult] { lock.withLock { slots } }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
