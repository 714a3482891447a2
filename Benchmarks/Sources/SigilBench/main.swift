import Crypto
import Foundation
import SigilASN1
@_spi(Benchmarks) import SigilCore
import SigilKeys
import SigilX509
import SwiftASN1
import X509
import _CryptoExtras

// Usage: sigil-bench [--seconds N] [--json]
let arguments = CommandLine.arguments
var seconds = 2.0
if let i = arguments.firstIndex(of: "--seconds"), i + 1 < arguments.count, let v = Double(arguments[i + 1]) { seconds = v }
let asJSON = arguments.contains("--json")
// --only appstore: just the App Store JWS rows (the slowest to set up), for quick iterations.
let onlyAppStore = arguments.contains("appstore") && arguments.contains("--only")
// --only digests: just the SHA-2 and HMAC rows.
let onlyDigests = arguments.contains("digests") && arguments.contains("--only")
// --applepay-rate DIR AT SECONDS: Apple Pay verify + decrypt, decrypt, verify per second as JSON (for
// Benchmarks/python/applepay.py); --applepay-chain verify|decrypt|both N DIR AT: N of them (callgrind).
if let i = arguments.firstIndex(of: "--applepay-rate"), i + 3 < arguments.count, let at = Int64(arguments[i + 2]),
    let limit = Double(arguments[i + 3])
{
    let rates = try applePayRates(directory: arguments[i + 1], at: at, seconds: limit)
    print(String(decoding: try JSONSerialization.data(withJSONObject: rates, options: [.sortedKeys]), as: UTF8.self))
    exit(0)
}
if let i = arguments.firstIndex(of: "--applepay-chain"), i + 4 < arguments.count, let count = Int(arguments[i + 2]),
    let at = Int64(arguments[i + 4])
{
    _ = try applePayRates(directory: arguments[i + 3], at: at, seconds: 0, only: arguments[i + 1], iterations: count)
    exit(0)
}
// --ecdh-rate SECONDS: P-256 ECDH with a fresh peer key per second, both paths, as JSON (for
// Benchmarks/python/ecdh.py).
if let i = arguments.firstIndex(of: "--ecdh-rate"), i + 1 < arguments.count, let limit = Double(arguments[i + 1]) {
    let rates = try ecdhRates(seconds: limit)
    print(String(decoding: try JSONSerialization.data(withJSONObject: rates, options: [.sortedKeys]), as: UTF8.self))
    exit(0)
}
// --mdoc-rate DIR AT SECONDS: ISO/IEC 18013-5 Annex D verified per second as JSON (for
// Benchmarks/python/mdoc.py).
if let i = arguments.firstIndex(of: "--mdoc-rate"), i + 3 < arguments.count, let at = Int64(arguments[i + 2]),
    let limit = Double(arguments[i + 3])
{
    let rates = try mdocRates(directory: arguments[i + 1], at: at, seconds: limit)
    print(String(decoding: try JSONSerialization.data(withJSONObject: rates, options: [.sortedKeys]), as: UTF8.self))
    exit(0)
}
var harness = Harness(seconds: seconds)
var rows: [Row] = []

// Inputs: fixed pseudo-random bytes; a real certificate (Apple WWDR G6 from the Apple third-party
// data, found by Scripts/vectors-dir).
struct ByteStream {
    var state: UInt64 = 0x5167
    mutating func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(state >> 56)
    }
}
var stream = ByteStream()
let kib = (0..<1024).map { _ in stream.next() }
let mib = (0..<(1 << 20)).map { _ in stream.next() }

