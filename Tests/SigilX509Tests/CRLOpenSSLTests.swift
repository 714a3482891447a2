import Foundation
import SigilASN1
import SigilKeys
import SigilTestSupport
@testable import SigilX509
import XCTest

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
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
                     "-out", path("ca.pem"), "-subj", "/CN=Sigil CRL Test CA", "-days", "365",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                     "-addext", "subjectKeyIdentifier=hash"])
        for i in 1...count {
            try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("l\(i).key"),
                         "-out", path("l\(i).csr"), "-subj", "/CN=leaf \(i)"])
            try openssl(["ca", "-batch", "-config", path("ca.cnf"), "-extensions", "leaf", "-in", path("l\(i).csr"), "-out", path("l\(i).pem")])
        }
    }

    func testGeneratedCRLsWithReasonsAndADeltaCRL() throws {
        try makeCA(leaves: 4)
        let ca = try certificate("ca.pem")
        let leaves = try (1...4).map { try certificate("l\($0).pem") }
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l1.pem"), "-crl_compromise", "20250101000000Z"])
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l2.pem"), "-crl_reason", "superseded"])
        try openssl(["ca", "-config", path("ca.cnf"), "-gencrl", "-crl_lastupdate", "20250101000000Z", "-crl_nextupdate", "20350101000000Z",
                     "-out", path("base.pem")])
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l3.pem"), "-crl_hold", "holdInstructionReject"])
        try openssl(["ca", "-config", path("ca.cnf"), "-gencrl", "-crl_lastupdate", "20250102000000Z", "-crl_nextupdate", "20350101000000Z",
                     "-out", path("next.pem")])
        // The delta: what changed from base to next, its deltaCRLIndicator naming base's number.
        try openssl(["crl", "-in", path("base.pem"), "-gendelta", path("next.pem"), "-key", path("ca.key"), "-sha256", "-out", path("delta.pem")])

        let base = try crl("base.pem"), next = try crl("next.pem"), delta = try crl("delta.pem")
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
        XCTAssertTrue(decide(leaves[0], [base]).failures.contains(.revoked(subject: leaves[0].subject.rfc4514String,
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
        XCTAssertNil(CertificateVerifier(trustedRoots: [ca], policies: [CRLRevocationPolicy(crls: [base])])
            .verify(leaf: leaves[3], at: base.nextUpdate! + 1).chain)
        // A CRL whose signature does not verify is not used.
        var forged = next.derBytes
        forged[forged.count - 5] ^= 1
        XCTAssertNil(decide(leaves[3], [try CRL(derEncoded: forged)]).chain)
    }

    func testRSACRLWithAbsentParametersSignedByOpenSSL() throws {
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("rsa.key"), "-out", path("rsa.pem"),
                     "-subj", "/CN=Sigil RSA CRL CA", "-days", "365", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
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
        XCTAssertEqual(parsed.revokedEntry(serialNumber: ASN1Integer(4242).twosComplementBytes, certificateIssuer: ca.subject)?.revocationDate,
                       1_735_689_600)
    }
}
