import Foundation
import SigilASN1
import SigilKeys
import SigilTestPKI
import SigilTestSupport
import XCTest

@testable import SigilCRL
@testable import SigilX509

/// CRLs made by the openssl CLI (`openssl ca -gencrl`, `openssl crl -gendelta`): revoked
/// entries with reasons, an invalidity date and a hold instruction, a delta CRL over a base;
/// and a CRL whose sha256WithRSAEncryption has absent parameters (RFC 4055 §5), signed by openssl
/// and checked by both. Each is parsed, checked against what openssl was told, and used by
/// `CRLRevocationPolicy` through `CertificateVerifier`.
final class CRLOpenSSLTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-crl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    private func openssl(_ arguments: [String], stdin: Data = Data()) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments, stdin: stdin)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return result
    }

    private func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
    private func certificate(_ name: String) throws -> Certificate { try XCTUnwrap(Certificate.load(try bytes(name)).first) }
    private func crl(_ name: String) throws -> CRL { try XCTUnwrap(CRL.load(try bytes(name)).first) }

    /// An `openssl ca` directory with a P-256 CA (keyCertSign, cRLSign) and `count` leaves.
    private func makeCA(leaves count: Int) throws {
        let config = """
            [ ca ]
            default_ca = CA_default
            [ CA_default ]
            dir = \(directory.path)
            database = $dir/index.txt
            new_certs_dir = $dir/newcerts
            certificate = $dir/ca.pem
            private_key = $dir/ca.key
            serial = $dir/serial
            crlnumber = $dir/crlnumber
            default_md = sha256
            default_days = 365
            default_crl_days = 30
            policy = policy_any
            unique_subject = no
            crl_extensions = crl_ext
            [ policy_any ]
            commonName = supplied
            [ crl_ext ]
            authorityKeyIdentifier = keyid:always
            [ leaf ]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: path("ca.cnf")))
        try FileManager.default.createDirectory(atPath: path("newcerts"), withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: path("index.txt")))
        try Data("1000\n".utf8).write(to: URL(fileURLWithPath: path("serial")))
        try Data("01\n".utf8).write(to: URL(fileURLWithPath: path("crlnumber")))
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
            "-out", path("ca.pem"), "-subj", "/CN=Sigil CRL Test CA", "-days", "365",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-addext", "subjectKeyIdentifier=hash",
        ])
        for i in 1...count {
            try openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("l\(i).key"),
                "-out", path("l\(i).csr"), "-subj", "/CN=leaf \(i)",
            ])
            try openssl([
                "ca", "-batch", "-config", path("ca.cnf"), "-extensions", "leaf", "-in", path("l\(i).csr"), "-out", path("l\(i).pem"),
            ])
        }
    }

    func testGeneratedCRLsWithReasonsAndADeltaCRL() throws {
        try makeCA(leaves: 4)
        let ca = try certificate("ca.pem")
        let leaves = try (1...4).map { try certificate("l\($0).pem") }
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l1.pem"), "-crl_compromise", "20250101000000Z"])
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l2.pem"), "-crl_reason", "superseded"])
        try openssl([
            "ca", "-config", path("ca.cnf"), "-gencrl", "-crl_lastupdate", "20250101000000Z", "-crl_nextupdate", "20350101000000Z",
            "-out", path("base.pem"),
        ])
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l3.pem"), "-crl_hold", "holdInstructionReject"])
        try openssl([
            "ca", "-config", path("ca.cnf"), "-gencrl", "-crl_lastupdate", "20250102000000Z", "-crl_nextupdate", "20350101000000Z",
            "-out", path("next.pem"),
        ])
        // The delta: what changed from base to next, its deltaCRLIndicator naming base's number.
        try openssl([
            "crl", "-in", path("base.pem"), "-gendelta", path("next.pem"), "-key", path("ca.key"), "-sha256", "-out", path("delta.pem"),
        ])

        let base = try crl("base.pem")
        let next = try crl("next.pem")
        let delta = try crl("delta.pem")
        XCTAssertEqual(base.issuer, ca.subject)
        XCTAssertEqual(base.thisUpdateComponents.description, "2025-01-01T00:00:00Z")
        XCTAssertEqual(base.nextUpdateComponents?.description, "2035-01-01T00:00:00Z")
        XCTAssertEqual(base.crlNumber?.description, "1")
        XCTAssertEqual(next.crlNumber?.description, "2")
        XCTAssertEqual(base.authorityKeyIdentifier?.keyIdentifier, ca.subjectKeyIdentifier)
        let entries = Array(next.entries)
        XCTAssertEqual(entries.map(\.serialNumber), leaves.prefix(3).map(\.serialNumber))
        XCTAssertEqual(entries.map(\.reason), [.keyCompromise, .superseded, .certificateHold])
        XCTAssertEqual(entries[0].invalidityDate?.description, "2025-01-01T00:00:00Z")
        XCTAssertNil(entries[1].invalidityDate)
        XCTAssertTrue(entries[2].extensions.contains { $0.oid == [2, 5, 29, 23] }, "holdInstructionCode kept")
        XCTAssertEqual(delta.deltaCRLIndicator?.description, "1")
        XCTAssertEqual(delta.crlNumber?.description, "2")
        XCTAssertEqual(Array(delta.entries).map(\.serialNumber), [leaves[2].serialNumber])
        for c in [base, next, delta] { XCTAssertNoThrow(try c.isSignedVartime(by: ca).get()) }

        // Decisions: the base alone knows leaves 1–2; base + delta also leaf 3; leaf 4 is good.
        let time = Int64(Date().timeIntervalSince1970) + 60
        func decide(_ leaf: Certificate, _ crls: [CRL]) -> CertificateVerifier.Result {
            let policy = CRLRevocationPolicy(crls: crls)
            return CertificateVerifier(trustedRoots: [ca], policies: [RFC5280Policy(), policy]).verify(leaf: leaf, at: time)
        }
        XCTAssertNil(decide(leaves[0], [base]).chain)
        XCTAssertTrue(
            decide(leaves[0], [base]).failures.contains(
                .revoked(
                    certificate: PathCertificate(leaves[0], position: 0),
                    time: entries[0].revocationDate, reason: 1)))
        XCTAssertNil(decide(leaves[1], [base]).chain)
        XCTAssertNotNil(decide(leaves[2], [base]).chain)
        XCTAssertNil(decide(leaves[2], [base, delta]).chain)
        XCTAssertNil(decide(leaves[2], [next]).chain)
        XCTAssertNotNil(decide(leaves[3], [base, delta]).chain)
        // A delta alone decides nothing (no complete CRL): undetermined, which fails.
        XCTAssertNil(decide(leaves[3], [delta]).chain)
        // Soft fail accepts the undetermined, never the revoked.
        let soft = CRLRevocationPolicy(crls: [delta], options: .init(allowUndetermined: true))
        XCTAssertNotNil(CertificateVerifier(trustedRoots: [ca], policies: [RFC5280Policy(), soft]).verify(leaf: leaves[3], at: time).chain)
        // Past nextUpdate the CRL is not current: undetermined.
        XCTAssertNil(
            CertificateVerifier(trustedRoots: [ca], policies: [CRLRevocationPolicy(crls: [base])])
                .verify(leaf: leaves[3], at: base.nextUpdate! + 1).chain)
        // A CRL whose signature does not verify is not used.
        var forged = next.derBytes
        forged[forged.count - 5] ^= 1
        XCTAssertNil(decide(leaves[3], [try CRL(derEncoded: forged)]).chain)
    }

    func testRSACRLWithAbsentParametersSignedByOpenSSL() throws {
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("rsa.key"), "-out", path("rsa.pem"),
            "-subj", "/CN=Sigil RSA CRL CA", "-days", "365", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        let ca = try certificate("rsa.pem")
        // TBSCertList with sha256WithRSAEncryption and no parameters.
        var algorithm = DERWriter()
        algorithm.appendSequence { $0.append(X509OIDs.sha256WithRSAEncryption) }
        var tbs = DERWriter()
        tbs.appendSequence { t in
            t.append(ASN1Integer(1))
            t.appendEncoded(algorithm.bytes)
            t.appendEncoded(ca.subject.derBytes)
            t.appendPrimitive(.utcTime, content: Array("250101000000Z".utf8))
            t.appendPrimitive(.utcTime, content: Array("350101000000Z".utf8))
            t.appendSequence { list in
                list.appendSequence { entry in
                    entry.append(ASN1Integer(4242))
                    entry.appendPrimitive(.utcTime, content: Array("250101000000Z".utf8))
                }
            }
        }
        try Data(tbs.bytes).write(to: URL(fileURLWithPath: path("tbs.der")))
        let signature = try openssl(["dgst", "-sha256", "-sign", path("rsa.key"), path("tbs.der")]).stdout
        var whole = DERWriter()
        whole.appendSequence { w in
            w.appendEncoded(tbs.bytes)
            w.appendEncoded(algorithm.bytes)
            w.appendPrimitive(.bitString, content: [0] + Array(signature))
        }
        try Data(whole.bytes).write(to: URL(fileURLWithPath: path("absent.crl")))
        // openssl verifies it too.
        let check = try openssl(["crl", "-inform", "der", "-in", path("absent.crl"), "-CAfile", path("rsa.pem"), "-noout"])
        XCTAssertTrue(String(decoding: check.stderr + check.stdout, as: UTF8.self).contains("verify OK"))
        let parsed = try CRL(derEncoded: whole.bytes)
        XCTAssertNil(parsed.signatureAlgorithmIdentifier.parameters)
        XCTAssertEqual(parsed.signatureAlgorithm, .rsaPKCS1v15(.sha256))
        XCTAssertNoThrow(try parsed.isSignedVartime(by: ca).get())
        XCTAssertEqual(
            parsed.revokedEntry(serialNumber: ASN1Integer(4242).twosComplementBytes, certificateIssuer: ca.subject)?.revocationDate,
            1_735_689_600)
    }

    /// pyca/cryptography writes an indirect CRL (issuingDistributionPoint indirectCRL, an entry
    /// under certificateIssuer) signed by a separate CRL issuer that the leaves' distribution point
    /// names as cRLIssuer (RFC 5280 §5.2.5, §5.3.3, §6.3.3 (b)(1)); Sigil decides from it.
    func testIndirectCRLMadeByPycaCryptography() throws {
        guard let python = Subprocess.python(importing: ["cryptography"]) else {
            XCTFail("no python3 with pyca/cryptography; the README's set-up line installs python3-cryptography")
            return
        }
        try Data(CRLOpenSSLTests.indirectScript.utf8).write(to: URL(fileURLWithPath: path("gen.py")))
        let made = try Subprocess.run(python, [path("gen.py"), directory.path])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let root = try Certificate(derEncoded: try bytes("root.der"))
        let signer = try Certificate(derEncoded: try bytes("signer.der"))
        let leaf1 = try Certificate(derEncoded: try bytes("leaf1.der"))
        let leaf2 = try Certificate(derEncoded: try bytes("leaf2.der"))
        let crl = try CRL(derEncoded: try bytes("indirect.crl"))
        let rootCRL = try CRL(derEncoded: try bytes("root.crl"))
        XCTAssertEqual(crl.issuingDistributionPoint?.indirectCRL, true)
        XCTAssertEqual(crl.crlNumber?.description, "7")
        XCTAssertEqual(crl.entry(at: 0)?.effectiveCertificateIssuer, [.directoryName(root.subject)])
        XCTAssertNotNil(crl.revokedEntry(serialNumber: leaf2.serialNumber, certificateIssuer: root.subject))
        XCTAssertNil(crl.revokedEntry(serialNumber: leaf2.serialNumber, certificateIssuer: signer.subject))
        let time: Int64 = 1_800_000_000
        func decide(_ leaf: Certificate, candidates: [Certificate], crls: [CRL]? = nil) -> CertificateVerifier.Result {
            let policy = CRLRevocationPolicy(crls: crls ?? [crl, rootCRL], candidateCertificates: candidates)
            return CertificateVerifier(trustedRoots: [root], policies: [RFC5280Policy(), policy]).verify(leaf: leaf, at: time)
        }
        XCTAssertNotNil(decide(leaf1, candidates: [signer]).chain)
        XCTAssertTrue(decide(leaf2, candidates: [signer]).failures.contains { if case .revoked(_, _, 1) = $0 { true } else { false } })
        // Without the CRL issuer's certificate, nothing can verify the indirect CRL: undetermined,
        // refused. (With the root's CRL in the set the leaf is decided by it instead: a CRL its
        // own issuer issued, with no issuingDistributionPoint, covers it — §6.3.3 last paragraph.)
        XCTAssertTrue(
            decide(leaf1, candidates: [], crls: [crl]).failures.contains { if case .revocationCheckFailed = $0 { true } else { false } })
        XCTAssertNotNil(decide(leaf1, candidates: []).chain)
        // The CRL issuer's own certificate is checked too: without the root's CRL its status is
        // undetermined, so it may not vouch for anything (fail closed).
        XCTAssertNil(decide(leaf1, candidates: [signer], crls: [crl]).chain)
    }

    /// Writes the indirect-CRL PKI with pyca/cryptography (run by the test above).
    static let indirectScript = #"""
        import sys, datetime
        from cryptography import x509
        from cryptography.x509.oid import NameOID
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        out = sys.argv[1]
        def name(cn): return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
        def key(): return ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
        later = datetime.datetime(2035, 1, 1, tzinfo=datetime.timezone.utc)
        root_key, crl_key, leaf_key = key(), key(), key()
        root_name, crl_name = name("Indirect Root"), name("Indirect CRL Issuer")
        def cert(subject, issuer, public, signer, serial, ca, ku, extra=()):
            b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public)
                 .serial_number(serial).not_valid_before(now).not_valid_after(later)
                 .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
                 .add_extension(ku, critical=True))
            b = (b.add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
                 .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(signer.public_key()), critical=False))
            for e in extra: b = b.add_extension(e, critical=False)
            return b.sign(signer, hashes.SHA256())
        ku_ca = x509.KeyUsage(False, False, False, False, False, True, True, False, False)
        ku_crl = x509.KeyUsage(False, False, False, False, False, False, True, False, False)
        ku_leaf = x509.KeyUsage(True, False, False, False, False, False, False, False, False)
        root = cert(root_name, root_name, root_key.public_key(), root_key, 1, True, ku_ca)
        crl_signer = cert(crl_name, root_name, crl_key.public_key(), root_key, 2, False, ku_crl)
        dp = x509.CRLDistributionPoints([x509.DistributionPoint(full_name=[x509.UniformResourceIdentifier("http://crl.example/indirect.crl")],
                                                                relative_name=None, reasons=None, crl_issuer=[x509.DirectoryName(crl_name)])])
        leaves = [cert(name("Leaf %d" % i), root_name, leaf_key.public_key(), root_key, 100 + i, False, ku_leaf, [dp]) for i in (1, 2)]
        idp = x509.IssuingDistributionPoint(full_name=[x509.UniformResourceIdentifier("http://crl.example/indirect.crl")], relative_name=None,
                                            only_contains_user_certs=False, only_contains_ca_certs=False, only_some_reasons=None,
                                            indirect_crl=True, only_contains_attribute_certs=False)
        entry = (x509.RevokedCertificateBuilder().serial_number(102).revocation_date(now)
                 .add_extension(x509.CRLReason(x509.ReasonFlags.key_compromise), critical=False)
                 .add_extension(x509.CertificateIssuer([x509.DirectoryName(root_name)]), critical=True).build())
        crl = (x509.CertificateRevocationListBuilder().issuer_name(crl_name).last_update(now).next_update(later)
               .add_extension(idp, critical=True).add_extension(x509.CRLNumber(7), critical=False)
               .add_revoked_certificate(entry).sign(crl_key, hashes.SHA256()))
        for n, c in [("root", root), ("signer", crl_signer), ("leaf1", leaves[0]), ("leaf2", leaves[1])]:
            open("%s/%s.der" % (out, n), "wb").write(c.public_bytes(serialization.Encoding.DER))
        open("%s/indirect.crl" % out, "wb").write(crl.public_bytes(serialization.Encoding.DER))
        root_crl = (x509.CertificateRevocationListBuilder().issuer_name(root_name).last_update(now).next_update(later)
                    .add_extension(x509.CRLNumber(1), critical=False).sign(root_key, hashes.SHA256()))
        open("%s/root.crl" % out, "wb").write(root_crl.public_bytes(serialization.Encoding.DER))
        """#
}
