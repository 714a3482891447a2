import Foundation
import SigilASN1
import SigilCore
import SigilTestPKI
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Name-constraint matching rules, the policy graph on hand-built chains (including the input
/// that makes RFC 5280's valid_policy_tree exponential), and hostile chains that must end at the
/// work bounds with a typed failure, asserted by the number of steps taken.
final class PathProcessingTests: XCTestCase {
    private static let now: Int64 = 1_790_000_000
    private static let key = ECDSAPrivateKey.generate(curve: .p256)

    private static func oid(_ arcs: UInt64...) -> ASN1ObjectIdentifier { (try? ASN1ObjectIdentifier(arcs: arcs)) ?? X509OIDs.anyPolicy }

    private static func certificatePolicies(_ oids: [ASN1ObjectIdentifier]) -> CertificateBuilder.ExtensionValue {
        var writer = DERWriter()
        writer.appendSequence { seq in for oid in oids { seq.appendSequence { $0.append(oid) } } }
        return .init(oid: X509OIDs.certificatePolicies, critical: false, value: writer.bytes)
    }

    private static func policyMappings(_ pairs: [(ASN1ObjectIdentifier, ASN1ObjectIdentifier)]) -> CertificateBuilder.ExtensionValue {
        var writer = DERWriter()
        writer.appendSequence { seq in
            for (from, to) in pairs {
                seq.appendSequence {
                    $0.append(from)
                    $0.append(to)
                }
            }
        }
        return .init(oid: X509OIDs.policyMappings, critical: true, value: writer.bytes)
    }

    private static func dnsNameConstraints(permitted: [String], excluded: [String] = []) -> CertificateBuilder.ExtensionValue {
        var writer = DERWriter()
        writer.appendSequence { seq in
            for (tag, names) in [(UInt32(0), permitted), (1, excluded)] where !names.isEmpty {
                seq.appendConstructed(.contextSpecific(tag)) { trees in
                    for name in names { trees.appendSequence { $0.appendPrimitive(.contextSpecific(2), content: Array(name.utf8)) } }
                }
            }
        }
        return .init(oid: X509OIDs.nameConstraints, critical: true, value: writer.bytes)
    }

    private static func dnsNames(_ names: [String]) -> CertificateBuilder.ExtensionValue {
        var writer = DERWriter()
        writer.appendSequence { seq in for name in names { seq.appendPrimitive(.contextSpecific(2), content: Array(name.utf8)) } }
        return .init(oid: X509OIDs.subjectAltName, critical: false, value: writer.bytes)
    }

    /// root → CA 1 → … → CA k → leaf, all with one key; `cas[i]` are CA i+1's extra extensions.
    /// Returned leaf first, root last, as the verifier hands chains to policies.
    private static func chain(cas: [[CertificateBuilder.ExtensionValue]], leaf: [CertificateBuilder.ExtensionValue]) throws -> [Certificate]
    {
        let spki = key.publicKey.spkiDER
        func name(_ text: String) -> [UInt8] { CertificateBuilder.name([(AttributeTypeAndValue.commonName, text)]) }
        // One key throughout: the same key identifiers in every certificate (§4.2.1.1–2).
        let id = CertificateBuilder.keyIdentifier(key.publicKey)
        let caBase: [CertificateBuilder.ExtensionValue] = [
            .basicConstraints(ca: true), .keyUsage([5, 6]), .subjectKeyIdentifier(id), .authorityKeyIdentifier(id),
        ]
        var issued = [
            try CertificateBuilder(
                serialNumber: [1], issuer: name("Root"), subject: name("Root"), notBefore: now - 1000,
                notAfter: now + 100_000, subjectPublicKeyInfo: spki, extensions: caBase
            ).sign(with: key)
        ]
        var issuer = "Root"
        for (index, extensions) in cas.enumerated() {
            let subject = "CA \(index + 1)"
            issued.append(
                try CertificateBuilder(
                    serialNumber: [UInt8(index + 2)], issuer: name(issuer), subject: name(subject), notBefore: now - 1000,
                    notAfter: now + 100_000, subjectPublicKeyInfo: spki, extensions: caBase + extensions
                ).sign(with: key))
            issuer = subject
        }
        issued.append(
            try CertificateBuilder(
                serialNumber: [0x7F], issuer: name(issuer), subject: name("Leaf"), notBefore: now - 1000,
                notAfter: now + 100_000, subjectPublicKeyInfo: spki,
                extensions: [.basicConstraints(ca: false), .keyUsage([0]), .authorityKeyIdentifier(id)] + leaf
            ).sign(with: key))
        return issued.reversed()
    }

    func testNameMatchingRules() {
        typealias Check = NameConstraintsCheck
        XCTAssertTrue(Check.dnsName("host.Example.COM", isWithin: "example.com"))
        XCTAssertTrue(Check.dnsName("example.com", isWithin: "example.com"))
        XCTAssertFalse(Check.dnsName("myexample.com", isWithin: "example.com"), "label boundary (PKITS 4.13.38)")
        XCTAssertFalse(Check.dnsName("example.com", isWithin: ".example.com"))
        XCTAssertTrue(Check.dnsName("a.example.com", isWithin: ".example.com"))
        XCTAssertTrue(Check.dnsName("anything.org", isWithin: ""))
        XCTAssertTrue(Check.mailbox("user@Example.com", isWithin: "example.com"))
        XCTAssertFalse(Check.mailbox("user@a.example.com", isWithin: "example.com"))
        XCTAssertTrue(Check.mailbox("user@a.example.com", isWithin: ".example.com"))
        XCTAssertTrue(Check.mailbox("user@EXAMPLE.com", isWithin: "user@example.com"))
        XCTAssertFalse(Check.mailbox("User@example.com", isWithin: "user@example.com"), "local part is case-sensitive")
        XCTAssertFalse(Check.mailbox("no-at-sign", isWithin: "example.com"))
        XCTAssertEqual(Check.uriHost("https://user:pw@Host.Example.com:8443/a?b#c"), "host.example.com")
        XCTAssertEqual(Check.uriHost("http://[2001:db8::1]:80/"), "[2001:db8::1]")
        XCTAssertNil(Check.uriHost("urn:isbn:123"))
        XCTAssertNil(Check.uriHost("http:///path"))
        XCTAssertTrue(Check.host("a.example.com", isWithin: ".example.com"))
        XCTAssertFalse(Check.host("a.example.com", isWithin: "example.com"))
        let v4Subtree = GeneralName.ipAddress([10, 1, 0, 0, 255, 255, 0, 0])
        XCTAssertTrue(Check.name(.ipAddress([10, 1, 200, 3]), isWithin: v4Subtree))
        XCTAssertFalse(Check.name(.ipAddress([10, 2, 0, 3]), isWithin: v4Subtree))
        XCTAssertFalse(Check.name(.ipAddress([UInt8](repeating: 0, count: 16)), isWithin: v4Subtree), "IPv6 name, IPv4 subtree")
        XCTAssertTrue(Check.wellFormed(v4Subtree))
        XCTAssertFalse(Check.wellFormed(.ipAddress([10, 1, 0, 0, 255, 0, 255, 0])), "non-contiguous mask")
        XCTAssertFalse(Check.wellFormed(.ipAddress([10, 1, 0, 0])), "no mask")
    }

    /// The input behind RFC 9618 §1: every CA asserts k policies and maps each to all k, so the
    /// valid_policy_tree has k^depth leaves; the graph holds k nodes per level.
    func testPolicyGraphStaysPolynomialWhereTheTreeExplodes() throws {
        let k = 12
        let depth = 5
        let policies = (1...k).map { PathProcessingTests.oid(1, 2, 3, UInt64($0)) }
        let everyToEvery = policies.flatMap { from in policies.map { (from, $0) } }
        let ca = [PathProcessingTests.certificatePolicies(policies), PathProcessingTests.policyMappings(everyToEvery)]
        let chain = try PathProcessingTests.chain(
            cas: Array(repeating: ca, count: depth), leaf: [PathProcessingTests.certificatePolicies(policies)])
        let path = Array(chain.dropLast().reversed())
        let outcome = PolicyGraph.process(path, settings: PolicySettings(requireExplicitPolicy: true), limit: 1_000_000)
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(outcome.validPolicies?.userConstrained, Set(policies))
        // Per level: k nodes, k² edges, k² expected-policy entries (mapping) and k² read back.
        let perLevel = k + 3 * k * k + k
        XCTAssertLessThanOrEqual(
            outcome.steps, (depth + 1) * perLevel, "tree size would be \(k)^\(depth + 1) = \(Int(pow(Double(k), Double(depth + 1))))")
        // The default bound is far above that, so the same chain also validates end to end.
        let validation = CertificateVerifier(
            trustedRoots: [chain.last!], policies: [RFC5280Policy(policySettings: PolicySettings(requireExplicitPolicy: true))]
        )
        .validate(leaf: chain[0], intermediates: Array(chain.dropFirst()), at: PathProcessingTests.now)
        XCTAssertNotNil(validation.chain, "\(validation.failures)")
        XCTAssertEqual(validation.validPolicies?.userConstrained, Set(policies))
    }

    /// Mappings fanned out to thousands of policies: a typed failure at the bound, never more work.
    func testPolicyMappingFanOutEndsAtTheBound() throws {
        let fan = 3_000
        let p1 = PathProcessingTests.oid(1, 2, 3, 1)
        let targets = (1...fan).map { PathProcessingTests.oid(1, 2, 4, UInt64($0)) }
        let ca1 = [PathProcessingTests.certificatePolicies([p1]), PathProcessingTests.policyMappings(targets.map { (p1, $0) })]
        let anyCA = [PathProcessingTests.certificatePolicies([X509OIDs.anyPolicy])]
        let chain = try PathProcessingTests.chain(
            cas: [ca1, anyCA, anyCA], leaf: [PathProcessingTests.certificatePolicies([X509OIDs.anyPolicy])])
        let policy = RFC5280Policy()
        XCTAssertEqual(policy.maximumPolicyGraphSize, 10_000)
        let outcome = PolicyGraph.process(
            Array(chain.dropLast().reversed()), settings: PolicySettings(), limit: policy.maximumPolicyGraphSize)
        XCTAssertEqual(outcome.failures, [.policyGraphLimitExceeded(limit: 10_000)])
        XCTAssertLessThanOrEqual(outcome.steps, 10_000, "never past the bound")
        XCTAssertGreaterThan(outcome.steps, 3_000, "it did get there by work")
        // Through the verifier: refused with the typed failure naming its bound.
        let result = CertificateVerifier(trustedRoots: [chain.last!]).verify(
            leaf: chain[0], intermediates: Array(chain.dropFirst()), at: PathProcessingTests.now)
        XCTAssertNil(result.chain)
        XCTAssertTrue(result.failures.contains(.policyGraphLimitExceeded(limit: 10_000)), "\(result.failures)")
        // With a larger bound the same chain is valid for the fanned-out policies.
        let roomy = PolicyGraph.process(Array(chain.dropLast().reversed()), settings: PolicySettings(), limit: 100_000)
        XCTAssertEqual(roomy.failures, [])
        XCTAssertEqual(roomy.validPolicies?.authoritiesConstrained, [p1])
    }

    /// Thousands of name constraints against many names: a typed failure once the comparisons
    /// reach the bound, counted exactly.
    func testThousandsOfNameConstraintsEndAtTheBound() throws {
        let subtrees = (0..<4_000).map { "s\($0).example.com" }
        let sans = (0..<60).map { "host\($0).s\($0 * 50).example.com" }
        let chain = try PathProcessingTests.chain(
            cas: [[PathProcessingTests.dnsNameConstraints(permitted: subtrees, excluded: ["bad.example.com"])]],
            leaf: [PathProcessingTests.dnsNames(sans)])
        let path = Array(chain.dropLast().reversed())
        var check = NameConstraintsCheck(limit: 100_000)
        if case .nameConstraints(let constraints)? = path[0].extension(X509OIDs.nameConstraints)?.value {
            check.add(constraints, critical: true)
        } else {
            XCTFail("nameConstraints did not parse")
        }
        // 60 names × 4,000 permitted subtrees = 240,000 comparisons wanted; 100,000 allowed.
        XCTAssertEqual(check.check(path[1], position: 0), [.nameConstraintWorkExceeded(limit: 100_000)])
        XCTAssertEqual(check.steps, 100_000)
        let result = CertificateVerifier(trustedRoots: [chain.last!]).verify(
            leaf: chain[0], intermediates: Array(chain.dropFirst()), at: PathProcessingTests.now)
        XCTAssertNil(result.chain)
        XCTAssertTrue(result.failures.contains(.nameConstraintWorkExceeded(limit: 100_000)), "\(result.failures)")
        // Under a larger bound every name is found in its subtree and the path is valid.
        let roomy = RFC5280Policy(maximumNameConstraintComparisons: 1_000_000)
        XCTAssertEqual(roomy.evaluate(chain, at: PathProcessingTests.now).failures, [])
        // One name outside every subtree is refused under the same bound.
        let outside = try PathProcessingTests.chain(
            cas: [[PathProcessingTests.dnsNameConstraints(permitted: subtrees)]],
            leaf: [PathProcessingTests.dnsNames(["elsewhere.org"])])
        XCTAssertEqual(
            RFC5280Policy().evaluate(outside, at: PathProcessingTests.now).failures,
            [.nameNotPermitted(certificate: PathCertificate(position: 0, subject: "CN=Leaf"), name: "DNS:elsewhere.org")])
    }

    /// Forms Sigil cannot check: refused only when a critical constraint of that form meets a
    /// name of that form (RFC 5280 §4.2.1.10).
    func testUncheckableFormsAreRefused() throws {
        var writer = DERWriter()
        writer.appendSequence { seq in
            seq.appendConstructed(.contextSpecific(0)) { trees in
                trees.appendSequence { $0.appendPrimitive(.contextSpecific(8), content: [0x2A, 0x03]) }  // registeredID 1.2.3
            }
        }
        let registeredIDConstraint = CertificateBuilder.ExtensionValue(oid: X509OIDs.nameConstraints, critical: true, value: writer.bytes)
        var san = DERWriter()
        san.appendSequence { $0.appendPrimitive(.contextSpecific(8), content: [0x2A, 0x03, 0x04]) }
        let withRID = try PathProcessingTests.chain(
            cas: [[registeredIDConstraint]],
            leaf: [.init(oid: X509OIDs.subjectAltName, critical: false, value: san.bytes)])
        XCTAssertEqual(
            RFC5280Policy().evaluate(withRID, at: PathProcessingTests.now).failures,
            [.unsupportedNameConstraint(certificate: PathCertificate(position: 0, subject: "CN=Leaf"), form: "registeredID")])
        let withoutRID = try PathProcessingTests.chain(cas: [[registeredIDConstraint]], leaf: [PathProcessingTests.dnsNames(["a.example"])])
        XCTAssertEqual(RFC5280Policy().evaluate(withoutRID, at: PathProcessingTests.now).failures, [])
    }

    /// A subjectAltName iPAddress with a mask (8 octets) is no address: under any iPAddress
    /// constraint it is refused, even when the only constraint excludes an unrelated range.
    func testMaskedAddressNameIsNeverCleared() throws {
        var constraint = DERWriter()
        constraint.appendSequence { seq in
            seq.appendConstructed(.contextSpecific(1)) { trees in
                trees.appendSequence { $0.appendPrimitive(.contextSpecific(7), content: [192, 168, 0, 0, 255, 255, 0, 0]) }
            }
        }
        let excludedRange = CertificateBuilder.ExtensionValue(oid: X509OIDs.nameConstraints, critical: true, value: constraint.bytes)
        func san(_ octets: [UInt8]) -> CertificateBuilder.ExtensionValue {
            var writer = DERWriter()
            writer.appendSequence { $0.appendPrimitive(.contextSpecific(7), content: octets) }
            return .init(oid: X509OIDs.subjectAltName, critical: false, value: writer.bytes)
        }
        let masked = try PathProcessingTests.chain(cas: [[excludedRange]], leaf: [san([10, 0, 0, 1, 255, 0, 0, 0])])
        XCTAssertEqual(
            RFC5280Policy().evaluate(masked, at: PathProcessingTests.now).failures,
            [.nameNotPermitted(certificate: PathCertificate(position: 0, subject: "CN=Leaf"), name: "IP:0a000001ff000000")])
        let plain = try PathProcessingTests.chain(cas: [[excludedRange]], leaf: [san([10, 0, 0, 1])])
        XCTAssertEqual(RFC5280Policy().evaluate(plain, at: PathProcessingTests.now).failures, [])
        let inside = try PathProcessingTests.chain(cas: [[excludedRange]], leaf: [san([192, 168, 3, 4])])
        XCTAssertEqual(
            RFC5280Policy().evaluate(inside, at: PathProcessingTests.now).failures,
            [.nameExcluded(certificate: PathCertificate(position: 0, subject: "CN=Leaf"), name: "IP:192.168.3.4")])
    }

    /// Policy outputs PKITS states: mapped policies are reported in the trust anchor's domain.
    func testValidPolicySetOfPKITSPaths() throws {
        func load(_ name: String) throws -> Certificate {
            try Certificate(derEncoded: Array(try Data(contentsOf: TestPaths.vectors("pkits/certs/\(name).crt"))))
        }
        let root = try load("TrustAnchorRootCertificate")
        let p1: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 1]
        let p2: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 2, 1, 48, 2]
        func policies(_ path: [String], _ leaf: String, _ settings: PolicySettings) throws -> ValidPolicySet? {
            let intermediates = try path.map(load)
            // PKITS CA certificates carry a non-critical policyConstraints: the named relaxation.
            let policy = RFC5280Policy(policySettings: settings, relaxations: [.nonCriticalPolicyConstraints])
            return CertificateVerifier(trustedRoots: [root], policies: [policy], minimumRSABits: 1024)
                .validate(leaf: try load(leaf), intermediates: intermediates, at: PKITSTests.validationTime).validPolicies
        }
        // 4.10.1: Mapping1to2CA maps NIST-test-policy-1 to -2; the end entity asserts -2.
        XCTAssertEqual(
            try policies(["Mapping1to2CACert"], "ValidPolicyMappingTest1EE", PolicySettings(initialPolicySet: [p1]))?.userConstrained, [p1])
        // 4.8.10: both policies all the way down.
        XCTAssertEqual(
            try policies(["PoliciesP12CACert"], "AllCertificatesSamePoliciesTest10EE", PolicySettings())?.userConstrained, [p1, p2])
        XCTAssertEqual(
            try policies(["PoliciesP12CACert"], "AllCertificatesSamePoliciesTest10EE", PolicySettings(initialPolicySet: [p2]))?
                .userConstrained, [p2])
        // 4.8.11: anyPolicy throughout — good for any policy.
        XCTAssertEqual(
            try policies(["anyPolicyCACert"], "AllCertificatesanyPolicyTest11EE", PolicySettings())?.authoritiesConstrained,
            [X509OIDs.anyPolicy])
        XCTAssertEqual(
            try policies(["anyPolicyCACert"], "AllCertificatesanyPolicyTest11EE", PolicySettings(initialPolicySet: [p1]))?.userConstrained,
            [p1])
        // 4.8.2: no policies — valid, with an empty set.
        XCTAssertEqual(try policies(["NoPoliciesCACert"], "AllCertificatesNoPoliciesTest2EE", PolicySettings())?.userConstrained, [])
    }

    /// The new extension parsers on every PKITS value of their kind: each parses, every truncated
    /// prefix and a trailing byte are refused, and 2,000 seeded byte mutations end in a value or
    /// a typed error.
    func testPolicyExtensionParsersAreStrict() throws {
        let directory = TestPaths.vectors("pkits/certs")
        let kinds: Set<ASN1ObjectIdentifier> = [X509OIDs.policyMappings, X509OIDs.policyConstraints, X509OIDs.inhibitAnyPolicy]
        var values: [(ASN1ObjectIdentifier, [UInt8])] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            guard let certificate = try? Certificate(derEncoded: Array(try Data(contentsOf: directory.appendingPathComponent(file)))) else {
                continue
            }
            for e in certificate.extensions where kinds.contains(e.oid) && !values.contains(where: { $0.1 == e.rawValue }) {
                values.append((e.oid, e.rawValue))
            }
        }
        XCTAssertGreaterThan(values.count, 20)
        var rng = SeededGenerator(seed: 0x5167_0054)
        for (oid, der) in values {
            XCTAssertNoThrow(try ExtensionValue(oid: oid, der: der), oid.dotted)
            for length in 0..<der.count {
                XCTAssertThrowsError(try ExtensionValue(oid: oid, der: Array(der.prefix(length))), "\(oid.dotted) prefix \(length)")
            }
            XCTAssertThrowsError(try ExtensionValue(oid: oid, der: der + [0]), "\(oid.dotted) trailing byte")
            for _ in 0..<(2_000 / values.count + 1) {
                var mutant = der
                mutant[Int(rng.next() % UInt64(mutant.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
                _ = try? ExtensionValue(oid: oid, der: mutant)
            }
        }
        XCTAssertThrowsError(try ExtensionValue(oid: X509OIDs.policyConstraints, der: [0x30, 0x00]), "empty PolicyConstraints")
        XCTAssertThrowsError(try ExtensionValue(oid: X509OIDs.policyMappings, der: [0x30, 0x00]), "empty PolicyMappings")
        XCTAssertThrowsError(try ExtensionValue(oid: X509OIDs.inhibitAnyPolicy, der: [0x02, 0x01, 0xFF]), "negative SkipCerts")
    }
}
