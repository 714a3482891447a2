import SigilAppStore
import SigilBase
import SigilJOSE
import SigilTokens

/// One token request: which of Apple's ES256 tokens to mint, with the App Store Connect key that
/// signs it. The key text is read once into SigilTokens' loader (constant-time PEM and key
/// parsing) and never written into an answer or an error message.
public struct TokenRequest: Sendable {
    /// The tokens the doors mint.
    public enum Token: String, Sendable, CaseIterable {
        /// App Store Server API bearer token (`AppleTokens.appStoreServerAPI`).
        case appStoreServerAPI = "app-store-server-api"
        /// External Purchase Server API bearer token.
        case externalPurchaseServerAPI = "external-purchase-server-api"
        /// DeviceCheck and App Attest receipt-refresh bearer token.
        case deviceCheck = "device-check"
        /// Sign in with Apple client secret.
        case signInWithAppleClientSecret = "sign-in-with-apple"
    }

    /// The largest token request accepted, in bytes.
    public static let maximumBytes = 1 << 16
    /// The member names a token request may carry.
    public static let memberNames: Set<String> = [
        "token", "key", "keyId", "issuerId", "bundleId", "teamId", "clientId", "issuedAt", "lifetime",
    ]

    /// The token to mint.
    public let token: Token
    /// The App Store Connect signing key (its .p8 PEM text).
    public let key: AppleSigningKey
    private let reader: RequestReader

    /// Decodes and checks the token request document `json`.
    ///
    /// The key's bytes are copied out of the document once, into an array wiped as soon as the
    /// key is loaded (the loader wipes its own copies; the key keeps its scalar in storage of its
    /// own), and the request keeps no member holding the key text. The document's `String` of
    /// the key text cannot be wiped (a Swift string's storage is immutable): it is released, not
    /// overwritten, when this initializer returns; `json` is the caller's to wipe.
    public init(json: [UInt8]) throws(ServiceError) {
        var reader = try RequestReader(json, maximumBytes: Self.maximumBytes, allowed: Self.memberNames)
        let name = try reader.requiredString("token", maximumLength: 64, for: "(which token to mint)")
        guard let token = Token(rawValue: name) else {
            throw ServiceError(
                .invalidMember,
                "token \"\(RequestReader.shown(name))\" is not one of \(Token.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
        self.token = token
        var p8 = Array(try reader.requiredString("key", maximumLength: 8192, for: "(the .p8 key's PEM text)").utf8)
        defer { SecretMemory.wipe(&p8) }
        let keyId = try reader.requiredString("keyId", maximumLength: 64, for: "(the key's id in App Store Connect)")
        reader = reader.removing("key")
        self.reader = reader
        do { key = try AppleSigningKey(p8: p8, keyID: keyId) } catch {
            throw ServiceError(.invalidMember, "key: \(error.qualifiedCode) (not a P-256 PKCS#8 private key)")
        }
    }

    /// The names of the members this request still holds (tests check the key text is not one).
    package var heldMemberNames: [String] { reader.members.map { $0.0 } }

    /// Mints the token at `now` unless the request gives `issuedAt`; refuses with the request's
    /// error or SigilTokens' `TokenError`.
    func mint(now: Int64) throws(Refusal) -> String {
        let issuedAt: Int64
        let lifetime: Int64?
        do {
            issuedAt = try reader.integer("issuedAt", in: 0...253_402_300_799) ?? now
            lifetime = try reader.integer("lifetime", in: 1...15_777_000)
        } catch { throw Refusal(error) }
        switch token {
        case .appStoreServerAPI, .externalPurchaseServerAPI:
            let issuer: String
            let bundle: String
            do {
                issuer = try reader.requiredString("issuerId", maximumLength: 64, for: "for \(token.rawValue)")
                bundle = try reader.requiredString("bundleId", maximumLength: 255, for: "for \(token.rawValue)")
            } catch { throw Refusal(error) }
            do {
                return token == .appStoreServerAPI
                    ? try AppleTokens.appStoreServerAPI(
                        key: key, issuerID: issuer, bundleID: bundle, issuedAt: issuedAt, lifetime: lifetime ?? 300)
                    : try AppleTokens.externalPurchaseServerAPI(
                        key: key, issuerID: issuer, bundleID: bundle, issuedAt: issuedAt, lifetime: lifetime ?? 300)
            } catch { throw Refusal(error) }
        case .deviceCheck:
            let team: String
            do { team = try reader.requiredString("teamId", maximumLength: 64, for: "for device-check") } catch { throw Refusal(error) }
            do { return try AppleTokens.deviceCheck(key: key, teamID: team, issuedAt: issuedAt) } catch { throw Refusal(error) }
        case .signInWithAppleClientSecret:
            let team: String
            let client: String
            do {
                team = try reader.requiredString("teamId", maximumLength: 64, for: "for sign-in-with-apple")
                client = try reader.requiredString("clientId", maximumLength: 255, for: "for sign-in-with-apple")
            } catch { throw Refusal(error) }
            do {
                return try AppleTokens.signInWithAppleClientSecret(
                    key: key, teamID: team, clientID: client, issuedAt: issuedAt, lifetime: lifetime ?? 3600)
            } catch { throw Refusal(error) }
        }
    }
}

extension VerificationService {
    /// The answer to the token request document `json`: `{"valid": true, "token": …}`, or the
    /// failure document (`request.*`, or SigilTokens' `tokens.*` with status refused).
    public func mintToken(json: [UInt8]) -> VerificationAnswer {
        let request: TokenRequest
        do { request = try TokenRequest(json: json) } catch { return VerificationAnswer(error) }
        let token: String
        do { token = try request.mint(now: clock()) } catch { return error.answer }
        return VerificationAnswer(
            status: .verified,
            json: JSONValue.object([("valid", .bool(true)), ("kind", .string(request.token.rawValue)), ("token", .string(token))])
                .serialized)
    }
}
