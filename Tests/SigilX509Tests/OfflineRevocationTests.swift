import Foundation
import SigilASN1
import SigilTestPKI
import SigilTestSupport
import XCTest

@testable import SigilCRL
@testable import SigilX509

/// Offline revocation (issue 47): the synchronous `verify(…, checkingRevocationWith:)` with a
/// fixed set of CRLs gives the verdicts and failures of the asynchronous API with the same
/// checker, and the verdicts of the asynchronous `CRLRevocationChecker` over an
/// `OfflineCRLSource` of the same CRLs, on every PKITS CRL test (NIST PKITS, Vectors/pkits).
final class OfflineRevocationTests: XCTestCase {
    /// The PKITS CRL tests, each checked for revocation after path validation (not as a policy
    /// inside it): synchronous and asynchronous forms agree, and agree with PKITS.
    func testSynchronousAndAsynchronousCRLCheckingAgreeOnPKITS() async throws {
        let data = try PKITSCRLTests.load()
        let options = CRLRevocationPolicy.Options(minimumRSABits: 1024)
        let crlPolicy = CRLRevocationPolicy(
            crls: data.crls, candidateCertificates: data.intermediates + [data.anchor], options: options,
            signerPolicies: [RFC5280Policy(relaxations: [.nonCriticalPolicyConstraints])])
        let fromSource = CRLRevocationChecker(
            source: OfflineCRLSource(data.crls), candidateCertificates: data.intermediates + [data.anchor], options: options)
        let verifier = CertificateVerifier(
            trustedRoots: [data.anchor], policies: [AnyCertificatePolicy(RFC5280Policy(relaxations: [.nonCriticalPolicyConstraints]))],
            minimumRSABits: 1024)
        var disagreements: [String] = []
        var decided = 0
        for (section, tests) in PKITSCRLTests.sections {
            for name in tests {
                guard let leaf = data.endEntities[name + "EE"] else { continue }
                let label = "\(section) \(name)"
                let sync = Self.offline(verifier, leaf, data.intermediates, PKITSCRLTests.validationTime, crlPolicy)
                let async = await verifier.verify(
                    leaf: leaf, intermediates: data.intermediates, at: PKITSCRLTests.validationTime,
                    checkingRevocationWith: crlPolicy as any RevocationChecker)
                let sourced = await verifier.verify(
                    leaf: leaf, intermediates: data.intermediates, at: PKITSCRLTests.validationTime, checkingRevocationWith: fromSource)
                XCTAssertEqual(sync.chain, async.chain, label)
                XCTAssertEqual(sync.failures, async.failures, label)
                if (sync.chain == nil) != (sourced.chain == nil) {
                    disagreements.append("\(label): offline \(sync.failures), from a source \(sourced.failures)")
                }
                if (sync.chain != nil) != name.hasPrefix("Valid") {
                    disagreements.append("\(label): offline check after path validation says \(sync.chain != nil ? "valid" : "invalid")")
                }
                decided += 1
            }
        }
        XCTAssertEqual(decided, 74)
        XCTAssertEqual(disagreements, [], disagreements.joined(separator: "\n"))
    }

    /// The synchronous entry point (in asynchronous code the asynchronous overload is chosen).
    static func offline<Checker: OfflineRevocationChecker>(
        _ verifier: CertificateVerifier, _ leaf: Certificate, _ intermediates: [Certificate], _ time: Int64, _ checker: Checker
    ) -> CertificateVerifier.Result {
        verifier.verify(leaf: leaf, intermediates: intermediates, at: time, checkingRevocationWith: checker)
    }

    /// The revocation verdict lands in the trace, named by the checker.
    func testTheTraceNamesTheOfflineChecker() throws {
        let data = try PKITSCRLTests.load()
        let crlPolicy = CRLRevocationPolicy(
            crls: data.crls, candidateCertificates: data.intermediates + [data.anchor], options: .init(minimumRSABits: 1024))
        let verifier = CertificateVerifier(trustedRoots: [data.anchor], policies: [], minimumRSABits: 1024)
        for (name, passes) in [("ValidTwoCRLsTest7", true), ("InvalidRevokedEETest3", false)] {
            let leaf = try XCTUnwrap(data.endEntities[name + "EE"])
            let trace = VerificationTrace()
            _ = verifier.verify(
                leaf: leaf, intermediates: data.intermediates, at: PKITSCRLTests.validationTime, checkingRevocationWith: crlPolicy,
                trace: trace)
            let step = try XCTUnwrap(trace.steps.last, name)
            XCTAssertEqual(step.clause, "RFC 5280 §6.1.3 (a)(3)", name)
            XCTAssertEqual(step.verdict, passes ? .pass : .fail, name)
            if passes { XCTAssertTrue(step.detail.hasSuffix("(CRL revocation)"), step.detail) }
        }
    }

    /// `AnyOfflineRevocationChecker.anyOf` and `allOf` combine as `RevocationPolicy.anyOf` and
    /// `allOf` do: a revocation always stands, one clean checker suffices for anyOf, allOf
    /// reports everything.
    func testOfflineCompositionsCombineAsTheAsynchronousOnes() async throws {
        let time: Int64 = 1_800_000_000
        let pki = try AppleShapedTestPKI.generate(notBefore: time - 86_400, notAfter: time + 86_400)
        let verifier = CertificateVerifier(trustedRoots: [pki.root], policies: [])
        let clean = AnyOfflineRevocationChecker(name: "clean") { _, _ in [] }
        let unknown = AnyOfflineRevocationChecker(name: "unknown") { chain, _ in
            [.revocationStatusUnknown(certificate: PathCertificate(chain[0], position: 0))]
        }
        let revoked = AnyOfflineRevocationChecker(name: "revoked") { chain, time in
            [.revoked(certificate: PathCertificate(chain[0], position: 0), time: time, reason: 1)]
        }
        let cases: [(AnyOfflineRevocationChecker, any RevocationChecker, Bool, String)] = [
            (.anyOf([clean, unknown]), RevocationPolicy.anyOf([clean, unknown]), true, "anyOf clean unknown"),
            (.anyOf([unknown, revoked, clean]), RevocationPolicy.anyOf([unknown, revoked, clean]), false, "anyOf with a revocation"),
            (.anyOf([unknown, unknown]), RevocationPolicy.anyOf([unknown, unknown]), false, "anyOf nothing clean"),
            (.anyOf([]), RevocationPolicy.anyOf([]), true, "anyOf none"),
            (.allOf([clean, unknown]), RevocationPolicy.allOf([clean, unknown]), false, "allOf clean unknown"),
            (.allOf([clean, clean]), RevocationPolicy.allOf([clean, clean]), true, "allOf clean"),
        ]
        for (offline, online, valid, label) in cases {
            let sync = Self.offline(verifier, pki.leaf, [pki.intermediate], time, offline)
            let async = await verifier.verify(
                leaf: pki.leaf, intermediates: [pki.intermediate], at: time, checkingRevocationWith: online)
            XCTAssertEqual(sync.chain != nil, valid, label)
            XCTAssertEqual(sync.failures, async.failures, label)
        }
        let both = AnyOfflineRevocationChecker.anyOf([unknown, revoked, clean])
        let failures = Self.offline(verifier, pki.leaf, [pki.intermediate], time, both).failures
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.allSatisfy { if case .revoked = $0 { true } else { false } }, "\(failures)")
    }
}