// --stage-chain STAGE CURVE COUNT: one ECDSA stage (a `Microbenchmarks.Stage` case name, e.g.
// verifyColdTotal) COUNT times and nothing else; --rsa-chain COUNT [BITS]: RSA-2048 (or RSA-BITS, a
// multiple of 8 up to 8192) PKCS#1 v1.5 verification (a fixed odd modulus and s < n: the whole
// exponentiation, SHA-256 and the encoding check run whether or not the signature is valid) COUNT
// times, on the backend SIGIL_MPN_BACKEND names (gmp, the default, or portable), the key made
// once before the chain. For callgrind: instructions per operation
// are the difference of two counts over the difference of COUNT, exactly repeatable. Both run
// before the certificate is looked up (Scripts/vectors-dir cannot be spawned under valgrind).
if let i = arguments.firstIndex(of: "--stage-chain"), i + 3 < arguments.count,
    let stage = Microbenchmarks.Stage.allCases.first(where: { "\($0)" == arguments[i + 1] }),
    let curve = ECCurve(rawValue: arguments[i + 2]), let count = Int(arguments[i + 3])
{
    print(Microbenchmarks.run(stage, curve: curve, iterations: count))
    exit(0)
}
if let i = arguments.firstIndex(of: "--rsa-chain"), i + 1 < arguments.count, let count = Int(arguments[i + 1]) {
    let bits = i + 2 < arguments.count ? Int(arguments[i + 2]) ?? 2048 : 2048
    let k = bits / 8
    let modulus = [UInt8(0xC5)] + (1..<(k - 1)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } + [UInt8(0x0F)]
    let signature = [UInt8(0x5A)] + (1..<k).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 3) }
    let key = try SigilCore.RSAPublicKey(modulus: modulus, exponent: [1, 0, 1])
    let message = Array(kib.prefix(100))
    var accepted = 0
    for _ in 0..<count where key.isValidPKCS1v15SignatureVartime(signature, for: message, hash: .sha256) { accepted += 1 }
    print(accepted)
    exit(0)
}

// --ceiling-chain VARIANT OPERATION CURVE COUNT: one field chain and nothing else, for callgrind
// (Benchmarks/field-ceiling.sh), also before the certificate lookup.
if let i = arguments.firstIndex(of: "--ceiling-chain"), i + 4 < arguments.count,
    let variant = FieldCeiling.Variant.allCases.first(where: { "\($0)" == arguments[i + 1] }),
    let operation = FieldCeiling.Operation(rawValue: arguments[i + 2]), let curve = ECCurve(rawValue: arguments[i + 3]),
    let count = Int(arguments[i + 4])
{
    print(FieldCeiling.run(variant, operation, curve, count: count))
    exit(0)
}

// --appstore-chain cached|uncached|cached-before|uncached-before COUNT JWS-FILE ROOT-FILE: COUNT offline verifications of one
// App Store transaction JWS (after one that fills the cache) and nothing else, for valgrind: heap
// allocations (memcheck's "total heap usage") and instructions (callgrind) per verification are the
// difference of two runs over the difference of COUNT. The files are named on the command line
// because Scripts/vectors-dir cannot be spawned under valgrind.
if let i = arguments.firstIndex(of: "--appstore-chain"), i + 4 < arguments.count, let count = Int(arguments[i + 2]) {
    print(
        appStoreChain(
            cached: arguments[i + 1].hasPrefix("cached"), memo: !arguments[i + 1].hasSuffix("-before"),
            direct: !arguments[i + 1].hasSuffix("-before"), count: count, jwsPath: arguments[i + 3],
            rootPath: arguments[i + 4]))
    exit(0)
}
// --appstore-stage ID COUNT JWS-FILE ROOT-FILE: one --probe stage (jws, parse, decode, jsondecoder,
// sha256, certificates, chain, chain-nomemo, es256, uncached, uncached-nomemo, uncached-before, cached, cached-generic) COUNT times, for callgrind.
if let i = arguments.firstIndex(of: "--appstore-stage"), i + 4 < arguments.count, let count = Int(arguments[i + 2]) {
    print(appStoreStage(arguments[i + 1], count: count, jwsPath: arguments[i + 3], rootPath: arguments[i + 4]))
    exit(0)
}

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let repo = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let appleData = appleVectors(repo: repo)
let certificateURL = appleData.appendingPathComponent("real/apple-pki/AppleWWDRCAG6.cer")
guard let certificateData = FileManager.default.contents(atPath: certificateURL.path) else {
    FileHandle.standardError.write(Data("no certificate to parse at \(certificateURL.path)\n".utf8))
    exit(1)
}
let certificate = Array(certificateData)

func first8(_ bytes: some Sequence<UInt8>) -> UInt64 { bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }

