import SigilASN1
import SigilApplePKI
import SigilCore
import SigilKeys
import SigilTestPKI
import XCTest

@testable import SigilX509

/// The memo of CA signature checks (`CASignatureMemo` inside `CertificateVerifier`): only
/// successful checks of CA certificates above the leaf are kept, bounded, keyed by the whole
/// certificate DER and the issuer's whole SubjectPublicKeyInfo, and every other rule still runs.
/// One Apple-shaped PKI (P-384 root and intermediate, P-256 leaf) and a few more certificates,
/// generated in memory: well under a second.
final class CASignatureMemoTests: XCTestCase {
    private static let notBefore: Int64 = 1_700_000_000
    private static let notAfter: Int64 = 1_900_000_000
    private static let time: Int64 = 1_800_000_000
    private static let pki = try! AppleShapedTestPKI.generate(notBefore: notBefore, notAfter: notAfter)

    private let rootName = CertificateBuilder.name([
        (AttributeTypeAndValue.commonName, "Sigil Test Root CA - G3"),
        (AttributeTypeAndValue.organizationalUnitName, "Sigil Test Certification Authority"),
        (AttributeTypeAndValue.organizationName, "Sigil Test"), (AttributeTypeAndValue.countryName, "US"),
    ])
    private let intermediateName = CertificateBuilder.name([
        (AttributeTypeAndValue.commonName, "Sigil Test Worldwide Developer Relations CA"),
        (AttributeTypeAndValue.organizationalUnitName, "G6"),
        (AttributeTypeAndValue.organizationName, "Sigil Test"), (AttributeTypeAndValue.countryName, "US"),
    ])

    private func verifier(_ roots: [Certificate] = [CASignatureMemoTests.pki.root]) -> CertificateVerifier {
        CertificateVerifier(trustedRoots: roots, policies: [RFC5280Policy(), MarkerExtensionPolicy.appleSignedData])
    }

