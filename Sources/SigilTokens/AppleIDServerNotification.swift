import SigilBase
import SigilJOSE

/// A verified Sign in with Apple server-to-server notification
/// (https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts):
/// Apple POSTs `{"payload": "<JWT>"}` to the endpoint registered for the primary App ID when a user
/// turns email forwarding on or off, revokes consent for the app, or deletes their Apple Account.
///
/// The JWT's `events` claim holds one event (Apple sends it as a string of JSON; an object is
/// read the same). Every member of the token and of the event is kept as sent (`claims`,
/// `event.members`); a new event type is kept as an unknown `EventType`, never refused.
public struct AppleIDServerNotification: Sendable, Hashable {
    /// What happened to the account (the event's `type`), open: types Apple adds later are kept.
    public struct EventType: AppleOpenEnum {
        /// The value as Apple sent it.
        public let rawValue: String
        /// Wraps a raw value as received, documented or not (see `isDocumented`).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The user turned off forwarding from their Hide My Email address.
        public static var emailDisabled: EventType { Self(rawValue: "email-disabled") }
        /// The user turned on forwarding from their Hide My Email address.
        public static var emailEnabled: EventType { Self(rawValue: "email-enabled") }
        /// The user stopped using Sign in with Apple with the app: their tokens are no longer valid.
        public static var consentRevoked: EventType { Self(rawValue: "consent-revoked") }
        /// The user asked Apple to delete their Apple Account.
        public static var accountDelete: EventType { Self(rawValue: "account-delete") }
        /// The values Apple documents, in order.
        public static let documented: [EventType] = [.emailDisabled, .emailEnabled, .consentRevoked, .accountDelete]
    }

    /// The one event a notification carries.
    public struct Event: Sendable, Hashable {
        /// What happened (`type`).
        public let type: EventType
        /// The user's stable identifier for the team (`sub`), as in their identity tokens.
        public let subject: String
        /// When it happened (`event_time`), milliseconds since 1970, when sent.
        public let eventTime: Int64?
        /// The email address concerned (`email`), for the email events.
        public let email: String?
        /// Whether `email` is a private relay address (`is_private_email`, a boolean or "true"/"false").
        public let isPrivateEmail: Bool?
        /// Every member of the event as sent.
        public let members: JSONValue
    }

    /// Every claim of the token as sent.
    public let claims: JWTClaims
    /// The key that verified the token.
    public let keyID: String
    /// The client ids the notification is for (`aud`); one of them is the verifier's.
    public let audience: [String]
    /// When Apple issued the token (`iat`), seconds since 1970.
    public let issuedAt: Double
    /// When the token expires (`exp`), seconds since 1970.
    public let expiration: Double
    /// The token's identifier (`jti`), when sent: the same on every delivery of one notification.
    public let tokenID: String?
    /// The event.
    public let event: Event

    /// What identifies this notification across redeliveries, for storing it once: the token's
    /// `jti` when Apple sends one, else the event's type, subject and time together.
    public var identity: String {
        if let tokenID, !tokenID.isEmpty { return "jti:" + tokenID }
        return "event:\(event.type.rawValue):\(event.subject):\(event.eventTime.map { String($0) } ?? "-")"
    }
}

/// Verifies Sign in with Apple server-to-server notifications against Apple's JWKS
/// (https://appleid.apple.com/auth/keys), exactly as `AppleIdentityTokenVerifier` verifies
/// identity tokens — RS256 only (none, HS256 and every other algorithm refused before any key is
/// looked at), the header's kid in the key set, the signature, iss https://appleid.apple.com, aud
/// one of the client ids, exp after now and iat not in the future, with the leeway — and then
/// reads the `events` claim: present, a JSON object (or a string holding one), with a `type` and a
/// `sub`. Each failure has its own `JOSEError` code; nothing in a reason comes from the email.
///
/// Variable time: every input is public.
public struct AppleIDServerNotificationVerifier: Sendable {
    /// The client ids (the primary App ID's bundle id or a Services ID) notifications may be for.
    public let clientIDs: [String]
    /// Seconds of clock skew tolerated on exp and iat.
    public let leeway: Double
    /// The most bytes the `events` claim may hold.
    public static let maximumEventBytes = 16 * 1024

    /// A verifier for notifications to any of `clientIDs`, tolerating `leeway` seconds of clock skew.
    public init(clientIDs: [String], leeway: Double = 60) {
        self.clientIDs = clientIDs
        self.leeway = leeway
    }

    /// The JWT of a POST body `{"payload": "<JWT>"}` as Apple sends it (malformed otherwise).
    public static func payload(ofBody body: [UInt8]) throws(JOSEError) -> String {
        let json = try JSONValue(parsing: body)
        guard case .object = json else { throw JOSEError(.malformed, "the body is not a JSON object") }
        guard let payload = json["payload"]?.stringValue, !payload.isEmpty else {
            throw JOSEError(.malformed, "the body has no \"payload\" string")
        }
        return payload
    }

    /// The token's kid, read without verification (for choosing or refreshing the key set).
    public static func keyID(of token: String) -> String? { AppleIdentityTokenVerifier.keyID(of: token) }

    /// Verifies `token` with `keys` at `now` (seconds since 1970) in the order the type's documentation lists.
    public func verify(_ token: String, keys: JWKS, now: Double) throws(JOSEError) -> AppleIDServerNotification {
        let (kid, claims) = try AppleSignedJWT.verify(
            token, keys: keys, clientIDs: clientIDs, leeway: leeway, now: now, what: "Sign in with Apple server notifications")
        guard let issuedAt = claims.issuedAt, let expiration = claims.expiration else {
            throw JOSEError(.invalidClaim, "iat and exp are required")
        }
        let event = try Self.event(claims.json["events"])
        return AppleIDServerNotification(
            claims: claims, keyID: kid, audience: claims.audience ?? [], issuedAt: issuedAt, expiration: expiration,
            tokenID: claims.jwtID, event: event)
    }

    static func event(_ value: JSONValue?) throws(JOSEError) -> AppleIDServerNotification.Event {
        let members: JSONValue
        switch value {
        case nil: throw JOSEError(.invalidClaim, "the notification has no events claim")
        case .string(let text)?:
            guard text.utf8.count <= maximumEventBytes else {
                throw JOSEError(.invalidClaim, "events is \(text.utf8.count) bytes, over \(maximumEventBytes)")
            }
            do { members = try JSONValue(parsing: Array(text.utf8)) } catch {
                throw JOSEError(.invalidClaim, "events is a string that is not JSON: \(error.reason)")
            }
        case let other?: members = other
        }
        guard case .object = members else { throw JOSEError(.invalidClaim, "events is not a JSON object") }
        guard let type = try AppleSignedJWT.string(members, "type"), !type.isEmpty else {
            throw JOSEError(.invalidClaim, "the event has no type")
        }
        guard let subject = try AppleSignedJWT.string(members, "sub"), !subject.isEmpty else {
            throw JOSEError(.invalidClaim, "the event has no sub")
        }
        var eventTime: Int64?
        if let time = members["event_time"] {
            guard let milliseconds = time.int64Value else { throw JOSEError(.invalidClaim, "event_time is not an integer") }
            eventTime = milliseconds
        }
        let email = try AppleSignedJWT.string(members, "email")
        return AppleIDServerNotification.Event(
            type: .init(rawValue: type), subject: subject, eventTime: eventTime, email: email,
            isPrivateEmail: try AppleSignedJWT.flag(members, "is_private_email"), members: members)
    }
}
