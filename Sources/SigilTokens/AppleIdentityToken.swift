import SigilBase
import SigilJOSE

/// A verified Sign in with Apple identity token
/// (https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple):
/// the registered claims and Apple's own, with `claims` keeping every member as sent.
public struct AppleIdentityToken: Sendable, Hashable {
    /// 0 unsupported, 1 unknown, 2 likely real (Apple's realUserStatus); other values kept raw.
    public struct RealUserStatus: AppleOpenEnum {
        /// The value as Apple sent it.
        public let rawValue: Int64
        /// Wraps a raw value as received, documented or not (see `isDocumented`).
        public init(rawValue: Int64) { self.rawValue = rawValue }
        /// 0: the platform cannot tell whether the user is real.
        public static let unsupported = RealUserStatus(rawValue: 0)
        /// 1: the system could not decide; treat the user as neither likely real nor fake.
        public static let unknown = RealUserStatus(rawValue: 1)
        /// 2: the user is likely a real person.
        public static let likelyReal = RealUserStatus(rawValue: 2)
        /// The values Apple documents, in order.
        public static let documented: [RealUserStatus] = [.unsupported, .unknown, .likelyReal]
    }

    /// Every claim of the token as sent, registered and Apple's own.
    public let claims: JWTClaims
    /// The key that verified the token.
    public let keyID: String
    /// The user's stable identifier for this team (sub).
    public let subject: String
    /// The client ids the token was issued for (aud); one of them is the verifier's.
    public let audience: [String]
    /// When the token was issued (iat), seconds since 1970.
    public let issuedAt: Double
    /// When the token expires (exp), seconds since 1970.
    public let expiration: Double
    /// The nonce the app passed to the authorization request, when there was one.
    public let nonce: String?
    /// Whether the platform supports nonces (nonce_supported), when Apple says.
    public let nonceSupported: Bool?
    /// The user's email address, or their private relay address, when shared.
    public let email: String?
    /// Whether Apple verified the email address (email_verified).
    public let emailVerified: Bool?
    /// Whether the email is a private relay address (is_private_email).
    public let isPrivateEmail: Bool?
    /// Apple's estimate of whether the user is a real person (real_user_status), when sent.
    public let realUserStatus: RealUserStatus?
    /// The user's identifier under the previous team, during an app transfer.
    public let transferSubject: String?
    /// When the user authenticated (auth_time), seconds since 1970, when sent.
    public let authTime: Double?
}

/// Verifies Sign in with Apple identity tokens against Apple's JWKS
/// (https://appleid.apple.com/auth/keys), in this order, each failure with its own JOSEError code:
///
/// 1. compact JWS, three parts (malformed);
/// 2. header alg exactly RS256 — none, HS256 and every other algorithm refused before any key is
///    looked at (algorithmMismatch);
/// 3. a key with the header's kid in the key set (unknownKeyID);
/// 4. the RSA PKCS#1 v1.5 SHA-256 signature with that key (invalidSignature);
/// 5. iss https://appleid.apple.com (issuerMismatch); aud one of the client ids (audienceMismatch);
///    exp after now (expired); iat present and not in the future (notYetValid); sub present;
///    nonce equal to the expected one when one is given (invalidClaim); Apple's boolean claims,
///    which Apple sends as booleans or as the strings "true" / "false", well-formed (invalidClaim).
///
/// Variable time: every input is public.
public struct AppleIdentityTokenVerifier: Sendable {
    /// The issuer every identity token must name (iss).
    public static let issuer = "https://appleid.apple.com"
    /// The services ids / bundle ids the tokens may be issued for (aud).
    public let clientIDs: [String]
    /// Seconds of clock skew tolerated on exp and iat.
    public let leeway: Double

    /// A verifier for tokens issued to any of `clientIDs`, tolerating `leeway` seconds of clock skew on exp and iat.
    public init(clientIDs: [String], leeway: Double = 60) {
        self.clientIDs = clientIDs
        self.leeway = leeway
    }

    /// The token's kid, read without verification (for choosing or refreshing the key set).
    public static func keyID(of token: String) -> String? { (try? JWS(compact: token))?.keyID }

