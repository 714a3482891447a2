import Foundation
import SigilAppStore
import SigilBase
import SigilJOSE
import SigilTokens

// Sign in with Apple's REST endpoints (https://developer.apple.com/documentation/signinwithapplerestapi):
//   POST /auth/token   Generate and validate tokens (authorization_code and refresh_token grants)
//   POST /auth/revoke  Revoke tokens
//   GET  /auth/keys    Fetch Apple's public key for verifying token signature (a JWKS)
// on https://appleid.apple.com. Requests are application/x-www-form-urlencoded; the client_secret
// is an ES256 JWT Sigil mints from the team's key (AppleTokens.signInWithAppleClientSecret).

/// https://developer.apple.com/documentation/signinwithapplerestapi/tokenresponse
public struct SignInWithAppleTokenResponse: Codable, Hashable, Sendable {
    /// The access token.
    public var access_token: String?
    /// Seconds until the access token expires.
    public var expires_in: Int64?
    /// An identity token: verify it with `SignInWithAppleClient.verifyIdentityToken`.
    public var id_token: String?
    /// Present for the authorization_code grant only.
    public var refresh_token: String?
    /// The token type ("Bearer").
    public var token_type: String?
}

/// The `error` values of Apple's ErrorResponse
/// (https://developer.apple.com/documentation/signinwithapplerestapi/errorresponse); others kept raw.
public struct SignInWithAppleErrorCode: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A parameter is missing, unsupported, repeated or otherwise malformed.
    public static let invalidRequest = SignInWithAppleErrorCode(rawValue: "invalid_request")
    /// The client_id or client_secret is wrong (client authentication failed).
    public static let invalidClient = SignInWithAppleErrorCode(rawValue: "invalid_client")
    /// The code or refresh token is invalid, expired, revoked, or was issued to another client or redirect URI.
    public static let invalidGrant = SignInWithAppleErrorCode(rawValue: "invalid_grant")
    /// The client may not use this grant type.
    public static let unauthorizedClient = SignInWithAppleErrorCode(rawValue: "unauthorized_client")
    /// The grant type is not supported.
    public static let unsupportedGrantType = SignInWithAppleErrorCode(rawValue: "unsupported_grant_type")
    /// The requested scope is invalid.
    public static let invalidScope = SignInWithAppleErrorCode(rawValue: "invalid_scope")
    /// The values Apple documents.
    public static let documented: [SignInWithAppleErrorCode] = [
        .invalidRequest, .invalidClient, .invalidGrant, .unauthorizedClient,
        .unsupportedGrantType, .invalidScope,
    ]
}

/// A failed Sign in with Apple call: HTTP status (0: no response), Apple's `error` and
/// `error_description` when the body carried them, and whether a retry can succeed.
public struct SignInWithAppleError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status of Apple's answer.
    public let httpStatus: Int
    /// The error code Apple gave, when it gave one.
    public let error: SignInWithAppleErrorCode?
    /// Apple's error_description, when given.
    public let errorDescription: String?
    /// No response, 429 or 5xx.
    public var isRetryable: Bool { httpStatus == 0 || httpStatus == 429 || httpStatus >= 500 }
    /// The HTTP status, error code and description, for people.
    public var description: String {
        "Sign in with Apple: HTTP \(httpStatus)\(error.map { " \($0.rawValue)" } ?? "")\(errorDescription.map { ": \($0)" } ?? "")"
    }
}