    /// The intermediate re-issued by `key` (the root's unless given) with `serial` and `notAfter`.
    private func intermediate(
        serial: [UInt8] = [0x7A, 0x01], notAfter: Int64 = CASignatureMemoTests.notAfter,
        signedBy key: ECDSAPrivateKey = CASignatureMemoTests.pki.rootKey
    ) throws -> Certificate {
        let pki = Self.pki
        return try CertificateBuilder(
            serialNumber: serial, issuer: rootName, subject: intermediateName, notBefore: Self.notBefore, notAfter: notAfter,
            subjectPublicKeyInfo: pki.intermediateKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: true, pathLength: 0),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(pki.rootKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(pki.intermediateKey.publicKey)),
                .keyUsage([5, 6]), .marker(AppleOIDs.wwdrIntermediate),
            ]
        ).sign(with: key)
    }

    private func invalidSignatureFailures(_ result: CertificateVerifier.Result) -> [Int] {
        result.failures.compactMap {
            if case .invalidSignature(let certificate, _) = $0 { return certificate.position }
            return nil
        }
    }

    func testIntermediateIsMemoizedAndTheLeafIsVerifiedEveryTime() throws {
        let pki = Self.pki
        let v = verifier()
        XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: Self.time).chain)
        XCTAssertEqual(v.signatureMemo.count, 1, "the intermediate's check only; never the leaf's")
        XCTAssertTrue(v.signatureMemo.verifiedBefore(pki.intermediate, by: pki.root, minimumRSABits: v.minimumRSABits))
        XCTAssertFalse(v.signatureMemo.verifiedBefore(pki.leaf, by: pki.intermediate, minimumRSABits: v.minimumRSABits))

        // The second verification takes the intermediate from the memo (the trace says so) and
        // checks the leaf's signature again.
        let trace = VerificationTrace()
        XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: Self.time, trace: trace).chain)
        let signatureSteps = trace.steps.filter { $0.clause == "RFC 5280 §6.1.3 (a)(1)" }
        XCTAssertEqual(signatureSteps.count, 2)
        XCTAssertEqual(signatureSteps.filter { $0.detail.contains("verified earlier") }.count, 1)
        let checkedAgain = signatureSteps.filter { !$0.detail.contains("verified earlier") }
        XCTAssertEqual(checkedAgain.count, 1)
        XCTAssertTrue(checkedAgain.allSatisfy { $0.check.contains("StoreKit Signing") }, "\(checkedAgain)")

        // A leaf whose signature is broken (its last byte changed) under the memoized intermediate fails.
        var leafDER = pki.leaf.derBytes
        leafDER[leafDER.count - 1] ^= 0x01
        let badLeaf = try Certificate(derEncoded: leafDER)
        let result = v.verify(leaf: badLeaf, intermediates: [pki.intermediate], at: Self.time)
        XCTAssertNil(result.chain)
        XCTAssertEqual(invalidSignatureFailures(result), [0])
        XCTAssertEqual(v.signatureMemo.count, 1)
    }

    func testOneByteOfTheSubjectChangedNeverHits() throws {
        let pki = Self.pki
        let v = verifier()
        XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: Self.time).chain)
        // One byte of the serial number changed: same length and same last bytes (so the same
        // hash), different certificate; its signature no longer verifies and the memo must not say so.
        var der = pki.intermediate.derBytes
        let serialAt = try XCTUnwrap(
            (0..<der.count - 4).first { der[$0] == 0x02 && der[$0 + 1] == 0x02 && der[$0 + 2] == 0x7A && der[$0 + 3] == 0x01 })
        der[serialAt + 3] = 0x02
        let changed = try Certificate(derEncoded: der)
        XCTAssertFalse(v.signatureMemo.verifiedBefore(changed, by: pki.root, minimumRSABits: v.minimumRSABits))
        let result = v.verify(leaf: pki.leaf, intermediates: [changed], at: Self.time)
        XCTAssertNil(result.chain)
        XCTAssertEqual(invalidSignatureFailures(result), [1])
        // The same certificate under another RSA minimum is another entry.
        XCTAssertFalse(v.signatureMemo.verifiedBefore(pki.intermediate, by: pki.root, minimumRSABits: 1024))
    }

    func testADifferentIssuerKeyNeverHits() throws {
        let pki = Self.pki
        let v = verifier()
        XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: Self.time).chain)
        // A root of the same name and key identifier with another key.
        let otherKey = ECDSAPrivateKey.generate(curve: .p384)
        let impostor = try CertificateBuilder(
            serialNumber: [0x01, 0x5E], issuer: rootName, subject: rootName, notBefore: Self.notBefore, notAfter: Self.notAfter,
            subjectPublicKeyInfo: otherKey.publicKey.spkiDER,
            extensions: [
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(pki.rootKey.publicKey)), .basicConstraints(ca: true),
                .keyUsage([5, 6]),
            ]
        ).sign(with: otherKey)
        XCTAssertFalse(v.signatureMemo.verifiedBefore(pki.intermediate, by: impostor, minimumRSABits: v.minimumRSABits))
        var other = v  // shares the memo
        other.trustedRoots = [impostor]
        let result = other.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: Self.time)
        XCTAssertNil(result.chain)
        XCTAssertEqual(invalidSignatureFailures(result), [1])
        XCTAssertEqual(v.signatureMemo.count, 1)
    }

    func testAnIntermediateWithABadSignatureIsNeverMemoized() throws {
        let pki = Self.pki
        let v = verifier()
        let forged = try intermediate(signedBy: ECDSAPrivateKey.generate(curve: .p384))
        for _ in 0..<2 {
            let result = v.verify(leaf: pki.leaf, intermediates: [forged], at: Self.time)
            XCTAssertNil(result.chain)
            XCTAssertEqual(invalidSignatureFailures(result), [1])
        }
        XCTAssertEqual(v.signatureMemo.count, 0)
    }

    func testTheMemoIsBounded() throws {
        let pki = Self.pki
        var v = verifier()
        v.signatureMemo = CASignatureMemo(capacity: 2)
        let intermediates = try (1...4).map { try intermediate(serial: [0x7A, UInt8($0 + 1)]) }
        for candidate in intermediates {
            XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [candidate], at: Self.time).chain)
            XCTAssertLessThanOrEqual(v.signatureMemo.count, 2)
        }
        XCTAssertEqual(v.signatureMemo.count, 2)
        let kept = intermediates.map { v.signatureMemo.verifiedBefore($0, by: pki.root, minimumRSABits: v.minimumRSABits) }
        XCTAssertEqual(kept, [false, false, true, true], "the least recently used entries were evicted")
        // An evicted certificate verifies again, with a real check.
        XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [intermediates[0]], at: Self.time).chain)
        XCTAssertEqual(v.signatureMemo.count, 2)
        let none = CASignatureMemo(capacity: 0)
        none.recordVerified(pki.intermediate, by: pki.root, minimumRSABits: 2048)
        XCTAssertEqual(none.count, 0)
    }

    func testValidityAndRevocationStillRunForAMemoizedCertificate() async throws {
        let pki = Self.pki
        let v = verifier()
        // An intermediate that expires before the leaf does.
        let shortLived = try intermediate(serial: [0x7A, 0x09], notAfter: Self.time + 100)
        XCTAssertNotNil(v.verify(leaf: pki.leaf, intermediates: [shortLived], at: Self.time).chain)
        XCTAssertTrue(v.signatureMemo.verifiedBefore(shortLived, by: pki.root, minimumRSABits: v.minimumRSABits))
        let later = v.verify(leaf: pki.leaf, intermediates: [shortLived], at: Self.time + 200)
        XCTAssertNil(later.chain)
        XCTAssertTrue(
            later.failures.contains {
                if case .expired(let certificate, _, _) = $0 { return certificate.position == 1 }
                return false
            }, "\(later.failures)")

        struct RevokesTheIntermediate: RevocationChecker {
            func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] {
                [.revoked(certificate: PathCertificate(position: 1, subject: chain[1].subject.rfc4514String), time: time, reason: nil)]
            }
        }
        let revoked = await v.verify(
            leaf: pki.leaf, intermediates: [shortLived], at: Self.time, checkingRevocationWith: RevokesTheIntermediate())
        XCTAssertNil(revoked.chain)
        XCTAssertTrue(
            revoked.failures.contains {
                if case .revoked = $0 { return true }
                return false
            })
    }
}
