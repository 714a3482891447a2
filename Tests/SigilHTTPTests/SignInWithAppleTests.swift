import Foundation
import SigilAppStore
import SigilCore
import SigilHTTP
import SigilJOSE
import SigilKeys
import SigilTestSupport
import SigilTokens
import XCTest

/// Sign in with Apple: identity tokens signed with RSA keys generated here (by the openssl CLI, an
/// independent signer), a JWKS served by the loopback server, the token and revoke endpoints with
/// their form bodies and client secrets checked by the server.
final class SignInWithAppleTests: XCTestCase {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An RSA key pair in a temporary PEM file, and its public JWK.
    struct RSAKey {
        let file: String
        let jwk: JWK
    }

    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-siwa-\(UUID().uuidString)")
    nonisolated(unsafe) static var keys: [String: RSAKey] = [:]

    /// Generated once per run (RSA generation takes a moment): "A" and "B" both use kid k1 (B is
    /// the key of a different JWKS), "C" is a later, rotated-in key with kid k2.
    func key(_ name: String) throws -> RSAKey {
        if let key = Self.keys[name] { return key }
        guard let openssl = Subprocess.which("openssl") else {
            throw Failure(description: "openssl is not installed; it signs the test tokens")
        }
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        let file = Self.directory.appendingPathComponent("\(name).pem").path
        let made = try Subprocess.run(openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", file])
        guard made.status == 0 else {
            throw Failure(description: "openssl genpkey failed: \(String(decoding: made.stderr, as: UTF8.self))")
        }
        let spki = try Subprocess.run(openssl, ["pkey", "-in", file, "-pubout", "-outform", "DER"])
        let kid = name == "C" ? "k2" : "k1"
        let key = RSAKey(file: file, jwk: JWK(rsa: try RSAPublicKey(spkiDER: Array(spki.stdout)), algorithm: .rs256, keyID: kid))
        Self.keys[name] = key
        return key
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        keys = [:]
        super.tearDown()
    }

    static func jwks(_ keys: [RSAKey]) -> String {
        JSONValue.object([("keys", .array(keys.map(\.jwk.json)))]).serialized
    }

    let now: Int64 = 1_790_000_000

    func claims(
        aud: String = "com.example.web", iss: String = "https://appleid.apple.com", exp: Int64? = nil, iat: Int64? = nil,
        extra: [(String, JSONValue)] = []
    ) -> JSONValue {
        .object(
            [
                ("iss", .string(iss)), ("aud", .string(aud)), ("exp", .int(exp ?? now + 600)), ("iat", .int(iat ?? now - 10)),
                ("sub", .string("001234.abcdef.0042")),
            ] + extra)
    }

    /// A compact JWS signed by openssl with `key` (RS256), or unsigned / HMAC for the refusal cases.
    func token(_ payload: JSONValue, key: RSAKey?, alg: String = "RS256", kid: String? = nil) throws -> String {
        var header: [(String, JSONValue)] = [("alg", .string(alg))]
        if let kid = kid ?? key?.jwk.keyID { header.append(("kid", .string(kid))) }
        let input =
            Base64URL.encode(Array(JSONValue.object(header).serialized.utf8)) + "." + Base64URL.encode(Array(payload.serialized.utf8))
        switch (alg, key) {
        case ("RS256", let key?):
            let signed = try Subprocess.run(
                try Subprocess.require("openssl"), ["dgst", "-sha256", "-sign", key.file], stdin: Data(input.utf8))
            guard signed.status == 0 else { throw Failure(description: "openssl dgst -sign failed") }
            return input + "." + Base64URL.encode(Array(signed.stdout))
        case ("none", _):
            return input + "."
        default:
            return input + "." + Base64URL.encode(HMAC<SHA256>.authenticationCode(key: Array("secret".utf8), message: Array(input.utf8)))
        }
    }

    func testIdentityTokenVerificationAndEachRefusal() throws {
        let a = try key("A")
        let b = try key("B")
        let keys = try JWKS(parsing: Array(Self.jwks([a]).utf8))
        let verifier = AppleIdentityTokenVerifier(clientIDs: ["com.example.app", "com.example.web"], leeway: 30)
        let t = Double(now)

        let good = try token(
            claims(extra: [
                ("nonce", .string("n-123")), ("email", .string("x@privaterelay.appleid.com")),
                ("email_verified", .string("true")), ("is_private_email", .bool(true)),
                ("real_user_status", .int(2)), ("transfer_sub", .string("old.sub")), ("auth_time", .int(now - 20)),
                ("nonce_supported", .bool(true)),
            ]), key: a)
        let verified = try verifier.verify(good, keys: keys, now: t, nonce: "n-123")
        XCTAssertEqual(verified.subject, "001234.abcdef.0042")
        XCTAssertEqual(verified.keyID, "k1")
        XCTAssertEqual(verified.audience, ["com.example.web"])
        XCTAssertEqual(verified.email, "x@privaterelay.appleid.com")
        XCTAssertEqual(verified.emailVerified, true, "Apple's string \"true\" is read as a boolean")
        XCTAssertEqual(verified.isPrivateEmail, true)
        XCTAssertEqual(verified.realUserStatus, .likelyReal)
        XCTAssertEqual(verified.transferSubject, "old.sub")
        XCTAssertEqual(verified.authTime, Double(now - 20))
        XCTAssertEqual(verified.nonceSupported, true)
        XCTAssertEqual(verified.nonce, "n-123")

        func code(_ token: String, nonce: String? = nil, at time: Double? = nil) -> JOSEError.Code? {
            do {
                _ = try verifier.verify(token, keys: keys, now: time ?? t, nonce: nonce)
                return nil
            } catch {
                return error.code
            }
        }
        // The six refusals the issue names, each with its own error.
        let refusals: [(String, JOSEError.Code)] = [
            (try token(claims(aud: "com.other.app"), key: a), .audienceMismatch),
            (try token(claims(iss: "https://appleid.example.com"), key: a), .issuerMismatch),
            (try token(claims(exp: now - 120, iat: now - 700), key: a), .expired),
            (try token(claims(), key: a, kid: "k9"), .unknownKeyID),
            (try token(claims(), key: nil, alg: "none", kid: "k1"), .algorithmMismatch),
            (try token(claims(), key: nil, alg: "HS256", kid: "k1"), .algorithmMismatch),
            (try token(claims(), key: b), .invalidSignature),
        ]
        for (index, (refused, expected)) in refusals.enumerated() {
            XCTAssertEqual(code(refused), expected, "case \(index)")
        }
        XCTAssertEqual(Set(refusals.map(\.1)).count, 6, "aud, iss, exp, kid, alg and foreign key each have a distinct error")

        // Leeway, iat, nonce, Apple's booleans, a tampered payload.
        XCTAssertNil(code(try token(claims(exp: now - 20), key: a)), "within the 30 s leeway")
        XCTAssertEqual(code(try token(claims(iat: now + 300), key: a)), .notYetValid)
        XCTAssertEqual(code(good, nonce: "other"), .invalidClaim)
        XCTAssertEqual(code(try token(claims(), key: a), nonce: "n-123"), .invalidClaim, "an expected nonce must be present")
        XCTAssertEqual(code(try token(claims(extra: [("email_verified", .string("yes"))]), key: a)), .invalidClaim)
        let parts = good.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Base64URL.encode(Array(claims(aud: "com.example.app").serialized.utf8)) + "." + parts[2]
        XCTAssertEqual(code(forged), .invalidSignature)
        XCTAssertEqual(code("not.a-token"), .malformed)
    }

    /// Server-to-server notifications: the identity token's checks, then the events claim (a
    /// string of JSON as Apple sends it, or an object), unknown types and members kept.
    func testServerNotificationVerificationAndEachRefusal() throws {
        let a = try key("A")
        let b = try key("B")
        let keys = try JWKS(parsing: Array(Self.jwks([a]).utf8))
        let verifier = AppleIDServerNotificationVerifier(clientIDs: ["com.example.app"], leeway: 30)
        let t = Double(now)
        func notification(
            aud: String = "com.example.app", iss: String = "https://appleid.apple.com", exp: Int64? = nil, iat: Int64? = nil,
            events: JSONValue? = nil, jti: String? = "jti-1"
        ) -> JSONValue {
            let event = JSONValue.object([
                ("type", .string("email-disabled")), ("sub", .string("001234.abcdef.0042")),
                ("email", .string("x@privaterelay.appleid.com")),
                ("is_private_email", .string("true")), ("event_time", .int(now * 1000 - 500)),
            ])
            var members: [(String, JSONValue)] = [
                ("iss", .string(iss)), ("aud", .string(aud)), ("exp", .int(exp ?? now + 86_400)), ("iat", .int(iat ?? now - 10)),
                ("events", events ?? .string(event.serialized)),
            ]
            if let jti { members.append(("jti", .string(jti))) }
            return .object(members)
        }
        func code(_ token: String, at time: Double? = nil) -> JOSEError.Code? {
            do {
                _ = try verifier.verify(token, keys: keys, now: time ?? t)
                return nil
            } catch {
                return error.code
            }
        }

        let good = try token(notification(), key: a)
        let body = Array(JSONValue.object([("payload", .string(good))]).serialized.utf8)
        let verified = try verifier.verify(try AppleIDServerNotificationVerifier.payload(ofBody: body), keys: keys, now: t)
        XCTAssertEqual(verified.event.type, .emailDisabled)
        XCTAssertTrue(verified.event.type.isDocumented)
        XCTAssertEqual(verified.event.subject, "001234.abcdef.0042")
        XCTAssertEqual(verified.event.email, "x@privaterelay.appleid.com")
        XCTAssertEqual(verified.event.isPrivateEmail, true, "Apple's string \"true\" is read as a boolean")
        XCTAssertEqual(verified.event.eventTime, now * 1000 - 500)
        XCTAssertEqual(verified.tokenID, "jti-1")
        XCTAssertEqual(verified.identity, "jti:jti-1")
        XCTAssertEqual(verified.keyID, "k1")

        // An event object (not a string), a type Apple adds later, a member we do not know: kept.
        let later = try verifier.verify(
            try token(
                notification(
                    events: .object([
                        ("type", .string("account-transfer")), ("sub", .string("s.1")), ("new_member", .bool(true)),
                    ]), jti: nil), key: a), keys: keys, now: t)
        XCTAssertEqual(later.event.type.rawValue, "account-transfer")
        XCTAssertFalse(later.event.type.isDocumented)
        XCTAssertEqual(later.event.members["new_member"], .bool(true))
        XCTAssertEqual(later.identity, "event:account-transfer:s.1:-", "without jti the event itself identifies it")

        let refusals: [(String, JOSEError.Code)] = [
            (try token(notification(aud: "com.other.app"), key: a), .audienceMismatch),
            (try token(notification(iss: "https://appleid.example.com"), key: a), .issuerMismatch),
            (try token(notification(exp: now - 120, iat: now - 700), key: a), .expired),
            (try token(notification(), key: a, kid: "k9"), .unknownKeyID),
            (try token(notification(), key: nil, alg: "none", kid: "k1"), .algorithmMismatch),
            (try token(notification(), key: nil, alg: "HS256", kid: "k1"), .algorithmMismatch),
            (try token(notification(), key: b), .invalidSignature),
            (try token(notification(iat: now + 300), key: a), .notYetValid),
            (try token(notification(events: .string("{not json")), key: a), .invalidClaim),
            (try token(notification(events: .object([("sub", .string("s"))])), key: a), .invalidClaim),
            (try token(notification(events: .object([("type", .string("consent-revoked"))])), key: a), .invalidClaim),
            (try token(notification(events: .array([])), key: a), .invalidClaim),
        ]
        for (index, (refused, expected)) in refusals.enumerated() {
            XCTAssertEqual(code(refused), expected, "case \(index)")
        }
        let parts = good.split(separator: ".").map(String.init)
        let forged =
            parts[0] + "." + Base64URL.encode(Array(notification(aud: "com.example.app", jti: "jti-2").serialized.utf8)) + "." + parts[2]
        XCTAssertEqual(code(forged), .invalidSignature)
        for bad in [Array("{}".utf8), Array("[1]".utf8), Array(#"{"payload": 3}"#.utf8), Array("payload".utf8)] {
            XCTAssertThrowsError(try AppleIDServerNotificationVerifier.payload(ofBody: bad)) {
                XCTAssertEqual(($0 as? JOSEError)?.code, .malformed)
            }
        }
    }

    func testClientAgainstLoopbackServer() async throws {
        for (name, transport) in TestTransports.all {
            print("\(name) transport")
            try await clientAgainstLoopbackServer(transport: transport)
        }
    }

    func clientAgainstLoopbackServer(transport: any HTTPTransport) async throws {
        let a = try key("A")
        let c = try key("C")
        let jwksFile = Self.directory.appendingPathComponent("jwks-\(UUID().uuidString).json").path
        try Data(Self.jwks([a]).utf8).write(to: URL(fileURLWithPath: jwksFile))
        let signing = ECDSAPrivateKey.generate(curve: .p256)
        let server = try AppStoreServerAPIClientTests.LoopbackServer(
            publicKeyPEM: signing.publicKey.pemRepresentation, issuer: "-", bundle: "-",
            signInWithApple: (jwksFile, "TEAM123456", "com.example.web"))
        defer { server.stop() }
        let appleKey = try AppleSigningKey(privateKey: signing, keyID: "SIWAKEY1")
        let now = self.now
        let client = SignInWithAppleClient(
            signingKey: appleKey, teamID: "TEAM123456", clientID: "com.example.web",
            baseURL: "http://127.0.0.1:\(server.port)", transport: transport, timeout: 5, minimumKeyRefetchInterval: 0,
            clock: { now })

        // The code exchange returns an identity token (served by the test server), which verifies.
        let idToken = try token(claims(), key: a)
        try Data(idToken.utf8).write(to: URL(fileURLWithPath: jwksFile + ".idtoken"))
        let tokens = try await client.exchangeCode("code-1")
        XCTAssertEqual(tokens.access_token, "access-code-1")
        XCTAssertEqual(tokens.refresh_token, "refresh-code-1")
        XCTAssertEqual(tokens.token_type, "Bearer")
        XCTAssertEqual(tokens.expires_in, 3600)
        var entry = try await lastForm(server)
        XCTAssertEqual(entry.contentType, "application/x-www-form-urlencoded")
        XCTAssertEqual(entry.form.keys.sorted(), ["client_id", "client_secret", "code", "grant_type"], "no redirect_uri unless given")
        XCTAssertEqual(entry.form["grant_type"], "authorization_code")
        let identity = try await client.verifyIdentityToken(try XCTUnwrap(tokens.id_token))
        XCTAssertEqual(identity.subject, "001234.abcdef.0042")

        _ = try await client.exchangeCode("code 2/&=", redirectURI: "https://example.com/callback?x=1&y=2")
        entry = try await lastForm(server)
        XCTAssertEqual(entry.form["redirect_uri"], "https://example.com/callback?x=1&y=2", "form values percent-encoded and decoded intact")
        XCTAssertEqual(entry.form["code"], "code 2/&=")

        let refreshed = try await client.refresh(refreshToken: "refresh-code-1")
        XCTAssertEqual(refreshed.access_token, "access-refreshed")
        XCTAssertNil(refreshed.refresh_token)
        entry = try await lastForm(server)
        XCTAssertEqual(entry.form.keys.sorted(), ["client_id", "client_secret", "grant_type", "refresh_token"])
        XCTAssertEqual(entry.form["grant_type"], "refresh_token")

        try await client.revoke(token: "refresh-code-1", hint: .refreshToken)
        entry = try await lastForm(server)
        XCTAssertEqual(entry.path, "/auth/revoke")
        XCTAssertEqual(entry.form["token_type_hint"], "refresh_token")
        XCTAssertEqual(entry.form["token"], "refresh-code-1")

        // ErrorResponse: named errors, an unknown one kept raw, a wrong client rejected by the server.
        do {
            _ = try await client.exchangeCode("expired-code")
            XCTFail("expired code accepted")
        } catch let error as SignInWithAppleError {
            XCTAssertEqual(error.httpStatus, 400)
            XCTAssertEqual(error.error, .invalidGrant)
            XCTAssertEqual(error.errorDescription, "The code has expired or has been revoked.")
            XCTAssertFalse(error.isRetryable)
        }
        do {
            _ = try await client.exchangeCode("odd-error")
            XCTFail("odd error accepted")
        } catch let error as SignInWithAppleError {
            XCTAssertEqual(error.error?.rawValue, "brand_new_error")
            XCTAssertEqual(error.error?.isDocumented, false)
        }
        let stranger = SignInWithAppleClient(
            signingKey: appleKey, teamID: "TEAM123456", clientID: "com.other",
            baseURL: "http://127.0.0.1:\(server.port)", timeout: 5, clock: { now })
        do {
            _ = try await stranger.exchangeCode("code-1")
            XCTFail("wrong client accepted")
        } catch let error as SignInWithAppleError {
            XCTAssertEqual(error.error, .invalidClient)
        }
        let wrongKey = SignInWithAppleClient(
            signingKey: try AppleSigningKey(privateKey: .generate(curve: .p256), keyID: "X"), teamID: "TEAM123456",
            clientID: "com.example.web", baseURL: "http://127.0.0.1:\(server.port)", timeout: 5, clock: { now })
        do {
            _ = try await wrongKey.exchangeCode("code-1")
            XCTFail("a client secret signed by another key accepted")
        } catch let error as SignInWithAppleError {
            XCTAssertEqual(error.error, .invalidClient)
            XCTAssertEqual(error.errorDescription, "signature does not verify")
        }

        // JWKS caching by kid: the first verification fetched the set once; more tokens with kid k1
        // use the cache.
        _ = try await client.verifyIdentityToken(try token(claims(), key: a))
        var fetches = await client.keyCache.fetchCount
        XCTAssertEqual(fetches, 1)
        // A token with an unknown kid causes exactly one refetch, then fails as unknownKeyID.
        let rotated = try token(claims(), key: c)
        do {
            _ = try await client.verifyIdentityToken(rotated)
            XCTFail("a kid Apple does not publish verified")
        } catch let error as JOSEError {
            XCTAssertEqual(error.code, .unknownKeyID)
        }
        fetches = await client.keyCache.fetchCount
        XCTAssertEqual(fetches, 2)
        // Apple rotates: the set now has k2, and the next unknown-kid token refetches and verifies.
        try Data(Self.jwks([a, c]).utf8).write(to: URL(fileURLWithPath: jwksFile))
        let afterRotation = try await client.verifyIdentityToken(rotated)
        XCTAssertEqual(afterRotation.keyID, "k2")
        fetches = await client.keyCache.fetchCount
        XCTAssertEqual(fetches, 3)
        let keyFetches = try await server.log().filter { $0["path"] as? String == "/auth/keys" }.count
        XCTAssertEqual(keyFetches, 3, "the server saw exactly the fetches the cache counted")

        // With a refetch interval, made-up kids cannot make the client hammer Apple.
        let guarded = SignInWithAppleClient(
            signingKey: appleKey, teamID: "TEAM123456", clientID: "com.example.web",
            baseURL: "http://127.0.0.1:\(server.port)", timeout: 5, minimumKeyRefetchInterval: 600, clock: { now })
        _ = try await guarded.verifyIdentityToken(try token(claims(), key: a))
        for kid in ["z1", "z2", "z3"] {
            do {
                _ = try await guarded.verifyIdentityToken(try token(claims(), key: a, kid: kid))
                XCTFail("unknown kid \(kid) verified")
            } catch let error as JOSEError {
                XCTAssertEqual(error.code, .unknownKeyID)
            }
        }
        let guardedFetches = await guarded.keyCache.fetchCount
        XCTAssertEqual(guardedFetches, 1)
        let fetched = try await client.fetchKeys()
        XCTAssertEqual(fetched.keys.compactMap(\.keyID), ["k1", "k2"])
    }

    func lastForm(_ server: AppStoreServerAPIClientTests.LoopbackServer) async throws -> (
        path: String, contentType: String?, form: [String: String]
    ) {
        let last = try await server.log().last
        let entry = try XCTUnwrap(last)
        return (entry["path"] as? String ?? "", entry["contentType"] as? String, entry["form"] as? [String: String] ?? [:])
    }
}
