import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilCRL
@testable import SigilX509

/// The PKITS sections about CRLs (NIST PKITS, Vectors/pkits): 4.4 Basic CRL, 4.5 self-issued
/// CRL signing keys, 4.14 distribution points, 4.15 delta CRLs — every test, decided by
/// `CertificateVerifier` with `RFC5280Policy` and `CRLRevocationPolicy` as PKITS says (the
/// test's name begins "Valid" or "Invalid"), with the PKITS default initial settings.
///
/// The small loader here (every CA certificate as a candidate intermediate, every CRL in the set,
/// the trust anchor TrustAnchorRootCertificate) is meant to fold into the general PKITS runner:
/// the path builder finds each test's path itself, and the CRL policy picks the CRLs in scope.
final class PKITSCRLTests: XCTestCase {
    /// Any time inside every certificate's and CRL's validity (certificates run 2010–2030).
    static let validationTime: Int64 = 1_577_836_800  // 2020-01-01T00:00:00Z

    struct Data {
        let anchor: Certificate
        let intermediates: [Certificate]
        let crls: [CRL]
        let endEntities: [String: Certificate]
    }

    static func load() throws -> Data {
        let certs = TestPaths.vectors("pkits/certs")
        let crlFolder = TestPaths.vectors("pkits/crls")
        var anchor: Certificate?
        var intermediates: [Certificate] = []
        var endEntities: [String: Certificate] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: certs.path).sorted() where file.hasSuffix(".crt") {
            // A certificate Sigil refuses to parse (a signature BIT STRING with unused bits, in the
            // §4.1 bad-signature tests) is simply not a candidate.
            guard let certificate = try? Certificate(derEncoded: Array(try Foundation.Data(contentsOf: certs.appendingPathComponent(file))))
            else {
                continue
            }
            let name = String(file.dropLast(4))
            if name == "TrustAnchorRootCertificate" {
                anchor = certificate
            } else if name.hasSuffix("EE") {
                endEntities[name] = certificate
            } else {
                intermediates.append(certificate)
            }
        }
        var crls: [CRL] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: crlFolder.path).sorted() where file.hasSuffix(".crl") {
            crls.append(try CRL(derEncoded: Array(try Foundation.Data(contentsOf: crlFolder.appendingPathComponent(file)))))
        }
        guard let anchor else {
            throw TestPaths.MissingVectors(
                message: "\(certs.path)/TrustAnchorRootCertificate.crt is missing: the committed PKITS vectors are incomplete")
        }
        return Data(anchor: anchor, intermediates: intermediates, crls: crls, endEntities: endEntities)
    }

    /// The decision for one PKITS test: whether the path validates, and the failures if not.
    /// Composed as a library user would: RFC 5280 path processing plus CRL revocation, no glue
    /// (the verifier itself honours the critical extensions the CRL policy declares it handles).
    static func decide(_ name: String, _ data: Data) -> CertificateVerifier.Result? {
        guard let leaf = data.endEntities[name + "EE"] else { return nil }
        let crlPolicy = CRLRevocationPolicy(
            crls: data.crls, candidateCertificates: data.intermediates + [data.anchor],
            options: .init(minimumRSABits: 1024),
            signerPolicies: [RFC5280Policy(relaxations: [.nonCriticalPolicyConstraints])])
        let verifier = CertificateVerifier(
            trustedRoots: [data.anchor],
            policies: [RFC5280Policy(relaxations: [.nonCriticalPolicyConstraints]), crlPolicy],
            minimumRSABits: 1024)
        return verifier.verify(leaf: leaf, intermediates: data.intermediates, at: validationTime)
    }

    /// PKITS §4.4, §4.5, §4.14, §4.15: each section's tests by number and name.
    static let sections: [(String, [String])] = [
        (
            "4.4",
            [
                "InvalidMissingCRLTest1", "InvalidRevokedCATest2", "InvalidRevokedEETest3", "InvalidBadCRLSignatureTest4",
                "InvalidBadCRLIssuerNameTest5", "InvalidWrongCRLTest6", "ValidTwoCRLsTest7", "InvalidUnknownCRLEntryExtensionTest8",
                "InvalidUnknownCRLExtensionTest9", "InvalidUnknownCRLExtensionTest10", "InvalidOldCRLnextUpdateTest11",
                "Invalidpre2000CRLnextUpdateTest12", "ValidGeneralizedTimeCRLnextUpdateTest13", "ValidNegativeSerialNumberTest14",
                "InvalidNegativeSerialNumberTest15", "ValidLongSerialNumberTest16", "ValidLongSerialNumberTest17",
                "InvalidLongSerialNumberTest18", "ValidSeparateCertificateandCRLKeysTest19",
                "InvalidSeparateCertificateandCRLKeysTest20", "InvalidSeparateCertificateandCRLKeysTest21",
            ]
        ),
        (
            "4.5",
            [
                "ValidBasicSelfIssuedOldWithNewTest1", "InvalidBasicSelfIssuedOldWithNewTest2", "ValidBasicSelfIssuedNewWithOldTest3",
                "ValidBasicSelfIssuedNewWithOldTest4", "InvalidBasicSelfIssuedNewWithOldTest5", "ValidBasicSelfIssuedCRLSigningKeyTest6",
                "InvalidBasicSelfIssuedCRLSigningKeyTest7", "InvalidBasicSelfIssuedCRLSigningKeyTest8",
            ]
        ),
        (
            "4.14",
            [
                "ValiddistributionPointTest1", "InvaliddistributionPointTest2", "InvaliddistributionPointTest3",
                "ValiddistributionPointTest4", "ValiddistributionPointTest5", "InvaliddistributionPointTest6",
                "ValiddistributionPointTest7", "InvaliddistributionPointTest8", "InvaliddistributionPointTest9",
                "ValidNoissuingDistributionPointTest10", "InvalidonlyContainsUserCertsTest11", "InvalidonlyContainsCACertsTest12",
                "ValidonlyContainsCACertsTest13", "InvalidonlyContainsAttributeCertsTest14", "InvalidonlySomeReasonsTest15",
                "InvalidonlySomeReasonsTest16", "InvalidonlySomeReasonsTest17", "ValidonlySomeReasonsTest18",
                "ValidonlySomeReasonsTest19", "InvalidonlySomeReasonsTest20", "InvalidonlySomeReasonsTest21",
                "ValidIDPwithindirectCRLTest22", "InvalidIDPwithindirectCRLTest23", "ValidIDPwithindirectCRLTest24",
                "ValidIDPwithindirectCRLTest25", "InvalidIDPwithindirectCRLTest26", "InvalidcRLIssuerTest27", "ValidcRLIssuerTest28",
                "ValidcRLIssuerTest29", "ValidcRLIssuerTest30", "InvalidcRLIssuerTest31", "InvalidcRLIssuerTest32",
                "ValidcRLIssuerTest33", "InvalidcRLIssuerTest34", "InvalidcRLIssuerTest35",
            ]
        ),
        (
            "4.15",
            [
                "InvaliddeltaCRLIndicatorNoBaseTest1", "ValiddeltaCRLTest2", "InvaliddeltaCRLTest3", "InvaliddeltaCRLTest4",
                "ValiddeltaCRLTest5", "InvaliddeltaCRLTest6", "ValiddeltaCRLTest7", "ValiddeltaCRLTest8", "InvaliddeltaCRLTest9",
                "InvaliddeltaCRLTest10",
            ]
        ),
    ]

    func testEveryCRLSectionTestIsDecidedAsPKITSSays() throws {
        let data = try PKITSCRLTests.load()
        XCTAssertEqual(PKITSCRLTests.sections.map(\.1.count), [21, 8, 35, 10])
        var wrong: [String] = []
        for (section, tests) in PKITSCRLTests.sections {
            for (number, name) in tests.enumerated() {
                guard let result = PKITSCRLTests.decide(name, data) else {
                    wrong.append("\(section).\(number + 1) \(name): end-entity certificate missing")
                    continue
                }
                let expectValid = name.hasPrefix("Valid")
                switch result {
                case .valid where !expectValid:
                    wrong.append("\(section).\(number + 1) \(name): validated, PKITS says invalid")
                case .invalid(let failures) where expectValid:
                    wrong.append("\(section).\(number + 1) \(name): refused, PKITS says valid: \(failures.map(\.description))")
                default: break
                }
            }
        }
        XCTAssertEqual(wrong, [], wrong.joined(separator: "\n"))
    }

    /// The invalid tests about revocation fail for a revocation reason, not by accident.
    func testRevokedPathsFailAsRevoked() throws {
        let data = try PKITSCRLTests.load()
        for name in [
            "InvalidRevokedCATest2", "InvalidRevokedEETest3", "InvaliddeltaCRLTest3", "InvalidLongSerialNumberTest18",
            "InvalidNegativeSerialNumberTest15", "InvalidBasicSelfIssuedCRLSigningKeyTest7",
        ] {
            let failures = PKITSCRLTests.decide(name, data)?.failures ?? []
            XCTAssertTrue(failures.contains { if case .revoked = $0 { true } else { false } }, "\(name): \(failures)")
        }
        for name in [
            "InvalidMissingCRLTest1", "InvalidBadCRLSignatureTest4", "InvalidUnknownCRLExtensionTest9", "InvalidOldCRLnextUpdateTest11",
        ] {
            let failures = PKITSCRLTests.decide(name, data)?.failures ?? []
            XCTAssertTrue(failures.contains { if case .revocationCheckFailed = $0 { true } else { false } }, "\(name): \(failures)")
        }
    }
}