    /// Verifies `token` with `keys` at `now` (seconds since 1970), checking `expectedNonce` when given, in the order the type's documentation lists; each failure has its own `JOSEError` code.
    public func verify(_ token: String, keys: JWKS, now: Double, nonce expectedNonce: String? = nil) throws(JOSEError) -> AppleIdentityToken
    {
        let (kid, claims) = try AppleSignedJWT.verify(
            token, keys: keys, clientIDs: clientIDs, leeway: leeway, now: now, what: "Apple identity tokens")
        guard let subject = claims.subject, !subject.isEmpty else { throw JOSEError(.invalidClaim, "the token has no sub") }
        guard let issuedAt = claims.issuedAt, let expiration = claims.expiration else {
            throw JOSEError(.invalidClaim, "iat and exp are required")
        }

        let json = claims.json
        func string(_ name: String) throws(JOSEError) -> String? { try AppleSignedJWT.string(json, name) }
        func flag(_ name: String) throws(JOSEError) -> Bool? { try AppleSignedJWT.flag(json, name) }
        let nonce = try string("nonce")
        if let expectedNonce, nonce != expectedNonce {
            throw JOSEError(.invalidClaim, "nonce \(nonce.map { "\"\($0)\"" } ?? "absent") is not the expected one")
        }
        var realUserStatus: AppleIdentityToken.RealUserStatus?
        if let value = json["real_user_status"] {
            guard let n = value.int64Value else { throw JOSEError(.invalidClaim, "real_user_status is not an integer") }
            realUserStatus = .init(rawValue: n)
        }
        var authTime: Double?
        if let value = json["auth_time"] {
            guard let t = value.doubleValue, t.isFinite else { throw JOSEError(.invalidClaim, "auth_time is not a NumericDate") }
            authTime = t
        }
        return AppleIdentityToken(
            claims: claims, keyID: kid, subject: subject, audience: claims.audience ?? [], issuedAt: issuedAt, expiration: expiration,
            nonce: nonce, nonceSupported: try flag("nonce_supported"), email: try string("email"),
            emailVerified: try flag("email_verified"), isPrivateEmail: try flag("is_private_email"),
            realUserStatus: realUserStatus, transferSubject: try string("transfer_sub"), authTime: authTime)
    }
}

/// The steps every JWT Apple signs for Sign in with Apple shares (identity tokens and server
/// notifications): compact JWS; alg exactly RS256 (none, HS256 and every other algorithm refused
/// before any key is looked at); the header's kid in the key set; the RSA signature; iss
/// https://appleid.apple.com; aud naming one of the client ids; exp required and after now, iat
/// required and not in the future (each with the leeway).
enum AppleSignedJWT {
    static func verify(
        _ token: String, keys: JWKS, clientIDs: [String], leeway: Double, now: Double, what: String
    ) throws(JOSEError) -> (keyID: String, claims: JWTClaims) {
        let jws = try JWS(compact: token)
        guard jws.algorithm == JWSAlgorithm.rs256.rawValue else {
            throw JOSEError(.algorithmMismatch, "\(what) are RS256; this one says alg \(jws.algorithm.map { "\"\($0)\"" } ?? "(none)")")
        }
        guard let kid = jws.keyID else { throw JOSEError(.unknownKeyID, "the token has no kid") }
        guard let jwk = keys.key(id: kid) else { throw JOSEError(.unknownKeyID, "no key with kid \"\(kid)\" in Apple's key set") }
        guard jwk.keyType == "RSA" else { throw JOSEError(.invalidKey, "the key \"\(kid)\" is \(jwk.keyType), not RSA") }
        try jws.verify(with: try jwk.verificationKey(defaultRSAAlgorithm: .rs256))

        let claims = try JWTClaims(payload: jws.payload)
        if claims.issuer != AppleIdentityTokenVerifier.issuer {
            throw JOSEError(
                .issuerMismatch,
                "iss is \(claims.issuer.map { "\"\($0)\"" } ?? "absent"), expected \"\(AppleIdentityTokenVerifier.issuer)\"")
        }
        let audience = claims.audience ?? []
        guard audience.contains(where: clientIDs.contains) else {
            throw JOSEError(.audienceMismatch, "aud \(audience) names none of the client ids \(clientIDs)")
        }
        let validation = JWTValidation(
            issuer: nil, audience: nil, leeway: leeway, requireExpiration: true, requireIssuedAt: true, rejectFutureIssuedAt: true)
        try validation.validate(claims, now: now)
        return (kid, claims)
    }

    /// A string member, nil when absent; any other type refused.
    static func string(_ json: JSONValue, _ name: String) throws(JOSEError) -> String? {
        guard let value = json[name] else { return nil }
        guard let text = value.stringValue else { throw JOSEError(.invalidClaim, "\(name) is not a string") }
        return text
    }

    /// A boolean Apple sends as a boolean or as the string "true" / "false"; nil when absent.
    static func flag(_ json: JSONValue, _ name: String) throws(JOSEError) -> Bool? {
        switch json[name] {
        case nil: return nil
        case .bool(let b)?: return b
        case .string("true")?: return true
        case .string("false")?: return false
        default: throw JOSEError(.invalidClaim, "\(name) is neither a boolean nor \"true\"/\"false\"")
        }
    }
}