/// Apple's signing keys, cached by kid. A token whose kid is not in the cached set makes the
/// cache fetch the set again (Apple rotates keys) — at most once per `minimumRefetchInterval`,
/// so tokens with made-up kids cannot turn into a flood of requests to Apple. The set is also
/// refetched when older than `maximumAge`. Single flight: while one fetch is under way, every
/// other caller that needs the set awaits it instead of fetching again.
public actor AppleJWKSCache {
    let fetch: @Sendable () async throws -> JWKS
    let clock: @Sendable () -> Double
    /// Seconds a fetched key set is used before it is fetched again.
    public let maximumAge: Double
    /// The fewest seconds between two fetches (an unknown kid does not trigger more).
    public let minimumRefetchInterval: Double
    private var cached: JWKS?
    private var fetchedAt = -Double.infinity
    /// The fetch under way, awaited by every caller that needs the set meanwhile.
    private var inFlight: Task<JWKS, any Error>?
    /// How many times the set was fetched (for tests and monitoring).
    public private(set) var fetchCount = 0

    /// A cache fetching through `transport`, keeping a set `maximumAge` seconds and fetching at most once per `minimumRefetchInterval` seconds.
    public init(
        maximumAge: Double = 24 * 3600, minimumRefetchInterval: Double = 60,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        fetch: @escaping @Sendable () async throws -> JWKS
    ) {
        self.fetch = fetch
        self.clock = clock
        self.maximumAge = maximumAge
        self.minimumRefetchInterval = minimumRefetchInterval
    }

    /// A key set that contains `kid` if Apple publishes it (fetching when needed), or the current
    /// set when it does not.
    public func keys(containing kid: String?) async throws -> JWKS {
        let now = clock()
        if let cached, now - fetchedAt < maximumAge {
            if let kid, cached.key(id: kid) == nil, now - fetchedAt >= minimumRefetchInterval {
                return try await refresh(now)
            }
            return cached
        }
        return try await refresh(now)
    }

    /// One fetch at a time: a caller that finds a fetch under way awaits that one (single flight),
    /// so concurrent tokens with unknown kids cost Apple one request, not one each.
    private func refresh(_ now: Double) async throws -> JWKS {
        if let inFlight { return try await inFlight.value }
        let task = Task { [fetch] in try await fetch() }
        inFlight = task
        defer { inFlight = nil }
        let keys = try await task.value
        fetchCount += 1
        cached = keys
        fetchedAt = now
        return keys
    }
}

/// The Sign in with Apple client: token exchange and refresh, revocation, Apple's keys and
/// identity-token verification.
///
/// A fresh client_secret is minted for every request (lifetime `clientSecretLifetime`, default
/// 300 s; Apple allows up to 15,777,000 s), so no long-lived secret exists to leak.
public struct SignInWithAppleClient: Sendable {
    /// Which kind of token a revocation names.
    public enum TokenTypeHint: String, Sendable {
        /// An access token.
        case accessToken = "access_token"
        /// A refresh token.
        case refreshToken = "refresh_token"
    }

    /// The key the client secrets are signed with.
    public let signingKey: AppleSigningKey
    /// Your team id (the client secret's issuer).
    public let teamID: String
    /// The services id (web) or bundle id (app) the tokens are for.
    public let clientID: String
    /// No trailing slash; https://appleid.apple.com unless testing.
    public let baseURL: String
    /// How requests reach Apple.
    public let transport: any HTTPTransport
    /// Seconds allowed for each request.
    public let timeout: Double
    /// The largest answer accepted, in bytes.
    public let maximumResponseSize: Int
    /// Seconds each client secret is valid.
    public let clientSecretLifetime: Int64
    /// Verifies identity tokens for `clientID`.
    public let verifier: AppleIdentityTokenVerifier
    /// Apple's keys, shared by every copy of this client.
    public let keyCache: AppleJWKSCache
    let keyFetcher: KeyFetcher
    let clock: @Sendable () -> Int64

    /// A client signing its client secrets with `signingKey` for `teamID` and the given client id, through `transport`.
    public init(
        signingKey: AppleSigningKey, teamID: String, clientID: String, baseURL: String = "https://appleid.apple.com",
        transport: any HTTPTransport = URLSessionHTTPTransport(), timeout: Double = 30, maximumResponseSize: Int = 1 << 20,
        clientSecretLifetime: Int64 = 300, leeway: Double = 60, minimumKeyRefetchInterval: Double = 60,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.signingKey = signingKey
        self.teamID = teamID
        self.clientID = clientID
        self.baseURL = baseURL
        self.transport = transport
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.clientSecretLifetime = clientSecretLifetime
        self.clock = clock
        verifier = AppleIdentityTokenVerifier(clientIDs: [clientID], leeway: leeway)
        let fetcher = KeyFetcher(
            url: baseURL + "/auth/keys", transport: transport, timeout: timeout, maximumResponseSize: maximumResponseSize)
        keyFetcher = fetcher
        keyCache = AppleJWKSCache(minimumRefetchInterval: minimumKeyRefetchInterval, clock: { Double(clock()) }, fetch: fetcher.fetch)
    }

    /// POST /auth/token with grant_type authorization_code. `redirectURI` is sent only when given
    /// (Apple requires it when the authorization request carried one).
    public func exchangeCode(_ code: String, redirectURI: String? = nil) async throws -> SignInWithAppleTokenResponse {
        var form = [("client_id", clientID), ("client_secret", try clientSecret()), ("code", code), ("grant_type", "authorization_code")]
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        return try await post("/auth/token", form)
    }

