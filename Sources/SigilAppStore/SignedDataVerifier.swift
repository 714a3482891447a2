import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How far a verified payload is trusted.
public enum SignedDataTrust: String, Sendable {
    /// ES256 signature by a leaf whose chain validated to a trusted root under Apple's
    /// signed-data policy (and, with online checks, was not revoked).
    case appleChain
    /// Xcode environment: the signature verifies with the single self-signed StoreKit Testing
    /// certificate in x5c — the one the caller gave, or by name the one x5c carries
    /// (``SignedDataVerifier/xcodeCertificate``); nothing ties it to Apple.
    case xcodeSelfSigned
    /// LocalTesting environment: decoded only, nothing verified (Apple's libraries' test hook).
    case unverified
}

/// What the payload was verified against, held once (results are copied through every
/// suspended verification; one reference keeps those copies small).
final class SignedDataDetails: Sendable {
    let payloadBytes: [UInt8]
    let payloadJSON: JSONValue
    let header: JSONValue
    let chain: [Certificate]
    let validationTime: Int64
    let trust: SignedDataTrust
    let chainFromCache: Bool
    let identity: AppIdentityReport
    let environment: AppStoreEnvironment
    let facts: [SignedDataFact]

    init(
        payloadBytes: [UInt8], payloadJSON: JSONValue, header: JSONValue, chain: [Certificate], validationTime: Int64,
        trust: SignedDataTrust, chainFromCache: Bool, identity: AppIdentityReport, environment: AppStoreEnvironment,
        facts: [SignedDataFact]
    ) {
        self.payloadBytes = payloadBytes
        self.payloadJSON = payloadJSON
        self.header = header
        self.chain = chain
        self.validationTime = validationTime
        self.trust = trust
        self.chainFromCache = chainFromCache
        self.identity = identity
        self.environment = environment
        self.facts = facts
    }
}

/// A payload that passed verification, with what it was verified against.
public struct VerifiedSignedData<Payload: AppStoreSignedPayload>: Sendable {
    /// The decoded payload and what it was verified against, held once: a result is one
    /// reference however large Apple's model, so copying it (through every suspended
    /// verification, into a ``VerifiedNotification``) stays cheap and the code doing it small.
    final class Storage: Sendable {
        let payload: Payload
        let details: SignedDataDetails
        init(payload: Payload, details: SignedDataDetails) {
            self.payload = payload
            self.details = details
        }
    }
    let storage: Storage

    init(payload: Payload, details: SignedDataDetails) { storage = Storage(payload: payload, details: details) }

    /// The payload, decoded into Apple's model for its kind.
    public var payload: Payload { storage.payload }
    var details: SignedDataDetails { storage.details }

    /// The payload bytes exactly as signed (every member, including ones the model does not name).
    public var payloadBytes: [UInt8] { details.payloadBytes }
    /// The payload as parsed (strictly, once), every member included.
    public var payloadJSON: JSONValue { details.payloadJSON }
    /// The JWS header as parsed (alg, x5c).
    public var header: JSONValue { details.header }
    /// Leaf, intermediate, trusted root (empty unless `trust` is `.appleChain`).
    public var chain: [Certificate] { details.chain }
    /// The time (seconds since the epoch) the chain was validated at.
    public var validationTime: Int64 { details.validationTime }
    /// How far the payload is trusted: Apple's chain, Xcode's self-signed certificate, or not at all (LocalTesting).
    public var trust: SignedDataTrust { details.trust }
    /// Whether the chain came from the cache (validated earlier) rather than being checked now.
    public var chainFromCache: Bool { details.chainFromCache }
    /// The app identity the payload carries and whether the verifier enforced it (it always
    /// enforces the environment).
    public var identity: AppIdentityReport { details.identity }
    /// The environment the payload is from: the one of the verifier's
    /// ``SignedDataVerifier/environments`` it names (Production or Sandbox for a verifier of
    /// ``AcceptedEnvironments/productionAndSandbox``).
    public var environment: AppStoreEnvironment { details.environment }
    /// What is true of the payload that is not a failure but may call for action — for example
    /// ``SignedDataFact/leafExpiredSinceSigning(notAfter:)``.
    public var facts: [SignedDataFact] { details.facts }

    /// Whether the leaf certificate that signed the payload has expired since the payload was
    /// signed (``SignedDataFact/leafExpiredSinceSigning(notAfter:)``).
    public var leafExpiredSinceSigning: Bool {
        facts.contains { if case .leafExpiredSinceSigning = $0 { true } else { false } }
    }
}

/// Something true of a verified payload that is not a failure, reported on the result
/// (``VerifiedSignedData/facts``) so the caller can act on it.
public enum SignedDataFact: Sendable, Hashable {
    /// The leaf certificate was valid when the payload was signed — the chain was validated at the
    /// payload's signedDate (receiptCreationDate for an app transaction) — but its `notAfter`
    /// (seconds since 1970) is before now: the data was signed by a leaf Apple has since rotated
    /// out (Apple's signing leaf expired on 2025-10-11, for example). With a revocation checker the
    /// leaf and intermediate were checked for revocation **now**, so a leaf revoked after signing
    /// is still refused.
    ///
    /// Apple's remedy: fetch the transaction again through the App Store Server API's Get
    /// Transaction Info (`AppStoreServerAPIClient.getTransactionInfo(transactionId:)` in
    /// SigilHTTP), whose answer Apple signs with the current leaf, and keep that signature.
    case leafExpiredSinceSigning(notAfter: Int64)
}

/// Signed data of whichever kind it was verified as (``SignedDataVerifier/verify(_:kind:at:trace:)``).
public enum VerifiedAnySignedData: Sendable {
    /// A signed transaction.
    case transaction(VerifiedSignedData<JWSTransactionDecodedPayload>)
    /// Signed subscription renewal info.
    case renewalInfo(VerifiedSignedData<JWSRenewalInfoDecodedPayload>)
    /// A signed notification.
    case notification(VerifiedSignedData<ResponseBodyV2DecodedPayload>)
    /// A signed app transaction.
    case appTransaction(VerifiedSignedData<AppTransaction>)
    /// A signed Retention Messaging realtime request.
    case realtimeRequest(VerifiedSignedData<DecodedRealtimeRequestBody>)

