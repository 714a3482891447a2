import Foundation
import SigilCore
import SigilHTTP
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilOCSP

#if canImport(Glibc)
import Glibc
#endif

/// Online revocation checks against a real `openssl ocsp` responder on loopback (started here,
/// always stopped in tearDown), through every transport (URLSession; AsyncHTTPClient with the trait): good, revoked (time and
/// reason) and unknown certificates, caching until nextUpdate, chain checks from the
/// certificates' authorityInfoAccess, hard- and soft-fail, and a responder that is down or slow.
final class OCSPOnlineTests: XCTestCase {
    private var directory: URL!
    private var responder: Process?
    private var silentSocket: Int32 = -1

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-ocsp-online-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        stopResponder()
        if silentSocket >= 0 { close(silentSocket) }
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// SIGKILL (openssl's responder does not always stop on SIGTERM while it waits in accept) and
    /// a bounded wait for the exit, without blocking on a run loop.
    private func stopResponder() {
        guard let responder, responder.isRunning else { return }
        kill(responder.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while responder.isRunning && Date() < deadline { usleep(20_000) }
    }

    @discardableResult
    private func openssl(_ arguments: [String]) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return result
    }

    private func load(_ name: String) throws -> Certificate {
        try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))).first)
    }

    // MARK: loopback sockets

    /// A listening loopback socket; returns (descriptor, port).
    private func listeningSocket() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        // Not a skip: without a loopback socket the network-failure (retryable) cases go unproven.
        guard fd >= 0 else { throw LoopbackError(reason: "socket() failed, errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw LoopbackError(reason: "bind/listen on 127.0.0.1 failed, errno \(code)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func freePort() throws -> UInt16 {
        let (fd, port) = try listeningSocket()
        close(fd)
        return port
    }

    // MARK: PKI and responder

    /// CA, a delegated responder, and leaves good / revoked / unknown whose AIA points at `port`.
    private func makePKI(port: UInt16) throws {
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path(name))) }
        try write("ca.cnf", "[ext]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n")
        try write("leaf.cnf", "[ext]\nbasicConstraints=critical,CA:FALSE\nauthorityInfoAccess=OCSP;URI:http://127.0.0.1:\(port)/\n")
        try write("resp.cnf", "[ext]\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=OCSPSigning\n")
        for name in ["ca", "good", "revoked", "unknown", "resp"] {
            try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("\(name).key")])
        }
        try openssl([
            "req", "-x509", "-new", "-key", path("ca.key"), "-subj", "/CN=Online CA", "-days", "30", "-config", path("ca.cnf"),
            "-extensions", "ext", "-out", path("ca.pem"),
        ])
        for (name, serial, config) in [
            ("good", "1001", "leaf"), ("revoked", "1002", "leaf"), ("unknown", "1003", "leaf"), ("resp", "2001", "resp"),
        ] {
            try openssl(["req", "-new", "-key", path("\(name).key"), "-subj", "/CN=\(name)", "-out", path("\(name).csr")])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial", "0x\(serial)",
                "-days", "30", "-extfile", path("\(config).cnf"), "-extensions", "ext", "-out", path("\(name).pem"),
            ])
        }
        let expiry = "351231235959Z"
        try write(
            "index.txt", "V\t\(expiry)\t\t1001\tunknown\t/CN=good\nR\t\(expiry)\t260101120000Z,keyCompromise\t1002\tunknown\t/CN=revoked\n")
    }

    private func startResponder(port: UInt16) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Subprocess.require("openssl"))
        // openssl 3.0's -port takes a number only (it listens on every interface); the tests talk
        // to it on 127.0.0.1.
        process.arguments = [
            "ocsp", "-index", path("index.txt"), "-port", "\(port)", "-CA", path("ca.pem"),
            "-rsigner", path("resp.pem"), "-rkey", path("resp.key"), "-ndays", "1",
        ]
        // Readiness is read from openssl's own message, never probed with a bare connection:
        // openssl 3.0's responder spins at full CPU after a client connects and closes without a request.
        let log = path("responder.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        responder = process
        let deadline = Date().addingTimeInterval(10)
        while !((try? String(contentsOfFile: log, encoding: .utf8))?.contains("waiting for OCSP client connections") ?? false) {
            guard Date() < deadline, process.isRunning else {
                throw NSError(
                    domain: "OCSPOnlineTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "the openssl OCSP responder did not start"])
            }
            usleep(50_000)
        }
    }

    func testAgainstOpenSSLResponder() async throws {
        for (name, transport) in OCSPTestTransports.all {
            print("\(name) transport")
            try await againstOpenSSLResponder(transport)
            stopResponder()
        }
    }

    func againstOpenSSLResponder(_ transport: any OCSPTransport) async throws {
        let port = try freePort()
        try makePKI(port: port)
        try startResponder(port: port)
        let ca = try load("ca.pem")
        let good = try load("good.pem")
        let revoked = try load("revoked.pem")
        let unknown = try load("unknown.pem")
        XCTAssertEqual(good.ocspURLs, ["http://127.0.0.1:\(port)/"])
        let now = Int64(Date().timeIntervalSince1970)
        let checker = OCSPRevocationChecker(transport: transport, timeout: 5)

        let goodStatus = try await checker.status(of: good, issuer: ca, at: now)
        XCTAssertEqual(goodStatus.status, .good)
        XCTAssertEqual(goodStatus.signer.subject.commonName, "resp", "delegated responder")
        let revokedStatus = try await checker.status(of: revoked, issuer: ca, at: now)
        XCTAssertEqual(revokedStatus.status, .revoked(time: 1_767_268_800, reason: 1))
        let unknownStatus = try await checker.status(of: unknown, issuer: ca, at: now)
        XCTAssertEqual(unknownStatus.status, .unknown)
        // Cached until nextUpdate: no new fetch.
        let fetches = await checker.fetchCount
        _ = try await checker.status(of: good, issuer: ca, at: now + 60)
        let fetchesAfter = await checker.fetchCount
        XCTAssertEqual(fetchesAfter, fetches, "served from the cache")

        // Chains through the verifier, the OCSP URL taken from each leaf's authorityInfoAccess.
        let verifier = CertificateVerifier(trustedRoots: [ca])
        let fresh = OCSPRevocationChecker(transport: transport, timeout: 5)
        let goodChain = await verifier.verify(leaf: good, at: now, checkingRevocationWith: fresh)
        XCTAssertEqual(goodChain.chain, [good, ca], "\(goodChain.failures)")
        let revokedChain = await verifier.verify(leaf: revoked, at: now, checkingRevocationWith: fresh)
        XCTAssertTrue(
            revokedChain.failures.contains { if case .revoked(_, 1_767_268_800, 1) = $0 { true } else { false } },
            "\(revokedChain.failures)")
        let unknownChain = await verifier.verify(leaf: unknown, at: now, checkingRevocationWith: fresh)
        XCTAssertTrue(unknownChain.failures.contains { if case .revocationStatusUnknown = $0 { true } else { false } })

        // The responder goes down: hard-fail reports a retryable failure, soft-fail lets it pass.
        stopResponder()
        let hard = OCSPRevocationChecker(transport: transport, mode: .hardFail, timeout: 2)
        let start = Date()
        let down = await verifier.verify(leaf: good, at: now, checkingRevocationWith: hard)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertTrue(
            down.failures.contains { if case .revocationCheckFailed(_, _, true) = $0 { true } else { false } }, "\(down.failures)")
        let soft = OCSPRevocationChecker(transport: transport, mode: .softFail, timeout: 2)
        let tolerated = await verifier.verify(leaf: good, at: now, checkingRevocationWith: soft)
        XCTAssertNotNil(tolerated.chain, "\(tolerated.failures)")
        do {
            _ = try await hard.status(of: good, issuer: ca, at: now)
            XCTFail("a down responder must not answer")
        } catch {
            XCTAssertEqual(error.code, .retryable)
        }
    }

    /// A responder that accepts the connection and never answers: the retryable error arrives
    /// within the time bound.
    func testSlowResponderTimesOut() async throws {
        for (name, transport) in OCSPTestTransports.all {
            print("\(name) transport")
            try await slowResponderTimesOut(transport)
            if silentSocket >= 0 { close(silentSocket) }
            silentSocket = -1
        }
    }

    func slowResponderTimesOut(_ transport: any OCSPTransport) async throws {
        let (fd, port) = try listeningSocket()
        silentSocket = fd
        try makePKI(port: port)
        let ca = try load("ca.pem")
        let good = try load("good.pem")
        let checker = OCSPRevocationChecker(transport: transport, timeout: 1)
        let start = Date()
        do {
            _ = try await checker.status(of: good, issuer: ca, at: Int64(Date().timeIntervalSince1970))
            XCTFail("a silent responder must not answer")
        } catch {
            XCTAssertEqual(error.code, .retryable, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4, "within the time bound")
    }
}

/// A loopback socket could not be made: the test fails (it never skips), since the responder
/// and network-failure cases it proves need one.
struct LoopbackError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "loopback socket unavailable: \(reason)" }
}