    /// POST /auth/token with grant_type refresh_token.
    public func refresh(refreshToken: String) async throws -> SignInWithAppleTokenResponse {
        try await post(
            "/auth/token",
            [
                ("client_id", clientID), ("client_secret", try clientSecret()), ("grant_type", "refresh_token"),
                ("refresh_token", refreshToken),
            ])
    }

    /// POST /auth/revoke.
    public func revoke(token: String, hint: TokenTypeHint? = nil) async throws {
        var form = [("client_id", clientID), ("client_secret", try clientSecret()), ("token", token)]
        if let hint { form.append(("token_type_hint", hint.rawValue)) }
        _ = try await exchange(
            HTTPRequest(method: "POST", url: baseURL + "/auth/revoke", headers: Self.formHeaders, body: Self.formBody(form)))
    }

    /// GET /auth/keys, bypassing the cache.
    public func fetchKeys() async throws -> JWKS {
        try await keyFetcher.fetch()
    }

    /// Verifies an identity token with Apple's keys (cached; refetched once when the token names
    /// an unknown kid). Errors: `JOSEError` as `AppleIdentityTokenVerifier` lists them, or
    /// `SignInWithAppleError` when the keys cannot be fetched.
    public func verifyIdentityToken(_ token: String, nonce: String? = nil) async throws -> AppleIdentityToken {
        let keys = try await keyCache.keys(containing: AppleIdentityTokenVerifier.keyID(of: token))
        return try verifier.verify(token, keys: keys, now: Double(clock()), nonce: nonce)
    }

    // MARK: - Machinery

    func clientSecret() throws -> String {
        try AppleTokens.signInWithAppleClientSecret(
            key: signingKey, teamID: teamID, clientID: clientID, issuedAt: clock(),
            lifetime: clientSecretLifetime)
    }

    static let formHeaders = [
        HTTPHeader("Content-Type", "application/x-www-form-urlencoded"), HTTPHeader("Accept", "application/json"),
        HTTPHeader("User-Agent", SigilVersion.userAgent),
    ]

    /// application/x-www-form-urlencoded with every byte outside the unreserved set percent-encoded.
    static func formBody(_ fields: [(String, String)]) -> [UInt8] {
        Array(fields.map { "\(AppleAPIRequester.segment($0.0))=\(AppleAPIRequester.segment($0.1))" }.joined(separator: "&").utf8)
    }

    func post<Response: Decodable>(_ path: String, _ form: [(String, String)]) async throws -> Response {
        let response = try await exchange(
            HTTPRequest(method: "POST", url: baseURL + path, headers: Self.formHeaders, body: Self.formBody(form)))
        do {
            return try JSONValueDecoder().decode(Response.self, fromJSON: response.body)
        } catch {
            throw SignInWithAppleError(
                httpStatus: response.status, error: nil, errorDescription: "the response is not a valid \(Response.self): \(error)")
        }
    }

    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await transport.send(request, timeout: timeout, maximumResponseSize: maximumResponseSize)
        } catch {
            throw SignInWithAppleError(httpStatus: 0, error: nil, errorDescription: "no response: \(error)")
        }
        guard (200..<300).contains(response.status) else {
            let body = try? JSONValue(parsing: response.body)
            throw SignInWithAppleError(
                httpStatus: response.status, error: body?["error"]?.stringValue.map(SignInWithAppleErrorCode.init(rawValue:)),
                errorDescription: body?["error_description"]?.stringValue)
        }
        return response
    }

    struct KeyFetcher: Sendable {
        let url: String
        let transport: any HTTPTransport
        let timeout: Double
        let maximumResponseSize: Int

        func fetch() async throws -> JWKS {
            let response: HTTPResponse
            do {
                response = try await transport.send(
                    HTTPRequest(method: "GET", url: url, headers: [HTTPHeader("Accept", "application/json")]),
                    timeout: timeout, maximumResponseSize: maximumResponseSize)
            } catch {
                throw SignInWithAppleError(httpStatus: 0, error: nil, errorDescription: "no response from \(url): \(error)")
            }
            guard response.status == 200 else {
                throw SignInWithAppleError(httpStatus: response.status, error: nil, errorDescription: "fetching \(url)")
            }
            do {
                return try JWKS(parsing: response.body)
            } catch {
                throw SignInWithAppleError(httpStatus: response.status, error: nil, errorDescription: "\(url) is not a JWK Set: \(error)")
            }
        }
    }
}
