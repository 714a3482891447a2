import SigilX509

/// One verification request, as every door takes it: the JSON document that
/// `Conformance/verification-request.schema.json` describes, decoded and checked before any verifier
/// runs.
///
/// Hostile input is bounded: at most ``maximumBytes`` of request, the JSON parser's depth limit,
/// no unknown member, every string and array bounded. A request that breaks a rule is refused
/// with a ``ServiceError`` naming the member; nothing is guessed or silently dropped.
///
/// `roots`, `environments: ["Xcode"]` and `unpinnedTestRoot` are trust configuration: they choose
/// the anchor the data is verified under, which every valid answer names (``TrustAnchor``).
public struct VerificationRequest: Sendable {
    /// What the data is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A JWS of App Store signed data whose kind is told by its members (never guessed).
        case auto
        /// A signed transaction.
        case transaction
        /// Signed renewal info.
        case renewalInfo = "renewal-info"
        /// A signed App Store Server Notification (V2) payload.
        case notification
        /// A signed app transaction.
        case appTransaction = "app-transaction"
        /// A signed Retention Messaging realtime request.
        case realtimeRequest = "realtime-request"
        /// An app receipt (PKCS #7), base64.
        case receipt
        /// An App Attest attestation object (CBOR), base64.
        case attestation
        /// An App Attest assertion object (CBOR), base64.
        case assertion
        /// An Apple Pay payment token (its JSON text), verified, decrypted with the service's
        /// merchant keys and recorded against replay (see ``ApplePayServiceConfiguration``).
        case applepay
        /// An ISO/IEC 18013-5 DeviceResponse (CBOR), base64 — ProximityReader's `responseData` or
        /// the opened answer of an 18013-7 Annex C request — verified for its session
        /// (`sessionTranscript`, and `ephemeralReaderKey` for a deviceMac) under IACA roots: the
        /// request's `roots` or the service's configured ones (``MdocServiceConfiguration``).
        /// Regular builds only: Embedded builds answer `service.notConfigured`.
        case mdoc
    }

    /// The largest request accepted, in bytes (4 MiB: a receipt of many purchases fits).
    public static let maximumBytes = 4 << 20
    /// The member names a request may carry.
    public static let memberNames: Set<String> = [
        "kind", "data", "bundleId", "appAppleId", "environments", "roots", "at", "reportOnly", "teamId", "clientData",
        "clientDataHash", "keyId", "publicKey", "counter", "unpinnedTestRoot", "sessionTranscript", "ephemeralReaderKey",
        "acceptUnverifiedDeviceMAC", "values",
    ]

    /// The data's kind (`auto` when absent).
    public let kind: Kind
    /// The JWS, or the base64 of the receipt, CBOR object or DeviceResponse.
    public let data: String
    /// The bundle id, enforced unless ``reportOnly``.
    public let bundleId: String?
    /// The app's Apple id (App Store signed data from Production).
    public let appAppleId: Int64?
    /// The environments accepted, by name (the kind's default when absent). `["Xcode"]` is trust
    /// configuration: Xcode's StoreKit testing certificate is the anchor (``TrustAnchor/xcode``).
    public let environments: [String]?
    /// Trust configuration: roots instead of Apple's root for the kind. Answered
    /// ``TrustAnchor/apple`` when they are exactly that root by fingerprint, else
    /// ``TrustAnchor/requestRoots`` (with `appleRoot` not enforced), or refused under
    /// ``RequestTrust/refused``.
    public let roots: [Certificate]?
    /// The validation time, seconds since 1970 (the kind's default when absent); listed in the
    /// answer's `notEnforced` when more than ``VerificationService/atTolerance`` seconds from the
    /// service's clock.
    public let at: Int64?
    /// The bundle id (and app Apple id) reported and not enforced, by name.
    public let reportOnly: Bool
    /// App Attest: the team id of the App ID (team id + "." + bundle id).
    public let teamId: String?
    /// App Attest: the client data; its SHA-256 is the client data hash.
    public let clientData: [UInt8]?
    /// App Attest: the client data hash itself.
    public let clientDataHash: [UInt8]?
    /// Attestation: the key id the app sent, checked when given.
    public let keyId: [UInt8]?
    /// Assertion: the attested key, X9.62 uncompressed (as an attestation's answer gives it).
    public let publicKey: [UInt8]?
    /// Assertion: the counter stored for the key (0 after an attestation).
    public let counter: UInt32?
    /// Trust configuration, attestation only: trust `roots` without the Apple App Attestation Root
    /// CA's pin (test PKIs only; ``TrustAnchor/unpinnedTestRoot``).
    public let unpinnedTestRoot: Bool
    /// mdoc: the session's SessionTranscript (CBOR, tag 24 around it or the bare array), as
    /// ProximityReader's `sessionTranscript` or an Annex C request's transcript gives it.
    public let sessionTranscript: [UInt8]?
    /// mdoc: the reader's ephemeral key of the session in any form (raw scalar, x9.63, SEC 1,
    /// PKCS#8, SPKI, PEM, COSE_Key): a private key checks a deviceMac, a public one cannot.
    public let ephemeralReaderKey: [UInt8]?
    /// mdoc, the named relaxation: a deviceMac that cannot be checked (no reader private key) is
    /// accepted and the answer lists `deviceAuthentication` in `notEnforced`.
    public let acceptUnverifiedDeviceMAC: Bool
    /// mdoc: each element's value in the answer (personal data: only when asked).
    public let values: Bool

    /// Decodes and checks the request document `json`.
    public init(json: [UInt8]) throws(ServiceError) {
        let reader = try RequestReader(json, maximumBytes: Self.maximumBytes, allowed: Self.memberNames)
        let kindName = try reader.string("kind", maximumLength: 64) ?? Kind.auto.rawValue
        guard let kind = Kind(rawValue: kindName) else {
            throw ServiceError(
                .invalidMember,
                "kind \"\(RequestReader.shown(kindName))\" is not one of \(Kind.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
        self.kind = kind
        data = try reader.requiredString("data", maximumLength: Self.maximumBytes, for: "(the JWS, or base64 of the object)")
        bundleId = try reader.string("bundleId", maximumLength: 255)
        if bundleId?.isEmpty == true { throw ServiceError(.invalidMember, "bundleId is empty") }
        appAppleId = try reader.integer("appAppleId", in: 1...Int64.max)
        environments = try reader.strings("environments", maximumCount: 4, maximumLength: 32)
        roots = try reader.certificates("roots")
        at = try reader.integer("at", in: 0...253_402_300_799)
        reportOnly = try reader.bool("reportOnly") ?? false
        teamId = try reader.string("teamId", maximumLength: 64)
        clientData = try reader.base64("clientData")
        clientDataHash = try reader.base64("clientDataHash", maximumBytes: 64)
        keyId = try reader.base64("keyId", maximumBytes: 64)
        publicKey = try reader.base64("publicKey", maximumBytes: 133)
        counter = try reader.integer("counter", in: 0...Int64(UInt32.max)).map { UInt32($0) }
        unpinnedTestRoot = try reader.bool("unpinnedTestRoot") ?? false
        sessionTranscript = try reader.base64("sessionTranscript")
        ephemeralReaderKey = try reader.base64("ephemeralReaderKey", maximumBytes: 8192)
        acceptUnverifiedDeviceMAC = try reader.bool("acceptUnverifiedDeviceMAC") ?? false
        values = try reader.bool("values") ?? false
        try checkMembersBelongToKind()
    }

    /// Members of App Attest are refused on App Store kinds and the reverse, and mdoc's on every
    /// other kind: a member that would be ignored is an error.
    private func checkMembersBelongToKind() throws(ServiceError) {
        let appAttestOnly: [(String, Bool)] = [
            ("teamId", teamId != nil), ("clientData", clientData != nil), ("clientDataHash", clientDataHash != nil),
            ("keyId", keyId != nil), ("publicKey", publicKey != nil), ("counter", counter != nil),
            ("unpinnedTestRoot", unpinnedTestRoot),
        ]
        let mdocOnly: [(String, Bool)] = [
            ("sessionTranscript", sessionTranscript != nil), ("ephemeralReaderKey", ephemeralReaderKey != nil),
            ("acceptUnverifiedDeviceMAC", acceptUnverifiedDeviceMAC), ("values", values),
        ]
        if kind != .mdoc, let (name, _) = mdocOnly.first(where: { $0.1 }) {
            throw ServiceError(.invalidMember, "\(name) applies to kind mdoc only, not \(kind.rawValue)")
        }
        switch kind {
        case .mdoc:
            // The IACA roots are the request's `roots` (trust configuration) or the service's.
            let others: [(String, Bool)] = [
                ("bundleId", bundleId != nil), ("appAppleId", appAppleId != nil), ("environments", environments != nil),
                ("reportOnly", reportOnly),
            ]
            if let (name, _) = (others + appAttestOnly).first(where: { $0.1 }) {
                throw ServiceError(.invalidMember, "\(name) does not apply to kind mdoc")
            }
            if sessionTranscript == nil {
                throw ServiceError(.missingMember, "sessionTranscript is required for kind mdoc (the session's SessionTranscript, base64)")
            }
        case .attestation, .assertion:
            if appAppleId != nil { throw ServiceError(.invalidMember, "appAppleId does not apply to kind \(kind.rawValue)") }
            if reportOnly {
                throw ServiceError(.invalidMember, "reportOnly does not apply to kind \(kind.rawValue): the App ID is always checked")
            }
            if kind == .attestation {
                for name in ["publicKey", "counter"] where appAttestOnly.contains(where: { $0.0 == name && $0.1 }) {
                    throw ServiceError(.invalidMember, "\(name) does not apply to kind attestation")
                }
            } else {
                for name in ["keyId", "unpinnedTestRoot"] where appAttestOnly.contains(where: { $0.0 == name && $0.1 }) {
                    throw ServiceError(.invalidMember, "\(name) does not apply to kind assertion")
                }
                if roots != nil { throw ServiceError(.invalidMember, "roots does not apply to kind assertion (the key was attested)") }
                if environments != nil { throw ServiceError(.invalidMember, "environments does not apply to kind assertion") }
            }
        case .applepay:
            // The merchant keys, the roots and the replay store are the service's configuration:
            // a request names only the token and, for a stored token, the time it was received.
            let others: [(String, Bool)] = [
                ("bundleId", bundleId != nil), ("appAppleId", appAppleId != nil), ("environments", environments != nil),
                ("roots", roots != nil), ("reportOnly", reportOnly),
            ]
            if let (name, _) = (others + appAttestOnly).first(where: { $0.1 }) {
                throw ServiceError(
                    .invalidMember,
                    "\(name) does not apply to kind applepay (its merchant keys and trusted roots are the service's configuration)")
            }
        case .receipt:
            if appAppleId != nil { throw ServiceError(.invalidMember, "appAppleId does not apply to kind receipt") }
            fallthrough
        default:
            if let (name, _) = appAttestOnly.first(where: { $0.1 }) {
                throw ServiceError(.invalidMember, "\(name) applies to App Attest kinds only, not \(kind.rawValue)")
            }
        }
    }
}

#if !hasFeature(Embedded)
/// A request prints its kind and which members it holds, never a value: it may carry a reader's
/// private key (mdoc's `ephemeralReaderKey`), personal data (an mdoc's elements, App Attest client
/// data) or a whole receipt.
extension VerificationRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The names of the members the request holds, in the schema's order.
    var presentMembers: [String] {
        let present: [(String, Bool)] = [
            ("data", true), ("bundleId", bundleId != nil), ("appAppleId", appAppleId != nil), ("environments", environments != nil),
            ("roots", roots != nil), ("at", at != nil), ("reportOnly", reportOnly), ("teamId", teamId != nil),
            ("clientData", clientData != nil), ("clientDataHash", clientDataHash != nil), ("keyId", keyId != nil),
            ("publicKey", publicKey != nil), ("counter", counter != nil), ("unpinnedTestRoot", unpinnedTestRoot),
            ("sessionTranscript", sessionTranscript != nil), ("ephemeralReaderKey", ephemeralReaderKey != nil),
            ("acceptUnverifiedDeviceMAC", acceptUnverifiedDeviceMAC), ("values", values),
        ]
        return present.filter(\.1).map(\.0)
    }

    /// `VerificationRequest(kind: mdoc; data, roots, sessionTranscript, ephemeralReaderKey)`.
    public var description: String { "VerificationRequest(kind: \(kind.rawValue); \(presentMembers.joined(separator: ", ")))" }
    /// The same text as `description`.
    public var debugDescription: String { description }
    /// The kind and the names of the members held; no value.
    public var customMirror: Mirror {
        Mirror(self, children: ["kind": kind.rawValue, "members": presentMembers], displayStyle: .struct)
    }
}
#endif
