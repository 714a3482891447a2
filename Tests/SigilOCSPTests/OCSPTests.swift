import Foundation
import SigilASN1
import SigilBase
import SigilCore
import SigilKeys
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilOCSP

/// OCSP against the openssl CLI as the peer: request bytes identical to `openssl ocsp -reqout`,
/// and responses made by `openssl ocsp -index … -respout` (issuer-signed and delegated, good,
/// revoked and unknown) parsed and verified here, with each kind of bad response rejected by its
/// own error code. (Online checks against a live responder come with the transport.)
final class OCSPTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-ocsp-\(UUID().uuidString)")
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

    private func load(_ name: String) throws -> Certificate {
        try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))).first)
    }

    private func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    /// A CA (P-256), three leaves (good, revoked, not in the index), a delegated responder with
    /// id-kp-OCSPSigning, one without it, and an unrelated key; the index marks the second leaf revoked.
    private func makePKI() throws {
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path(name))) }
        try write("ca.cnf", "[ext]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n")
        // The leaves name a responder (never reached: the tests' transports answer with openssl).
        try write(
            "leaf.cnf",
            "[ext]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nauthorityInfoAccess=OCSP;URI:http://ocsp.invalid/\n"
        )
        try write(
            "resp.cnf", "[ext]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=OCSPSigning\n")
        for name in ["ca", "good", "revoked", "unknown", "resp", "noeku", "rogue"] {
            try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("\(name).key")])
        }
        try openssl([
            "req", "-x509", "-new", "-key", path("ca.key"), "-subj", "/CN=OCSP Test CA", "-days", "30", "-config", path("ca.cnf"),
            "-extensions", "ext", "-out", path("ca.pem"),
        ])
        for (name, serial, config) in [
            ("good", "1001", "leaf"), ("revoked", "1002", "leaf"), ("unknown", "1003", "leaf"),
            ("resp", "2001", "resp"), ("noeku", "2002", "leaf"),
        ] {
            try openssl(["req", "-new", "-key", path("\(name).key"), "-subj", "/CN=\(name)", "-out", path("\(name).csr")])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial",
                "0x\(serial)", "-days", "30", "-extfile", path("\(config).cnf"), "-extensions", "ext", "-out", path("\(name).pem"),
            ])
        }
        try openssl([
            "req", "-x509", "-new", "-key", path("rogue.key"), "-subj", "/CN=OCSP Test CA", "-days", "30", "-out", path("rogue.pem"),
        ])
        // index.txt: V (valid) / R (revoked, with revocation date and reason) lines, tab-separated.
        let good = try load("good.pem")
        let revoked = try load("revoked.pem")
        func expiry(_ c: Certificate) -> String {
            let t = c.validity.notAfterComponents
            return String(format: "%02d%02d%02d%02d%02d%02dZ", t.year % 100, t.month, t.day, t.hour, t.minute, t.second)
        }
        try write(
            "index.txt",
            "V\t\(expiry(good))\t\t1001\tunknown\t/CN=good\n"
                + "R\t\(expiry(revoked))\t260101120000Z,keyCompromise\t1002\tunknown\t/CN=revoked\n")
    }

    /// openssl's response to a request file, signed by `signer` (the CA or a delegated responder).
    private func respond(_ request: String, signer: String, out: String, extra: [String] = []) throws -> [UInt8] {
        try openssl(
            [
                "ocsp", "-index", path("index.txt"), "-CA", path("ca.pem"), "-rsigner", path("\(signer).pem"),
                "-rkey", path("\(signer).key"), "-reqin", path(request), "-respout", path(out), "-ndays", "1",
            ] + extra)
        return try bytes(out)
    }

    func testRequestBytesEqualOpenSSL() throws {
        try makePKI()
        let ca = try load("ca.pem")
        for name in ["good", "revoked"] {
            let certificate = try load("\(name).pem")
            for (hash, flag) in [(HashAlgorithm.sha1, [String]()), (.sha256, ["-sha256"])] {
                // openssl wants the digest option before -cert.
                try openssl(
                    ["ocsp", "-issuer", path("ca.pem")] + flag + ["-cert", path("\(name).pem"), "-no_nonce", "-reqout", path("req.der")])
                let ours = try OCSPRequest(certIDs: [CertID(certificate: certificate, issuer: ca, hash: hash)]).derRepresentation
                XCTAssertEqual(Hex.encode(ours), Hex.encode(try bytes("req.der")), "\(name) \(hash)")
            }
        }
        // Two certificates in one request, as openssl writes them.
        try openssl([
            "ocsp", "-issuer", path("ca.pem"), "-cert", path("good.pem"), "-cert", path("revoked.pem"), "-no_nonce", "-reqout",
            path("req2.der"),
        ])
        let two = try OCSPRequest(certIDs: [
            CertID(certificate: try load("good.pem"), issuer: ca), CertID(certificate: try load("revoked.pem"), issuer: ca),
        ])
        XCTAssertEqual(two.derRepresentation, try bytes("req2.der"))
        // With a nonce: openssl parses our request and shows the nonce we chose.
        let nonce = Array(0..<32).map { UInt8($0) }
        let withNonce = try OCSPRequest(certIDs: [CertID(certificate: try load("good.pem"), issuer: ca)], nonce: nonce)
        try Data(withNonce.derRepresentation).write(to: URL(fileURLWithPath: path("nonce.der")))
        let text = try openssl(["ocsp", "-reqin", path("nonce.der"), "-req_text"]).stdoutString
        XCTAssertTrue(text.contains("OCSP Nonce"), text)
        XCTAssertTrue(text.replacingOccurrences(of: ":", with: "").lowercased().contains("0420" + Hex.encode(nonce)), text)
        XCTAssertThrowsError(try OCSPRequest(certIDs: [], nonce: nil))
        XCTAssertThrowsError(try OCSPRequest(certIDs: withNonce.certIDs, nonce: []))
        XCTAssertThrowsError(try OCSPRequest(certIDs: withNonce.certIDs, nonce: [UInt8](repeating: 1, count: 33)))
    }

    func testResponsesFromOpenSSL() throws {
        try makePKI()
        let ca = try load("ca.pem")
        let now = Int64(Date().timeIntervalSince1970)
        let verifier = OCSPResponseVerifier()
        var rng = SeededGenerator(seed: 81)
        for signer in ["ca", "resp"] {
            for (name, expected) in [("good", "good"), ("revoked", "revoked"), ("unknown", "unknown")] {
                let certificate = try load("\(name).pem")
                for hash in [HashAlgorithm.sha1, .sha256] {
                    let request = OCSPRequest.forCertificate(certificate, issuer: ca, hash: hash, using: &rng)
                    try Data(request.derRepresentation).write(to: URL(fileURLWithPath: path("q.der")))
                    let responseBytes = try respond("q.der", signer: signer, out: "r.der")
                    let response = try OCSPResponse(derEncoded: responseBytes)
                    XCTAssertEqual(response.status, .successful)
                    let verified = try verifier.verify(response, certificate: certificate, issuer: ca, requestNonce: request.nonce, at: now)
                    let label = "\(name) signed by \(signer) (\(hash))"
                    switch (verified.status, expected) {
                    case (.good, "good"), (.unknown, "unknown"): break
                    case (.revoked(let time, let reason), "revoked"):
                        // 2026-01-01T12:00:00Z, keyCompromise (1).
                        XCTAssertEqual(time, 1_767_268_800, label)
                        XCTAssertEqual(reason, 1, label)
                    default: XCTFail("\(label): got \(verified.status)")
                    }
                    XCTAssertEqual(verified.signer.subject.commonName, signer == "ca" ? "OCSP Test CA" : "resp", label)
                    XCTAssertNotNil(verified.nextUpdate)

                    // Rejections, each with its own code.
                    func code(_ body: () throws -> OCSPVerifiedStatus) -> OCSPError.Code? {
                        do {
                            _ = try body()
                            return nil
                        } catch { return (error as? OCSPError)?.code }
                    }
                    // A wrong CertID: ask about another certificate.
                    let other = try load(name == "good" ? "revoked.pem" : "good.pem")
                    XCTAssertEqual(code { try verifier.verify(response, certificate: other, issuer: ca, at: now) }, .certIDMismatch, label)
                    // A mismatched nonce.
                    XCTAssertEqual(
                        code { try verifier.verify(response, certificate: certificate, issuer: ca, requestNonce: [1, 2, 3], at: now) },
                        .nonceMismatch, label)
                    // Stale: two days later nextUpdate (one day) has passed; a day earlier thisUpdate is in the future.
                    XCTAssertEqual(
                        code { try verifier.verify(response, certificate: certificate, issuer: ca, at: now + 2 * 86_400) }, .stale, label)
                    // (A day earlier the delegated responder's own certificate is not yet valid, which is checked first.)
                    XCTAssertEqual(
                        code { try verifier.verify(response, certificate: certificate, issuer: ca, at: now - 86_400) },
                        signer == "ca" ? .stale : .unauthorizedResponder, label)
                    // A tampered byte inside the signed ResponseData (the last byte of the nonce
                    // extension, so it still parses).
                    var tampered = responseBytes
                    if let nonce = request.nonce, let at = findLast(nonce, in: tampered) {
                        tampered[at + nonce.count - 1] ^= 0x01
                        let bad = try OCSPResponse(derEncoded: tampered)
                        var changedNonce = nonce
                        changedNonce[nonce.count - 1] ^= 0x01
                        XCTAssertEqual(
                            code { try verifier.verify(bad, certificate: certificate, issuer: ca, requestNonce: changedNonce, at: now) },
                            .invalidSignature, label)
                    }
                    // Verified against an unrelated issuer (same name, other key): not the signer.
                    let rogue = try load("rogue.pem")
                    XCTAssertNotNil(code { try verifier.verify(response, certificate: certificate, issuer: rogue, at: now) }, label)
                }
            }
        }
        // A response signed by an unrelated key (the rogue CA signs as if it were the CA).
        let good = try load("good.pem")
        let request = OCSPRequest.forCertificate(good, issuer: ca, withNonce: false, using: &rng)
        try Data(request.derRepresentation).write(to: URL(fileURLWithPath: path("q.der")))
        try openssl([
            "ocsp", "-index", path("index.txt"), "-CA", path("ca.pem"), "-rsigner", path("rogue.pem"), "-rkey", path("rogue.key"),
            "-reqin", path("q.der"), "-respout", path("rogue.der"), "-ndays", "1",
        ])
        let rogueResponse = try OCSPResponse(derEncoded: try bytes("rogue.der"))
        XCTAssertThrowsError(try verifier.verify(rogueResponse, certificate: good, issuer: ca, at: now)) {
            XCTAssertEqual(($0 as? OCSPError)?.code, .invalidSignature, "\($0)")
        }
        // responderID byKey (openssl -resp_key_id), issuer-signed and delegated.
        for signer in ["ca", "resp"] {
            try openssl([
                "ocsp", "-index", path("index.txt"), "-CA", path("ca.pem"), "-rsigner", path("\(signer).pem"), "-rkey",
                path("\(signer).key"),
                "-reqin", path("q.der"), "-respout", path("bykey-\(signer).der"), "-ndays", "1", "-resp_key_id",
            ])
            let byKey = try OCSPResponse(derEncoded: try bytes("bykey-\(signer).der"))
            guard case .byKey(let hash)? = byKey.basic?.responderID else { return XCTFail("expected a byKey responderID") }
            let signerCertificate = try load("\(signer).pem")
            XCTAssertEqual(hash, SHA1.hash(signerCertificate.subjectPublicKeyInfo.subjectPublicKey.bytes))
            XCTAssertEqual(try verifier.verify(byKey, certificate: good, issuer: ca, at: now).signer, signerCertificate)
        }
        // A delegated responder without id-kp-OCSPSigning is not authorized.
        try openssl([
            "ocsp", "-index", path("index.txt"), "-CA", path("ca.pem"), "-rsigner", path("noeku.pem"), "-rkey", path("noeku.key"),
            "-reqin", path("q.der"), "-respout", path("noeku.der"), "-ndays", "1",
        ])
        let noEKU = try OCSPResponse(derEncoded: try bytes("noeku.der"))
        XCTAssertThrowsError(try verifier.verify(noEKU, certificate: good, issuer: ca, at: now)) {
            XCTAssertEqual(($0 as? OCSPError)?.code, .unauthorizedResponder, "\($0)")
        }
    }

    /// 20,000 seeded mutants of openssl-made responses (issuer-signed and delegated, with certs):
    /// the parser and verifier never crash, and no mutant verifies as anything but what the
    /// original said unless its signed bytes are unchanged.
    func testTwentyThousandResponseMutants() throws {
        try makePKI()
        let ca = try load("ca.pem")
        let good = try load("good.pem")
        let revoked = try load("revoked.pem")
        var rng = SeededGenerator(seed: 91)
        var originals: [([UInt8], Certificate, [UInt8]?)] = []
        for (signer, certificate) in [("ca", good), ("resp", revoked)] {
            let request = OCSPRequest.forCertificate(certificate, issuer: ca, using: &rng)
            try Data(request.derRepresentation).write(to: URL(fileURLWithPath: path("m.der")))
            originals.append((try respond("m.der", signer: signer, out: "m-\(signer).der"), certificate, request.nonce))
        }
        let now = Int64(Date().timeIntervalSince1970)
        let verifier = OCSPResponseVerifier()
        var parsed = 0
        var verified = 0
        for i in 0..<20_000 {
            let (original, certificate, nonce) = originals[i % originals.count]
            var bytes = original
            let position = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 5 {
            case 0: bytes[position] ^= UInt8(1 << (rng.next() % 8))
            case 1: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes.removeSubrange(position...)
            case 3: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
            default: bytes.remove(at: position)
            }
            guard bytes != original, let response = try? OCSPResponse(derEncoded: bytes) else { continue }
            parsed += 1
            if let result = try? verifier.verify(response, certificate: certificate, issuer: ca, requestNonce: nonce, at: now) {
                verified += 1
                let originalBasic = try XCTUnwrap(OCSPResponse(derEncoded: original).basic)
                XCTAssertEqual(response.basic?.tbsResponseData, originalBasic.tbsResponseData, "a mutant with altered signed data verified")
                XCTAssertEqual(response.basic?.signature, originalBasic.signature)
                _ = result
            }
        }
        XCTAssertGreaterThan(parsed, 500)
        print("OCSP response mutants: 20000 generated, \(parsed) parsed, \(verified) verified (signed bytes unchanged)")
    }

    /// A transport double that hands each request to `openssl ocsp -reqin` (so nonces are echoed).
    struct OpenSSLTransport: OCSPTransport {
        let directory: URL
        func post(_ request: [UInt8], to url: String, timeout: Double, maximumResponseSize: Int) async throws -> [UInt8] {
            let name = UUID().uuidString
            let requestFile = directory.appendingPathComponent("\(name).req")
            let responseFile = directory.appendingPathComponent("\(name).resp")
            try Data(request).write(to: requestFile)
            let result = try Subprocess.run(
                try Subprocess.require("openssl"),
                [
                    "ocsp", "-index", directory.appendingPathComponent("index.txt").path, "-CA",
                    directory.appendingPathComponent("ca.pem").path,
                    "-rsigner", directory.appendingPathComponent("ca.pem").path, "-rkey", directory.appendingPathComponent("ca.key").path,
                    "-reqin", requestFile.path, "-respout", responseFile.path, "-ndays", "1",
                ])
            guard result.status == 0 else { throw OCSPError(.retryable, "openssl failed") }
            return Array(try Data(contentsOf: responseFile))
        }
    }

    /// The cache answers until nextUpdate and holds at most `cacheLimit` entries (oldest evicted).
    func testCacheIsBounded() async throws {
        try makePKI()
        let ca = try load("ca.pem")
        let good = try load("good.pem")
        let revoked = try load("revoked.pem")
        let now = Int64(Date().timeIntervalSince1970)
        for (limit, expectedFetches) in [(1, 3), (2, 2)] {
            let checker = OCSPRevocationChecker(transport: OpenSSLTransport(directory: directory), cacheLimit: limit)
            _ = try await checker.status(of: good, issuer: ca, at: now, url: "http://unused.invalid/")
            _ = try await checker.status(of: revoked, issuer: ca, at: now, url: "http://unused.invalid/")
            let again = try await checker.status(of: good, issuer: ca, at: now, url: "http://unused.invalid/")
            XCTAssertEqual(again.status, .good)
            let fetches = await checker.fetchCount
            XCTAssertEqual(fetches, expectedFetches, "cache limit \(limit)")
            // After nextUpdate (one day), the cached answer is not used.
            do {
                _ = try await checker.status(of: good, issuer: ca, at: now + 2 * 86_400, url: "http://unused.invalid/")
            } catch {
                XCTAssertEqual(error.code, .stale, "a fresh fetch, judged at that later time")
            }
            let later = await checker.fetchCount
            XCTAssertEqual(later, expectedFetches + 1)
        }
    }

    /// A transport that answers through openssl and keeps every response body it returned.
    final class RecordingTransport: OCSPTransport {
        let base: OpenSSLTransport
        let bodies = Locked<[[UInt8]]>([])
        init(directory: URL) { base = OpenSSLTransport(directory: directory) }
        func post(_ request: [UInt8], to url: String, timeout: Double, maximumResponseSize: Int) async throws -> [UInt8] {
            let body = try await base.post(request, to: url, timeout: timeout, maximumResponseSize: maximumResponseSize)
            bodies.withValue { $0.append(body) }
            return body
        }
    }

    /// Offline revocation (issue 47): the responses the online checker fetched, given to
    /// `OfflineOCSPRevocationChecker`, give the same verdicts and failures through the synchronous
    /// `verify(…, checkingRevocationWith:)` as the online checker through the asynchronous one —
    /// good, revoked, unknown — and the offline checker through the asynchronous API agrees too.
    /// Without a response about the leaf it fails the chain in hard-fail mode only; a response
    /// past its nextUpdate fails it as not retryable.
    func testOfflineResponsesGiveTheOnlineVerdicts() async throws {
        try makePKI()
        let ca = try load("ca.pem")
        let now = Int64(Date().timeIntervalSince1970)
        let verifier = CertificateVerifier(trustedRoots: [ca], policies: [])
        var fetched: [String: [OCSPResponse]] = [:]
        for name in ["good", "revoked", "unknown"] {
            let leaf = try load("\(name).pem")
            let transport = RecordingTransport(directory: directory)
            let online = await verifier.verify(leaf: leaf, at: now, checkingRevocationWith: OCSPRevocationChecker(transport: transport))
            let responses = try transport.bodies.withValue { $0 }.map { try OCSPResponse(derEncoded: $0) }
            XCTAssertEqual(responses.count, 1, name)
            fetched[name] = responses
            let offline = OfflineOCSPRevocationChecker(responses: responses)
            let sync = Self.offline(verifier, leaf, now, offline)
            let async = await verifier.verify(leaf: leaf, at: now, checkingRevocationWith: offline as any RevocationChecker)
            XCTAssertEqual(sync.chain, online.chain, name)
            XCTAssertEqual(sync.failures, online.failures, name)
            XCTAssertEqual(async.failures, online.failures, name)
            switch name {
            case "good": XCTAssertNotNil(sync.chain, "\(sync.failures)")
            case "revoked":
                XCTAssertEqual(sync.failures.count, 1)
                XCTAssertTrue(sync.failures.allSatisfy { if case .revoked = $0 { true } else { false } }, "\(sync.failures)")
            default:
                XCTAssertEqual(sync.failures.count, 1)
                XCTAssertTrue(
                    sync.failures.allSatisfy { if case .revocationStatusUnknown = $0 { true } else { false } }, "\(sync.failures)")
            }
        }
        // The good leaf with only the revoked leaf's response: nothing about it.
        let good = try load("good.pem")
        let other = try XCTUnwrap(fetched["revoked"])
        for (mode, passes) in [(OCSPRevocationChecker.Mode.hardFail, false), (.softFail, true)] {
            let result = Self.offline(verifier, good, now, OfflineOCSPRevocationChecker(responses: other, mode: mode))
            XCTAssertEqual(result.chain != nil, passes, "\(mode): \(result.failures)")
            let none = Self.offline(verifier, good, now, OfflineOCSPRevocationChecker(responses: [], mode: mode))
            XCTAssertEqual(none.failures, result.failures, "\(mode)")
        }
        // Both responses: the one about the leaf decides.
        let both = OfflineOCSPRevocationChecker(responses: other + (fetched["good"] ?? []))
        XCTAssertNotNil(Self.offline(verifier, good, now, both).chain)
        // Two days later the response has expired (nextUpdate one day on): not retryable, even soft.
        let stale = Self.offline(
            verifier, good, now, OfflineOCSPRevocationChecker(responses: fetched["good"] ?? [], mode: .softFail), asOf: now + 2 * 86_400)
        XCTAssertEqual(stale.failures.count, 1)
        guard case .revocationCheckFailed(_, let reason, let retryable)? = stale.failures.first else {
            return XCTFail("\(stale.failures)")
        }
        XCTAssertFalse(retryable)
        XCTAssertTrue(reason.hasPrefix("stale"), reason)
    }

    /// The synchronous entry point (in asynchronous code the asynchronous overload is chosen).
    static func offline(
        _ verifier: CertificateVerifier, _ leaf: Certificate, _ time: Int64, _ checker: OfflineOCSPRevocationChecker, asOf: Int64? = nil
    ) -> CertificateVerifier.Result {
        verifier.verify(leaf: leaf, at: time, checkingRevocationWith: checker, asOf: asOf ?? time)
    }

    private func findLast(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }
}

