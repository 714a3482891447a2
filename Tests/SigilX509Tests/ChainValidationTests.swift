import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Chains built with the openssl CLI for each rule (P-256, P-384 and RSA keys; SHA-256/384 and
/// PSS signatures; expired, not yet valid, wrong issuer, CA flag missing, pathLen exceeded, unknown
/// critical extension, swapped signature, keyUsage without keyCertSign), a hostile set of 1,000
/// same-name intermediates, and Apple's real and test chains.
final class ChainValidationTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-x509-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    private func openssl(_ arguments: [String]) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return result
    }

    /// A key: "ec:P-256", "ec:P-384" or "rsa:2048".
    private func key(_ name: String, _ kind: String) throws -> String {
        let file = path("\(name).key")
        let parts = kind.split(separator: ":").map(String.init)
        if parts[0] == "ec" {
            try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(parts[1])", "-out", file])
        } else {
            try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(parts[1])", "-out", file])
        }
        return file
    }

    /// A certificate for `subject` with `keyFile`, signed by `issuer` (nil: self-signed), with the
    /// extensions given as openssl config lines.
    private func certificate(
        _ name: String, subject: String, key keyFile: String, issuer: (cert: String, key: String)?,
        extensions: [String], digest: String = "sha256", pss: Bool = false, days: Int = 30
    ) throws -> Certificate {
        let config = path("\(name).cnf")
        try Data(("[ext]\n" + extensions.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: config))
        let out = path("\(name).pem")
        let pssOptions = pss ? ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"] : []
        if let issuer {
            let csr = path("\(name).csr")
            try openssl(["req", "-new", "-key", keyFile, "-subj", subject, "-out", csr])
            try openssl(
                [
                    "x509", "-req", "-in", csr, "-CA", issuer.cert, "-CAkey", issuer.key, "-CAcreateserial",
                    "-days", "\(days)", "-\(digest)", "-extfile", config, "-extensions", "ext", "-out", out,
                ] + pssOptions)
        } else {
            try openssl(
                [
                    "req", "-x509", "-new", "-key", keyFile, "-subj", subject, "-days", "\(days)", "-\(digest)",
                    "-config", config, "-extensions", "ext", "-out", out,
                ] + pssOptions)
        }
        return try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: out)))).first)
    }

    private let caExtensions = [
        "basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign",
        "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid",
    ]
    private let leafExtensions = [
        "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
        "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid",
    ]

    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    private func expectFailure(
        _ result: CertificateVerifier.Result, _ matches: (ValidationFailure) -> Bool,
        _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNil(result.chain, "\(message): should not validate", file: file, line: line)
        XCTAssertTrue(result.failures.contains(where: matches), "\(message): got \(result.failures)", file: file, line: line)
    }

    func testChainsBuiltWithOpenSSL() throws {
        for (label, rootKind, intermediateKind, leafKind, digest, pss) in [
            ("EC", "ec:P-384", "ec:P-384", "ec:P-256", "sha384", false),
            ("RSA", "rsa:2048", "rsa:2048", "rsa:2048", "sha256", false),
            ("RSA-PSS", "rsa:2048", "rsa:2048", "ec:P-256", "sha256", true),
            ("mixed", "rsa:2048", "ec:P-256", "ec:P-384", "sha512", false),
        ] {
            let rootKey = try key("\(label)-root", rootKind)
            let interKey = try key("\(label)-inter", intermediateKind)
            let leafKey = try key("\(label)-leaf", leafKind)
            let root = try certificate(
                "\(label)-root", subject: "/CN=\(label) Root", key: rootKey, issuer: nil,
                extensions: caExtensions, digest: digest, pss: pss)
            let inter = try certificate(
                "\(label)-inter", subject: "/CN=\(label) Intermediate", key: interKey,
                issuer: (path("\(label)-root.pem"), rootKey), extensions: caExtensions, digest: digest, pss: pss)
            let leaf = try certificate(
                "\(label)-leaf", subject: "/CN=\(label) Leaf", key: leafKey,
                issuer: (path("\(label)-inter.pem"), interKey), extensions: leafExtensions, digest: digest, pss: pss)
            let verifier = CertificateVerifier(trustedRoots: [root])
            let result = verifier.verify(leaf: leaf, intermediates: [inter], at: now)
            XCTAssertEqual(result.chain, [leaf, inter, root], "\(label): \(result.failures)")
            // Validity: before notBefore and after notAfter.
            expectFailure(
                verifier.verify(leaf: leaf, intermediates: [inter], at: leaf.validity.notBefore - 1),
                { if case .notYetValid = $0 { true } else { false } }, "\(label) not yet valid")
            expectFailure(
                verifier.verify(leaf: leaf, intermediates: [inter], at: leaf.validity.notAfter + 1),
                { if case .expired = $0 { true } else { false } }, "\(label) expired")
            // Missing intermediate; a root that is not trusted.
            expectFailure(
                verifier.verify(leaf: leaf, at: now), { if case .noPathToTrustedRoot = $0 { true } else { false } },
                "\(label) no intermediate")
            let otherRootKey = try key("\(label)-other", rootKind)
            let otherRoot = try certificate(
                "\(label)-other", subject: "/CN=\(label) Root", key: otherRootKey, issuer: nil,
                extensions: caExtensions, digest: digest, pss: pss)
            XCTAssertNil(
                CertificateVerifier(trustedRoots: [otherRoot]).verify(leaf: leaf, intermediates: [inter, root], at: now).chain,
                "\(label): a same-name root with another key, and the real root only as an intermediate")
        }
    }

    func testEachRuleFails() throws {
        let rootKey = try key("root", "ec:P-384")
        let interKey = try key("inter", "ec:P-256")
        let leafKey = try key("leaf", "ec:P-256")
        let root = try certificate("root", subject: "/CN=Rule Root", key: rootKey, issuer: nil, extensions: caExtensions)
        let rootIssuer = (path("root.pem"), rootKey)
        let verifier = CertificateVerifier(trustedRoots: [root])

        // Wrong issuer: the leaf names the intermediate but another key signed it.
        let inter = try certificate("inter", subject: "/CN=Rule Intermediate", key: interKey, issuer: rootIssuer, extensions: caExtensions)
        let impostorKey = try key("impostor", "ec:P-256")
        let impostor = try certificate(
            "impostor", subject: "/CN=Rule Intermediate", key: impostorKey, issuer: rootIssuer, extensions: caExtensions)
        // With key identifiers the mismatch is seen before any signature check (AKI ≠ SKI); without
        // them the name matches and the signature check fails.
        let wrongLeaf = try certificate(
            "wrongleaf", subject: "/CN=Wrong", key: leafKey, issuer: (path("impostor.pem"), impostorKey),
            extensions: ["basicConstraints=critical,CA:FALSE"])
        expectFailure(
            verifier.verify(leaf: wrongLeaf, intermediates: [inter], at: now),
            { if case .noPathToTrustedRoot = $0 { true } else { false } }, "wrong issuer (AKI mismatch)")
        let wrongLeafNoAKI = try certificate(
            "wrongleaf2", subject: "/CN=Wrong", key: leafKey, issuer: (path("impostor.pem"), impostorKey),
            extensions: ["basicConstraints=critical,CA:FALSE", "authorityKeyIdentifier=none"])
        XCTAssertNil(wrongLeafNoAKI.authorityKeyIdentifier)
        expectFailure(
            verifier.verify(leaf: wrongLeafNoAKI, intermediates: [inter], at: now),
            { if case .invalidSignature = $0 { true } else { false } }, "wrong issuer (signature)")
        XCTAssertNotNil(
            verifier.verify(leaf: wrongLeaf, intermediates: [inter, impostor], at: now).chain, "the right issuer among candidates")

        // CA flag missing on the intermediate.
        let notCA = try certificate(
            "notca", subject: "/CN=Not A CA", key: interKey, issuer: rootIssuer,
            extensions: ["basicConstraints=critical,CA:FALSE"])
        let underNotCA = try certificate(
            "undernotca", subject: "/CN=Under", key: leafKey, issuer: (path("notca.pem"), interKey),
            extensions: ["basicConstraints=critical,CA:FALSE"])
        expectFailure(
            verifier.verify(leaf: underNotCA, intermediates: [notCA], at: now),
            { if case .notACA = $0 { true } else { false } }, "CA flag missing")

        // pathLenConstraint 0 on the intermediate, with another intermediate below it.
        let limited = try certificate(
            "limited", subject: "/CN=Limited", key: interKey, issuer: rootIssuer,
            extensions: ["basicConstraints=critical,CA:TRUE,pathlen:0", "keyUsage=critical,keyCertSign"])
        let subKey = try key("sub", "ec:P-256")
        let sub = try certificate(
            "sub", subject: "/CN=Sub CA", key: subKey, issuer: (path("limited.pem"), interKey), extensions: caExtensions)
        let deep = try certificate(
            "deep", subject: "/CN=Deep", key: leafKey, issuer: (path("sub.pem"), subKey),
            extensions: ["basicConstraints=critical,CA:FALSE"])
        expectFailure(
            verifier.verify(leaf: deep, intermediates: [limited, sub], at: now),
            { if case .pathLengthExceeded(_, 0, 1) = $0 { true } else { false } }, "pathLen exceeded")

        // keyUsage without keyCertSign on the intermediate.
        let noSign = try certificate(
            "nosign", subject: "/CN=No Sign", key: interKey, issuer: rootIssuer,
            extensions: ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,digitalSignature"])
        let underNoSign = try certificate(
            "undernosign", subject: "/CN=Under No Sign", key: leafKey, issuer: (path("nosign.pem"), interKey),
            extensions: ["basicConstraints=critical,CA:FALSE"])
        expectFailure(
            verifier.verify(leaf: underNoSign, intermediates: [noSign], at: now),
            { if case .missingKeyCertSign = $0 { true } else { false } }, "keyCertSign missing")

        // An unknown critical extension on the leaf; the same extension non-critical is fine.
        let critical = try certificate(
            "critical", subject: "/CN=Critical", key: leafKey, issuer: (path("inter.pem"), interKey),
            extensions: ["basicConstraints=critical,CA:FALSE", "1.3.6.1.4.1.55555.1=critical,ASN1:UTF8String:unknown"])
        expectFailure(
            verifier.verify(leaf: critical, intermediates: [inter], at: now),
            { if case .unhandledCriticalExtension = $0 { true } else { false } }, "unknown critical extension")
        let handled = CertificateVerifier(trustedRoots: [root], policies: [RFC5280Policy(), Handles(oid: [1, 3, 6, 1, 4, 1, 55555, 1])])
        XCTAssertNotNil(handled.verify(leaf: critical, intermediates: [inter], at: now).chain, "a policy that handles it")
        let nonCritical = try certificate(
            "noncritical", subject: "/CN=Non Critical", key: leafKey, issuer: (path("inter.pem"), interKey),
            extensions: ["basicConstraints=critical,CA:FALSE", "1.3.6.1.4.1.55555.1=ASN1:UTF8String:unknown"])
        XCTAssertNotNil(verifier.verify(leaf: nonCritical, intermediates: [inter], at: now).chain)

        // Swapped signature: the leaf's TBS with another certificate's signature (same algorithm).
        var writer = DERWriter()
        writer.appendSequence { seq in
            seq.appendEncoded(nonCritical.tbsBytes)
            nonCritical.signatureAlgorithmIdentifier.encode(into: &seq)
            seq.append(ASN1BitString(wholeBytes: critical.signature))
        }
        let swapped = try Certificate(derEncoded: writer.bytes)
        expectFailure(
            verifier.verify(leaf: swapped, intermediates: [inter], at: now),
            { if case .invalidSignature = $0 { true } else { false } }, "swapped signature")
    }

    /// Unknown key and signature algorithms are kept (not fatal to parsing) and reported as
    /// unsupported when used; negative serials are parsed and flagged; a v1 certificate works as a
    /// trust anchor without basicConstraints (RFC 5280 §6.1 takes anchors as given).
    func testUnknownAlgorithmsNegativeSerialsAndV1Anchors() throws {
        let edKey = path("ed.key")
        try openssl(["genpkey", "-algorithm", "ed25519", "-out", edKey])
        try openssl(["req", "-x509", "-new", "-key", edKey, "-subj", "/CN=Ed", "-days", "1", "-set_serial", "-5", "-out", path("ed.pem")])
        let ed = try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path("ed.pem"))))).first)
        XCTAssertTrue(ed.isSerialNumberNegative)
        XCTAssertEqual(ed.serialNumber, [0xFB])
        guard case .unknown(let spki) = ed.publicKey else { return XCTFail("Ed25519 keys are kept as unknown") }
        XCTAssertEqual(spki.algorithm.algorithm, [1, 3, 101, 112])
        guard case .unknown = ed.signatureAlgorithm else { return XCTFail("Ed25519 signatures are unknown here") }
        let result = CertificateVerifier(trustedRoots: [ed]).verify(leaf: ed, at: now)
        XCTAssertNil(result.chain)
        XCTAssertTrue(
            result.failures.contains { if case .invalidSignature(_, let reason) = $0 { reason.contains("unsupported") } else { false } },
            "\(result.failures)")

        // A v1 self-signed root (no extensions at all) issuing a leaf.
        let rootKey = try key("v1root", "ec:P-256")
        let leafKey = try key("v1leaf", "ec:P-256")
        try openssl(["req", "-new", "-key", rootKey, "-subj", "/CN=V1 Root", "-out", path("v1root.csr")])
        try openssl(["x509", "-req", "-in", path("v1root.csr"), "-signkey", rootKey, "-days", "2", "-out", path("v1root.pem")])
        let root = try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path("v1root.pem"))))).first)
        XCTAssertEqual(root.version, 1)
        XCTAssertTrue(root.extensions.isEmpty)
        let leaf = try certificate(
            "v1leaf", subject: "/CN=Under V1", key: leafKey, issuer: (path("v1root.pem"), rootKey),
            // A v1 root has no subjectKeyIdentifier for openssl to copy: the leaf's keyIdentifier
            // (§4.2.1.1, method 1 of §4.2.1.2) is written as DER.
            extensions: [
                "basicConstraints=critical,CA:FALSE",
                "2.5.29.35=DER:30168014"
                    + SHA1.hash(root.subjectPublicKeyInfo.subjectPublicKey.bytes).map { String(format: "%02x", $0) }.joined(),
            ])
        XCTAssertEqual(CertificateVerifier(trustedRoots: [root]).verify(leaf: leaf, at: now).chain, [leaf, root])
    }

    /// 1,000 intermediates with the issuer's name and key but altered serials (so none is validly
    /// signed): path building stops at its bound, quickly, with an error.
    func testThousandSameNameIntermediatesAreBounded() throws {
        let rootKey = try key("root", "ec:P-256")
        let interKey = try key("inter", "ec:P-256")
        let leafKey = try key("leaf", "ec:P-256")
        let root = try certificate("root", subject: "/CN=Bound Root", key: rootKey, issuer: nil, extensions: caExtensions)
        let inter = try certificate(
            "inter", subject: "/CN=Bound Intermediate", key: interKey, issuer: (path("root.pem"), rootKey),
            extensions: caExtensions)
        let leaf = try certificate(
            "leaf", subject: "/CN=Bound Leaf", key: leafKey, issuer: (path("inter.pem"), interKey),
            extensions: leafExtensions)
        // Altered copies: change one serial byte in the DER (the TBS's first INTEGER).
        let der = inter.derBytes
        let tbs = try DER.parse(der).children.first { _ in true }
        let serialNode = try XCTUnwrap(tbs?.children.first { $0.identifier == .integer })
        let serialOffset = serialNode.offset + 2 + serialNode.contentBytes.count - 1
        var hostile: [Certificate] = []
        for i in 0..<1000 {
            var bytes = der
            bytes[serialOffset] = UInt8(i % 256)
            bytes[serialOffset - 1] = UInt8(i / 256) &+ 1
            if let copy = try? Certificate(derEncoded: bytes), copy != inter { hostile.append(copy) }
        }
        XCTAssertGreaterThan(hostile.count, 990)
        let verifier = CertificateVerifier(trustedRoots: [root])
        let result = verifier.verify(leaf: leaf, intermediates: hostile, at: now)
        XCTAssertNil(result.chain)
        // Bounded by count, not by luck: the search stops at the verifier's signature-check budget
        // (64 by default), not after trying a thousand candidates.
        XCTAssertTrue(
            result.failures.contains { failure in
                if case .workLimitExceeded(let why) = failure {
                    why.contains("\(verifier.maximumSignatureChecks) signature checks")
                } else {
                    false
                }
            }, "\(result.failures.prefix(3))")
        // With the real intermediate among them, a path is still found within the bound when it comes first.
        XCTAssertNotNil(verifier.verify(leaf: leaf, intermediates: [inter] + hostile, at: now).chain)
    }

    /// The RFC 5280 basics run whatever policies the verifier is given: with no policy at all, or
    /// only a marker-extension profile, an expired chain, a non-CA issuer and an unknown critical
    /// extension are refused, each with its typed failure and the position of the certificate.
    func testBasicsApplyWithoutRFC5280Policy() throws {
        let rootKey = try key("root", "ec:P-256")
        let interKey = try key("inter", "ec:P-256")
        let leafKey = try key("leaf", "ec:P-256")
        let root = try certificate("root", subject: "/CN=Basics Root", key: rootKey, issuer: nil, extensions: caExtensions)
        let inter = try certificate(
            "inter", subject: "/CN=Basics Intermediate", key: interKey, issuer: (path("root.pem"), rootKey), extensions: caExtensions)
        let leaf = try certificate(
            "leaf", subject: "/CN=Basics Leaf", key: leafKey, issuer: (path("inter.pem"), interKey), extensions: leafExtensions)
        let marker: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 55555, 9]
        let profile = MarkerExtensionPolicy(name: "Any length", chainLength: nil, requirements: [])
        for policies in [[], [profile]] as [[any CertificatePolicy]] {
            let verifier = CertificateVerifier(trustedRoots: [root], policies: policies)
            XCTAssertEqual(verifier.verify(leaf: leaf, intermediates: [inter], at: now).chain, [leaf, inter, root])
            expectFailure(
                verifier.verify(leaf: leaf, intermediates: [inter], at: now + 40 * 86_400),
                { if case .expired(let certificate, _, _) = $0 { certificate.position == 0 } else { false } }, "expired leaf")

            let notCA = try certificate(
                "notca", subject: "/CN=Basics Not A CA", key: interKey, issuer: (path("root.pem"), rootKey),
                extensions: leafExtensions)
            let underNotCA = try certificate(
                "undernotca", subject: "/CN=Basics Under", key: leafKey, issuer: (path("notca.pem"), interKey),
                extensions: leafExtensions)
            expectFailure(
                verifier.verify(leaf: underNotCA, intermediates: [notCA], at: now),
                { if case .notACA(let certificate) = $0 { certificate == PathCertificate(notCA, position: 1) } else { false } },
                "non-CA issuer")

            let critical = try certificate(
                "critical", subject: "/CN=Basics Critical", key: leafKey, issuer: (path("inter.pem"), interKey),
                extensions: leafExtensions + ["\(marker.dotted)=critical,ASN1:NULL"])
            expectFailure(
                verifier.verify(leaf: critical, intermediates: [inter], at: now),
                { if case .unhandledCriticalExtension(_, let oid) = $0 { oid == marker } else { false } }, "unknown critical extension")
            // A policy that declares the extension handled is all it takes: no glue.
            let handling = CertificateVerifier(trustedRoots: [root], policies: policies + [Handles(oid: marker)])
            XCTAssertNotNil(handling.verify(leaf: critical, intermediates: [inter], at: now).chain)
        }
    }

    /// Policies through the verifier's one policy type, `AnyCertificatePolicy` (issue 47): wrapped
    /// or given as a closure, they decide as the policies themselves — handled critical extensions
    /// included —, and the regular build's `[any CertificatePolicy]` property reads back what was given.
    func testErasedPoliciesDecideAsTheOriginals() throws {
        let rootKey = try key("root", "ec:P-256")
        let interKey = try key("inter", "ec:P-256")
        let leafKey = try key("leaf", "ec:P-256")
        let root = try certificate("root", subject: "/CN=Erased Root", key: rootKey, issuer: nil, extensions: caExtensions)
        let inter = try certificate(
            "inter", subject: "/CN=Erased Intermediate", key: interKey, issuer: (path("root.pem"), rootKey), extensions: caExtensions)
        let leaf = try certificate(
            "leaf", subject: "/CN=Erased Leaf", key: leafKey, issuer: (path("inter.pem"), interKey), extensions: leafExtensions)
        let marker: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 55555, 9]
        let critical = try certificate(
            "critical", subject: "/CN=Erased Critical", key: leafKey, issuer: (path("inter.pem"), interKey),
            extensions: leafExtensions + ["\(marker.dotted)=critical,ASN1:NULL"])
        let closure = AnyCertificatePolicy(name: "handles by closure", handledCriticalExtensions: [marker]) { _, _ in
            PolicyEvaluation(failures: [])
        }
        for policies in [[closure], [AnyCertificatePolicy(Handles(oid: marker))], [AnyCertificatePolicy(AnyCertificatePolicy(closure))]] {
            let verifier = CertificateVerifier(trustedRoots: [root], policies: policies)
            XCTAssertEqual(verifier.verify(leaf: critical, intermediates: [inter], at: now).chain, [critical, inter, root])
        }
        XCTAssertNil(CertificateVerifier(trustedRoots: [root], policies: []).verify(leaf: critical, intermediates: [inter], at: now).chain)
        let refusing = AnyCertificatePolicy(name: "refuses") { chain, _ in
            PolicyEvaluation(failures: [.chainLengthMismatch(policy: "refuses", expected: 1, found: chain.count)])
        }
        XCTAssertEqual(
            CertificateVerifier(trustedRoots: [root], policies: [refusing]).verify(leaf: leaf, intermediates: [inter], at: now).failures,
            [.chainLengthMismatch(policy: "refuses", expected: 1, found: 3)])
        // Read back as given; set through either property.
        var verifier = CertificateVerifier(trustedRoots: [root], policies: [RFC5280Policy(), Handles(oid: marker)])
        XCTAssertNotNil(verifier.policies[0] as? RFC5280Policy)
        XCTAssertEqual((verifier.policies[1] as? Handles)?.oid, marker)
        XCTAssertEqual(verifier.erasedPolicies.map { $0.name }, ["RFC 5280", "handles \(marker.dotted)"])
        verifier.policies = [closure]
        XCTAssertEqual(verifier.erasedPolicies.map { $0.name }, ["handles by closure"])
        XCTAssertEqual((verifier.policies[0] as? AnyCertificatePolicy)?.name, "handles by closure")
        verifier.erasedPolicies = []
        XCTAssertTrue(verifier.policies.isEmpty)
        // The default is RFC 5280 whichever initialiser is chosen; an erased policy is not wrapped twice.
        XCTAssertEqual(CertificateVerifier(trustedRoots: [root]).erasedPolicies.map { $0.name }, ["RFC 5280"])
        let given: [any CertificatePolicy] = [closure]
        XCTAssertNil(CertificateVerifier(trustedRoots: [root], policies: given).erasedPolicies.first?.base)
    }

    /// Two CAs certify each other several times over (distinct DER, same subject and key): path
    /// building treats each CA as one entity (RFC 4158 §5.2), so it never walks the loop A → B → A′
    /// and ends with "no path" instead of running into its depth bound.
    func testCrossSignedLoopEndsWithoutReachingTheBound() throws {
        let rootKey = try key("root", "ec:P-256")
        let aKey = try key("a", "ec:P-256")
        let bKey = try key("b", "ec:P-256")
        let leafKey = try key("leaf", "ec:P-256")
        let root = try certificate("root", subject: "/CN=Loop Root", key: rootKey, issuer: nil, extensions: caExtensions)
        // Self-signed starting points, so each CA can sign the other's certificates.
        _ = try certificate("a0", subject: "/CN=Loop A", key: aKey, issuer: nil, extensions: caExtensions)
        _ = try certificate("b0", subject: "/CN=Loop B", key: bKey, issuer: nil, extensions: caExtensions)
        var candidates: [Certificate] = []
        for i in 1...5 {
            candidates.append(
                try certificate("a\(i)", subject: "/CN=Loop A", key: aKey, issuer: (path("b0.pem"), bKey), extensions: caExtensions))
            candidates.append(
                try certificate("b\(i)", subject: "/CN=Loop B", key: bKey, issuer: (path("a0.pem"), aKey), extensions: caExtensions))
        }
        XCTAssertEqual(Set(candidates).count, 10, "distinct certificates")
        let leaf = try certificate(
            "leaf", subject: "/CN=Loop Leaf", key: leafKey, issuer: (path("a0.pem"), aKey), extensions: leafExtensions)
        let result = CertificateVerifier(trustedRoots: [root]).verify(leaf: leaf, intermediates: candidates, at: now)
        XCTAssertNil(result.chain)
        XCTAssertFalse(result.failures.contains { if case .workLimitExceeded = $0 { true } else { false } }, "\(result.failures)")
        XCTAssertTrue(result.failures.contains { if case .noPathToTrustedRoot = $0 { true } else { false } }, "\(result.failures)")
    }
}

/// A policy that adds no rule and declares one critical extension handled.
private struct Handles: CertificatePolicy {
    let oid: ASN1ObjectIdentifier
    var name: String { "handles \(oid.dotted)" }
    var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { [oid] }
    func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] { [] }
}
