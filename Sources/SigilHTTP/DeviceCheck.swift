import Foundation
import SigilAppStore
import SigilBase
import SigilTokens

// DeviceCheck's per-device bits (https://developer.apple.com/documentation/devicecheck) and the
// App Attest fraud-metric receipt refresh: Apple's two server endpoints for device trust, both
// authorized by an ES256 token with the team id as issuer (AppleTokens.deviceCheck), minted
// fresh for every request.

/// A failed DeviceCheck or App Attest data call: `devicecheck.code`, the HTTP status (0 when no
/// response arrived) and Apple's message, which these APIs send as plain text.
public struct DeviceCheckError: ModuleError {
    /// "devicecheck": `devicecheck.code` names these errors across Sigil.
    public static let domain = "devicecheck"
    /// A stable error code: compare codes, show reasons.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// 400: the device token, transaction id or timestamp was refused (Apple's text says which).
        public static var badRequest: Code { Code("badRequest") }
        /// 401: the bearer token was refused (key, key id or team id).
        public static var unauthorized: Code { Code("unauthorized") }
        /// 429 or 5xx: try again later.
        public static var unavailable: Code { Code("unavailable") }
        /// Another status, or a body that is not what the endpoint returns.
        public static var unexpectedResponse: Code { Code("unexpectedResponse") }
        /// No response (connection, timeout, size limit).
        public static var transport: Code { Code("transport") }
        /// The request was refused before sending (an argument breaks Apple's rules).
        public static var invalidRequest: Code { Code("invalidRequest") }
    }

    /// Why the call failed, as a stable code.
    public let code: Code
    /// What went wrong, with Apple's text when it sent one.
    public let reason: String
    /// The HTTP status, 0 when no response arrived or nothing was sent.
    public let httpStatus: Int

    /// An error with `code` and `reason` and no HTTP status.
    public init(_ code: Code, _ reason: String) { self.init(code, reason, httpStatus: 0) }

    /// An error with `code`, `reason` and the HTTP status that carried it.
    public init(_ code: Code, _ reason: String, httpStatus: Int) {
        self.code = code
        self.reason = reason
        self.httpStatus = httpStatus
    }

    /// Whether trying again later can succeed (429, 5xx, no response).
    public var isRetryable: Bool { code == .unavailable || code == .transport }

    /// The one request both device clients make: a POST of `body` to `url` with a fresh
    /// AppleTokens.deviceCheck bearer token; the response whatever its status.
    static func post(
        _ url: String, body: [UInt8], contentType: String?, key: AppleSigningKey, teamID: String, issuedAt: Int64,
        transport: any HTTPTransport, timeout: Double, maximumResponseSize: Int
    ) async throws(DeviceCheckError) -> HTTPResponse {
        let token: String
        do { token = try AppleTokens.deviceCheck(key: key, teamID: teamID, issuedAt: issuedAt) } catch {
            throw DeviceCheckError(.invalidRequest, "the bearer token: \(error.reason)")
        }
        var headers = [HTTPHeader("Authorization", "Bearer \(token)"), HTTPHeader("User-Agent", SigilVersion.userAgent)]
        if let contentType { headers.append(HTTPHeader("Content-Type", contentType)) }
        do {
            return try await transport.send(
                HTTPRequest(method: "POST", url: url, headers: headers, body: body), timeout: timeout,
                maximumResponseSize: maximumResponseSize)
        } catch {
            throw DeviceCheckError(.transport, "no response: \(error)")
        }
    }

    static func from(_ response: HTTPResponse) -> DeviceCheckError {
        let text = String(decoding: response.body.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let message = "HTTP \(response.status)" + (text.isEmpty ? "" : ": \(text)")
        switch response.status {
        case 400: return DeviceCheckError(.badRequest, message, httpStatus: 400)
        case 401: return DeviceCheckError(.unauthorized, message, httpStatus: 401)
        case 429, 500...599: return DeviceCheckError(.unavailable, message, httpStatus: response.status)
        default: return DeviceCheckError(.unexpectedResponse, message, httpStatus: response.status)
        }
    }
}

/// The two bits Apple keeps for a device and this developer team, and the month they last changed.
public struct DeviceCheckBits: Sendable, Hashable, Codable {
    /// The first bit, whatever the app's server made it mean.
    public var bit0: Bool
    /// The second bit.
    public var bit1: Bool
    /// "YYYY-MM", as Apple reports it.
    public var lastUpdateTime: String