    /// The kind it was verified as.
    public var kind: SignedDataKind {
        switch self {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .notification: .notification
        case .appTransaction: .appTransaction
        case .realtimeRequest: .realtimeRequest
        }
    }

    /// The payload as parsed, every member included.
    public var payloadJSON: JSONValue { details.payloadJSON }
    /// Leaf, intermediate, trusted root (empty unless the trust is `.appleChain`).
    public var chain: [Certificate] { details.chain }
    /// The time (seconds since the epoch) the chain was validated at.
    public var validationTime: Int64 { details.validationTime }
    /// How far the payload is trusted.
    public var trust: SignedDataTrust { details.trust }
    /// Whether the chain came from the cache.
    public var chainFromCache: Bool { details.chainFromCache }
    /// The app identity the payload carries and whether it was enforced.
    public var identity: AppIdentityReport { details.identity }
    /// The environment the payload is from (one of the verifier's accepted environments).
    public var environment: AppStoreEnvironment { details.environment }
    /// What is true of the payload that is not a failure (``SignedDataFact``).
    public var facts: [SignedDataFact] { details.facts }

    /// The details every kind's result holds in the same (non-generic) form.
    private var details: SignedDataDetails {
        switch self {
        case .transaction(let v): v.details
        case .renewalInfo(let v): v.details
        case .notification(let v): v.details
        case .appTransaction(let v): v.details
        case .realtimeRequest(let v): v.details
        }
    }
}

/// A notification and the signed data nested in it, each verified in the same call.
public struct VerifiedNotification: Sendable {
    /// The notification itself.
    public let notification: VerifiedSignedData<ResponseBodyV2DecodedPayload>
    /// The transaction it carries, verified, when it carries one.
    public let transaction: VerifiedSignedData<JWSTransactionDecodedPayload>?
    /// The renewal info it carries, verified, when it carries one.
    public let renewalInfo: VerifiedSignedData<JWSRenewalInfoDecodedPayload>?
    /// The app transaction it carries, verified, when it carries one.
    public let appTransaction: VerifiedSignedData<AppTransaction>?
}

/// Verifies and decodes App Store signed data: transactions, renewal info, notifications (V2),
/// app transactions and Retention Messaging realtime requests.
///
/// Steps (the order Apple's libraries use; each failure has its status, see `AppStoreError`):
/// 1. three-part compact JWS, strict base64url, header JSON without duplicate names;
/// 2. header alg exactly ES256 and an x5c of exactly three standard-base64 certificates;
/// 3. payload decoded as the expected type;
/// 4. leaf and intermediate decoded (strict DER); x5c[2] is never used — the root comes from
///    the caller's trusted roots;
/// 5. the chain built to a trusted root under RFC 5280 + Apple's signed-data policy (marker OIDs
///    1.2.840.113635.100.6.11.1 on the leaf and 1.2.840.113635.100.6.2.1 on the intermediate,
///    three certificates) at the payload's signedDate (receiptCreationDate for app transactions),
///    then, with a revocation checker, leaf and intermediate checked for revocation **now** (OCSP,
///    CRLs, or both). Data signed before its leaf expired therefore still verifies, revocation
///    checked as of today, and the result says so (``SignedDataFact/leafExpiredSinceSigning(notAfter:)``:
///    Apple's remedy is to fetch the transaction again through Get Transaction Info). Apple's
///    libraries validate "now" once revocation is on, and refuse such data;
/// 6. leaf key P-256 and the ES256 signature over the signing input as received;
/// 7. the environment, which must be one of ``environments`` (one verifier can accept Production
///    and Sandbox together: ``AcceptedEnvironments/productionAndSandbox``; the result carries the
///    one found), then bundle id / app Apple id (in Production) for that environment (per payload
///    kind, as Apple's libraries: the payload type's ``AppStoreSignedPayload/checkIdentity(_:)``),
///    in every entry point; a verifier that does not enforce the bundle id and app Apple id says
///    so at construction (``AppIdentityCheck/reportOnly``).
///
/// Verified chains are cached (see `ChainCache`), so a stream of notifications from one leaf
/// costs one P-256 verification each. **Variable time**: every input is public.
public struct SignedDataVerifier: Sendable {
    /// The configuration, held once: a verifier is copied into every suspended verification, and
    /// one reference keeps those copies (and the code that makes them) small.
    final class Configuration: Sendable {
        let trustedRoots: [Certificate]
        let identityCheck: AppIdentityCheck
        let environments: AcceptedEnvironments
        let revocation: (any RevocationChecker)?
        let cache: ChainCache
        let clock: @Sendable () -> Int64
        let xcodeCertificate: XcodeCertificate?
        let certificateVerifier: CertificateVerifier
        let trustContext: [UInt8]

        init(
            trustedRoots: [Certificate], identityCheck: AppIdentityCheck, environments: AcceptedEnvironments,
            revocation: (any RevocationChecker)?, cache: ChainCache, clock: @escaping @Sendable () -> Int64,
            xcodeCertificate: XcodeCertificate?, certificateVerifier: CertificateVerifier, trustContext: [UInt8]
        ) {
            self.trustedRoots = trustedRoots
            self.identityCheck = identityCheck
            self.environments = environments
            self.revocation = revocation
            self.cache = cache
            self.clock = clock
            self.xcodeCertificate = xcodeCertificate
            self.certificateVerifier = certificateVerifier
            self.trustContext = trustContext
        }

        /// The same configuration with `environments` and `xcodeCertificate` replaced.
        func with(environments: AcceptedEnvironments, xcodeCertificate: XcodeCertificate?) -> Configuration {
            Configuration(
                trustedRoots: trustedRoots, identityCheck: identityCheck, environments: environments, revocation: revocation,
                cache: cache, clock: clock, xcodeCertificate: xcodeCertificate, certificateVerifier: certificateVerifier,
                trustContext: trustContext)
        }
    }