/// The OCSP parsing findings of issue 18 against real responses pyca/cryptography reads
/// (Vectors/pyca): a US Army responder signing with sha256WithRSAEncryption without parameters
/// (RFC 4055 §5), and a CertID naming a hash algorithm nobody knows.
final class OCSPParsingFindingsTests: XCTestCase {
    func testArmyResponseWithAbsentRSAParametersParsesAndVerifies() throws {
        let response = try OCSPResponse(derEncoded: Array(try Data(contentsOf: TestPaths.vectors("pyca/ocsp-army.deps.mil-resp.der"))))
        let basic = try XCTUnwrap(response.basic)
        XCTAssertNil(basic.signatureAlgorithmIdentifier.parameters)
        XCTAssertEqual(basic.signatureAlgorithm, .rsaPKCS1v15(.sha256))
        XCTAssertEqual(basic.responses.count, 20)
        // The responder's own certificate, carried in the response, verifies the signature.
        let responder = try XCTUnwrap(basic.certificates.first)
        XCTAssertNoThrow(
            try responder.publicKey.verifySignatureVartime(
                basic.signature, over: basic.tbsResponseData,
                algorithm: basic.signatureAlgorithm
            ).get())
        var tampered = basic.tbsResponseData
        tampered[tampered.count - 1] ^= 1
        XCTAssertThrowsError(
            try responder.publicKey.verifySignatureVartime(basic.signature, over: tampered, algorithm: basic.signatureAlgorithm).get())
    }

    func testCertIDWithUnknownHashIsShownAndNeverMatched() throws {
        let response = try OCSPResponse(derEncoded: Array(try Data(contentsOf: TestPaths.vectors("pyca/resp-unknown-hash-alg.der"))))
        let single = try XCTUnwrap(response.basic?.responses.first)
        XCTAssertNil(single.certID.hashAlgorithm)
        XCTAssertEqual(single.certID.hashAlgorithmIdentifier.algorithm, [1, 3, 14, 3, 2, 26, 17])
        // Never matches, not even a CertID made of the very same bytes.
        XCTAssertFalse(single.certID.sameCertificate(as: single.certID))
        let certificate = try Certificate(derEncoded: Array(try Data(contentsOf: TestPaths.vectors("pkits/certs/GoodCACert.crt"))))
        XCTAssertFalse(single.certID.matches(certificate: certificate, issuer: certificate))
    }
}
