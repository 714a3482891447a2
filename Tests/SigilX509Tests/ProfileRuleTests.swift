import Foundation
import SigilASN1
import SigilCRL
import SigilCore
import SigilTestPKI
import SigilTestSupport
import XCTest

@testable import SigilX509

/// The RFC 5280 certificate profile and the trust anchor's name constraints, enforced by
/// ``RFC5280Policy``: one openssl-made chain per rule, refused with its typed failure and clause;
/// a named relaxation accepts what it names and nothing else.
final class ProfileRuleTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        rootKey = try key("root")
        interKey = try key("inter")
        leafKey = try key("leaf")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private var rootKey = ""
    private var interKey = ""
    private var leafKey = ""
    private var now: Int64 { Int64(Date().timeIntervalSince1970) }
    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String]) throws {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
    }

    private func key(_ name: String) throws -> String {
        let file = path("\(name).key")
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file])
        return file
    }

    /// A certificate named `name` for `subject`, signed by the certificate `issuer` (nil: self-signed).
    private func certificate(_ name: String, subject: String, key: String, issuer: (String, String)?, _ extensions: [String]) throws
        -> Certificate
    {
        let config = path("\(name).cnf")
        try Data(("[ext]\n" + extensions.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: config))
        let out = path("\(name).pem")
        if let (issuerName, issuerKey) = issuer {
            try openssl(["req", "-new", "-key", key, "-subj", subject, "-out", path("\(name).csr")])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuerName).pem"), "-CAkey", issuerKey,
                "-CAcreateserial", "-days", "30", "-extfile", config, "-extensions", "ext", "-out", out,
            ])
        } else {
            try openssl([
                "req", "-x509", "-new", "-key", key, "-subj", subject, "-days", "30", "-config", config, "-extensions", "ext", "-out", out,
            ])
        }
        return try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: out)))).first)
    }

    private let ca = [
        "basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign", "subjectKeyIdentifier=hash",
        "authorityKeyIdentifier=keyid",
    ]
    private let ee = [
        "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "subjectKeyIdentifier=hash",
        "authorityKeyIdentifier=keyid",
    ]

    /// root → leaf with the given extensions; the verifier's failures.
    private func failures(
        root rootExtensions: [String]? = nil, inter: [String]? = nil, leaf: [String], policy: RFC5280Policy = RFC5280Policy()
    )
        throws -> [ValidationFailure]
    {
        let root = try certificate("root", subject: "/CN=Profile Root", key: rootKey, issuer: nil, rootExtensions ?? ca)
        var intermediates: [Certificate] = []
        var signer = ("root", rootKey)
        if let inter {
            intermediates.append(try certificate("inter", subject: "/CN=Profile Intermediate", key: interKey, issuer: signer, inter))
            signer = ("inter", interKey)
        }
        let leafCertificate = try certificate("leaf", subject: "/CN=Profile Leaf", key: leafKey, issuer: signer, leaf)
        let result = CertificateVerifier(trustedRoots: [root], policies: [policy]).verify(
            leaf: leafCertificate, intermediates: intermediates, at: now)
        if result.chain != nil { return [] }
        return result.failures
    }

    private func assertRefused(
        _ failures: [ValidationFailure], _ violation: ProfileViolation, position: Int, clause: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let found = failures.first {
            if case .nonConformingCertificate(let certificate, violation) = $0 { certificate.position == position } else { false }
        }
        XCTAssertNotNil(found, "\(violation) at \(position): got \(failures)", file: file, line: line)
        XCTAssertEqual(found?.rule, clause, file: file, line: line)
    }

    func testWellFormedChainValidates() throws {
        XCTAssertEqual(try failures(inter: ca, leaf: ee + ["subjectAltName=DNS:www.example.com"]), [])
    }

    /// (a) The trust anchor's name constraints apply (RFC 5937); non-critical or malformed ones refuse the anchor.
    func testTrustAnchorNameConstraints() throws {
        let constrained = ca + ["nameConstraints=critical,permitted;DNS:example.com"]
        XCTAssertEqual(try failures(root: constrained, leaf: ee + ["subjectAltName=DNS:www.example.com"]), [])
        let outside = try failures(root: constrained, leaf: ee + ["subjectAltName=DNS:www.example.org"])
        XCTAssertTrue(
            outside.contains {
                if case .nameNotPermitted(let c, _) = $0 { c.position == 0 && $0.rule == "RFC 5280 §6.1.3 (b)" } else { false }
            }, "\(outside)")
        assertRefused(
            try failures(root: ca + ["nameConstraints=permitted;DNS:example.com"], leaf: ee + ["subjectAltName=DNS:www.example.com"]),
            .nameConstraintsNotCritical, position: 1, clause: "RFC 5280 §4.2.1.10")
        assertRefused(
            try failures(
                root: ca + ["nameConstraints=critical,permitted;DNS:*.example.com"], leaf: ee + ["subjectAltName=DNS:www.example.com"]),
            .nameConstraintsMalformed, position: 1, clause: "RFC 5280 §4.2.1.10")
    }

    /// (b) Key identifiers: AKI in every certificate but a self-issued anchor, never critical; SKI in every CA.
    func testKeyIdentifiers() throws {
        let noAKI = ["basicConstraints=critical,CA:FALSE", "subjectKeyIdentifier=hash", "authorityKeyIdentifier=none"]
        assertRefused(try failures(leaf: noAKI), .authorityKeyIdentifierMissing, position: 0, clause: "RFC 5280 §4.2.1.1")
        XCTAssertEqual(try failures(leaf: noAKI, policy: RFC5280Policy(relaxations: [.missingKeyIdentifiers])), [], "relaxed")
        let noSKI = [
            "basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign", "subjectKeyIdentifier=none",
            "authorityKeyIdentifier=keyid",
        ]
        // openssl cannot write the leaf's keyid under an issuer without one: the leaf has none either.
        let noKeyID = ["basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "subjectKeyIdentifier=hash"]
        assertRefused(try failures(inter: noSKI, leaf: noKeyID), .subjectKeyIdentifierMissing, position: 1, clause: "RFC 5280 §4.2.1.2")
        let criticalAKI = [
            "basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign", "subjectKeyIdentifier=hash",
            "authorityKeyIdentifier=critical,keyid:always",
        ]
        assertRefused(try failures(root: criticalAKI, leaf: ee), .authorityKeyIdentifierCritical, position: 1, clause: "RFC 5280 §4.2.1.1")
    }

    /// (c) A root with non-critical basicConstraints; a leaf with keyCertSign but not a CA.
    func testBasicConstraintsAndKeyUsageProfile() throws {
        let loose = [
            "basicConstraints=CA:TRUE", "keyUsage=critical,keyCertSign", "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid",
        ]
        assertRefused(try failures(root: loose, leaf: ee), .basicConstraintsNotCritical, position: 1, clause: "RFC 5280 §4.2.1.9")
        XCTAssertEqual(try failures(root: loose, leaf: ee, policy: RFC5280Policy(relaxations: [.nonCriticalBasicConstraints])), [])
        let signingLeaf = [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature,keyCertSign", "subjectKeyIdentifier=hash",
            "authorityKeyIdentifier=keyid",
        ]
        assertRefused(try failures(leaf: signingLeaf), .keyCertSignWithoutCA, position: 0, clause: "RFC 5280 §4.2.1.3")
    }

    /// (d) nameConstraints in an end-entity certificate.
    func testNameConstraintsInEndEntity() throws {
        assertRefused(
            try failures(leaf: ee + ["nameConstraints=critical,permitted;DNS:example.com"]), .nameConstraintsInEndEntity, position: 0,
            clause: "RFC 5280 §4.2.1.10")
    }

    /// (e) A malformed SAN is cleared by no subtree, even one whose suffix it carries.
    func testMalformedNamesUnderConstraints() throws {
        let constraining = ca + ["nameConstraints=critical,permitted;DNS:example.com,permitted;email:example.com"]
        for san in ["DNS:.example.com", "email:invalid@address@example.com"] {
            let found = try failures(inter: constraining, leaf: ee + ["subjectAltName=\(san)"])
            XCTAssertTrue(
                found.contains { if case .nameNotPermitted(let c, _) = $0 { c.position == 0 } else { false } }, "\(san): \(found)")
        }
    }

    /// (f) An underscore in a dNSName.
    func testDNSNameSyntax() throws {
        assertRefused(
            try failures(leaf: ee + ["subjectAltName=DNS:foo_bar.example.com"]), .dnsNameSyntax, position: 0, clause: "RFC 5280 §4.2.1.6")
        XCTAssertEqual(try failures(leaf: ee + ["subjectAltName=DNS:*.example.com"]), [], "a wildcard leftmost label is fine")
    }

    /// (h) A non-critical policyConstraints.
    func testPolicyConstraintsMustBeCritical() throws {
        let inter = ca + ["policyConstraints=requireExplicitPolicy:5", "certificatePolicies=2.5.29.32.0"]
        let leaf = ee + ["certificatePolicies=2.5.29.32.0"]
        assertRefused(try failures(inter: inter, leaf: leaf), .policyConstraintsNotCritical, position: 1, clause: "RFC 5280 §4.2.1.11")
        XCTAssertEqual(try failures(inter: inter, leaf: leaf, policy: RFC5280Policy(relaxations: [.nonCriticalPolicyConstraints])), [])
    }

    // MARK: - Rules openssl will not write: hand-built certificates and CRLs

    private static let handKey = ECDSAPrivateKey.generate(curve: .p256)

    /// root → (CA) → leaf, one key throughout, with key identifiers; the subjects and extra
    /// extensions given. Leaf first, root last.
    private func handBuilt(
        caSubject: [UInt8]? = nil, leafSubject: [UInt8], leaf extra: [CertificateBuilder.ExtensionValue] = []
    ) throws -> [Certificate] {
        let key = ProfileRuleTests.handKey
        let id = CertificateBuilder.keyIdentifier(key.publicKey)
        let rootName = CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Hand Root")])
        let caExtensions: [CertificateBuilder.ExtensionValue] = [
            .basicConstraints(ca: true), .keyUsage([5, 6]), .subjectKeyIdentifier(id), .authorityKeyIdentifier(id),
        ]
        var chain = [
            try CertificateBuilder(
                serialNumber: [1], issuer: rootName, subject: rootName, notBefore: now - 1000, notAfter: now + 100_000,
                subjectPublicKeyInfo: key.publicKey.spkiDER, extensions: caExtensions
            ).sign(with: key)
        ]
        var issuer = rootName
        if let caSubject {
            chain.append(
                try CertificateBuilder(
                    serialNumber: [2], issuer: issuer, subject: caSubject, notBefore: now - 1000, notAfter: now + 100_000,
                    subjectPublicKeyInfo: key.publicKey.spkiDER, extensions: caExtensions
                ).sign(with: key))
            issuer = caSubject
        }
        chain.append(
            try CertificateBuilder(
                serialNumber: [3], issuer: issuer, subject: leafSubject, notBefore: now - 1000, notAfter: now + 100_000,
                subjectPublicKeyInfo: key.publicKey.spkiDER,
                extensions: [.basicConstraints(ca: false), .keyUsage([0]), .authorityKeyIdentifier(id)] + extra
            ).sign(with: key))
        return chain.reversed()
    }

    private func subjectAltName(dns: String, critical: Bool) -> CertificateBuilder.ExtensionValue {
        var writer = DERWriter()
        writer.appendSequence { $0.appendPrimitive(.contextSpecific(2), content: Array(dns.utf8)) }
        return .init(oid: X509OIDs.subjectAltName, critical: critical, value: writer.bytes)
    }

    /// (c) A CA certificate with an empty subject (§4.1.2.6).
    func testCASubjectMustNotBeEmpty() throws {
        let leafName = CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Hand Leaf")])
        let chain = try handBuilt(caSubject: CertificateBuilder.name([]), leafSubject: leafName)
        assertRefused(RFC5280Policy().evaluate(chain, at: now).failures, .caSubjectEmpty, position: 1, clause: "RFC 5280 §4.1.2.6")
        let named = try handBuilt(
            caSubject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Hand CA")]), leafSubject: leafName)
        XCTAssertEqual(RFC5280Policy().evaluate(named, at: now).failures, [])
    }

    /// (f) An empty subject needs a critical subjectAltName (§4.2.1.6).
    func testEmptySubjectNeedsCriticalSubjectAltName() throws {
        let empty = CertificateBuilder.name([])
        let loose = try handBuilt(leafSubject: empty, leaf: [subjectAltName(dns: "www.example.com", critical: false)])
        assertRefused(
            RFC5280Policy().evaluate(loose, at: now).failures, .subjectAltNameNotCritical, position: 0, clause: "RFC 5280 §4.2.1.6")
        let strict = try handBuilt(leafSubject: empty, leaf: [subjectAltName(dns: "www.example.com", critical: true)])
        XCTAssertEqual(RFC5280Policy().evaluate(strict, at: now).failures, [])
    }

    /// (g) A CRL without cRLNumber, or with a critical one, is not used (§5.2.3); the named
    /// relaxation ``CRLRevocationPolicy/Relaxation/missingCRLNumber`` uses one without.
    func testCRLNumberProfile() throws {
        let chain = try handBuilt(leafSubject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Hand Leaf")]))
        let (leaf, root) = (chain[0], chain[1])
        func result(_ configure: (inout CRLBuilder) -> Void, relaxations: Set<CRLRevocationPolicy.Relaxation> = [])
            throws -> CertificateVerifier.Result
        {
            var builder = CRLBuilder(issuer: root, thisUpdate: now - 100, nextUpdate: now + 10_000)
            configure(&builder)
            let crl = try CRL(derEncoded: try builder.sign(with: ProfileRuleTests.handKey))
            let revocation = CRLRevocationPolicy(crls: [crl], options: .init(relaxations: relaxations))
            return CertificateVerifier(trustedRoots: [root], policies: [RFC5280Policy(), revocation]).verify(leaf: leaf, at: now)
        }
        XCTAssertNotNil(try result { _ in }.chain, "a conforming CRL decides")
        let missing = try result { $0.includesCRLNumber = false }
        XCTAssertNil(missing.chain)
        let expected = ValidationFailure.nonConformingCRL(
            certificate: PathCertificate(leaf, position: 0), crlIssuer: root.subject.rfc4514String, violation: .crlNumberMissing)
        XCTAssertTrue(missing.failures.contains(expected), "\(missing.failures)")
        XCTAssertEqual(expected.rule, "RFC 5280 §5.2.3")
        XCTAssertNotNil(try result({ $0.includesCRLNumber = false }, relaxations: [.missingCRLNumber]).chain, "relaxed")
        let critical = try result { $0.crlNumberCritical = true }
        XCTAssertNil(critical.chain)
        XCTAssertTrue(
            critical.failures.contains {
                if case .nonConformingCRL(_, _, .crlNumberCritical) = $0 { true } else { false }
            }, "\(critical.failures)")
        XCTAssertNil(
            try result({ $0.crlNumberCritical = true }, relaxations: [.missingCRLNumber]).chain,
            "the relaxation names only the missing number")
    }
}