// --ceiling: the field-ceiling table alone (FieldCeiling.swift).
if arguments.contains("--ceiling") {
    print(FieldCeiling.table(harness: &harness))
    exit(0)
}
// --only rsa: just the RSA-2048 rows (against swift-crypto and `openssl speed rsa2048`).
if arguments.contains("rsa") && arguments.contains("--only") {
    print(format(try rsaRows(harness: &harness, message: Array(kib.prefix(100)), seconds: seconds)))
    exit(0)
}
// --only mpn: RSA-2048 and RSA-4096 verification on the portable Swift backend against GMP.
if arguments.contains("mpn") && arguments.contains("--only") {
    print(format(try mpnBackendRows(harness: &harness, message: Array(kib.prefix(100)))))
    exit(0)
}
if arguments.contains("--probe") {
    probe(repo: repo)
    exit(0)
}
// --only appattest: App Attest attestation and assertion verification against swift-crypto +
// swift-certificates doing the same steps.
if arguments.contains("appattest") && arguments.contains("--only") {
    print(format(try await appAttestRows(seconds: seconds)))
    exit(0)
}
// App Store signed data: Sigil's SignedDataVerifier against Apple's library pipeline.
if !onlyDigests, let appStore = await appStoreRows(repo: repo, seconds: seconds) { rows.append(contentsOf: appStore) }
if !onlyDigests { rows.append(contentsOf: try await appAttestRows(seconds: seconds)) }
if onlyAppStore {
    print(format(rows))
    exit(0)
}

// SHA-256, 1 KiB and 1 MiB.
for (label, input) in [("SHA-256 1 KiB", kib), ("SHA-256 1 MiB", mib)] {
    let ours = harness.opsPerSecond { first8(SigilCore.SHA256.hash(input)) }
    let theirs = harness.opsPerSecond { first8(Crypto.SHA256.hash(data: input)) }
    rows.append(Row(name: label, sigil: ours, reference: theirs, referenceName: "swift-crypto SHA256", bytesPerOp: input.count))
}
// SHA-384 1 KiB (the certificate-signature hash of Apple's P-384 chain).
do {
    let ours = harness.opsPerSecond { first8(SigilCore.SHA384.hash(kib)) }
    let theirs = harness.opsPerSecond { first8(Crypto.SHA384.hash(data: kib)) }
    rows.append(Row(name: "SHA-384 1 KiB", sigil: ours, reference: theirs, referenceName: "swift-crypto SHA384", bytesPerOp: 1024))
}
// SHA-512 1 KiB (the compression SHA-384 shares).
do {
    let ours = harness.opsPerSecond { first8(SigilCore.SHA512.hash(kib)) }
    let theirs = harness.opsPerSecond { first8(Crypto.SHA512.hash(data: kib)) }
    rows.append(Row(name: "SHA-512 1 KiB", sigil: ours, reference: theirs, referenceName: "swift-crypto SHA512", bytesPerOp: 1024))
}
// HMAC-SHA256 of 64 bytes under a 32-byte key (RFC 6979 runs a dozen of these per signature).
do {
    let key = Array(kib.prefix(32))
    let message = Array(kib.suffix(64))
    let symmetricKey = SymmetricKey(data: key)
    let ours = harness.opsPerSecond { first8(SigilCore.HMAC<SigilCore.SHA256>.authenticationCode(key: key, message: message)) }
    let theirs = harness.opsPerSecond { first8(Crypto.HMAC<Crypto.SHA256>.authenticationCode(for: message, using: symmetricKey)) }
    rows.append(Row(name: "HMAC-SHA256 64 B", sigil: ours, reference: theirs, referenceName: "swift-crypto HMAC<SHA256>", bytesPerOp: 0))
}
// SHA-256 with Sigil's AVX2 kernel forced (what runs on a CPU with AVX2 but without SHA extensions),
// against OpenSSL's own AVX2 code: `openssl speed` with the SHA-extension bit masked, run right after.
if DigestBackend.available(for: .sha256).contains(.x86AVX2) {
    let saved = DigestBackend.forced
    DigestBackend.forced = .x86AVX2
    for (label, input) in [("SHA-256 1 KiB, AVX2", kib), ("SHA-256 1 MiB, AVX2", mib)] {
        let ours = harness.opsPerSecond { first8(SigilCore.SHA256.hash(input)) }
        if let theirs = opensslSpeed("sha256", bytes: input.count, seconds: seconds, environment: ["OPENSSL_ia32cap": ":~0x20000000"]) {
            rows.append(
                Row(
                    name: label, sigil: ours, reference: theirs, referenceName: "openssl speed -evp sha256, SHA extensions masked",
                    bytesPerOp: input.count))
        } else {
            let theirs = harness.opsPerSecond { first8(Crypto.SHA256.hash(data: input)) }
            rows.append(Row(name: label, sigil: ours, reference: theirs, referenceName: "swift-crypto SHA256", bytesPerOp: input.count))
        }
    }
    DigestBackend.forced = saved
}
// SHA-256 with Sigil's portable Swift path forced (what runs on a CPU without SHA extensions or AVX2).
if DigestBackend.accelerated != nil {
    let saved = DigestBackend.forced
    DigestBackend.forcePortable = true
    for (label, input) in [("SHA-256 1 KiB, portable Swift", kib), ("SHA-256 1 MiB, portable Swift", mib)] {
        let ours = harness.opsPerSecond { first8(SigilCore.SHA256.hash(input)) }
        let theirs = harness.opsPerSecond { first8(Crypto.SHA256.hash(data: input)) }
        rows.append(Row(name: label, sigil: ours, reference: theirs, referenceName: "swift-crypto SHA256", bytesPerOp: input.count))
    }
    DigestBackend.forced = saved
}
// SHA-384 with the portable Swift path forced (what runs on a CPU without AVX2 and BMI2).
if DigestBackend.accelerated(for: .sha384) != nil {
    let saved = DigestBackend.forced
    DigestBackend.forcePortable = true
    let ours = harness.opsPerSecond { first8(SigilCore.SHA384.hash(kib)) }
    let theirs = harness.opsPerSecond { first8(Crypto.SHA384.hash(data: kib)) }
    rows.append(
        Row(name: "SHA-384 1 KiB, portable Swift", sigil: ours, reference: theirs, referenceName: "swift-crypto SHA384", bytesPerOp: 1024))
    DigestBackend.forced = saved
}
if onlyDigests {
    print("SHA-256 backend: \(DigestBackend.current.rawValue)")
    print("SHA-384/512 backend: \(DigestBackend.current(for: .sha512).rawValue)")
    print(format(rows))
    exit(0)
}

