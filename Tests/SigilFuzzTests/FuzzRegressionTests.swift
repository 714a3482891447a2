import Foundation
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
            ["der", "certificate", "chain", "ocsp", "receipt", "jws", "external-purchase-token", "crl", "cbor"])
        for (name, run) in FuzzHarness.targets {
            let files = try inputs(name)
            XCTAssertFalse(files.isEmpty, "Fuzz/Regressions/\(name) is empty")
            for (_, bytes) in files { run(bytes) }
        }
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