    /// Bits as Apple returns them.
    public init(bit0: Bool, bit1: Bool, lastUpdateTime: String) {
        self.bit0 = bit0
        self.bit1 = bit1
        self.lastUpdateTime = lastUpdateTime
    }

    enum CodingKeys: String, CodingKey {
        case bit0, bit1
        case lastUpdateTime = "last_update_time"
    }
}

/// Where a DeviceCheck or App Attest data request goes: Apple's production or development host
/// of the service, or any base URL (a test server). One type for both clients; each client maps
/// production and development to its own service's host (``DeviceCheckClient/baseURL(for:)``,
/// ``AppAttestReceiptClient/baseURL(for:)``).
public enum DeviceCheckEnvironment: Sendable, Hashable {
    /// The service's production host.
    case production
    /// The service's development host.
    case development
    /// Any base URL; no trailing slash.
    case custom(baseURL: String)
}

/// The DeviceCheck API: query, update and validate a device's two bits.
public struct DeviceCheckClient: Sendable {
    /// The environment type both DeviceCheck clients share.
    @available(*, deprecated, renamed: "DeviceCheckEnvironment")
    public typealias Environment = DeviceCheckEnvironment

    /// The scheme and host every path is appended to: `https://api.devicecheck.apple.com` in
    /// production, `https://api.development.devicecheck.apple.com` in development.
    public static func baseURL(for environment: DeviceCheckEnvironment) -> String {
        switch environment {
        case .production: "https://api.devicecheck.apple.com"
        case .development: "https://api.development.devicecheck.apple.com"
        case .custom(let url): url
        }
    }

    /// The key (a DeviceCheck key of the team) every request's bearer token is signed with.
    public let signingKey: AppleSigningKey
    /// The team id, the tokens' iss claim.
    public let teamID: String
    /// Where requests go.
    public let environment: DeviceCheckEnvironment
    let transport: any HTTPTransport
    let timeout: Double
    let clock: @Sendable () -> Int64

    /// A client signing with `signingKey` (a DeviceCheck key) for `teamID`.
    public init(
        signingKey: AppleSigningKey, teamID: String, environment: DeviceCheckEnvironment,
        transport: any HTTPTransport = URLSessionHTTPTransport(),
        timeout: Double = 30, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.signingKey = signingKey
        self.teamID = teamID
        self.environment = environment
        self.transport = transport
        self.timeout = timeout
        self.clock = clock
    }

    /// Query Two Bits: the device's bits, or nil when Apple has none for it yet ("Failed to find
    /// bit state"). `POST /v1/query_two_bits`.
    public func queryTwoBits(deviceToken: String, transactionId: UUID = UUID(), timestamp: Int64? = nil) async throws(DeviceCheckError)
        -> DeviceCheckBits?
    {
        let response = try await post("/v1/query_two_bits", deviceToken: deviceToken, transactionId: transactionId, timestamp: timestamp)
        let text = String(decoding: response.body, as: UTF8.self)
        if text.trimmingCharacters(in: .whitespacesAndNewlines) == "Failed to find bit state" { return nil }
        do { return try JSONDecoder().decode(DeviceCheckBits.self, from: Data(response.body)) } catch {
            throw DeviceCheckError(.unexpectedResponse, "query_two_bits answered \(text.prefix(200))", httpStatus: response.status)
        }
    }

    /// Update Two Bits: sets both bits. `POST /v1/update_two_bits`.
    public func updateTwoBits(
        deviceToken: String, bit0: Bool, bit1: Bool, transactionId: UUID = UUID(), timestamp: Int64? = nil
    ) async throws(DeviceCheckError) {
        _ = try await post(
            "/v1/update_two_bits", deviceToken: deviceToken, transactionId: transactionId, timestamp: timestamp,
            extra: ["bit0": bit0, "bit1": bit1])
    }

    /// Validate Device Token: whether Apple knows the token (throws `badRequest` when it does not).
    /// `POST /v1/validate_device_token`.
    public func validateDeviceToken(deviceToken: String, transactionId: UUID = UUID(), timestamp: Int64? = nil)
        async throws(DeviceCheckError)
    {
        _ = try await post("/v1/validate_device_token", deviceToken: deviceToken, transactionId: transactionId, timestamp: timestamp)
    }