// DER parse of a certificate: like for like against swift-asn1's tree parser, and against
// swift-certificates' full Certificate decode (which also builds typed fields: not like for like
// until Sigil's X.509 layer exists).
let certName = certificateURL.lastPathComponent
do {
    let ours = harness.opsPerSecond { UInt64((try? SigilASN1.DER.parse(certificate))?.children.count ?? 0) }
    let theirs = harness.opsPerSecond {
        guard let node = try? SwiftASN1.DER.parse(certificate), case .constructed(let children) = node.content else { return 0 }
        return UInt64(children.reduce(0) { n, _ in n + 1 })
    }
    rows.append(
        Row(name: "DER tree parse (\(certName))", sigil: ours, reference: theirs, referenceName: "swift-asn1 DER.parse", bytesPerOp: 0))
    let full = harness.opsPerSecond { (try? X509.Certificate(derEncoded: certificate)) == nil ? 0 : 1 }
    rows.append(
        Row(
            name: "DER tree parse vs full certificate decode", sigil: ours, reference: full,
            referenceName: "swift-certificates Certificate(derEncoded:)", bytesPerOp: 0))
}

// ECDSA sign and verify, P-256/SHA-256 and P-384/SHA-384, over a 100-byte message.
let message = Array(kib.prefix(100))
do {
    let ours = SigilCore.ECDSAPrivateKey.generate(curve: .p256)
    let theirs = Crypto.P256.Signing.PrivateKey()
    let sign = harness.opsPerSecond { first8(ours.signature(for: message, hash: .sha256).r) }
    let theirSign = harness.opsPerSecond { first8((try? theirs.signature(for: message))?.rawRepresentation ?? Data()) }
    rows.append(Row(name: "P-256 sign", sigil: sign, reference: theirSign, referenceName: "swift-crypto P256.Signing", bytesPerOp: 0))
    let signature = ours.signature(for: message, hash: .sha256)
    let theirSignature = try theirs.signature(for: message)
    let verify = harness.opsPerSecond { ours.publicKey.isValidSignatureVartime(signature, for: message, hash: .sha256) ? 1 : 0 }
    let theirVerify = harness.opsPerSecond { theirs.publicKey.isValidSignature(theirSignature, for: message) ? 1 : 0 }
    rows.append(
        Row(
            name: "P-256 verify (repeated key: per-key table)", sigil: verify, reference: theirVerify,
            referenceName: "swift-crypto P256.Signing", bytesPerOp: 0))
    // A key seen for the first time: the per-key tables off, wNAF with doublings.
    ECDSAVerificationTables.isEnabled = false
    let coldVerify = harness.opsPerSecond { ours.publicKey.isValidSignatureVartime(signature, for: message, hash: .sha256) ? 1 : 0 }
    ECDSAVerificationTables.isEnabled = true
    rows.append(
        Row(
            name: "P-256 verify (cold key: no table)", sigil: coldVerify, reference: theirVerify,
            referenceName: "swift-crypto P256.Signing", bytesPerOp: 0))
}
do {
    let ours = SigilCore.ECDSAPrivateKey.generate(curve: .p384)
    let theirs = Crypto.P384.Signing.PrivateKey()
    let sign = harness.opsPerSecond { first8(ours.signature(for: message, hash: .sha384).r) }
    let theirSign = harness.opsPerSecond { first8((try? theirs.signature(for: message))?.rawRepresentation ?? Data()) }
    rows.append(Row(name: "P-384 sign", sigil: sign, reference: theirSign, referenceName: "swift-crypto P384.Signing", bytesPerOp: 0))
    let signature = ours.signature(for: message, hash: .sha384)
    let theirSignature = try theirs.signature(for: message)
    let verify = harness.opsPerSecond { ours.publicKey.isValidSignatureVartime(signature, for: message, hash: .sha384) ? 1 : 0 }
    let theirVerify = harness.opsPerSecond { theirs.publicKey.isValidSignature(theirSignature, for: message) ? 1 : 0 }
    rows.append(
        Row(
            name: "P-384 verify (repeated key: per-key table)", sigil: verify, reference: theirVerify,
            referenceName: "swift-crypto P384.Signing", bytesPerOp: 0))
    // A key seen for the first time: the per-key tables off, wNAF with doublings.
    ECDSAVerificationTables.isEnabled = false
    let coldVerify = harness.opsPerSecond { ours.publicKey.isValidSignatureVartime(signature, for: message, hash: .sha384) ? 1 : 0 }
    ECDSAVerificationTables.isEnabled = true
    rows.append(
        Row(
            name: "P-384 verify (cold key: no table)", sigil: coldVerify, reference: theirVerify,
            referenceName: "swift-crypto P384.Signing", bytesPerOp: 0))
}

