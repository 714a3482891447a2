import ArgumentParser
import Foundation
import SigilAppStore
import SigilCore
import SigilKeys
import SigilOCSP
import SigilPKCS7
import SigilX509

/// `sigil bench`: Sigil's own throughput on this machine (the side-by-side comparison with
/// swift-crypto, swift-certificates and jwt-kit lives in Benchmarks/).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure signature, certificate, App Store JWS, receipt and OCSP throughput; a table, or JSON with --json.",
        discussion: """
        --json prints {"results": [{"name", "opsPerSecond", "threads"}…], "machine": {"cores", "memoryBytes", "os"}};
        the multi-threaded row also carries "scalingEfficiency" (its rate over threads × the
        single-thread rate of the same operation). Names are stable across versions.
        """)

    @Option(help: "Seconds per measurement.") var seconds: Double = 1
    @Flag(help: "Print stable JSON instead of a table.") var json = false

    /// A result: the operation, its rate, the threads that ran it.
    struct Row {
        let name: String
        let opsPerSecond: Double
        let threads: Int
        var scalingEfficiency: Double?
    }

    /// Runs `body` for `seconds` on the calling thread; ops per second.
    static func rate(_ seconds: Double, _ body: () -> Int) -> (Double, Int) {
        let clock = ContinuousClock()
        var sink = 0, iterations = 0
        let start = clock.now
        let budget = Duration.milliseconds(Int(seconds * 1000))
        var elapsed = Duration.zero
        while elapsed < budget {
            sink &+= body()
            iterations += 1
            elapsed = start.duration(to: clock.now)
        }
        let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(iterations) / secs, sink)
    }

    func run() throws {
        do { try measure() } catch { CLIFailure(error).report() }
    }

    func measure() throws {
        var rows: [Row] = []
        var checksum = 0
        func add(_ name: String, _ body: () -> Int) {
            let (r, sink) = Self.rate(seconds, body)
            checksum &+= sink
            rows.append(Row(name: name, opsPerSecond: (r * 10).rounded() / 10, threads: 1))
        }

        // Signatures.
        let message = [UInt8](repeating: 0x5A, count: 100)
        for curve in ECCurve.allCases {
            let key = ECDSAPrivateKey.generate(curve: curve)
            let hash = curve.defaultHash
            add("\(curve.rawValue) sign") { Int(key.signature(for: message, hash: hash).r[0]) }
            let signature = key.signature(for: message, hash: hash)
            add("\(curve.rawValue) verify") { key.publicKey.isValidSignatureVartime(signature, for: message, hash: hash) ? 1 : 0 }
        }
        let rsaKey = try RSAPublicKey(spkiDER: try Self.base64(BenchVectors.rsaPublicKeySPKI))
        let rsaSignature = try Self.base64(BenchVectors.rsaSignature)
        let rsaMessage = Array(BenchVectors.rsaMessage.utf8)
        guard rsaKey.isValidPKCS1v15SignatureVartime(rsaSignature, for: rsaMessage, hash: .sha256) else {
            throw CLIFailure(code: "bench.vector", message: "the embedded RSA signature does not verify")
        }
        add("RSA-2048 verify (PKCS#1 v1.5, SHA-256)") { rsaKey.isValidPKCS1v15SignatureVartime(rsaSignature, for: rsaMessage, hash: .sha256) ? 1 : 0 }
        let kib = [UInt8](repeating: 0xA5, count: 1024)
        add("SHA-256 1 KiB") { Int(SHA256.hash(kib)[0]) }
        let mib = [UInt8](repeating: 0x5A, count: 1 << 20)
        add("SHA-256 1 MiB") { Int(SHA256.hash(mib)[0]) }
        add("SHA-384 1 KiB") { Int(SHA384.hash(kib)[0]) }
        let hmacKey = [UInt8](repeating: 0x0B, count: 32), hmacMessage = [UInt8](kib.prefix(64))
        add("HMAC-SHA256 64 B") { Int(HMAC<SHA256>.authenticationCode(key: hmacKey, message: hmacMessage)[0]) }

        // Certificates and App Store signed data on a generated Apple-shaped PKI.
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400 * 30)
        let leafDER = pki.leaf.derBytes
        add("certificate parse (P-256 leaf)") { (try? Certificate(derEncoded: leafDER))?.extensions.count ?? 0 }
        let payload = #"{"transactionId":"2000000900000001","originalTransactionId":"2000000900000000","bundleId":"com.example.bench","productId":"com.example.bench.monthly","purchaseDate":1790000000000,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":\#(now * 1000),"environment":"Sandbox","storefront":"USA","price":4990,"currency":"USD"}"#
        let jws = try pki.signedData(payload: Array(payload.utf8))
        let cached = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: "com.example.bench", appAppleId: nil, environment: .sandbox)
        let uncached = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: "com.example.bench", appAppleId: nil, environment: .sandbox,
                                              cache: ChainCache(timeToLive: 0))
        _ = try cached.verifyTransactionOffline(jws)
        add("App Store JWS verify (cached chain)") { (try? cached.verifyTransactionOffline(jws)) == nil ? 0 : 1 }
        add("App Store JWS verify (uncached chain)") { (try? uncached.verifyTransactionOffline(jws)) == nil ? 0 : 1 }

        // Receipts.
        let receipt = AppReceiptBuilder(bundleID: "com.example.bench", appVersion: "1", originalApplicationVersion: "1", creationDate: now,
                                        opaqueValue: [1, 2, 3, 4], deviceGUID: Array(repeating: 7, count: 16),
                                        inAppPurchases: (0..<5).map {
                                            .init(productID: "com.example.bench.p\($0)", transactionID: "100000000000000\($0)",
                                                  originalTransactionID: "100000000000000\($0)", purchaseDate: now - 60, originalPurchaseDate: now - 60)
                                        })
        let receiptDER = try AppReceiptBuilder.signedData(content: try receipt.payload(), signer: pki.leaf, signerKey: pki.leafKey,
                                                          certificates: [pki.leaf, pki.intermediate])
        add("receipt parse (CMS + payload, 5 in-app records)") {
            guard let signed = try? SignedData(berEncoded: receiptDER), let parsed = try? AppReceipt(payload: signed.payload ?? []) else { return 0 }
            return parsed.inAppPurchases.count
        }

        // OCSP.
        let ca = try Certificate(derEncoded: try Self.base64(BenchVectors.ocspCA))
        let leaf = try Certificate(derEncoded: try Self.base64(BenchVectors.ocspLeaf))
        let responseDER = try Self.base64(BenchVectors.ocspResponse)
        let response = try OCSPResponse(derEncoded: responseDER)
        let at = (response.basic?.producedAt ?? now) + 3600
        let ocspVerifier = OCSPResponseVerifier()
        guard (try? ocspVerifier.verify(response, certificate: leaf, issuer: ca, at: at))?.status == .good else {
            throw CLIFailure(code: "bench.vector", message: "the embedded OCSP response does not verify as good")
        }
        add("OCSP response parse + verify") {
            guard let r = try? OCSPResponse(derEncoded: responseDER), let v = try? ocspVerifier.verify(r, certificate: leaf, issuer: ca, at: at) else { return 0 }
            return v.status == .good ? 1 : 0
        }

        // Every core verifying App Store JWS (cached chain) at once.
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let single = rows.first { $0.name == "App Store JWS verify (cached chain)" }?.opsPerSecond ?? 1
        nonisolated(unsafe) let counts = UnsafeMutableBufferPointer<Double>.allocate(capacity: cores)  // one slot per thread, no sharing
        defer { counts.deallocate() }
        DispatchQueue.concurrentPerform(iterations: cores) { i in
            counts[i] = Self.rate(seconds) { (try? cached.verifyTransactionOffline(jws)) == nil ? 0 : 1 }.0
        }
        let total = counts.reduce(0, +)
        rows.append(Row(name: "App Store JWS verify (cached chain), all cores", opsPerSecond: (total * 10).rounded() / 10, threads: cores,
                        scalingEfficiency: ((total / (Double(cores) * single)) * 1000).rounded() / 1000))

        let machine: [String: Any] = ["cores": cores, "memoryBytes": ProcessInfo.processInfo.physicalMemory,
                                      "os": ProcessInfo.processInfo.operatingSystemVersionString]
        if json {
            let results: [[String: Any]] = rows.map { row in
                var item: [String: Any] = ["name": row.name, "opsPerSecond": row.opsPerSecond, "threads": row.threads]
                if let e = row.scalingEfficiency { item["scalingEfficiency"] = e }
                return item
            }
            Output.printJSON(["results": results, "machine": machine])
        } else {
            print("operation".padding(toLength: 52, withPad: " ", startingAt: 0) + "threads" + "ops/s".leftPadded(14))
            for row in rows {
                let extra = row.scalingEfficiency.map { String(format: "   (scaling efficiency %.0f%%)", $0 * 100) } ?? ""
                print(row.name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(row.threads).leftPadded(7)
                      + String(format: "%.0f", row.opsPerSecond).leftPadded(14) + extra)
            }
            print("machine: \(cores) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)")
        }
        if checksum == Int.min { print("") }  // keeps every measured result observable
    }

    static func base64(_ text: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: text) else { throw CLIFailure(code: "bench.vector", message: "an embedded vector is not base64") }
        return Array(data)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
