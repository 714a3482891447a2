/// The registered claims of a JWT (RFC 7519 §4.1), read from a payload with their types checked.
/// NumericDates are seconds since the epoch and may carry a fraction (RFC 7519 §2).
public struct JWTClaims: Sendable, Hashable {
    /// The whole payload, every member kept (registered and private claims alike).
    public let json: JSONValue
    /// iss, when present.
    public let issuer: String?
    /// sub, when present.
    public let subject: String?
    /// aud as a list: a single string becomes a list of one (RFC 7519 §4.1.3).
    public let audience: [String]?
    /// exp, seconds since 1970, when present.
    public let expiration: Double?
    /// nbf, seconds since 1970, when present.
    public let notBefore: Double?
    /// iat, seconds since 1970, when present.
    public let issuedAt: Double?
    /// jti, when present.
    public let jwtID: String?

    /// Reads the registered claims from a parsed claims set, checking their types (RFC 7519 §4.1).
    public init(json: JSONValue) throws(JOSEError) {
        guard case .object = json else { throw JOSEError(.malformed, "the JWT claims set is not a JSON object") }
        self.json = json
        func string(_ name: String) throws(JOSEError) -> String? {
            guard let value = json[name] else { return nil }
            guard let text = value.stringValue else { throw JOSEError(.invalidClaim, "\(name) is not a string") }
            return text
        }
        func date(_ name: String) throws(JOSEError) -> Double? {
            guard let value = json[name] else { return nil }
            guard let seconds = value.doubleValue, seconds.isFinite else { throw JOSEError(.invalidClaim, "\(name) is not a NumericDate") }
            return seconds
        }
        issuer = try string("iss")
        subject = try string("sub")
        jwtID = try string("jti")
        expiration = try date("exp")
        notBefore = try date("nbf")
        issuedAt = try date("iat")
        switch json["aud"] {
        case nil: audience = nil
        case .string(let one)?: audience = [one]
        case .array(let list)?:
            var names: [String] = []
            for item in list {
                guard let name = item.stringValue else { throw JOSEError(.invalidClaim, "aud contains a non-string") }
                names.append(name)
            }
            audience = names
        default: throw JOSEError(.invalidClaim, "aud is neither a string nor an array of strings")
        }
    }

    /// Parses a JWT payload.
    public init(payload: [UInt8]) throws(JOSEError) {
        try self.init(json: try JSONValue(parsing: payload))
    }
}

/// What a JWT must satisfy, checked against a caller-supplied clock (ARCHITECTURE.md, Conventions 4: time is
/// passed in, never read from a hidden global).
public struct JWTValidation: Sendable {
    /// Required iss, when set.
    public var issuer: String?
    /// Audience that aud must contain, when set.
    public var audience: String?
    /// Seconds of clock skew tolerated on exp, nbf and iat.
    public var leeway: Double
    /// Whether a token without exp is refused (default: yes).
    public var requireExpiration: Bool
    /// Whether a token without iat is refused (default: no).
    public var requireIssuedAt: Bool
    /// Whether iat in the future (beyond the leeway) is refused (default: yes).
    public var rejectFutureIssuedAt: Bool

    /// Rules to check: expected issuer and audience when set, clock-skew leeway, and which time claims are required.
    public init(
        issuer: String? = nil, audience: String? = nil, leeway: Double = 0,
        requireExpiration: Bool = true, requireIssuedAt: Bool = false, rejectFutureIssuedAt: Bool = true
    ) {
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.requireExpiration = requireExpiration
        self.requireIssuedAt = requireIssuedAt
        self.rejectFutureIssuedAt = rejectFutureIssuedAt
    }

    /// Checks `claims` at `now` (seconds since the epoch). Each failure has its own error code.
    public func validate(_ claims: JWTClaims, now: Double) throws(JOSEError) {
        if let issuer, claims.issuer != issuer {
            throw JOSEError(.issuerMismatch, "iss is \(claims.issuer.map { "\"\($0)\"" } ?? "absent"), expected \"\(issuer)\"")
        }
        if let audience, !(claims.audience ?? []).contains(audience) {
            throw JOSEError(.audienceMismatch, "aud \(claims.audience ?? []) does not contain \"\(audience)\"")
        }
        if let exp = claims.expiration {
            // RFC 7519 §4.1.4: the current time MUST be before exp.
            guard now < exp + leeway else { throw JOSEError(.expired, "exp \(exp) is not after now \(now) (leeway \(leeway) s)") }
        } else if requireExpiration {
            throw JOSEError(.invalidClaim, "the token has no exp")
        }
        if let nbf = claims.notBefore, now + leeway < nbf {
            throw JOSEError(.notYetValid, "nbf \(nbf) is after now \(now) (leeway \(leeway) s)")
        }
        if let iat = claims.issuedAt {
            if rejectFutureIssuedAt, now + leeway < iat {
                throw JOSEError(.notYetValid, "iat \(iat) is after now \(now) (leeway \(leeway) s)")
            }
        } else if requireIssuedAt {
            throw JOSEError(.invalidClaim, "the token has no iat")
        }
    }
}
