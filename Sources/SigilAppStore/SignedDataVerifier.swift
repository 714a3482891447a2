import SigilASN1
import SigilApplePKI
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

#if !hasFeature(Embedded)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

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
        let revocation: Revocation
        let cache: ChainCache
        let clock: @Sendable () -> Int64
        let xcodeCertificate: XcodeCertificate?
        let certificateVerifier: CertificateVerifier
        let trustContext: [UInt8]
        /// Intermediates parsed before, by x5c text (shared by the verifier's copies).
        let intermediateParses = IntermediateParseMemo()

        init(
            trustedRoots: [Certificate], identityCheck: AppIdentityCheck, environments: AcceptedEnvironments,
            revocation: Revocation, cache: ChainCache, clock: @escaping @Sendable () -> Int64,
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

    /// The revocation check a verifier makes: none; offline, over CRLs or OCSP responses the
    /// caller supplied (SigilX509's `OfflineRevocationChecker`s: `CRLRevocationPolicy`,
    /// SigilOCSP's `OfflineOCSPRevocationChecker`, their compositions), which every entry point
    /// runs without suspension; or — regular build only — online (OCSP, CRLs fetched), which only
    /// the asynchronous entry points run.
    enum Revocation: Sendable {
        /// No revocation check.
        case unchecked
        /// A check over data the caller supplied, run by every entry point.
        case offline(AnyOfflineRevocationChecker)
        #if !hasFeature(Embedded)
        /// The caller's online checker, run by the asynchronous entry points only.
        case online(any RevocationChecker)

        /// `checker`'s check: none for nil; offline when the checker is an
        /// `OfflineRevocationChecker` (its data is the caller's: nothing to fetch, so every entry
        /// point runs it); online otherwise.
        init(_ checker: (any RevocationChecker)?) {
            switch checker {
            case nil: self = .unchecked
            case let offline as any OfflineRevocationChecker: self = .offline(AnyOfflineRevocationChecker(offline))
            case let online?: self = .online(online)
            }
        }

        /// The checker, as the public `revocation` property shows it.
        var checker: (any RevocationChecker)? {
            switch self {
            case .unchecked: nil
            case .offline(let checker): checker
            case .online(let checker): checker
            }
        }
        #else
        /// `checker`'s check: none for nil, else offline.
        init(_ checker: AnyOfflineRevocationChecker?) {
            self = checker.map { .offline($0) } ?? .unchecked
        }

        /// The checker, as the public `revocation` property shows it.
        var checker: AnyOfflineRevocationChecker? {
            if case .offline(let checker) = self { checker } else { nil }
        }
        #endif

        /// Whether an online check is configured (the synchronous entry points refuse to run
        /// without it, rather than skip it); never in Embedded Swift.
        var isOnline: Bool {
            #if hasFeature(Embedded)
            false
            #else
            if case .online = self { true } else { false }
            #endif
        }

        /// Whether any revocation check runs.
        var checksRevocation: Bool {
            if case .unchecked = self { false } else { true }
        }
    }

    var configuration: Configuration

    /// The roots a chain must validate to (Apple Root CA - G3 for Apple's data).
    public var trustedRoots: [Certificate] { configuration.trustedRoots }
    /// The app identity enforced (or, by name, only reported).
    public var identityCheck: AppIdentityCheck { configuration.identityCheck }
    /// The environments a payload may be from (one, or Production and Sandbox together), and with
    /// them how far data is checked.
    public var environments: AcceptedEnvironments { configuration.environments }
    #if !hasFeature(Embedded)
    /// Revocation checking of leaf and intermediate (OCSP, CRLs, or a composition through
    /// `RevocationPolicy.anyOf/allOf`), or nil for none. With one, the chain is still validated at
    /// the payload's signedDate and revocation is checked now. An `OfflineRevocationChecker` (CRLs
    /// or OCSP responses the caller supplied) is held as an `AnyOfflineRevocationChecker` and run
    /// by every entry point; any other checker is online: the asynchronous entry points run it,
    /// and the synchronous ones refuse a verifier that has one (`invalidConfiguration`).
    public var revocation: (any RevocationChecker)? { configuration.revocation.checker }
    #else
    /// Revocation checking of leaf and intermediate over CRLs or OCSP responses the caller
    /// supplied, or nil for none; the chain is still validated at the payload's signedDate and
    /// revocation is checked now.
    public var revocation: AnyOfflineRevocationChecker? { configuration.revocation.checker }
    #endif
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

    #if !hasFeature(Embedded)
    /// The system clock, in seconds since the epoch: the default `clock` (regular build only: in
    /// Embedded Swift there is no clock, and every initializer takes the caller's).
    public static let systemClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    #endif

    /// The bundle id enforced, nil for a report-only verifier.
    public var bundleId: String? { if case .enforce(let id, _) = identityCheck { id } else { nil } }
    /// The app Apple id enforced in Production, nil when none (or report-only).
    public var appAppleId: Int64? { if case .enforce(_, let id) = identityCheck { id } else { nil } }

    #if !hasFeature(Embedded)
    /// A verifier trusting `trustedRoots` that enforces `bundleId` and, in Production,
    /// `appAppleId` (required there, as in Apple's App Store Server Library) in `environment`
    /// (LocalTesting is refused here: its data is unsigned, see
    /// ``AcceptedEnvironments/localTestingUnsigned``). `revocation` checks leaf and intermediate
    /// for revocation: offline, over CRLs or OCSP responses you supply (an
    /// `OfflineRevocationChecker`, run by every entry point), or online (OCSP, CRLs fetched: the
    /// asynchronous entry points only); `cache` keeps validated chains; `clock` gives the time
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
            environments: try AcceptedEnvironments(environment), revocation: Revocation(revocation),
            cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
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
            revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
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
            revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` with the identity check `identity` — enforced, or by
    /// name report-only — accepting data from `environments` (always enforced; the result says
    /// which); `rfc5280Relaxations` names the RFC 5280 profile rules not enforced on the chain
    /// (none by default). When `environments` holds Production and the identity is enforced, the
    /// app Apple id is required (``AppStoreError/Code/appAppleIdRequired`` without it).
    public init(
        trustedRoots: [Certificate], identity: AppIdentityCheck, environments: AcceptedEnvironments,
        revocation: (any RevocationChecker)? = nil, cache: ChainCache = ChainCache(),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: identity, environments: environments,
            revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier of Xcode's StoreKit-testing signed data (the Xcode environment, always
    /// enforced) with the identity check `identity`: the ES256 signature must verify with Xcode's
    /// certificate as `xcode` names it — the one the caller gives, or by name the one x5c
    /// carries. Nothing ties such data to Apple; never use it for App Store data.
    public init(
        xcode: XcodeCertificate, identity: AppIdentityCheck, clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock
    ) throws(AppStoreError) {
        try self.init(xcodeCertificate: xcode, identity: identity, clock: clock)
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
            trustedRoots: try Self.roots(rootCertificates), identity: .enforce(bundleId: bundleId, appAppleId: appAppleId),
            environments: try AcceptedEnvironments(environment), revocation: Revocation(revocation),
            cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
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
        try self.init(
            trustedRoots: try Self.roots(rootCertificates), identity: .enforce(bundleId: bundleId, appAppleId: appAppleId),
            environments: environments, revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }
    #else
    // Embedded Swift: revocation only offline (an `AnyOfflineRevocationChecker`: CRLs or OCSP
    // responses the caller supplied), and no clock but the caller's (`clock` has no default).
    // Otherwise the regular build's initializers, parameter for parameter.

    /// A verifier trusting `trustedRoots` that enforces `bundleId` and, in Production,
    /// `appAppleId` in `environment`; `clock` gives now, in seconds since the epoch.
    public init(
        trustedRoots: [Certificate], bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
        revocation: AnyOfflineRevocationChecker? = nil, cache: ChainCache = ChainCache(), clock: @escaping @Sendable () -> Int64,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: .enforce(bundleId: bundleId, appAppleId: appAppleId),
            environments: try AcceptedEnvironments(environment), revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` that enforces `bundleId` and, for Production data,
    /// `appAppleId`, accepting data from `environments`; `clock` gives now.
    public init(
        trustedRoots: [Certificate], bundleId: String, appAppleId: Int64?, environments: AcceptedEnvironments,
        revocation: AnyOfflineRevocationChecker? = nil, cache: ChainCache = ChainCache(), clock: @escaping @Sendable () -> Int64,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: .enforce(bundleId: bundleId, appAppleId: appAppleId), environments: environments,
            revocation: Revocation(revocation), cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` with the identity check `identity` in `environment`;
    /// `clock` gives now.
    public init(
        trustedRoots: [Certificate], identity: AppIdentityCheck, environment: AppStoreEnvironment,
        revocation: AnyOfflineRevocationChecker? = nil, cache: ChainCache = ChainCache(), clock: @escaping @Sendable () -> Int64,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: identity, environments: try AcceptedEnvironments(environment),
            revocation: Revocation(revocation), cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier trusting `trustedRoots` with the identity check `identity`, accepting data from
    /// `environments`; `clock` gives now.
    public init(
        trustedRoots: [Certificate], identity: AppIdentityCheck, environments: AcceptedEnvironments,
        revocation: AnyOfflineRevocationChecker? = nil, cache: ChainCache = ChainCache(), clock: @escaping @Sendable () -> Int64,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: trustedRoots, identity: identity, environments: environments, revocation: Revocation(revocation),
            cache: cache, clock: clock, rfc5280Relaxations: rfc5280Relaxations)
    }

    /// A verifier of Xcode's StoreKit-testing signed data with the identity check `identity`;
    /// `clock` gives now. Nothing ties such data to Apple; never use it for App Store data.
    public init(xcode: XcodeCertificate, identity: AppIdentityCheck, clock: @escaping @Sendable () -> Int64) throws(AppStoreError) {
        try self.init(xcodeCertificate: xcode, identity: identity, clock: clock)
    }

    /// Convenience: roots given as DER; the bundle id and (Production) app Apple id enforced in
    /// `environment`; `clock` gives now.
    public init(
        rootCertificates: [[UInt8]], bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
        revocation: AnyOfflineRevocationChecker? = nil, cache: ChainCache = ChainCache(), clock: @escaping @Sendable () -> Int64,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: try Self.roots(rootCertificates), identity: .enforce(bundleId: bundleId, appAppleId: appAppleId),
            environments: try AcceptedEnvironments(environment), revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }

    /// Convenience: roots given as DER; the bundle id and (for Production data) app Apple id
    /// enforced; data accepted from `environments`; `clock` gives now.
    public init(
        rootCertificates: [[UInt8]], bundleId: String, appAppleId: Int64?, environments: AcceptedEnvironments,
        revocation: AnyOfflineRevocationChecker? = nil, cache: ChainCache = ChainCache(), clock: @escaping @Sendable () -> Int64,
        rfc5280Relaxations: Set<RFC5280Policy.Relaxation> = []
    ) throws(AppStoreError) {
        try self.init(
            trustedRoots: try Self.roots(rootCertificates), identity: .enforce(bundleId: bundleId, appAppleId: appAppleId),
            environments: environments, revocation: Revocation(revocation), cache: cache, clock: clock,
            rfc5280Relaxations: rfc5280Relaxations)
    }
    #endif

    /// Every initializer ends here: the configuration checked (Production needs the app Apple id
    /// when the identity is enforced; Apple's chain needs roots) and held once.
    init(
        trustedRoots: [Certificate], identity: AppIdentityCheck, environments: AcceptedEnvironments, revocation: Revocation,
        cache: ChainCache, clock: @escaping @Sendable () -> Int64, rfc5280Relaxations: Set<RFC5280Policy.Relaxation>
    ) throws(AppStoreError) {
        if environments.contains(.production), case .enforce(_, nil) = identity {
            throw AppStoreError(
                .appAppleIdRequired,
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
                policies: [
                    AnyCertificatePolicy(RFC5280Policy(relaxations: rfc5280Relaxations)),
                    AnyCertificatePolicy(MarkerExtensionPolicy.appleSignedData),
                ]),
            trustContext: Self.trustContext(roots: trustedRoots, relaxations: rfc5280Relaxations))
    }

    /// The Xcode verifier: the Xcode environment, the certificate `xcode` names.
    init(xcodeCertificate xcode: XcodeCertificate, identity: AppIdentityCheck, clock: @escaping @Sendable () -> Int64)
        throws(AppStoreError)
    {
        try self.init(
            trustedRoots: [], identity: identity, environments: .xcode, revocation: .unchecked, cache: ChainCache(), clock: clock,
            rfc5280Relaxations: [])
        configuration = configuration.with(environments: configuration.environments, xcodeCertificate: xcode)
    }

    /// Roots given as DER, parsed (strict DER); the first that is not a certificate is a
    /// configuration error naming its index.
    static func roots(_ rootCertificates: [[UInt8]]) throws(AppStoreError) -> [Certificate] {
        var roots: [Certificate] = []
        roots.reserveCapacity(rootCertificates.count)
        for (index, der) in rootCertificates.enumerated() {
            do { roots.append(try Certificate(derEncoded: der)) } catch {
                throw AppStoreError(wrapping: error, as: .invalidConfiguration, context: "trusted root \(index) is not a certificate")
            }
        }
        return roots
    }

    static func trustContext(roots: [Certificate], relaxations: Set<RFC5280Policy.Relaxation>) -> [UInt8] {
        var hash = SHA256()
        for fingerprint in roots.map({ $0.sha256Fingerprint }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            hash.update(fingerprint)
        }
        hash.update([0])  // roots end; relaxations follow
        for name in relaxations.map({ $0.rawValue }).sorted() { hash.update(Array(name.utf8) + [0]) }
        return hash.finalizedThroughRequirement()
    }

    // MARK: - Synchronous entry points: every check but online revocation

    /// Every step, 1–7, for any payload type, without suspension: everything but online
    /// revocation (a verifier configured with an online checker is refused with
    /// `invalidConfiguration`: use the asynchronous `verify`). The identity check of step 7 is the
    /// payload type's own (``AppStoreSignedPayload/checkIdentity(_:)``); `time` overrides the
    /// validation time.
    public func verifyOffline<Payload: AppStoreSignedPayload>(
        _ compact: String, as type: Payload.Type, at time: Int64? = nil,
        trace: VerificationTrace? = nil
    ) throws(AppStoreError)
        -> VerifiedSignedData<Payload>
    {
        try refuseOnlineChecks()
        let (jws, json) = try parse(compact, trace: trace)
        return try verifyOffline(jws, payloadJSON: json, as: type, at: time, trace: trace)
    }

    /// Verifies a signed transaction (JWSTransactionDecodedPayload) without suspension, then its bundle id and environment.
    public func verifyTransactionOffline(_ signedTransaction: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedSignedData<JWSTransactionDecodedPayload>
    {
        try verifyOffline(signedTransaction, as: JWSTransactionDecodedPayload.self, at: time)
    }

    /// Verifies signed renewal info (JWSRenewalInfoDecodedPayload) without suspension, then its environment.
    public func verifyRenewalInfoOffline(_ signedRenewalInfo: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedSignedData<JWSRenewalInfoDecodedPayload>
    {
        try verifyOffline(signedRenewalInfo, as: JWSRenewalInfoDecodedPayload.self, at: time)
    }

    /// Verifies a signed notification (ResponseBodyV2DecodedPayload) without suspension, then the bundle id, app Apple id and environment of its data, summary, external purchase token or app data.
    public func verifyNotificationOffline(_ signedPayload: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedSignedData<ResponseBodyV2DecodedPayload>
    {
        try verifyOffline(signedPayload, as: ResponseBodyV2DecodedPayload.self, at: time)
    }

    /// Verifies a signed app transaction (AppTransaction) without suspension at its receiptCreationDate, then bundle id, app Apple id (Production) and receipt type.
    public func verifyAppTransactionOffline(_ signedAppTransaction: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedSignedData<AppTransaction>
    {
        try verifyOffline(signedAppTransaction, as: AppTransaction.self, at: time)
    }

    /// Verifies a Retention Messaging realtime request (DecodedRealtimeRequestBody) without suspension, then app Apple id (Production) and environment.
    public func verifyRealtimeRequestOffline(_ signedPayload: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedSignedData<DecodedRealtimeRequestBody>
    {
        try verifyOffline(signedPayload, as: DecodedRealtimeRequestBody.self, at: time)
    }

    /// Every step for signed data of `kind`, or — when `kind` is nil — of the one kind whose
    /// distinctive members the payload carries (as ``verify(_:kind:at:trace:)`` classifies it),
    /// without suspension: everything but online revocation.
    public func verifyOffline(_ compact: String, kind: SignedDataKind?, at time: Int64? = nil, trace: VerificationTrace? = nil)
        throws(AppStoreError) -> VerifiedAnySignedData
    {
        try refuseOnlineChecks()
        let (jws, json) = try parse(compact, trace: trace)
        switch try payloadKind(of: json, given: kind, trace: trace) {
        case .transaction:
            return .transaction(try verifyOffline(jws, payloadJSON: json, as: JWSTransactionDecodedPayload.self, at: time, trace: trace))
        case .renewalInfo:
            return .renewalInfo(try verifyOffline(jws, payloadJSON: json, as: JWSRenewalInfoDecodedPayload.self, at: time, trace: trace))
        case .notification:
            return .notification(
                try verifyOffline(jws, payloadJSON: json, as: ResponseBodyV2DecodedPayload.self, at: time, trace: trace))
        case .appTransaction:
            return .appTransaction(try verifyOffline(jws, payloadJSON: json, as: AppTransaction.self, at: time, trace: trace))
        case .realtimeRequest:
            return .realtimeRequest(
                try verifyOffline(jws, payloadJSON: json, as: DecodedRealtimeRequestBody.self, at: time, trace: trace))
        }
    }

    /// The synchronous entry points make no online check: a verifier configured with one is
    /// refused rather than run without it.
    func refuseOnlineChecks() throws(AppStoreError) {
        guard !configuration.revocation.isOnline else {
            throw AppStoreError(.invalidConfiguration, "this verifier makes online checks: use verify")
        }
    }

    #if !hasFeature(Embedded)
    // MARK: - Asynchronous entry points (regular build): the synchronous ones, and online revocation

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

    /// Every step, 1–7, for any payload type; the identity check of step 7 is the payload
    /// type's own (``AppStoreSignedPayload/checkIdentity(_:)``). `time` overrides the validation
    /// time. Without an online revocation checker this is ``verifyOffline(_:as:at:trace:)``.
    public func verify<Payload: AppStoreSignedPayload>(
        _ compact: String, as type: Payload.Type, at time: Int64? = nil,
        trace: VerificationTrace? = nil
    ) async throws(AppStoreError)
        -> VerifiedSignedData<Payload>
    {
        let (jws, json) = try parse(compact, trace: trace)
        return try await verify(jws, payloadJSON: json, as: type, at: time, trace: trace)
    }

    /// Every step for signed data of `kind`, or — when `kind` is nil — of the one kind whose
    /// distinctive members the payload carries (``SignedDataKind/classify(payload:)``: members no
    /// model names are reported in the result's `unknownMembers`, never refused); a payload that
    /// no kind, or several, is recognised in is refused (`ambiguousPayloadKind`, naming the kinds
    /// it could be), never guessed. The JWS and its payload are parsed once. Without an online
    /// revocation checker this is ``verifyOffline(_:kind:at:trace:)``.
    public func verify(_ compact: String, kind: SignedDataKind?, at time: Int64? = nil, trace: VerificationTrace? = nil)
        async throws(AppStoreError) -> VerifiedAnySignedData
    {
        guard configuration.revocation.isOnline else { return try verifyOffline(compact, kind: kind, at: time, trace: trace) }
        let (jws, json) = try parse(compact, trace: trace)
        switch try payloadKind(of: json, given: kind, trace: trace) {
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
    #endif
}