    private var configuration: Configuration

    /// The roots a chain must validate to (Apple Root CA - G3 for Apple's data).
    public var trustedRoots: [Certificate] { configuration.trustedRoots }
    /// The app identity enforced (or, by name, only reported).
    public var identityCheck: AppIdentityCheck { configuration.identityCheck }
    /// The environments a payload may be from (one, or Production and Sandbox together), and with
    /// them how far data is checked.
    public var environments: AcceptedEnvironments { configuration.environments }
    /// Revocation checking of leaf and intermediate (OCSP, CRLs, or a composition through
    /// `RevocationPolicy.anyOf/allOf`), or nil for none. With one, the chain is still validated at
    /// the payload's signedDate and revocation is checked now.
    public var revocation: (any RevocationChecker)? { configuration.revocation }
    /// Where validated chains are kept.
    public var cache: ChainCache { configuration.cache }
    /// Seconds since the epoch: the verifier's notion of now (passed in, never a hidden global).
    public var clock: @Sendable () -> Int64 { configuration.clock }
    /// In the Xcode environment, which certificate must sign: the one given
    /// (``init(xcode:identity:clock:)``), or the one x5c carries; nil in other environments.
    public var xcodeCertificate: XcodeCertificate? { configuration.xcodeCertificate }
    var certificateVerifier: CertificateVerifier { configuration.certificateVerifier }
    /// SHA-256 of what decides whether a chain is trusted — the roots' fingerprints (sorted) and
    /// the RFC 5280 relaxations' names (sorted) —: part of every `ChainCache` key, so verifiers
    /// configured differently never share a cached chain.
    var trustContext: [UInt8] { configuration.trustContext }

    /// Which certificate signs Xcode's StoreKit-testing signed data, as the caller trusts it. Xcode
    /// signs with one self-signed certificate ("StoreKit Testing in Xcode", P-256), never issued
    /// by Apple, and puts it alone in x5c.
    public indirect enum XcodeCertificate: Sendable, Hashable {
        /// The certificate the caller has (saved from Xcode, or from data the caller trusts):
        /// x5c[0] must be this certificate.
        case given(Certificate)
        /// The certificate x5c carries: proves the payload intact, not who signed it — anyone can
        /// make such data. What a verifier built with `environment: .xcode` does.
        case carriedByTheData
    }

    /// The system clock, in seconds since the epoch: the default `clock`.
    public static let systemClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// The bundle id enforced, nil for a report-only verifier.
    public var bundleId: String? { if case .enforce(let id, _) = identityCheck { id } else { nil } }
    /// The app Apple id enforced in Production, nil when none (or report-only).
    public var appAppleId: Int64? { if case .enforce(_, let id) = identityCheck { id } else { nil } }

