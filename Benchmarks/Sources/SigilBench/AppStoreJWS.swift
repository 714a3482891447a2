import Crypto
import Foundation
import JWTKit
@_spi(Benchmarks) import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilJOSE
@_spi(Benchmarks) import SigilX509
import SwiftASN1
import X509

// App Store signed-data verification, side by side with the pipeline Apple's App Store Server
// Library (Swift, 6.0.0) runs, assembled here from the same packages it uses: split the JWS,
// JSON-decode header and payload, decode leaf and intermediate with swift-certificates, validate
// with swift-certificates' Verifier (RFC5280Policy + an OID policy like AppStoreOIDPolicy) at the
// payload's signedDate, then verify the ES256 signature and decode the payload with jwt-kit and
// swift-crypto's P256. Sigil runs the same steps through SignedDataVerifier; "uncached" uses a
// chain cache with zero lifetime, "cached" a normal one (the chain validated once, then one P-256
// verification per call).
//
// What the uncached row re-does on every call: split the JWS, base64url-decode and parse the
// header, base64-decode and parse leaf and intermediate, build and validate the path (validity,
// basicConstraints, keyUsage, RFC 5280 profile, Apple's marker OIDs), verify the leaf's P-384
// signature by the intermediate's key (never memoized: one JWS repeats here, and a leaf memo would
// turn the row into a cached one), the ES256 signature and the payload decode. What it does not
// re-do: the intermediate's signature by the root, which CertificateVerifier remembers for CA
// certificates it has verified (CASignatureMemo: whole DER and issuer key compared), and the
// intermediate's base64 decode and parse, which SignedDataVerifier remembers by its exact x5c
// text (IntermediateParseMemo), as both do for every Apple chain after the first; and the P-384
// and P-256 per-key tables, built once. The "no memos" row re-does those two as well.

/// The OID checks Apple's library adds to RFC 5280 (its AppStoreOIDPolicy): chain length 3,
/// intermediate 1.2.840.113635.100.6.2.1, leaf 1.2.840.113635.100.6.11.1.
struct BaselineAppStoreOIDPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []
    static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else { return .failsToMeetPolicy(reason: "chain length") }
        guard chain[0].extensions[oid: Self.leafOID] != nil else { return .failsToMeetPolicy(reason: "leaf OID") }
        guard chain[1].extensions[oid: Self.intermediateOID] != nil else { return .failsToMeetPolicy(reason: "intermediate OID") }
        return .meetsPolicy
    }
}

struct BaselineHeader: Decodable {
    let alg: String?
    let x5c: [String]?
}

/// The payload for jwt-kit (its verify decodes the claims itself, as Apple's library does).
struct BaselineTransaction: JWTPayload {
    let payload: JWSTransactionDecodedPayload
    init(from decoder: any Decoder) throws { payload = try JWSTransactionDecodedPayload(from: decoder) }
    func encode(to encoder: any Encoder) throws { try payload.encode(to: encoder) }
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

enum BaselineError: Error { case format, chain, key }

func base64URLToData(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}

/// One verification the way Apple's library does it (online checks off).
func baselineVerify(_ jws: String, root: X509.Certificate) async throws -> JWSTransactionDecodedPayload {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerData = base64URLToData(parts[0]), let payloadData = base64URLToData(parts[1]) else {
        throw BaselineError.format
    }
    let decoder = JSONDecoder()
    let header = try decoder.decode(BaselineHeader.self, from: headerData)
    let payload = try decoder.decode(JWSTransactionDecodedPayload.self, from: payloadData)
    guard header.alg == "ES256", let x5c = header.x5c, x5c.count == 3,
        let leafDER = Data(base64Encoded: x5c[0]), let intermediateDER = Data(base64Encoded: x5c[1])
    else { throw BaselineError.format }
    let leaf = try X509.Certificate(derEncoded: Array(leafDER))
    let intermediate = try X509.Certificate(derEncoded: Array(intermediateDER))
    let validationTime = payload.signedDate?.date ?? Date()
    var verifier = Verifier(rootCertificates: CertificateStore([root])) {
        RFC5280Policy(validationTime: validationTime)
        BaselineAppStoreOIDPolicy()
    }
    let result = try await verifier.validate(leafCertificate: leaf, intermediates: CertificateStore([intermediate]))
    guard case .validCertificate = result else { throw BaselineError.chain }
    guard let key = P256.Signing.PublicKey(leaf.publicKey) else { throw BaselineError.key }
    let keys = JWTKeyCollection()
    try await keys.add(ecdsa: ES256PublicKey(backing: key))
    let verified = try await keys.verify(jws, as: BaselineTransaction.self)
    return verified.payload
}

struct AsyncHarness {
    let seconds: Double
    var checksum: UInt64 = 0