// X.509: a full certificate decode, like for like now that Sigil's certificate layer exists.
do {
    let ours = harness.opsPerSecond { (try? SigilX509.Certificate(derEncoded: certificate))?.extensions.count ?? 0 > 0 ? 1 : 0 }
    let theirs = harness.opsPerSecond { (try? X509.Certificate(derEncoded: certificate)) == nil ? 0 : 1 }
    rows.append(
        Row(
            name: "X.509 certificate decode (\(certName))", sigil: ours, reference: theirs,
            referenceName: "swift-certificates Certificate(derEncoded:)", bytesPerOp: 0))
}

// RSA-2048 PKCS#1 v1.5 / SHA-256 verification (receipts, Sign in with Apple RS256).
rows.append(contentsOf: try rsaRows(harness: &harness, message: message, seconds: seconds))
// RSA-2048 and RSA-4096 verification on the portable Swift backend (what Embedded Swift runs) against GMP.
rows.append(contentsOf: try mpnBackendRows(harness: &harness, message: message))

// Field and point operations, per operation (no reference column: swift-crypto does not expose them).
var micro: [(name: String, p256: Double, p384: Double)] = []
if !arguments.contains("--no-micro") {
    let chain = 1000
    for operation in Microbenchmarks.Operation.allCases {
        let count = operation == .fieldInversion ? 10 : chain
        var nanoseconds: [Double] = []
        for curve in [ECCurve.p256, .p384] {
            let rate = harness.opsPerSecond { Microbenchmarks.run(operation, curve: curve, iterations: count) }
            nanoseconds.append(1e9 / (rate * Double(count)))
        }
        micro.append((operation.rawValue, nanoseconds[0], nanoseconds[1]))
    }
}

if asJSON {
    let results = rows.map {
        [
            "name": $0.name, "sigilOpsPerSecond": $0.sigil, "reference": $0.referenceName,
            "referenceOpsPerSecond": $0.reference, "ratio": $0.sigil / $0.reference,
        ] as [String: Any]
    }
    let microResults = micro.map { ["name": $0.name, "p256Nanoseconds": $0.p256, "p384Nanoseconds": $0.p384] as [String: Any] }
    let data = try JSONSerialization.data(
        withJSONObject: [
            "results": results, "operations": microResults,
            "secondsPerMeasurement": seconds,
        ],
        options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    print(format(rows))
    if !micro.isEmpty {
        print("\n| operation | P-256 ns/op | P-384 ns/op |\n|---|---:|---:|")
        for row in micro { print(String(format: "| %@ | %.1f | %.1f |", row.name, row.p256, row.p384)) }
    }
    print("\n(checksum \(harness.checksum); \(seconds) s per measurement, single thread, release build)")
}
