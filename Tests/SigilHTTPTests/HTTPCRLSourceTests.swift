import Foundation
import SigilHTTP
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilCRL

/// `HTTPCRLSource` against a loopback distribution point (Fixtures/crl_server.py, started on
/// 127.0.0.1 by the test and always stopped): certificates made by `openssl ca` name the server
/// in cRLDistributionPoints; the CRLs are fetched, cached (bounded by entries and bytes, until
/// nextUpdate), and decide revocation through `CRLRevocationChecker` and `RevocationPolicy`.
final class HTTPCRLSourceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-crl-http-\(UUID().uuidString)")
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

    private func certificate(_ name: String) throws -> Certificate {
        try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))).first)
    }

    /// A CA whose leaves 1–2 point at /a.crl and leaf 3 at /b.crl on `port`; leaf 2 revoked.
    private func makePKI(port: Int) throws {
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
            policy = policy_any
            unique_subject = no
            [ policy_any ]
            commonName = supplied
            [ a ]
            basicConstraints = critical,CA:FALSE
            crlDistributionPoints = URI:http://127.0.0.1:\(port)/a.crl
            [ b ]
            basicConstraints = critical,CA:FALSE
            crlDistributionPoints = URI:http://127.0.0.1:\(port)/b.crl

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: path("ca.cnf")))
        try FileManager.default.createDirectory(atPath: path("newcerts"), withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: path("index.txt")))
        try Data("2000\n".utf8).write(to: URL(fileURLWithPath: path("serial")))
        try Data("01\n".utf8).write(to: URL(fileURLWithPath: path("crlnumber")))
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
            "-out", path("ca.pem"), "-subj", "/CN=Sigil HTTP CRL CA", "-days", "365",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        for (i, section) in [(1, "a"), (2, "a"), (3, "b")] {
            try openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("l\(i).key"),
                "-out", path("l\(i).csr"), "-subj", "/CN=leaf \(i)",
            ])
            try openssl([
                "ca", "-batch", "-config", path("ca.cnf"), "-extensions", section, "-in", path("l\(i).csr"), "-out", path("l\(i).pem"),
            ])
        }
        try openssl(["ca", "-config", path("ca.cnf"), "-revoke", path("l2.pem"), "-crl_reason", "keyCompromise"])
        for name in ["a", "b"] {
            try openssl([
                "ca", "-config", path("ca.cnf"), "-gencrl", "-crl_lastupdate", "20250101000000Z",
                "-crl_nextupdate", "20350101000000Z", "-out", path("\(name).pem"),
            ])
            try openssl(["crl", "-in", path("\(name).pem"), "-outform", "der", "-out", path("served/\(name).crl")])
        }
    }

    func testFetchingCachingAndDeciding() async throws {
        try FileManager.default.createDirectory(atPath: path("served"), withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/crl_server.py")
        let server = try LoopbackScript(script: script, arguments: [path("served")])
        defer { server.stop() }
        try makePKI(port: server.port)
        let ca = try certificate("ca.pem")
        let l1 = try certificate("l1.pem")
        let l2 = try certificate("l2.pem")
        let l3 = try certificate("l3.pem")
        let time = Int64(Date().timeIntervalSince1970) + 60
        let verifier = CertificateVerifier(trustedRoots: [ca], policies: [RFC5280Policy()])

        // Fetched once, then from the cache; the revoked leaf is refused.
        let source = HTTPCRLSource(timeout: 5)
        let checker = CRLRevocationChecker(source: source)
        let good = await verifier.verify(leaf: l1, at: time, checkingRevocationWith: checker)
        XCTAssertNotNil(good.chain, "\(good.failures)")
        let revoked = await verifier.verify(leaf: l2, at: time, checkingRevocationWith: checker)
        XCTAssertTrue(revoked.failures.contains { if case .revoked(_, _, 1) = $0 { true } else { false } }, "\(revoked.failures)")
        let afterTwo = await source.fetchCount
        XCTAssertEqual(afterTwo, 1, "the second certificate's CRL came from the cache")
        let usage = await source.cacheUsage
        XCTAssertEqual(usage.entries, 1)
        XCTAssertEqual(usage.bytes, try Data(contentsOf: URL(fileURLWithPath: path("served/a.crl"))).count)

        // A cache of one entry: a.crl, b.crl, a.crl again means three fetches.
        let small = HTTPCRLSource(timeout: 5, cacheEntryLimit: 1)
        let smallChecker = CRLRevocationChecker(source: small)
        for leaf in [l1, l3, l1] { _ = await verifier.verify(leaf: leaf, at: time, checkingRevocationWith: smallChecker) }
        let smallFetches = await small.fetchCount
        XCTAssertEqual(smallFetches, 3)
        // A byte limit below one CRL caches nothing.
        let tiny = HTTPCRLSource(timeout: 5, cacheByteLimit: 16)
        for _ in 0..<2 { _ = try await tiny.crls(for: l1, issuer: ca, at: time) }
        let tinyFetches = await tiny.fetchCount
        XCTAssertEqual(tinyFetches, 2)
        let tinyUsage = await tiny.cacheUsage
        XCTAssertEqual(tinyUsage.entries, 0)

        // Past nextUpdate the cached CRL is not used: fetched again (and, being stale, decides nothing).
        let late = Int64(2_051_222_400 + 86_400)  // nextUpdate 2035-01-01T00:00:00Z + 1 day
        _ = try await source.crls(for: l1, issuer: ca, at: late)
        let refetched = await source.fetchCount
        XCTAssertEqual(refetched, 2)

        // A distribution point that answers 404: the check fails as retryable.
        try FileManager.default.removeItem(atPath: path("served/b.crl"))
        let missing = await verifier.verify(
            leaf: l3, at: time, checkingRevocationWith: CRLRevocationChecker(source: HTTPCRLSource(timeout: 5)))
        XCTAssertTrue(
            missing.failures.contains { if case .revocationCheckFailed(_, _, true) = $0 { true } else { false } }, "\(missing.failures)")

        // Composition: CRL or an offline set that knows nothing → the CRL answer stands; a revoked
        // certificate stays revoked whatever the other checker says.
        let nothing = CRLRevocationChecker(source: OfflineCRLSource([]))
        let either = RevocationPolicy.anyOf([nothing, checker])
        let eitherGood = await verifier.verify(leaf: l1, at: time, checkingRevocationWith: either)
        XCTAssertNotNil(eitherGood.chain)
        let eitherRevoked = await verifier.verify(leaf: l2, at: time, checkingRevocationWith: RevocationPolicy.anyOf([checker, nothing]))
        XCTAssertNil(eitherRevoked.chain)
        let both = await verifier.verify(leaf: l1, at: time, checkingRevocationWith: RevocationPolicy.allOf([checker, nothing]))
        XCTAssertNil(both.chain, "allOf needs every checker to decide")
        let count = try await URLSessionHTTPTransport().send(
            HTTPRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/__count"),
            timeout: 5, maximumResponseSize: 64)
        XCTAssertGreaterThanOrEqual(Int(String(decoding: count.body, as: UTF8.self)) ?? 0, 7)
    }
}