    /// A verifier trusting `trustedRoots` that enforces `bundleId` and, in Production,
    /// `appAppleId` (required there, as in Apple's App Store Server Library) in `environment`
    /// (LocalTesting is refused here: its data is unsigned, see
    /// ``AcceptedEnvironments/localTestingUnsigned``). `revocation` checks leaf and intermediate
    /// online (OCSP, CRLs or both); `cache` keeps validated chains; `clock` gives the time
    /// revocation is checked at. `rfc5280Relaxations` names RFC 5280 profile rules not enforced on
    /// the chain (none by default; Apple's real chains need none, its App Store Server Library test
    /// PKI needs `.missingKeyIdentifiers` and `.nonCriticalBasicConstraints`).
    public init(
        trustedRoots: [Certificate], bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: .enforce(bundleId: bundleId, appAppleId: appAppleId),
            environments: try AcceptedEnvironments(environment),
            revocation: revocation, cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` that enforces `bundleId` and, for Production data,
    /// `appAppleId` (required when `environments` holds Production), accepting data from
    /// `environments` — ``AcceptedEnvironments/productionAndSandbox`` for one deployment serving
    /// both; the other parameters as in ``init(trustedRoots:bundleId:appAppleId:environment:revocation:cache:clock:rfc5280Relaxations:)``.
    public init(
        trustedRoots: [Certificate], bundleId: String, appAppleId: Int64?, environments: AcceptedEnvironments,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: .enforce(bundleId: bundleId, appAppleId: appAppleId), environments: environments,
            revocation: revocation, cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` with the identity check `identity` — enforced, or by
    /// name report-only — in `environment` (always enforced; LocalTesting refused, see
    /// ``AcceptedEnvironments/localTestingUnsigned``); `rfc5280Relaxations` names the RFC 5280
    /// profile rules not enforced on the chain (none by default).
    public init(
        trustedRoots: [Certificate], identity: AppIdentityCheck, environment: AppStoreEnvironment,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: identity, environments: try AcceptedEnvironments(environment),
            revocation: revocation, cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` with the identity check `identity` — enforced, or by
    /// name report-only — accepting data from `environments` (always enforced; the result says
    /// which); `rfc5280Relaxations` names the RFC 5280 profile rules not enforced on the chain
    /// (none by default). When `environments` holds Production and the identity is enforced, the
    /// app Apple id is required (``AppStoreError/Code/invalidConfiguration`` without it).
    public init(
        trustedRoots: [Certificate], identity: AppIdentityCheck, environments: AcceptedEnvironments,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        if environments.contains(.production), case .enforce(_, nil) = identity {
            throw AppStoreError(
                .invalidConfiguration,
                "the Production environment needs the app's Apple id: pass appAppleId (App Store Connect, App Information, Apple ID)"
                    + (environments.environments.count > 1 ? "; without it accept Sandbox only" : ""))
        }
        if trustedRoots.isEmpty && environments.trust == .appleChain {
            throw AppStoreError(.invalidConfiguration, "no trusted root certificates")
        }
        configuration = Configuration(
            trustedRoots: trustedRoots, identityCheck: identity, environments: environments, revocation: revocation, cache: cache,
            clock: clock, xcodeCertificate: environments.trust == .xcodeSelfSigned ? .carriedByTheData : nil,
            certificateVerifier: CertificateVerifier(
                trustedRoots: trustedRoots,
                policies: [RFC5280Policy(relaxations: rfc5280Relaxations), MarkerExtensionPolicy.appleSignedData]),
            trustContext: Self.trustContext(roots: trustedRoots, relaxations: rfc5280Relaxations))
    }

    /// A verifier of Xcode's StoreKit-testing signed data (the Xcode environment, always
    /// enforced) with the identity check `identity`: the ES256 signature must verify with Xcode's
    /// certificate as `xcode` names it — the one the caller gives, or by name the one x5c
    /// carries. Nothing ties such data to Apple; never use it for App Store data.
    public init(
        xcode: XcodeCertificate, identity: AppIdentityCheck, clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock
    ) throws(AppStoreError) {
        try self.init(trustedRoots: [], identity: identity, environment: .xcode, clock: clock)
        configuration = configuration.with(environments: configuration.environments, xcodeCertificate: xcode)
    }

    static func trustContext(roots: [Certificate], relaxations: Set<RFC5280Policy.Relaxation>) -> [UInt8] {
        var hash = SHA256()
        for fingerprint in roots.map(\.sha256Fingerprint).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            hash.update(fingerprint)
        }
        hash.update([0])  // roots end; relaxations follow
        for name in relaxations.map(\.rawValue).sorted() { hash.update(Array(name.utf8) + [0]) }
        return hash.finalize()
    }

    /// Convenience: roots given as DER; the bundle id and (Production) app Apple id enforced;
    /// `rfc5280Relaxations` as in the other initializers (none by default).
    public init(
        rootCertificates: [[UInt8]], bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            rootCertificates: rootCertificates, bundleId: bundleId, appAppleId: appAppleId,
            environments: try AcceptedEnvironments(environment), revocation: revocation, cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }

    /// Convenience: roots given as DER; the bundle id and (for Production data) app Apple id
    /// enforced; data accepted from `environments` (``AcceptedEnvironments/productionAndSandbox``
    /// for one deployment serving both); the rest as in the other initializers.
    public init(
        rootCertificates: [[UInt8]], bundleId: String, appAppleId: Int64?, environments: AcceptedEnvironments,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        var roots: [Certificate] = []
        for (index, der) in rootCertificates.enumerated() {
            do { roots.append(try Certificate(derEncoded: der)) } catch {
                throw AppStoreError(.invalidConfiguration, "trusted root \(index) is not a certificate: \(error)")
            }
        }
        try self.init(
            trustedRoots: roots, bundleId: bundleId, appAppleId: appAppleId, environments: environments,
            revocation: revocation, cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    // MARK: - Public entry points

    /// Verifies a signed transaction (JWSTransactionDecodedPayload), then its bundle id and environment. `time` overrides the validation time.
    public func verifyTransaction(_ signedTransaction: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedSignedData<JWSTransactionDecodedPayload>
    {
        try await verify(signedTransaction, as: JWSTransactionDecodedPayload.self, at: time)
    }

    /// Verifies signed renewal info (JWSRenewalInfoDecodedPayload), then its environment.
    public func verifyRenewalInfo(_ signedRenewalInfo: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedSignedData<JWSRenewalInfoDecodedPayload>
    {
        try await verify(signedRenewalInfo, as: JWSRenewalInfoDecodedPayload.self, at: time)
    }

    /// Verifies a signed notification (ResponseBodyV2DecodedPayload), then the bundle id, app Apple id and environment of its data, summary, external purchase token or app data.
    public func verifyNotification(_ signedPayload: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedSignedData<ResponseBodyV2DecodedPayload>
    {
        try await verify(signedPayload, as: ResponseBodyV2DecodedPayload.self, at: time)
    }

    /// Verifies a notification and the signed transaction, renewal info or app transaction it
    /// carries (each through the same steps and checks, and each required to be from the
    /// notification's own environment when the verifier accepts several).
    public func verifyNotificationAndNested(_ signedPayload: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedNotification
    {
        let notification = try await verifyNotification(signedPayload, at: time)
        let nested = narrowed(to: notification.environment)
        var transaction: VerifiedSignedData<JWSTransactionDecodedPayload>?
        var renewal: VerifiedSignedData<JWSRenewalInfoDecodedPayload>?
        var app: VerifiedSignedData<AppTransaction>?
        if let signed = notification.payload.data?.signedTransactionInfo {
            transaction = try await nested.verifyTransaction(signed, at: time)
        }
        if let signed = notification.payload.data?.signedRenewalInfo { renewal = try await nested.verifyRenewalInfo(signed, at: time) }
        if let signed = notification.payload.appData?.signedAppTransactionInfo {
            app = try await nested.verifyAppTransaction(signed, at: time)
        }
        return VerifiedNotification(notification: notification, transaction: transaction, renewalInfo: renewal, appTransaction: app)
    }

    /// This verifier accepting only `environment` (one of its own), for the signed data nested in
    /// a payload from that environment; the same cache, roots, identity and checks.
    public func narrowed(to environment: AppStoreEnvironment) -> SignedDataVerifier {
        guard environments.environments.count > 1, environments.contains(environment),
            let single = try? AcceptedEnvironments(environment)
        else { return self }
        var copy = self
        copy.configuration = configuration.with(environments: single, xcodeCertificate: configuration.xcodeCertificate)
        return copy
    }

    /// Verifies a signed app transaction (AppTransaction) at its receiptCreationDate, then bundle id, app Apple id (Production) and receipt type.
    public func verifyAppTransaction(_ signedAppTransaction: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedSignedData<AppTransaction>
    {
        try await verify(signedAppTransaction, as: AppTransaction.self, at: time)
    }

    /// Verifies a Retention Messaging realtime request (DecodedRealtimeRequestBody), then app Apple id (Production) and environment.
    public func verifyRealtimeRequest(_ signedPayload: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedSignedData<DecodedRealtimeRequestBody>
    {
        try await verify(signedPayload, as: DecodedRealtimeRequestBody.self, at: time)
    }

    // MARK: - The verification steps

    /// Every step, 1–7, for any payload type; the identity check of step 7 is the payload
    /// type's own (``AppStoreSignedPayload/checkIdentity(_:)``). `time` overrides the validation
    /// time.
    public func verify<Payload: AppStoreSignedPayload>(
        _ compact: String, as type: Payload.Type, at time: Int64? = nil,
        trace: VerificationTrace? = nil
    ) async throws(AppStoreError)
        -> VerifiedSignedData<Payload>
    {
        let (jws, json) = try parse(compact, trace: trace)
        return try await verify(jws, payloadJSON: json, as: type, at: time, trace: trace)
    }

    /// The same steps without suspension, for callers that do not use online checks (throws
    /// `invalidConfiguration` when the verifier has them).
    public func verifyOffline<Payload: AppStoreSignedPayload>(
        _ compact: String, as type: Payload.Type, at time: Int64? = nil,
        trace: VerificationTrace? = nil
    ) throws(AppStoreError)
        -> VerifiedSignedData<Payload>
    {
        guard revocation == nil else { throw AppStoreError(.invalidConfiguration, "this verifier makes online checks: use verify") }
        let (jws, json) = try parse(compact, trace: trace)
        return try verifyOffline(jws, payloadJSON: json, as: type, at: time, trace: trace)
    }

    /// Every step for signed data of `kind`, or — when `kind` is nil — of the one kind whose
    /// distinctive members the payload carries (``SignedDataKind/classify(payload:)``: members no
    /// model names are reported in the result's `unknownMembers`, never refused); a payload that
    /// no kind, or several, is recognised in is refused (`ambiguousPayloadKind`, naming the kinds
    /// it could be), never guessed. The JWS and its payload are parsed once.
    public func verify(_ compact: String, kind: SignedDataKind?, at time: Int64? = nil, trace: VerificationTrace? = nil)
        async throws(AppStoreError) -> VerifiedAnySignedData
    {
        let (jws, json) = try parse(compact, trace: trace)
        let chosen: SignedDataKind
        if let kind {
            chosen = kind
        } else {
            switch SignedDataKind.classify(payload: json) {
            case .kind(let found, let unknown):
                trace?.note(
                    "Apple: payload kind",
                    "\(found.rawValue): the only kind "
                        + (found.distinctiveMembers.matches(Set(json.objectKeys))
                            ? "whose distinctive members the payload carries" : "whose model names every member of the payload")
                        + (unknown.isEmpty ? "" : "; members the model does not name, reported: \(unknown.joined(separator: ", "))"))
                chosen = found
            case .ambiguous(let fitting, let unknown):
                let reason =
                    fitting.isEmpty
                    ? "the payload carries no kind's distinctive members and no kind's model names all of its members"
                        + (unknown.isEmpty ? "" : " (unknown: \(unknown.joined(separator: ", ")))")
                    : "the payload could be \(fitting.map(\.rawValue).joined(separator: ", ")): name the kind (--type "
                        + fitting.map(\.rawValue).joined(separator: " or --type ") + ")"
                trace?.fail("Apple: payload kind", "classify the payload by its members", reason)
                throw AppStoreError(.ambiguousPayloadKind, reason)
            }
        }
        switch chosen {
        case .transaction:
            return .transaction(try await verify(jws, payloadJSON: json, as: JWSTransactionDecodedPayload.self, at: time, trace: trace))
        case .renewalInfo:
            return .renewalInfo(try await verify(jws, payloadJSON: json, as: JWSRenewalInfoDecodedPayload.self, at: time, trace: trace))
        case .notification:
            return .notification(try await verify(jws, payloadJSON: json, as: ResponseBodyV2DecodedPayload.self, at: time, trace: trace))
        case .appTransaction:
            return .appTransaction(try await verify(jws, payloadJSON: json, as: AppTransaction.self, at: time, trace: trace))
        case .realtimeRequest:
            return .realtimeRequest(try await verify(jws, payloadJSON: json, as: DecodedRealtimeRequestBody.self, at: time, trace: trace))
        }
    }

    func verify<Payload: AppStoreSignedPayload>(
        _ jws: JWS, payloadJSON: JSONValue, as type: Payload.Type, at time: Int64?, trace: VerificationTrace?
    ) async throws(AppStoreError) -> VerifiedSignedData<Payload> {
        // Without online checks nothing suspends: take the synchronous path.
        guard let revocation else { return try verifyOffline(jws, payloadJSON: payloadJSON, as: type, at: time, trace: trace) }
        let payload = try decode(jws, payloadJSON: payloadJSON, as: type, trace: trace)
        let envelope: Envelope
        switch try prepare(
            jws, payloadJSON: payloadJSON, kind: Payload.kind, validationDate: payload.validationDate, at: time, trace: trace)
        {
        case .done(let done): envelope = done
        case .needsChain(let pending):
            // The chain at its validation time, revocation as of now (or the caller's time): what
            // the checker knows today, whatever the time the chain was validated at.
            let result = await certificateVerifier.verify(
                leaf: pending.leaf, intermediates: [pending.intermediate], at: pending.validationTime,
                checkingRevocationWith: revocation, asOf: pending.revocationTime, trace: trace)
            envelope = try finish(pending, chainResult: result, trace: trace)
        }
        return try checkIdentity(payload, envelope, trace: trace)
    }

    func verifyOffline<Payload: AppStoreSignedPayload>(
        _ jws: JWS, payloadJSON: JSONValue, as type: Payload.Type, at time: Int64?, trace: VerificationTrace?
    ) throws(AppStoreError) -> VerifiedSignedData<Payload> {
        let payload = try decode(jws, payloadJSON: payloadJSON, as: type, trace: trace)
        let envelope: Envelope
        switch try prepare(
            jws, payloadJSON: payloadJSON, kind: Payload.kind, validationDate: payload.validationDate, at: time, trace: trace)
        {
        case .done(let done): envelope = done
        case .needsChain(let pending):
            let result = certificateVerifier.verify(
                leaf: pending.leaf, intermediates: [pending.intermediate], at: pending.validationTime, trace: trace)
            envelope = try finish(pending, chainResult: result, trace: trace)
        }
        return try checkIdentity(payload, envelope, trace: trace)
    }

    /// Step 7: the payload type's identity rule against this verifier's expectation — with several
    /// accepted environments, first the one the payload names (the kind's own environment rule
    /// run, bundle id and app Apple id aside, for each accepted environment), then the whole rule
    /// for that environment.
    func checkIdentity<Payload: AppStoreSignedPayload>(_ payload: Payload, _ verified: Envelope, trace: VerificationTrace?)
        throws(AppStoreError) -> VerifiedSignedData<Payload>
    {
        let report: AppIdentityReport
        let found: AppStoreEnvironment
        do throws(AppStoreError) {
            // One environment (the common case): no candidates to sort on every verification.
            if environments.environments.count == 1, let only = environments.environments.first {
                found = only
            } else {
                var match: AppStoreEnvironment?
                var mismatch: AppStoreError?
                for candidate in environments.sorted {
                    do {
                        _ = try payload.checkIdentity(
                            AppIdentityExpectation(check: .reportOnly, environment: candidate, accepted: environments))
                        match = candidate
                        break
                    } catch { mismatch = error }
                }
                guard let match else {
                    throw mismatch ?? AppStoreError(.invalidEnvironment, "the payload is from none of \(environments)")
                }
                found = match
            }
            report = try payload.checkIdentity(AppIdentityExpectation(check: identityCheck, environment: found))
        } catch {
            trace?.fail("Apple: \(Payload.kind.rawValue) identity", "bundle id / app Apple id / environment", error.reason)
            throw error
        }
        return VerifiedSignedData(
            payload: payload, details: identityChecked(verified, report: report, environment: found, kind: Payload.kind, trace: trace))
    }

    /// What follows a passed identity check, for any payload type (not generic: one copy): the
    /// trace's record of it, the facts (a leaf expired since signing), the result's details.
    func identityChecked(
        _ verified: Envelope, report: AppIdentityReport, environment found: AppStoreEnvironment, kind: SignedDataKind,
        trace: VerificationTrace?
    ) -> SignedDataDetails {
        trace?.pass(
            "Apple: \(kind.rawValue) identity", "bundle id / app Apple id / environment",
            "bundle id \(report.bundleId ?? "(none carried)"), app Apple id \(report.appAppleId.map(String.init) ?? "(none carried)"), "
                + "environment \(report.environment?.rawValue ?? "absent")"
                + (environments.environments.count > 1 ? " (one of \(environments))" : "")
                + (report.enforced ? "" : " — bundle id and app Apple id reported, not enforced (report-only verifier)"))
        var facts: [SignedDataFact] = []
        let now = clock()
        if verified.trust == .appleChain, let leaf = verified.chain.first, leaf.validity.notAfter < now {
            facts.append(.leafExpiredSinceSigning(notAfter: leaf.validity.notAfter))
            trace?.note(
                "Apple: leaf expired since signing",
                "the leaf's notAfter \(leaf.validity.notAfter) is before now (\(now)); the chain was valid at \(verified.validationTime)"
                    + (revocation != nil ? " and revocation was checked now" : "")
                    + ": fetch the data again through Get Transaction Info for a signature by the current leaf")
        }
        return .init(
            payloadBytes: verified.payloadBytes, payloadJSON: verified.payloadJSON, header: verified.header, chain: verified.chain,
            validationTime: verified.validationTime, trust: verified.trust, chainFromCache: verified.chainFromCache, identity: report,
            environment: found, facts: facts)
    }

    /// Steps 1–6 done (for any payload type; the decoded payload travels beside it): what the
    /// result carries besides the payload. The steps between decoding and the identity check are
    /// not generic, so the module holds one copy of them rather than one per payload type.
    struct Envelope {
        let payloadBytes: [UInt8]
        let payloadJSON: JSONValue
        let header: JSONValue
        let chain: [Certificate]
        let validationTime: Int64
        let trust: SignedDataTrust
        let chainFromCache: Bool
    }

    /// Synchronous transaction verification with the identity checks (no online checks).
    public func verifyTransactionOffline(_ signedTransaction: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedSignedData<JWSTransactionDecodedPayload>
    {
        try verifyOffline(signedTransaction, as: JWSTransactionDecodedPayload.self, at: time)
    }

    struct Pending {
        let jws: JWS
        let payloadJSON: JSONValue
        let leaf: Certificate
        let intermediate: Certificate
        let cacheKey: ChainCache.Key
        let validationTime: Int64
        /// The time revocation is checked at: now, or the caller's time.
        let revocationTime: Int64
    }

    enum Prepared {
        case done(Envelope)
        case needsChain(Pending)
    }

    /// Step 1: the compact serialization and the payload's JSON, each parsed once (the strict
    /// parser: duplicate member names refused, RFC 7515 §5.2).
    func parse(_ compact: String, trace: VerificationTrace?) throws(AppStoreError) -> (JWS, JSONValue) {
        let jws: JWS
        do { jws = try JWS(compact: compact) } catch {
            trace?.fail("RFC 7515 §7.1", "parse the compact JWS", error.reason)
            throw AppStoreError(.invalidJWTFormat, error.reason)
        }
        trace?.pass(
            "RFC 7515 §7.1", "parse the compact JWS",
            "three parts; header alg \(jws.header["alg"]?.serialized ?? "absent"), x5c of \(jws.header["x5c"]?.arrayValue?.count ?? 0) certificate(s), "
                + "members \(jws.header.objectKeys.joined(separator: ", "))")
        let json: JSONValue
        do { json = try jws.payloadJSON() } catch {
            trace?.fail("RFC 7515 §5.2", "parse the payload JSON", error.reason)
            throw AppStoreError(.invalidJWTFormat, "the payload is not JSON: \(error.reason)")
        }
        return (jws, json)
    }

    /// Step 3, run before the header checks of step 2 so that test environments can decode: the
    /// payload as its model.
    func decode<Payload: AppStoreSignedPayload>(
        _ jws: JWS, payloadJSON: JSONValue, as type: Payload.Type, trace: VerificationTrace?
    ) throws(AppStoreError) -> Payload {
        let payload: Payload
        do {
            payload = try JSONValueDecoder().decode(Payload.self, from: payloadJSON)
        } catch {
            trace?.fail("Apple: \(Payload.kind.rawValue) payload", "decode the payload", "\(error)")
            throw AppStoreError(.invalidJWTFormat, "the payload is not a valid \(Payload.kind.rawValue): \(Self.describe(error))")
        }
        trace?.pass("Apple: \(Payload.kind.rawValue) payload", "decode the payload", "\(jws.payload.count) bytes of JSON")
        return payload
    }

    /// Steps 2 and 4, and step 6 when the chain is cached, for a decoded payload of `kind` whose
    /// validation date (signedDate, or receiptCreationDate of an app transaction) is
    /// `validationDate`.
    func prepare(
        _ jws: JWS, payloadJSON: JSONValue, kind: SignedDataKind, validationDate: AppStoreDate?, at time: Int64?,
        trace: VerificationTrace?
    ) throws(AppStoreError) -> Prepared {
        let now = clock()
        if environments.trust == .unverified {
            trace?.note(
                "Apple: LocalTesting (AcceptedEnvironments.localTestingUnsigned)",
                "INSECURE: no signature or chain is checked — the verifier was built to accept unsigned LocalTesting data")
            return .done(
                Envelope(
                    payloadBytes: jws.payload, payloadJSON: payloadJSON, header: jws.header, chain: [],
                    validationTime: time ?? now, trust: .unverified, chainFromCache: false))
        }
        // Step 2: algorithm and x5c.
        guard jws.algorithm == "ES256" else {
            trace?.fail("RFC 7515 §4.1.1", "header alg is ES256", "alg is \(jws.header["alg"]?.serialized ?? "absent")")
            throw AppStoreError(.invalidJWTFormat, "header alg is \(jws.header["alg"]?.serialized ?? "absent"), not \"ES256\"")
        }
        let listed: [String]?
        do { listed = try jws.x5cStrings() } catch {
            trace?.fail("RFC 7515 §4.1.6", "header x5c is an array of strings", error.reason)
            throw AppStoreError(.invalidJWTFormat, error.reason)
        }
        guard let x5cStrings = listed else {
            trace?.fail("RFC 7515 §4.1.6", "header x5c present", "no x5c array")
            throw AppStoreError(.invalidJWTFormat, "the header has no x5c certificate chain")
        }
        if environments.trust == .xcodeSelfSigned {
            return .done(try verifyXcode(jws, payloadJSON: payloadJSON, x5c: x5cStrings, time: time ?? now, trace: trace))
        }
        guard x5cStrings.count == 3 else {
            trace?.fail("Apple signed data", "x5c holds leaf, intermediate, root", "\(x5cStrings.count) certificates")
            throw AppStoreError(.invalidChainLength, "x5c holds \(x5cStrings.count) certificates, expected 3")
        }
        trace?.pass(
            "RFC 7515 §4.1.1/§4.1.6", "header alg ES256, x5c of three certificates", "x5c[2] is ignored: roots come from the caller")

        // Validation time: the payload's date (as Apple's libraries offline), with or without a
        // revocation checker; revocation itself is checked now.
        let validationTime: Int64
        if let time {
            validationTime = time
        } else if let date = validationDate {
            validationTime = date.secondsSince1970
        } else {
            validationTime = now
        }
        trace?.note(
            "RFC 5280 §6.1.1 (validation time)",
            "\(validationTime) (\(AppStoreDate(millisecondsSince1970: Double(validationTime) * 1000))) — "
                + (time != nil
                    ? "given by the caller"
                    : validationDate != nil
                        ? "the payload's \(kind == .appTransaction ? "receiptCreationDate" : "signedDate")"
                            + (revocation != nil ? "; revocation is checked now (\(now))" : "")
                        : "now (the payload carries no date)"))

        let key = ChainCache.Key(leaf: x5cStrings[0], intermediate: x5cStrings[1], context: trustContext)
        if let entry = cache.lookup(key, validationTime: validationTime, now: now, online: revocation != nil) {
            trace?.pass(
                "cache", "chain validated earlier",
                "leaf \(entry.chain[0].subject.rfc4514String) valid \(entry.validFrom)…\(entry.validUntil)")
            try verifySignature(jws, key: entry.leafKey, trace: trace)
            return .done(
                Envelope(
                    payloadBytes: jws.payload, payloadJSON: payloadJSON, header: jws.header, chain: entry.chain,
                    validationTime: validationTime, trust: .appleChain, chainFromCache: true))
        }
        // Step 4: decode leaf and intermediate.
        var certificates: [Certificate] = []
        for (index, text) in x5cStrings.prefix(2).enumerated() {
            let name = index == 0 ? "leaf" : "intermediate"
            do {
                certificates.append(try Certificate(derEncoded: try JWS.certificateDER(text)))
            } catch {
                trace?.fail("RFC 5280 §4.1", "decode the \(name) certificate", "\(error)")
                throw AppStoreError(.invalidCertificate, "x5c[\(index)] (\(name)) is not a valid certificate: \(error)")
            }
        }
        for (index, certificate) in certificates.enumerated() {
            trace?.note(
                "RFC 5280 §4.1",
                "x5c[\(index)]: subject \(certificate.subject.rfc4514String); issuer \(certificate.issuer.rfc4514String); "
                    + "valid \(certificate.validity.notBefore)…\(certificate.validity.notAfter); key \(certificate.publicKey); "
                    + "extensions \(certificate.extensions.map(\.oid.dotted).joined(separator: ", "))")
        }
        return .needsChain(
            Pending(
                jws: jws, payloadJSON: payloadJSON, leaf: certificates[0], intermediate: certificates[1],
                cacheKey: key, validationTime: validationTime, revocationTime: time ?? now))
    }

    func finish(
        _ pending: Pending, chainResult: CertificateVerifier.Result,
        trace: VerificationTrace?
    ) throws(AppStoreError) -> Envelope {
        // Step 5: the chain.
        guard case .valid(let chain) = chainResult else {
            let failures = chainResult.failures
            let retryable = failures.contains {
                if case .revocationCheckFailed(_, _, true) = $0 { return true }
                return false
            }
            trace?.fail(
                "RFC 5280 §6.1 + Apple signed-data policy" + (revocation != nil ? " + revocation (§6.1.3 (a)(3))" : ""),
                "validate the chain",
                failures.map(\.description).joined(separator: "; "))
            throw AppStoreError(
                retryable ? .retryableVerificationFailure : .verificationFailure, "the certificate chain does not validate",
                failures: failures)
        }
        trace?.pass(
            "RFC 5280 §6.1 + Apple signed-data policy" + (revocation != nil ? " + revocation (§6.1.3 (a)(3))" : ""), "validate the chain",
            "root matched: \(chain[chain.count - 1].subject.rfc4514String); leaf OID 1.2.840.113635.100.6.11.1 and intermediate OID 1.2.840.113635.100.6.2.1 present"
        )
        // Step 6: leaf key and signature.
        guard case .ec(let leafKey) = pending.leaf.publicKey, leafKey.curve == .p256 else {
            trace?.fail("Apple signed data", "leaf key is P-256", "\(pending.leaf.publicKey)")
            throw AppStoreError(.verificationFailure, "the leaf key is \(pending.leaf.publicKey), not P-256")
        }
        try verifySignature(pending.jws, key: leafKey, trace: trace)
        let validity = chain.reduce((Int64.min, Int64.max)) {
            (
                $0.0 < $1.validity.notBefore ? $1.validity.notBefore : $0.0,
                $0.1 > $1.validity.notAfter ? $1.validity.notAfter : $0.1
            )
        }
        let now = clock()
        cache.store(
            pending.cacheKey,
            ChainCache.Entry(
                chain: chain, leafKey: leafKey, validFrom: validity.0, validUntil: validity.1,
                expires: now + cache.timeToLive, online: revocation != nil), now: now)
        return Envelope(
            payloadBytes: pending.jws.payload, payloadJSON: pending.payloadJSON, header: pending.jws.header,
            chain: chain,
            validationTime: pending.validationTime, trust: .appleChain, chainFromCache: false)
    }

    func verifySignature(_ jws: JWS, key: ECDSAPublicKey, trace: VerificationTrace?) throws(AppStoreError) {
        do {
            try jws.verify(with: .ecdsa(key))
        } catch {
            trace?.fail("RFC 7515 §5.2 / RFC 7518 §3.4", "ES256 signature", error.reason)
            throw AppStoreError(.verificationFailure, "the JWS signature: \(error.reason)")
        }
        if let trace {
            let input = String(decoding: jws.signingInput, as: UTF8.self)
            trace.pass(
                "RFC 7515 §5.2 / RFC 7518 §3.4", "ES256 signature (P-256, SHA-256, R ‖ S)",
                "SHA-256 of the \(jws.signingInput.count)-byte signing input \(input.prefix(48))… = "
                    + Base16.encode(SHA256.hash(jws.signingInput)) + " verifies with the leaf key")
        }
    }

    func verifyXcode(
        _ jws: JWS, payloadJSON: JSONValue, x5c: [String], time: Int64,
        trace: VerificationTrace?
    ) throws(AppStoreError) -> Envelope {
        guard let first = x5c.first else { throw AppStoreError(.invalidChainLength, "x5c is empty") }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: try JWS.certificateDER(first)) } catch {
            throw AppStoreError(.invalidCertificate, "x5c[0] is not a valid certificate: \(error)")
        }
        if case .given(let expected) = xcodeCertificate, certificate != expected {
            trace?.fail(
                "Apple: Xcode", "x5c[0] is the Xcode certificate given", "\(certificate.subject.rfc4514String) is another certificate")
            throw AppStoreError(.verificationFailure, "x5c[0] (\(certificate.subject.rfc4514String)) is not the Xcode certificate given")
        }
        guard case .ec(let key) = certificate.publicKey, key.curve == .p256 else {
            throw AppStoreError(.verificationFailure, "the Xcode certificate's key is not P-256")
        }
        try verifySignature(jws, key: key, trace: trace)
        trace?.note(
            "Apple: Xcode",
            "signature checked against the self-signed StoreKit Testing certificate "
                + (xcodeCertificate == .carriedByTheData ? "x5c carries (integrity only)" : "given by the caller") + "; no chain to Apple")
        return Envelope(
            payloadBytes: jws.payload, payloadJSON: payloadJSON, header: jws.header, chain: [certificate],
            validationTime: time, trust: .xcodeSelfSigned, chainFromCache: false)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            if case DecodingError.keyNotFound(let key, _) = error { return "missing \(path.isEmpty ? "" : path + ".")\(key.stringValue)" }
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        case let error as JOSEError: return error.reason
        default: return "\(error)"
        }
    }
}

extension ResponseBodyV2DecodedPayload {
    /// (bundle id, app Apple id, environment) from the first of data, summary,
    /// externalPurchaseToken (environment from the SANDBOX prefix) and appData that is present.
    public var identity: (bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?) {
        if let data { return (data.bundleId, data.appAppleId, data.environment) }
        if let summary { return (summary.bundleId, summary.appAppleId, summary.environment) }
        if let token = externalPurchaseToken { return (token.bundleId, token.appAppleId, token.environment) }
        if let appData { return (appData.bundleId, appData.appAppleId, appData.environment) }
        return (nil, nil, nil)
    }
}