    func post(
        _ path: String, deviceToken: String, transactionId: UUID, timestamp: Int64?, extra: [String: Bool] = [:]
    ) async throws(DeviceCheckError) -> HTTPResponse {
        guard !deviceToken.isEmpty, Data(base64Encoded: deviceToken) != nil else {
            throw DeviceCheckError(.invalidRequest, "the device token is not base64 (DCDevice.generateToken's data, base64-encoded)")
        }
        let now = clock()
        var body: [String: Any] = [
            "device_token": deviceToken, "transaction_id": transactionId.uuidString, "timestamp": timestamp ?? now * 1000,
        ]
        for (name, value) in extra { body[name] = value }
        let bytes: [UInt8]
        do { bytes = Array(try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) } catch {
            throw DeviceCheckError(.invalidRequest, "the request body: \(error)")
        }
        let response = try await DeviceCheckError.post(
            Self.baseURL(for: environment) + path, body: bytes, contentType: "application/json", key: signingKey, teamID: teamID,
            issuedAt: now, transport: transport, timeout: timeout, maximumResponseSize: 64 << 10)
        guard response.status == 200 else { throw DeviceCheckError.from(response) }
        return response
    }
}

/// App Attest's fraud-metric receipt refresh: the last receipt in, a newer one (with the risk
/// metric) out. Verify what comes back as any receipt (SigilAppAttest's receipt verifier).
public struct AppAttestReceiptClient: Sendable {
    /// The environment type both DeviceCheck clients share.
    @available(*, deprecated, renamed: "DeviceCheckEnvironment")
    public typealias Environment = DeviceCheckEnvironment

    /// The scheme and host every path is appended to: `https://data.appattest.apple.com` in
    /// production, `https://data-development.appattest.apple.com` in development.
    public static func baseURL(for environment: DeviceCheckEnvironment) -> String {
        switch environment {
        case .production: "https://data.appattest.apple.com"
        case .development: "https://data-development.appattest.apple.com"
        case .custom(let url): url
        }
    }

    /// What a refresh returned.
    public enum Refresh: Sendable, Hashable {
        /// 200: a new receipt (DER/BER bytes, decoded from Apple's base64 body).
        case newReceipt([UInt8])
        /// 304: asked before the previous receipt's not-before time; keep using it.
        case notModified
        /// 404: Apple no longer holds data for the key (after its 30-day retention).
        case notFound
    }

    /// The key (a DeviceCheck key of the team) every request's bearer token is signed with.
    public let signingKey: AppleSigningKey
    /// The team id, the tokens' iss claim.
    public let teamID: String
    /// Where requests go.
    public let environment: DeviceCheckEnvironment
    let transport: any HTTPTransport
    let timeout: Double
    let clock: @Sendable () -> Int64

    /// A client signing with `signingKey` for `teamID`.
    public init(
        signingKey: AppleSigningKey, teamID: String, environment: DeviceCheckEnvironment,
        transport: any HTTPTransport = URLSessionHTTPTransport(),
        timeout: Double = 30, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.signingKey = signingKey
        self.teamID = teamID
        self.environment = environment
        self.transport = transport
        self.timeout = timeout
        self.clock = clock
    }

    /// `POST /v1/attestationData` with the base64 of `receipt` as the body.
    public func refresh(receipt: [UInt8]) async throws(DeviceCheckError) -> Refresh {
        guard !receipt.isEmpty else { throw DeviceCheckError(.invalidRequest, "no receipt to refresh") }
        let response = try await DeviceCheckError.post(
            Self.baseURL(for: environment) + "/v1/attestationData", body: Array(Data(receipt).base64EncodedString().utf8), contentType: nil,
            key: signingKey, teamID: teamID, issuedAt: clock(), transport: transport, timeout: timeout, maximumResponseSize: 1 << 20)
        switch response.status {
        case 200:
            let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let decoded = Data(base64Encoded: text), !decoded.isEmpty else {
                throw DeviceCheckError(.unexpectedResponse, "the 200 body is not a base64 receipt", httpStatus: 200)
            }
            return .newReceipt(Array(decoded))
        case 304: return .notModified
        case 404: return .notFound
        default: throw DeviceCheckError.from(response)
        }
    }
}
