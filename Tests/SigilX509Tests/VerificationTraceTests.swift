import Foundation
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilTestPKI
import SigilX509
import XCTest

/// `CertificateVerifier` records its own steps into a ``VerificationTrace``: every signature it
/// checks while building paths, then the basics and each policy on each candidate path that
/// reaches a trusted root, then the outcome — each with its clause, in the order they ran.
final class VerificationTraceTests: XCTestCase {
    let now: Int64 = 1_790_000_000

    func testValidPathIsTracedInTheOrderItRan() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let verifier = CertificateVerifier(trustedRoots: [pki.root], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleSignedData])
        let trace = VerificationTrace()
        let result = verifier.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: now, trace: trace)
        XCTAssertNotNil(result.chain)
        // The same answer with no trace: recording changes nothing.
        XCTAssertEqual(verifier.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: now).chain, result.chain)

        let steps = trace.steps
        XCTAssertEqual(
            steps.map(\.clause),
            [
                "RFC 5280 §6.1.1",
                "RFC 5280 §6.1.3 (a)(1)", "RFC 5280 §6.1.3 (a)(1)",
                "RFC 5280 §6.1.3 (a)(2), §6.1.4 (k)–(o)",
                RFC5280Policy().name, MarkerExtensionPolicy.appleSignedData.name,
                "RFC 5280 §6.1",
            ])
        XCTAssertEqual(steps.map(\.verdict), [.note, .pass, .pass, .pass, .pass, .pass, .pass])
        // The leaf is checked first (intermediates are tried after roots), then the intermediate by the root.
        XCTAssertTrue(steps[1].check.contains("(position 0)"), steps[1].check)
        XCTAssertTrue(steps[2].check.contains("(position 1)"), steps[2].check)
        XCTAssertTrue(steps[2].detail.contains(pki.root.subject.rfc4514String), steps[2].detail)
        XCTAssertTrue(steps[6].detail.hasPrefix(pki.leaf.subject.rfc4514String), steps[6].detail)
        XCTAssertTrue(steps[0].detail.contains("RFC 5280 basics + \(RFC5280Policy().name) + \(MarkerExtensionPolicy.appleSignedData.name)"))
    }

    func testRefusedPathNamesEachFailureWithItsClause() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        // A day after every certificate expired, under a policy list without RFC5280Policy: the
        // basics still run, and the trace says which rule refused the path.
        let verifier = CertificateVerifier(trustedRoots: [pki.root], policies: [MarkerExtensionPolicy.appleSignedData])
        let trace = VerificationTrace()
        let result = verifier.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: now + 2 * 86_400, trace: trace)
        XCTAssertNil(result.chain)
        let steps = trace.steps
        let basics = try XCTUnwrap(steps.first { $0.clause == "RFC 5280 §6.1.3 (a)(2), §6.1.4 (k)–(o)" })
        XCTAssertEqual(basics.verdict, .fail)
        XCTAssertTrue(basics.detail.contains("expired"), basics.detail)
        XCTAssertTrue(basics.detail.contains("[RFC 5280 §6.1.3 (a)(2)]"), basics.detail)
        let marker = try XCTUnwrap(steps.first { $0.clause == MarkerExtensionPolicy.appleSignedData.name })
        XCTAssertEqual(marker.verdict, .pass)
        let outcome = try XCTUnwrap(steps.last)
        XCTAssertEqual(outcome.clause, "RFC 5280 §6.1")
        XCTAssertEqual(outcome.verdict, .fail)
        // Every failure the result carries is in the outcome's detail, with its rule.
        for failure in result.failures {
            XCTAssertTrue(outcome.detail.contains("[\(failure.rule)]"), "\(failure) missing from \(outcome.detail)")
        }
    }

    func testNoPathIsTraced() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let other = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let trace = VerificationTrace()
        // The intermediate is withheld: nothing issues the leaf.
        let result = CertificateVerifier(trustedRoots: [other.root]).verify(leaf: pki.leaf, at: now, trace: trace)
        XCTAssertNil(result.chain)
        XCTAssertEqual(trace.steps.map(\.verdict), [.note, .fail])
        XCTAssertTrue(trace.steps[1].detail.contains("no path to a trusted root"), trace.steps[1].detail)
    }
}
