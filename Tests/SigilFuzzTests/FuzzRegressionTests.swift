import Foundation
import SigilAppAttest
import SigilFuzzHarness
import SigilTestSupport
import XCTest

/// Replays every committed fuzz input (Fuzz/Regressions/<target>/) through its libFuzzer
/// harness, and runs a short in-process mutation pass over them, so a fixed finding stays fixed
/// in every build — including the ordinary one, without libFuzzer.
final class FuzzRegressionTests: XCTestCase {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let folder = Self.regressions.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    func testEveryTargetHasRegressionInputsAndSurvivesThem() throws {
        XCTAssertEqual(
            FuzzHarness.targets.map(\.name),
            [
                "der", "certificate", "chain", "ocsp", "receipt", "jws", "external-purchase-token", "crl", "cbor", "appattest", "request",
                "applepay", "mdoc", "hpke",
            ])
        for (name, run) in FuzzHarness.targets {
            let files = try inputs(name)
            XCTAssertFalse(files.isEmpty, "Fuzz/Regressions/\(name) is empty")
            for (_, bytes) in files { run(bytes) }
        }
    }

    /// The committed App Attest inputs are what the fixed PKI produces today (so they keep
    /// reaching every step), and each verifies under it. SIGIL_WRITE_FUZZ_INPUTS=1 rewrites them.
    func testAppAttestInputsMatchTheFixture() throws {
        let folder = Self.regressions.appendingPathComponent("appattest")
        let examples = FuzzHarness.appAttestExamples()
        XCTAssertEqual(
            examples.map(\.name),
            ["valid-attestation", "valid-assertion", "valid-assertion-extensions", "assertion-authenticator-data", "receipt"])
        for (name, bytes) in examples {
            let url = folder.appendingPathComponent(name)
            if ProcessInfo.processInfo.environment["SIGIL_WRITE_FUZZ_INPUTS"] == "1" { try Data(bytes).write(to: url) }
            XCTAssertEqual(Array(try Data(contentsOf: url)), bytes, name)
        }
        let fixture = try XCTUnwrap(FuzzHarness.appAttestFixture)
        let time: Int64 = 1_735_689_600
        let inputs = Dictionary(uniqueKeysWithValues: examples.map { ($0.name, $0.bytes) })
        let attestation = AttestationVerifier(testRoot: fixture.pki.root, appID: fixture.appID, environment: .production)
        XCTAssertNoThrow(try attestation.verify(inputs["valid-attestation"] ?? [], clientDataHash: fixture.clientDataHash, at: time))
        XCTAssertEqual(
            try AssertionVerifier(appID: fixture.appID).verify(
                inputs["valid-assertion"] ?? [], clientDataHash: fixture.clientDataHash, publicKey: fixture.key.publicKey,
                previousCounter: 7
            ).counter, 0x8000_0001)
        // The real-device shape (AT set, 37 bytes) and AT set with one extensions map.
        XCTAssertEqual(
            try AssertionVerifier(appID: fixture.appID).verify(
                inputs["valid-assertion-extensions"] ?? [], clientDataHash: fixture.clientDataHash, publicKey: fixture.key.publicKey,
                previousCounter: 7
            ).policyReport.validationCategory, .appStore)
        XCTAssertEqual(
            try AuthenticatorData(inputs["assertion-authenticator-data"] ?? [], form: .assertion).extensions?.bundleVersion, "27.0")
        XCTAssertNoThrow(
            try AttestationReceiptVerifier(trustedRoots: [fixture.pki.receiptRoot], appID: fixture.appID).verify(
                inputs["receipt"] ?? [], now: time, maximumAge: 300))
    }

    /// Byte flips, truncations, insertions and splices of the committed inputs (seeded, so a
    /// failure reproduces): the same harnesses, a few thousand inputs per target.
    func testMutationsOfRegressionInputs() throws {
        var rng = SeededGenerator(seed: 0x5167_1F0A)
        for (name, run) in FuzzHarness.targets {
            let files = try inputs(name).map(\.1)
            for _ in 0..<1500 {
                var bytes = files.randomElement(using: &rng) ?? []
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0 where !bytes.isEmpty:
                        bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    case 1 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 0...bytes.count, using: &rng))
                    case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
                    default:
                        let other = files.randomElement(using: &rng) ?? []
                        bytes += other.prefix(Int.random(in: 0...other.count, using: &rng))
                    }
                }
                run(Array(bytes.prefix(1 << 16)))
            }
        }
    }
}
