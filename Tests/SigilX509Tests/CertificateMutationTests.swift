import Foundation
import SigilASN1
import SigilCore
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Seeded mutations of valid certificates (bit flips, byte changes, truncations, insertions and
/// deletions, length-octet edits): the parser never crashes or traps, and no mutant whose signed
/// bytes (TBSCertificate) or signature changed verifies under the real issuer.
final class CertificateMutationTests: XCTestCase {
    /// (certificate, issuer) pairs: Apple's real chain from the Apple third-party data (P-384 and RSA),
    /// else certificates made here.
    private func pairs() throws -> [(Certificate, Certificate)] {
        let shared = try TestPaths.requireAppleVectors()
        func load(_ path: String) throws -> Certificate {
            try Certificate(derEncoded: Array(try Data(contentsOf: shared.appendingPathComponent(path))))
        }
        let root = try load("real/apple-pki/AppleRootCA-G3.cer")
        let g6 = try load("real/apple-pki/AppleWWDRCAG6.cer")
        let leaf = try load("real/from-apple-library-tests/receipt-signing-leaf-2025-serial-47c287cd.der")
        let incRoot = try load("real/apple-pki/AppleIncRootCertificate.cer")
        let g5 = try load("real/apple-pki/AppleWWDRCAG5.cer")
        let testCA = try load("library/swift/Tests/AppStoreServerLibraryTests/resources/certs/testCA.der")
        return [(leaf, g6), (g6, root), (g5, incRoot), (testCA, testCA)]
    }

    func testFiftyThousandMutants() throws {
        let pairs = try pairs()
        var rng = SeededGenerator(seed: 0x5167_0509)
        var parsed = 0
        var verified = 0
        var total = 0
        let perPair = 12_500
        for (certificate, issuer) in pairs {
            let original = certificate.derBytes
            for _ in 0..<perPair {
                var bytes = original
                let kind = rng.next() % 6
                let position = Int(rng.next() % UInt64(bytes.count))
                switch kind {
                case 0: bytes[position] ^= UInt8(1 << (rng.next() % 8))  // bit flip
                case 1: bytes[position] = UInt8(truncatingIfNeeded: rng.next())  // byte change
                case 2: bytes.removeSubrange(position...)  // truncation
                case 3: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)  // insertion
                case 4: bytes.remove(at: position)  // deletion
                default:
                    // Length edits: bump a byte that follows a tag-like byte (0x30, 0x02, 0x03, 0x04, 0x06, 0xA0…).
                    let candidates = (0..<(bytes.count - 1)).filter {
                        [0x30, 0x31, 0x02, 0x03, 0x04, 0x06, 0xA0, 0xA3].contains(bytes[$0])
                    }
                    let at = candidates[Int(rng.next() % UInt64(candidates.count))] + 1
                    bytes[at] = bytes[at] &+ UInt8(truncatingIfNeeded: rng.next() % 5) &- 2
                }
                total += 1
                guard bytes != original, let mutant = try? Certificate(derEncoded: bytes) else { continue }
                parsed += 1
                let signedBytesChanged =
                    mutant.tbsBytes != certificate.tbsBytes || mutant.signature != certificate.signature
                    || mutant.signatureAlgorithmIdentifier != certificate.signatureAlgorithmIdentifier
                if (try? mutant.isSignedVartime(by: issuer).get()) != nil {
                    verified += 1
                    XCTAssertFalse(signedBytesChanged, "a mutant with altered signed bytes verified: \(Hex.encode(bytes))")
                }
                // The whole verifier on the mutant (as leaf, and as an intermediate under its issuer).
                let time = certificate.validity.notBefore + 60
                let verifier = CertificateVerifier(trustedRoots: [issuer])
                if verifier.verify(leaf: mutant, at: time).chain != nil {
                    XCTAssertFalse(signedBytesChanged, "the verifier accepted a mutant with altered signed bytes")
                }
            }
        }
        XCTAssertEqual(total, 50_000)
        XCTAssertGreaterThan(parsed, 1000, "enough mutants parse to exercise the signature check")
        print("certificate mutants: \(total) generated, \(parsed) parsed, \(verified) verified (none with altered signed bytes)")
    }
}
