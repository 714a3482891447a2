import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilCRL
@testable import SigilX509

/// NIST PKITS (Vectors/pkits): every test of sections 4.1–4.16 in `pkitsCases`, each path
/// validated by ``CertificateVerifier`` with ``RFC5280Policy`` under the test's initial settings,
/// trusting only TrustAnchorRootCertificate, and decided as PKITS specifies. A valid path must be
/// found exactly as PKITS lists it; an invalid one must fail for the rule its section tests.
final class PKITSTests: XCTestCase {
    /// The revocation policies added to the revocation-dependent tests, given every PKITS CRL (DER)
    /// and every PKITS certificate (the pool CRL issuers' certificates come from: §4.4.19–4.4.21,
    /// §4.5 and the indirect CRLs of §4.14 are signed by keys outside the path).
    static func makeRevocationPolicy(_ crls: [[UInt8]], _ certificates: [Certificate]) throws -> [any CertificatePolicy] {
        [
            CRLRevocationPolicy(
                crls: try crls.map { try CRL(derEncoded: $0) }, candidateCertificates: certificates,
                options: .init(minimumRSABits: 1024), signerPolicies: [RFC5280Policy()])
        ]
    }

    /// NIST-test-policy-1, which PKITS certificates assert unless a test says otherwise.
    static let policy1: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 1]

    /// Inside every PKITS certificate's validity (2010–2030) but after the expired ones of §4.2.
    static let validationTime: Int64 = 1_577_836_800  // 2020-01-01T00:00:00Z

    private static func load(_ name: String) throws -> Certificate {
        let url = TestPaths.vectors("pkits/certs/\(name).crt")
        return try Certificate(derEncoded: Array(try Data(contentsOf: url)))
    }

    private static func crls() throws -> [[UInt8]] {
        let directory = TestPaths.vectors("pkits/crls")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { $0.hasSuffix(".crl") }
            .map { Array(try Data(contentsOf: directory.appendingPathComponent($0))) }
    }

    /// The rules an invalid path of each section is about (anything else would be a refusal for
    /// the wrong reason).
    private static func expectedRule(_ section: String, _ failure: ValidationFailure) -> Bool {
        switch (section, failure) {
        case ("4.1", .invalidSignature), ("4.1", .noPathToTrustedRoot): true
        case ("4.2", .expired), ("4.2", .notYetValid): true
        case ("4.3", .noPathToTrustedRoot), ("4.3", .invalidSignature): true
        case ("4.6", .notACA), ("4.6", .pathLengthExceeded): true
        case ("4.5", .notACA), ("4.5", .missingKeyCertSign): true  // 4.5.8: a CRL-signing certificate used as a CA
        case ("4.7", .missingKeyCertSign): true
        case ("4.8", .noValidPolicy), ("4.9", .noValidPolicy), ("4.10", .noValidPolicy), ("4.11", .noValidPolicy),
            ("4.12", .noValidPolicy), ("4.10", .policyMappingOfAnyPolicy):
            true
        case ("4.13", .nameNotPermitted), ("4.13", .nameExcluded): true
        case ("4.16", .unhandledCriticalExtension): true
        case (_, .revoked), (_, .revocationStatusUnknown), (_, .revocationCheckFailed): true
        default: false
        }
    }

    private func run(_ testCase: PKITSCase, extraPolicies: [any CertificatePolicy]) throws {
        let root = try PKITSTests.load("TrustAnchorRootCertificate")
        var intermediates: [Certificate] = []
        for name in testCase.path {
            do {
                intermediates.append(try PKITSTests.load(name))
            } catch {
                // 4.1.2's BadSignedCACert: its signature BIT STRING declares unused bits, which no
                // DER signature has; the parser refuses it, and so the path.
                XCTAssertEqual(testCase.id, "4.1.2", "\(name) does not parse: \(error)")
                return
            }
        }
        let leaf = try PKITSTests.load(testCase.leaf)
        let policy = RFC5280Policy(policySettings: testCase.settings, relaxations: [.nonCriticalPolicyConstraints])
        let verifier = CertificateVerifier(trustedRoots: [root], policies: [policy] + extraPolicies, minimumRSABits: 1024)
        let validation = verifier.validate(leaf: leaf, intermediates: intermediates, at: PKITSTests.validationTime)
        switch testCase.outcome {
        case .valid:
            XCTAssertEqual(
                validation.chain, [leaf] + intermediates.reversed() + [root], "\(testCase.id) \(testCase.leaf): \(validation.failures)")
            XCTAssertNotNil(validation.validPolicies, "\(testCase.id): a valid path reports its policy set")
            let policySections: Set<String> = ["4.8", "4.9", "4.10", "4.11", "4.12"]
            if let expected = testCase.policies ?? (policySections.contains(testCase.section) ? nil : [PKITSTests.policy1]) {
                XCTAssertEqual(validation.validPolicies?.userConstrained, expected, "\(testCase.id): user-constrained-policy-set")
            }
        case .invalid:
            XCTAssertNil(validation.chain, "\(testCase.id) \(testCase.leaf) must be refused")
            XCTAssertTrue(
                validation.failures.contains { PKITSTests.expectedRule(testCase.section, $0) },
                "\(testCase.id) \(testCase.leaf) refused for another reason: \(validation.failures)")
        }
    }

    /// Every test whose outcome does not depend on revocation.
    func testPathValidation() throws {
        let cases = pkitsCases.filter { !$0.revocation }
        XCTAssertEqual(cases.count, 168)
        for testCase in cases { try run(testCase, extraPolicies: []) }
    }

    /// The tests whose outcome depends on CRLs (§4.4, §4.5, §4.14, §4.15, §4.7.4–§4.7.5), with
    /// the revocation policy the hook builds.
    func testRevocationDependent() throws {
        let cases = pkitsCases.filter(\.revocation)
        XCTAssertEqual(cases.count, 76)
        // Revocation only adds failures: the valid ones build and pass without it too.
        for testCase in cases where testCase.outcome == .valid { try run(testCase, extraPolicies: []) }
        let directory = TestPaths.vectors("pkits/certs")
        let pool = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .compactMap { try? Certificate(derEncoded: Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
        let revocation = try PKITSTests.makeRevocationPolicy(try PKITSTests.crls(), pool)
        for testCase in cases { try run(testCase, extraPolicies: revocation) }
    }

    /// Every certificate and CRL file of the suite is named by some test (nothing silently left out
    /// but the DSA certificates) and every test's files exist.
    func testTableCoversTheSuite() throws {
        let directory = TestPaths.vectors("pkits/certs")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).map { String($0.dropLast(4)) })
        let leaves = Set(pkitsCases.map(\.leaf))
        let endEntities = files.filter { $0.hasSuffix("EE") && !$0.contains("DSA") }
        XCTAssertEqual(endEntities.subtracting(leaves), [], "end entities no test uses")
        for testCase in pkitsCases {
            XCTAssertTrue(files.contains(testCase.leaf), testCase.id)
            for name in testCase.path { XCTAssertTrue(files.contains(name), "\(testCase.id): \(name)") }
        }
        // Section sizes of PKITS §4.1–§4.16 (runs counted separately; 4.1 without its three DSA tests).
        let sections = Dictionary(grouping: pkitsCases, by: \.section).mapValues {
            Set($0.map { $0.id.split(separator: ".").prefix(3).joined(separator: ".") }).count
        }
        XCTAssertEqual(
            sections,
            [
                "4.1": 3, "4.2": 8, "4.3": 11, "4.4": 21, "4.5": 8, "4.6": 17, "4.7": 5, "4.8": 20, "4.9": 8,
                "4.10": 14, "4.11": 11, "4.12": 10, "4.13": 38, "4.14": 35, "4.15": 10, "4.16": 2,
            ])
    }
}
