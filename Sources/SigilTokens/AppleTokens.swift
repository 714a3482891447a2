import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys

/// An App Store Connect / Apple Developer private key (the `.p8` file: PKCS#8 PEM of a P-256 key)
/// and its key identifier. The scalar never leaves the key object; every signature made with it
/// runs the constant-time signing path with RFC 6979 nonces.
public struct AppleSigningKey: Sendable {
    /// The P-256 private key; signing with it runs in constant time.
    public let privateKey: ECDSAPrivateKey
    /// The key's identifier in App Store Connect, written as the kid of every token.
    public let keyID: String

    /// A signing key from an already loaded P-256 private key and its App Store Connect key id.
    public init(privateKey: ECDSAPrivateKey, keyID: String) throws(TokenError) {
        guard privateKey.curve == .p256 else {
            throw TokenError(.invalidKey, "Apple's keys are P-256, found \(privateKey.curve.rawValue)")
        }
        guard !keyID.isEmpty else { throw TokenError(.invalidConfiguration, "the key id is empty") }
        self.privateKey = privateKey
        self.keyID = keyID
    }

    /// Loads a `.p8` (PKCS#8 PEM or DER; SEC 1 "EC PRIVATE KEY" also accepted).
    public init<Bytes: Collection>(p8 bytes: Bytes, keyID: String) throws(TokenError) where Bytes.Element == UInt8 {
        let loaded: ECKey
        do { loaded = try ECKey(loading: bytes) } catch { throw TokenError(wrapping: error, as: .invalidKey, context: "the .p8 key") }
        guard case .privateKey(let key) = loaded else {
            throw TokenError(.invalidKey, "the .p8 file holds a public key, not a private key")
        }
        try self.init(privateKey: key, keyID: keyID)
    }
}

/// Mints every token and signature Apple's server-side APIs take, each ES256 with header
/// {"alg":"ES256","kid":…,"typ":"JWT"}; lifetime limits are checked before anything is signed.
/// Times are seconds since the epoch, passed in by the caller.
public enum AppleTokens {
    /// App Store Server API bearer token: iss issuer id, iat, exp (at most 60 minutes after iat),
    /// aud "appstoreconnect-v1", bid bundle id.
    public static func appStoreServerAPI(
        key: AppleSigningKey, issuerID: String, bundleID: String, issuedAt: Int64,
        lifetime: Int64 = 300
    ) throws(TokenError) -> String {
        try require(lifetime > 0 && lifetime <= 3600, "an App Store Server API token lives 1…3600 s (60 minutes), asked for \(lifetime)")
        try require(!issuerID.isEmpty && !bundleID.isEmpty, "issuer id and bundle id are required")
        return try jwt(
            key: key,
            claims: [
                ("iss", .string(issuerID)), ("iat", .int(issuedAt)), ("exp", .int(issuedAt + lifetime)),
                ("aud", .string("appstoreconnect-v1")), ("bid", .string(bundleID)),
            ])
    }

    /// External Purchase Server API bearer token: the same claims and limit as the App Store
    /// Server API token (Apple documents one token format for both).
    public static func externalPurchaseServerAPI(
        key: AppleSigningKey, issuerID: String, bundleID: String, issuedAt: Int64,
        lifetime: Int64 = 300
    ) throws(TokenError) -> String {
        try appStoreServerAPI(key: key, issuerID: issuerID, bundleID: bundleID, issuedAt: issuedAt, lifetime: lifetime)
    }

    /// Sign in with Apple client secret: iss team id, iat, exp (at most 15,777,000 s — six months —
    /// after iat), aud "https://appleid.apple.com", sub client id (the Services ID or bundle id).
    public static func signInWithAppleClientSecret(
        key: AppleSigningKey, teamID: String, clientID: String, issuedAt: Int64,
        lifetime: Int64 = 3600
    ) throws(TokenError) -> String {
        try require(lifetime > 0 && lifetime <= 15_777_000, "a client secret lives 1…15777000 s, asked for \(lifetime)")
        try require(!teamID.isEmpty && !clientID.isEmpty, "team id and client id are required")
        return try jwt(
            key: key,
            claims: [
                ("iss", .string(teamID)), ("iat", .int(issuedAt)), ("exp", .int(issuedAt + lifetime)),
                ("aud", .string("https://appleid.apple.com")), ("sub", .string(clientID)),
            ])
    }

    /// ProximityReader Verifier API reader token: iss brand id, sub reader instance identifier,
    /// aud "apple-identityservices-v1", iat, exp (after iat, at most 5 minutes).
    public static func proximityReaderToken(
        key: AppleSigningKey, brandID: String, readerID: String, issuedAt: Int64,
        lifetime: Int64 = 300
    ) throws(TokenError) -> String {
        try require(lifetime > 0 && lifetime <= 300, "a reader token lives 1…300 s (5 minutes), asked for \(lifetime)")
        try require(!brandID.isEmpty && !readerID.isEmpty, "brand id and reader id are required")
        return try jwt(
            key: key,
            claims: [
                ("iss", .string(brandID)), ("sub", .string(readerID)), ("aud", .string("apple-identityservices-v1")),
                ("iat", .int(issuedAt)), ("exp", .int(issuedAt + lifetime)),
            ])
    }

    /// DeviceCheck API bearer token, also the one App Attest's fraud-metric receipt refresh takes:
    /// header {alg ES256, kid}, claims iss team id and iat. Apple documents no exp for it and
    /// accepts a token for up to an hour after iat, so none is set: mint one per request.
    public static func deviceCheck(key: AppleSigningKey, teamID: String, issuedAt: Int64) throws(TokenError) -> String {
        try require(!teamID.isEmpty, "the team id is required")
        return try jwt(key: key, claims: [("iss", .string(teamID)), ("iat", .int(issuedAt))])
    }