    mutating func opsPerSecond(_ body: () async -> UInt64) async -> Double {
        // SIGIL_BENCH_CPU_TIME=1: the process's CPU time (the task may move between threads).
        if Harness.usesThreadCPUTime {
            let warmEnd = Harness.processCPUSeconds() + seconds / 10
            while Harness.processCPUSeconds() < warmEnd { checksum &+= await body() }
            var iterations = 0
            let start = Harness.processCPUSeconds()
            var now = start
            while now < start + seconds {
                for _ in 0..<4 { checksum &+= await body() }
                iterations += 4
                now = Harness.processCPUSeconds()
            }
            return Double(iterations) / (now - start)
        }
        let clock = ContinuousClock()
        let warmEnd = clock.now.advanced(by: .milliseconds(Int(seconds * 100)))
        while clock.now < warmEnd { checksum &+= await body() }
        var iterations = 0
        let start = clock.now
        let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        var now = start
        while now < end {
            for _ in 0..<4 { checksum &+= await body() }
            iterations += 4
            now = clock.now
        }
        let elapsed = start.duration(to: now)
        return Double(iterations) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// The Apple third-party data (real App Store signed data, Apple's certificates): the directory
/// `Scripts/vectors-dir apple` names, the project's one third-party data path. Missing data ends
/// the run with the helper's message (it names `Scripts/get-vectors`).
func appleVectors(repo: URL) -> URL {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [repo.appendingPathComponent("Scripts/vectors-dir").path, "apple"]
    let out = Pipe()
    process.standardOutput = out
    do { try process.run() } catch {
        FileHandle.standardError.write(Data("could not run Scripts/vectors-dir: \(error)\n".utf8))
        exit(1)
    }
    let path = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    process.waitUntilExit()
    guard process.terminationStatus == 0, !path.isEmpty else { exit(1) }  // the helper said why on stderr
    return URL(fileURLWithPath: path, isDirectory: true)
}

/// Rows for App Store JWS verification, or nil (with a message) when a pipeline refuses the data.
func appStoreRows(repo: URL, seconds: Double) async -> [Row]? {
    let shared = appleVectors(repo: repo).appendingPathComponent("real")
    let jwsURL = shared.appendingPathComponent("jws/mysupplyme-MedicalSupplierzApp/sandbox-transaction-autorenew-2025-10-25.jws")
    let rootURL = shared.appendingPathComponent("apple-pki/AppleRootCA-G3.cer")
    guard let jwsText = try? String(contentsOf: jwsURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
        let rootData = FileManager.default.contents(atPath: rootURL.path)
    else {
        FileHandle.standardError.write(Data("App Store JWS benchmark: \(jwsURL.path) or \(rootURL.path) is unreadable\n".utf8))
        exit(1)
    }
    let bundle = "com.ms.medicalsupplierzlite"
    do {
        let theirRoot = try X509.Certificate(derEncoded: Array(rootData))
        let ourRoot = try SigilX509.Certificate(derEncoded: Array(rootData))
        let uncached = try SignedDataVerifier(
            trustedRoots: [ourRoot], bundleId: bundle, appAppleId: nil, environment: .sandbox,
            cache: ChainCache(timeToLive: 0))
        let cached = try SignedDataVerifier(trustedRoots: [ourRoot], bundleId: bundle, appAppleId: nil, environment: .sandbox)
        // Both pipelines must accept the token before they are timed.
        let a = try await baselineVerify(jwsText, root: theirRoot)
        let b = try await uncached.verifyTransaction(jwsText)
        let c = try await cached.verifyTransaction(jwsText)
        guard a.transactionId == b.payload.transactionId, b.payload == c.payload, !b.chainFromCache else { return nil }
        var harness = AsyncHarness(seconds: seconds)
        let baseline = await harness.opsPerSecond {
            (try? await baselineVerify(jwsText, root: theirRoot)) == nil ? 0 : 1
        }
        let ours = await harness.opsPerSecond {
            (try? await uncached.verifyTransaction(jwsText)) == nil ? 0 : 1
        }
        // Every signature checked and every certificate parsed: the CA signature memo and the
        // intermediate parse memo off (the intermediate decoded, parsed and its P-384 signature
        // verified on every call, as before the memos).
        CASignatureMemoSwitch.isEnabled = false
        IntermediateParseMemoSwitch.isEnabled = false
        let oursNoMemo = await harness.opsPerSecond {
            (try? await uncached.verifyTransaction(jwsText)) == nil ? 0 : 1
        }
        CASignatureMemoSwitch.isEnabled = true
        IntermediateParseMemoSwitch.isEnabled = true
        let oursCached = await harness.opsPerSecond {
            guard let r = try? await cached.verifyTransaction(jwsText), r.chainFromCache else { return 0 }
            return 1
        }
        // The payload through the generic JSONValueDecoder (no direct member reading), as before it.
        DirectMemberDecoding.isEnabled = false
        let oursCachedGeneric = await harness.opsPerSecond {
            guard let r = try? await cached.verifyTransaction(jwsText), r.chainFromCache else { return 0 }
            return 1
        }
        DirectMemberDecoding.isEnabled = true
        // Every key cold: the per-key verification tables off, so each of the three ECDSA
        // verifications runs wNAF with doublings (what a process sees for keys it has never met).
        ECDSAVerificationTables.isEnabled = false
        let oursCold = await harness.opsPerSecond {
            (try? await uncached.verifyTransaction(jwsText)) == nil ? 0 : 1
        }
        ECDSAVerificationTables.isEnabled = true
        let name = "swift-certificates Verifier + jwt-kit ES256 (Apple's library pipeline)"
        return [
            Row(
                name: "App Store transaction JWS verify, uncached chain", sigil: ours, reference: baseline, referenceName: name,
                bytesPerOp: 0),
            Row(
                name: "App Store transaction JWS verify, uncached chain, no memos", sigil: oursNoMemo, reference: baseline,
                referenceName: name, bytesPerOp: 0),
            Row(
                name: "App Store transaction JWS verify, uncached chain, no per-key tables", sigil: oursCold, reference: baseline,
                referenceName: name, bytesPerOp: 0),
            Row(
                name: "App Store transaction JWS verify, cached chain", sigil: oursCached, reference: baseline, referenceName: name,
                bytesPerOp: 0),
            Row(
                name: "App Store transaction JWS verify, cached chain, generic payload decode", sigil: oursCachedGeneric,
                reference: baseline, referenceName: name, bytesPerOp: 0),
        ]
    } catch {
        FileHandle.standardError.write(Data("App Store JWS benchmark failed: \(error)\n".utf8))
        return nil
    }
}

// Per-stage costs of one App Store JWS verification (sigil-bench --probe), to see where time goes.
func probe(repo: URL) {
    let shared = appleVectors(repo: repo).appendingPathComponent("real")
    let text = try! String(
        contentsOf: shared.appendingPathComponent("jws/mysupplyme-MedicalSupplierzApp/sandbox-transaction-autorenew-2025-10-25.jws"),
        encoding: .utf8
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let clock = ContinuousClock()
    // SIGIL_BENCH_CPU_TIME=1: each stage in this thread's CPU time (the probe is synchronous);
    // the best of three runs of n, so a descheduling or a page fault does not count.
    func time(_ name: String, _ n: Int = 2000, _ body: () -> Void) {
        var best = Double.infinity
        for _ in 0..<3 {
            let microseconds: Double
            if Harness.usesThreadCPUTime {
                let start = Harness.threadCPUSeconds()
                for _ in 0..<n { body() }
                microseconds = (Harness.threadCPUSeconds() - start) * 1e6 / Double(n)
            } else {
                let t = clock.measure { for _ in 0..<n { body() } }
                microseconds = Double(t.components.attoseconds) / 1e12 / Double(n) + Double(t.components.seconds) * 1e6 / Double(n)
            }
            best = min(best, microseconds)
        }
        print(name, (best * 10).rounded() / 10, "µs")
    }
    let rootDER = Array(FileManager.default.contents(atPath: shared.appendingPathComponent("apple-pki/AppleRootCA-G3.cer").path)!)
    let jws = try! JWS(compact: text)
    print("signing input bytes", jws.signingInput.count, "payload", jws.payload.count)
    for stage in appStoreStages(text: text, rootDER: rootDER) { time("\(stage.name) (\(stage.id))", stage.count, stage.body) }
}

/// The stages of one App Store transaction verification, each a closure doing it once, named for
/// --probe (per-stage time) and by `id` for --appstore-stage (per-stage callgrind counts).
func appStoreStages(text: String, rootDER: [UInt8]) -> [(id: String, name: String, count: Int, body: () -> Void)] {
    let jws = try! JWS(compact: text)
    let x5c = try! jws.x5c()!
    let leaf = try! SigilX509.Certificate(derEncoded: x5c[0])
    let inter = try! SigilX509.Certificate(derEncoded: x5c[1])
    let root = try! SigilX509.Certificate(derEncoded: rootDER)
    let v = CertificateVerifier(trustedRoots: [root], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleSignedData])
    guard case .ec(let key) = leaf.publicKey, case .ec(let intermediateKey) = inter.publicKey else {
        fatalError("the leaf or intermediate key is not EC")
    }
    let uncached = try! SignedDataVerifier(
        trustedRoots: [root], bundleId: "com.ms.medicalsupplierzlite", appAppleId: nil, environment: .sandbox,
        cache: ChainCache(timeToLive: 0))
    let cached = try! SignedDataVerifier(
        trustedRoots: [root], bundleId: "com.ms.medicalsupplierzlite", appAppleId: nil, environment: .sandbox)
    return [
        ("jws", "JWS(compact:)", 2000, { _ = try! JWS(compact: text) }),
        (
            "jsondecoder", "JSONDecoder payload", 2000,
            { _ = try! JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(jws.payload)) }
        ),
        ("parse", "JSONValue payload parse only", 2000, { _ = try! JSONValue(parsing: jws.payload) }),
        (
            "decode", "JSONValueDecoder payload (strict parse + decode)", 2000,
            { _ = try! JSONValueDecoder().decode(JWSTransactionDecodedPayload.self, fromJSON: jws.payload) }
        ),
        ("sha256", "SHA-256 signing input", 2000, { _ = SigilCore.SHA256.hash(jws.signingInput) }),
        (
            "certificates", "Certificate x2", 2000,
            {
                _ = try! SigilX509.Certificate(derEncoded: x5c[0])
                _ = try! SigilX509.Certificate(derEncoded: x5c[1])
            }
        ),
        ("chain", "chain verify", 300, { _ = v.verify(leaf: leaf, intermediates: [inter], at: 1_761_389_594) }),
        ("es256", "JWS verify ES256", 500, { try! jws.verify(with: .ecdsa(key)) }),
        ("uncached", "uncached verifyOffline", 300, { _ = try! uncached.verifyTransactionOffline(text) }),
        (
            "chain-nomemo", "chain verify, no memos", 300,
            { withoutMemo { _ = v.verify(leaf: leaf, intermediates: [inter], at: 1_761_389_594) } }
        ),
        (
            "uncached-nomemo", "uncached verifyOffline, no memos", 300,
            { withoutMemo { _ = try! uncached.verifyTransactionOffline(text) } }
        ),
        (
            "uncached-before", "uncached verifyOffline, no memos, generic payload decode", 300,
            { withoutMemo { withGenericDecode { _ = try! uncached.verifyTransactionOffline(text) } } }
        ),
        (
            "cached-generic", "cached verifyOffline, generic payload decode", 1000,
            { withGenericDecode { _ = try! cached.verifyTransactionOffline(text) } }
        ),
        ("cached", "cached verifyOffline", 1000, { _ = try! cached.verifyTransactionOffline(text) }),
        // Last: each run drops every key table (the stages above rebuild theirs when run again).
        (
            "table-p256", "per-key table build, P-256 (the leaf's key)", 20,
            {
                ECDSAVerificationTables.removeAll()
                key.prepareForRepeatedVerification()
            }
        ),
        (
            "table-p384", "per-key table build, P-384 (the intermediate's key)", 5,
            {
                ECDSAVerificationTables.removeAll()
                intermediateKey.prepareForRepeatedVerification()
            }
        ),
    ]
}

/// `body` with every verifier's CA signature memo and intermediate parse memo off (each
/// signature checked and each certificate parsed, as before them).
func withoutMemo(_ body: () -> Void) {
    CASignatureMemoSwitch.isEnabled = false
    IntermediateParseMemoSwitch.isEnabled = false
    defer {
        CASignatureMemoSwitch.isEnabled = true
        IntermediateParseMemoSwitch.isEnabled = true
    }
    body()
}

/// `body` with transactions decoded by the generic JSONValueDecoder (no direct member reading).
func withGenericDecode(_ body: () -> Void) {
    DirectMemberDecoding.isEnabled = false
    defer { DirectMemberDecoding.isEnabled = true }
    body()
}

/// --appstore-stage ID COUNT JWS-FILE ROOT-FILE: one stage of `appStoreStages` run once to warm
/// up (tables built, the cache filled) and then COUNT times, for callgrind.
func appStoreStage(_ id: String, count: Int, jwsPath: String, rootPath: String) -> Int {
    guard let jwsData = FileManager.default.contents(atPath: jwsPath), let rootData = FileManager.default.contents(atPath: rootPath) else {
        FileHandle.standardError.write(Data("--appstore-stage: \(jwsPath) or \(rootPath) is unreadable\n".utf8))
        exit(1)
    }
    let text = String(decoding: jwsData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let stage = appStoreStages(text: text, rootDER: Array(rootData)).first(where: { $0.id == id }) else {
        FileHandle.standardError.write(Data("--appstore-stage: no stage \(id)\n".utf8))
        exit(1)
    }
    for _ in 0..<2 { stage.body() }
    for _ in 0..<count { stage.body() }
    return count
}

/// COUNT offline verifications of the transaction JWS at `jwsPath` against the root at `rootPath`
/// (sigil-bench --appstore-chain): with a normal chain cache (filled by one verification first) or
/// with none. Returns how many were accepted.
func appStoreChain(cached: Bool, memo: Bool = true, direct: Bool = true, count: Int, jwsPath: String, rootPath: String) -> Int {
    CASignatureMemoSwitch.isEnabled = memo
    IntermediateParseMemoSwitch.isEnabled = memo
    DirectMemberDecoding.isEnabled = direct
    guard let jwsData = FileManager.default.contents(atPath: jwsPath), let rootData = FileManager.default.contents(atPath: rootPath),
        let root = try? SigilX509.Certificate(derEncoded: Array(rootData))
    else {
        FileHandle.standardError.write(Data("--appstore-chain: \(jwsPath) or \(rootPath) is unreadable\n".utf8))
        exit(1)
    }
    let text = String(decoding: jwsData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard
        let verifier = try? SignedDataVerifier(
            trustedRoots: [root], bundleId: "com.ms.medicalsupplierzlite", appAppleId: nil, environment: .sandbox,
            cache: ChainCache(timeToLive: cached ? 900 : 0)),
        (try? verifier.verifyTransactionOffline(text)) != nil
    else {
        FileHandle.standardError.write(Data("--appstore-chain: the JWS does not verify\n".utf8))
        exit(1)
    }
    var accepted = 0
    for _ in 0..<count {
        if let result = try? verifier.verifyTransactionOffline(text), result.chainFromCache == cached { accepted += 1 }
    }
    return accepted
}