    /// StoreKit 2 promotional offer signature (v2): a JWS with aud "promotional-offer", nonce,
    /// iss, bid, iat, productId, offerIdentifier and transactionId when given; no exp (Apple's format).
    public static func promotionalOfferV2(
        key: AppleSigningKey, issuerID: String, bundleID: String, productID: String,
        offerIdentifier: String, transactionID: String? = nil, nonce: String? = nil,
        issuedAt: Int64
    ) throws(TokenError) -> String {
        var claims = base(issuerID: issuerID, bundleID: bundleID, audience: "promotional-offer", nonce: nonce, issuedAt: issuedAt)
        claims.append(("productId", .string(productID)))
        claims.append(("offerIdentifier", .string(offerIdentifier)))
        if let transactionID { claims.append(("transactionId", .string(transactionID))) }
        return try jwt(key: key, claims: claims)
    }

    /// Introductory offer eligibility signature: aud "introductory-offer-eligibility", productId,
    /// allowIntroductoryOffer, transactionId (required); no exp.
    public static func introductoryOfferEligibility(
        key: AppleSigningKey, issuerID: String, bundleID: String, productID: String,
        allowIntroductoryOffer: Bool, transactionID: String, nonce: String? = nil,
        issuedAt: Int64
    ) throws(TokenError) -> String {
        var claims = base(
            issuerID: issuerID, bundleID: bundleID, audience: "introductory-offer-eligibility", nonce: nonce, issuedAt: issuedAt)
        claims.append(("productId", .string(productID)))
        claims.append(("allowIntroductoryOffer", .bool(allowIntroductoryOffer)))
        claims.append(("transactionId", .string(transactionID)))
        return try jwt(key: key, claims: claims)
    }

    /// Advanced Commerce in-app request: aud "advanced-commerce-api", request = standard base64 of
    /// the request's JSON (given as bytes, so it is signed exactly as the caller serialized it).
    public static func advancedCommerceInAppRequest(
        key: AppleSigningKey, issuerID: String, bundleID: String, requestJSON: [UInt8],
        nonce: String? = nil, issuedAt: Int64
    ) throws(TokenError) -> String {
        do { _ = try JSONValue(parsing: requestJSON) } catch {
            throw TokenError(.invalidConfiguration, "the Advanced Commerce request is not JSON: \(error.reason)")
        }
        var claims = base(issuerID: issuerID, bundleID: bundleID, audience: "advanced-commerce-api", nonce: nonce, issuedAt: issuedAt)
        claims.append(("request", .string(Base64.encode(requestJSON))))
        return try jwt(key: key, claims: claims)
    }

    /// The StoreKit 1 promotional offer signature (SKPaymentDiscount): ECDSA P-256 / SHA-256 over
    /// bundleId ⁣ keyId ⁣ productId ⁣ offerId ⁣ appAccountToken ⁣ nonce ⁣ timestamp joined by
    /// U+2063 INVISIBLE SEPARATOR, DER-encoded, standard base64. appAccountToken and nonce are
    /// lowercased as Apple specifies; timestamp is milliseconds since the epoch.
    public static func promotionalOfferV1(
        key: AppleSigningKey, bundleID: String, productID: String, offerID: String,
        appAccountToken: String = "", nonce: String, timestamp: Int64
    ) -> String {
        let message = promotionalOfferV1Message(
            keyID: key.keyID, bundleID: bundleID, productID: productID, offerID: offerID,
            appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        let signature = key.privateKey.signature(for: message, hash: .sha256)
        return Base64.encode(signature.derRepresentation)
    }

    /// The exact bytes the v1 promotional offer signature covers.
    public static func promotionalOfferV1Message(
        keyID: String, bundleID: String, productID: String, offerID: String,
        appAccountToken: String, nonce: String, timestamp: Int64
    ) -> [UInt8] {
        let parts = [bundleID, keyID, productID, offerID, appAccountToken.lowercased(), nonce.lowercased(), String(timestamp)]
        return Array(parts.joined(separator: "\u{2063}").utf8)
    }

    static func base(issuerID: String, bundleID: String, audience: String, nonce: String?, issuedAt: Int64) -> [(String, JSONValue)] {
        [
            ("nonce", .string(nonce ?? randomNonce())), ("iss", .string(issuerID)), ("bid", .string(bundleID)),
            ("aud", .string(audience)), ("iat", .int(issuedAt)),
        ]
    }

    /// A fresh nonce for a claim the caller left to us: a random (version 4, RFC 9562 §5.4) UUID in
    /// lowercase, as Apple's libraries write one — 122 bits from the system's generator, no
    /// Foundation.
    static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomNonce(using: &generator)
    }

    /// `randomNonce()` with the random bits from `generator` (tests pass a seeded one).
    static func randomNonce<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = generator.next()
            for index in 0..<8 { bytes[8 * half + index] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10
        let hex = Base16.encode(bytes)
        var out = ""
        for (index, character) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { out += "-" }
            out.append(character)
        }
        return out
    }

    static func jwt(key: AppleSigningKey, claims: [(String, JSONValue)]) throws(TokenError) -> String {
        let header = JSONValue.object([("alg", .string("ES256")), ("kid", .string(key.keyID)), ("typ", .string("JWT"))])
        do {
            return try JWS.sign(header: header, payload: Array(JSONValue.object(claims).serialized.utf8), key: key.privateKey)
        } catch {
            throw TokenError(.invalidKey, error.reason)
        }
    }

    static func require(_ condition: Bool, _ reason: String) throws(TokenError) {
        guard condition else { throw TokenError(.invalidConfiguration, reason) }
    }
}
