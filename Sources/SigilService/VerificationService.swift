import SigilAppAttest
import SigilAppStore
import SigilApplePKI
import SigilAppleRoots
import SigilBase
import SigilCore
import SigilJOSE
import SigilReceipts
import SigilX509

#if hasFeature(Embedded)
// Embedded Swift: no Foundation, no file system; Apple's roots are given as certificates.
#elseif canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One answer of ``VerificationService``: the JSON document every door returns, and the HTTP
/// status the verification service sends it with.
public struct VerificationAnswer: Sendable, Hashable {
    /// What the answer says, as an HTTP status.
    public enum Status: Int, Sendable, Hashable {
        /// The data verified: `{"valid": true, …}`.
        case verified = 200
        /// The request was malformed (`request.*` codes but `request.tooLarge` and
        /// `request.trustRefused`).
        case invalidRequest = 400
        /// The request brought trust configuration this service refuses (`request.trustRefused`,
        /// under ``RequestTrust/refused``).
        case trustRefused = 403
        /// The request was larger than the limit (`request.tooLarge`).
        case tooLarge = 413
        /// A verifier refused the data: `{"valid": false, "error": …}` with the verifier's code.
        case refused = 422
        /// The kind needs configuration this door lacks (`service.notConfigured`).
        case notConfigured = 501
        /// The replay store did not answer (`service.replayStoreUnavailable`): nothing was
        /// accepted, the request may be sent again.
        case unavailable = 503
    }

    /// The status.
    public let status: Status
    /// The answer document (compact JSON, members in a fixed order).
    public let json: String

    /// An answer of `status` with the document `json`.
    public init(status: Status, json: String) {
        self.status = status
        self.json = json
    }

    /// The answer to a request refused before any verifier ran.
    public init(_ error: ServiceError) {
        let status: Status =
            switch error.code {
            case .tooLarge: .tooLarge
            case .trustRefused: .trustRefused
            default: .invalidRequest
            }
        self.init(
            status: status,
            json: AnswerEncoding.failure(code: error.qualifiedCode, message: error.reason, failures: []).serialized)
    }
}

/// The request/answer layer of Sigil's C ABI, Python package and HTTP verification service: it
/// decodes a ``VerificationRequest``, makes the one library call for its kind — SigilAppStore's
/// `SignedDataVerifier`, SigilReceipts' `AppReceiptVerifier`, SigilAppAttest's
/// `AttestationVerifier` or `AssertionVerifier` — and encodes what that call returned. It decides
/// nothing of its own.
///
/// Every valid answer names its trust anchor (`"trust"`, a ``TrustAnchor``) and lists in
/// `notEnforced` each check the request relaxed: `"appleRoot"` when the anchor is not Apple's,
/// `"at"` when the request's time is more than ``atTolerance`` seconds from the service's clock.
/// Whether a request may bring its own anchors at all is the service's ``requestTrust``.
///
/// Stateless but for the chain cache, which is shared by every call and safe from any thread
/// (keyed by the roots and relaxations, so requests trusting different roots never share a chain).
public final class VerificationService: Sendable {
    /// Validated App Store chains, shared by every request this service answers.
    public let cache: ChainCache
    #if !hasFeature(Embedded)
    /// What kind `applepay` needs (nil: it is answered `service.notConfigured`).
    public let applePay: ApplePayServiceConfiguration?
    /// The IACA roots kind `mdoc` trusts when a request brings none (nil: such a request is
    /// answered `service.notConfigured`).
    public let mdoc: MdocServiceConfiguration?
    #endif
    /// Whether a request's trust configuration (`roots` not Apple's, Xcode, `unpinnedTestRoot`) is
    /// used and reported, or refused.
    public let requestTrust: RequestTrust
    /// Where Apple's roots that are not built in (Apple Inc. Root Certificate for receipts, Apple
    /// App Attestation Root CA for attestations) are installed, each checked against its pinned
    /// fingerprint; nil when there is none.
    public let appleRootsDirectory: String?
    /// Apple's roots that are not built in, given as certificates (``init(cache:applePay:mdoc:requestTrust:appleRoots:clock:)``):
    /// each found by its pinned fingerprint, anything else ignored; nil when they come from
    /// ``appleRootsDirectory``.
    public let appleRoots: [Certificate]?
    /// Now, in seconds since 1970: the validation time when a request gives no `at`, and what a
    /// request's `at` is compared with (inject a fixed clock for deterministic answers).
    public let clock: @Sendable () -> Int64

    #if !hasFeature(Embedded)
    /// A service whose App Store verifications share `cache`, that answers kind `applepay` with
    /// `applePay`'s merchant keys and replay protection and kind `mdoc` under `mdoc`'s IACA roots
    /// when a request brings none, and takes trust configuration from requests as `requestTrust`
    /// says (no default: the caller chooses).
    ///
    /// Receipts and attestations without request `roots` are verified under Apple's root read
    /// from `appleRootsDirectory` (`SIGIL_ROOTS`, else the per-user data directory, by default;
    /// see SigilAppleRoots' `AppleRootCertificates`); `clock` is the service's now.
    public init(
        cache: ChainCache = ChainCache(), applePay: ApplePayServiceConfiguration? = nil, mdoc: MdocServiceConfiguration? = nil,
        requestTrust: RequestTrust,
        appleRootsDirectory: String? = AppleRootCertificates.directory(environment: ProcessInfo.processInfo.environment),
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock
    ) {
        self.cache = cache
        self.applePay = applePay
        self.mdoc = mdoc
        self.requestTrust = requestTrust
        self.appleRootsDirectory = appleRootsDirectory
        self.appleRoots = nil
        self.clock = clock
    }

    /// A service like `init(cache:applePay:mdoc:requestTrust:appleRootsDirectory:clock:)` that takes
    /// Apple's roots that are not built in as certificates instead of a directory: what a build
    /// without a file system (Embedded Swift, WebAssembly) or a caller holding the roots already
    /// passes. A root is used only when its SHA-256 fingerprint is the one pinned for its job;
    /// `clock` has no default, as such builds have no clock of their own.
    public init(
        cache: ChainCache = ChainCache(), applePay: ApplePayServiceConfiguration? = nil, mdoc: MdocServiceConfiguration? = nil,
        requestTrust: RequestTrust, appleRoots: [Certificate], clock: @escaping @Sendable () -> Int64
    ) {
        self.cache = cache
        self.applePay = applePay
        self.mdoc = mdoc
        self.requestTrust = requestTrust
        self.appleRootsDirectory = nil
        self.appleRoots = appleRoots
        self.clock = clock
    }
    #else
    /// A service that takes Apple's roots that are not built in as certificates, each used only
    /// when its SHA-256 fingerprint is the one pinned for its job, with `clock` as its now (Embedded
    /// Swift has no file system and no clock). Kind `applepay` is answered `service.notConfigured`:
    /// Apple Pay decryption is not part of an Embedded build.
    public init(
        cache: ChainCache = ChainCache(), requestTrust: RequestTrust, appleRoots: [Certificate], clock: @escaping @Sendable () -> Int64
    ) {
        self.cache = cache
        self.requestTrust = requestTrust
        self.appleRootsDirectory = nil
        self.appleRoots = appleRoots
        self.clock = clock
    }
    #endif

    /// The answer to the request document `json` (UTF-8 bytes).
    public func verify(json: [UInt8]) -> VerificationAnswer {
        let request: VerificationRequest
        do { request = try VerificationRequest(json: json) } catch { return VerificationAnswer(error) }
        return verify(request)
    }

    /// The answer to `request`.
    public func verify(_ request: VerificationRequest) -> VerificationAnswer {
        #if !hasFeature(Embedded)
        if request.kind == .applepay {
            do { return VerificationAnswer(status: .verified, json: try verifyApplePayWithoutStore(request).serialized) } catch {
                return Self.answer(refusal: error)
            }
        }
        #endif
        let answer: JSONValue
        do { answer = try answerDocument(request) } catch { return error.answer }
        return VerificationAnswer(status: .verified, json: answer.serialized)
    }

    /// The valid answer's document for `request`, or the typed refusal.
    private func answerDocument(_ request: VerificationRequest) throws(Refusal) -> JSONValue {
        switch request.kind {
        case .receipt: return try verifyReceipt(request)
        case .attestation: return try verifyAttestation(request)
        case .assertion: return try verifyAssertion(request)
        case .applepay:
            // Embedded Swift has no Apple Pay decryption; answered as every door without keys answers.
            throw Refusal(ServiceConfigurationError.applePayNotConfigured)
        case .mdoc:
            #if hasFeature(Embedded)
            throw Refusal(ServiceConfigurationError.mdocNotInEmbeddedBuilds)
            #else
            return try verifyMdoc(request)
            #endif
        default: return try verifySignedData(request)
        }
    }

    #if !hasFeature(Embedded)
    /// The answer for what Apple Pay's asynchronous path threw (its replay store is the caller's
    /// and may throw anything); every other path answers a typed ``Refusal``.
    static func answer(refusal error: any Error) -> VerificationAnswer {
        switch error {
        case let error as Refusal: return error.answer
        case let error as ServiceError: return Refusal(error).answer
        case let error as ServiceConfigurationError: return Refusal(error).answer
        case let error as any CodedError:
            let failures = (error as? any ChainFailureError)?.failures ?? []
            return VerificationAnswer(
                status: .refused,
                json: AnswerEncoding.failure(code: error.qualifiedCode, message: error.reason, failures: failures).serialized)
        default:
            return VerificationAnswer(
                status: .refused, json: AnswerEncoding.failure(code: "service.unexpected", message: "\(error)", failures: []).serialized)
        }
    }
    #endif

    // MARK: - App Store signed data

    private static let appleRootCAG3: Result<Certificate, AppleRootError> = Result {
        () throws(AppleRootError) -> Certificate in try AppleRootCertificates.certificate(.appleRootCAG3)
    }

    private func verifySignedData(_ request: VerificationRequest) throws(Refusal) -> JSONValue {
        let identity: AppIdentityCheck
        if let bundleId = request.bundleId, !request.reportOnly {
            identity = .enforce(bundleId: bundleId, appAppleId: request.appAppleId)
        } else {
            identity = .reportOnly
        }
        let verifier: SignedDataVerifier
        let anchor: TrustAnchor
        let names = request.environments
        if names == [AppStoreEnvironment.xcode.rawValue] {
            anchor = .xcode
            let certificate: XcodeCertificate
            do {
                try admit(anchor, because: "environments [\"Xcode\"]")
                certificate = try Self.xcodeCertificate(request)
            } catch { throw Refusal(error) }
            do { verifier = try SignedDataVerifier(xcode: certificate, identity: identity, clock: clock) } catch { throw Refusal(error) }
        } else {
            let environments: AcceptedEnvironments
            if let names {
                // Production and Sandbox as two flags: the set is built once, from a literal.
                var production = false
                var sandbox = false
                for name in names {
                    let environment = AppStoreEnvironment(rawValue: name)
                    guard environment == .production || environment == .sandbox else {
                        throw Refusal(
                            ServiceError(
                                .invalidMember,
                                "environments: \"\(name)\" is not Production or Sandbox (Xcode alone, or LocalTesting never: its data is unsigned)"
                            ))
                    }
                    if environment == .production { production = true } else { sandbox = true }
                }
                let set: Set<AppStoreEnvironment> =
                    production && sandbox ? [.production, .sandbox] : production ? [.production] : sandbox ? [.sandbox] : []
                do { environments = try AcceptedEnvironments(set) } catch { throw Refusal(error) }
            } else if case .enforce(_, nil) = identity {
                // An enforced bundle id without the app Apple id: Production cannot be checked.
                environments = .sandbox
            } else {
                environments = .productionAndSandbox
            }
            let roots: [Certificate]
            if let given = request.roots {
                (roots, anchor) = try anchoredRoots(given, apple: .appleRootCAG3)
            } else {
                switch Self.appleRootCAG3 {
                case .success(let root): roots = [root]
                case .failure(let error): throw Refusal(error)
                }
                anchor = .apple
            }
            do {
                verifier = try SignedDataVerifier(
                    trustedRoots: roots, identity: identity, environments: environments, cache: cache, clock: clock)
            } catch { throw Refusal(error) }
        }
        // A JWS holds no white space: the line break a file ends with is not part of it.
        let text = Self.trimmed(request.data)
        let result: (payload: JSONValue, environment: AppStoreEnvironment, kind: SignedDataKind)
        do {
            let kind = try signedDataKind(request, text: text)
            switch kind {
            case .transaction:
                result = try Self.fields(verifier.verifyOffline(text, as: JWSTransactionDecodedPayload.self, at: request.at))
            case .renewalInfo:
                result = try Self.fields(verifier.verifyOffline(text, as: JWSRenewalInfoDecodedPayload.self, at: request.at))
            case .notification:
                result = try Self.fields(verifier.verifyOffline(text, as: ResponseBodyV2DecodedPayload.self, at: request.at))
            case .appTransaction: result = try Self.fields(verifier.verifyOffline(text, as: AppTransaction.self, at: request.at))
            case .realtimeRequest:
                result = try Self.fields(verifier.verifyOffline(text, as: DecodedRealtimeRequestBody.self, at: request.at))
            }
        } catch { throw Refusal(error) }
        let notEnforced = identity == .reportOnly ? ["bundleId", "appAppleId"] : []
        return AnswerEncoding.valid(
            kind: AnswerEncoding.kindName(result.kind), environment: result.environment.rawValue, trust: anchor, field: "payload",
            value: result.payload, notEnforced: relaxations(notEnforced, anchor: anchor, at: request.at))
    }

    /// Xcode's certificate: the one root the request gives, or the one the data carries. More
    /// than one root is refused, never cut to the first.
    private static func xcodeCertificate(_ request: VerificationRequest) throws(ServiceError) -> XcodeCertificate {
        guard let roots = request.roots else { return .carriedByTheData }
        guard roots.count == 1 else {
            throw ServiceError(
                .invalidMember, "roots: Xcode's StoreKit testing certificate alone with environments [\"Xcode\"], not \(roots.count)")
        }
        return .given(roots[0])
    }

    /// Apple's root `root` from ``appleRootsDirectory``, checked against its pinned fingerprint;
    /// a missing or wrong one is the service's configuration, answered `service.notConfigured`.
    private func installedAppleRoot(_ root: AppleRootCertificate, member: String) throws(ServiceConfigurationError) -> Certificate {
        if let appleRoots {
            guard let found = appleRoots.first(where: { AppleRootCertificates.identify($0.derBytes) == root }) else {
                throw ServiceConfigurationError(
                    .notConfigured, "no \(member) in the request, and \(root.name) is not among the roots the service was given")
            }
            return found
        }
        #if hasFeature(Embedded)
        throw ServiceConfigurationError(.notConfigured, "no \(member) in the request, and no roots were given to the service")
        #else
        do { return try AppleRootCertificates.certificate(root, directory: appleRootsDirectory) } catch {
            throw ServiceConfigurationError(
                .notConfigured, "no \(member) in the request, and Apple's root is not available to the service: \(error.reason)")
        }
        #endif
    }

    /// `text` without the spaces, tabs and line breaks around it.
    static func trimmed(_ text: String) -> String {
        // The white space is ASCII, so cutting the bytes at it keeps the rest valid UTF-8.
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if let first = text.utf8.first, let last = text.utf8.last, !isSpace(first), !isSpace(last) { return text }
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    private static func fields<Payload>(_ verified: VerifiedSignedData<Payload>) -> (JSONValue, AppStoreEnvironment, SignedDataKind) {
        (verified.payloadJSON, verified.environment, Payload.kind)
    }

    /// The kind named by the request, or for `auto` the one SigilAppStore's classifier finds by the
    /// payload's members; a JWS that does not parse goes to the verifier, which refuses it with
    /// its own error.
    private func signedDataKind(_ request: VerificationRequest, text: String) throws(AppStoreError) -> SignedDataKind {
        switch request.kind {
        case .transaction: return .transaction
        case .renewalInfo: return .renewalInfo
        case .notification: return .notification
        case .appTransaction: return .appTransaction
        case .realtimeRequest: return .realtimeRequest
        case .auto, .receipt, .attestation, .assertion, .applepay, .mdoc: break
        }
        guard let jws = try? JWS(compact: text), let payload = try? jws.payloadJSON() else { return .transaction }
        switch SignedDataKind.classify(payload: payload) {
        case .kind(let kind, _): return kind
        case .ambiguous(let fitting, _):
            throw AppStoreError(
                .ambiguousPayloadKind,
                fitting.isEmpty
                    ? "the payload carries no kind's distinctive members: name the kind"
                    : "the payload could be \(fitting.map(AnswerEncoding.kindName).joined(separator: ", ")): name the kind")
        }
    }

    // MARK: - Receipts

    private func verifyReceipt(_ request: VerificationRequest) throws(Refusal) -> JSONValue {
        let identity: ReceiptIdentityCheck =
            if let bundleId = request.bundleId, !request.reportOnly { .enforce(bundleId: bundleId) } else { .reportOnly }
        let verifier: AppReceiptVerifier
        let anchor: TrustAnchor
        let names = request.environments ?? [ReceiptEnvironment.production.rawValue, ReceiptEnvironment.sandbox.rawValue]
        if names == [ReceiptEnvironment.xcode.rawValue] {
            anchor = .xcode
            do {
                try admit(anchor, because: "environments [\"Xcode\"]")
                verifier = AppReceiptVerifier(xcode: try Self.xcodeCertificate(request), identity: identity)
            } catch { throw Refusal(error) }
        } else {
            // Production and Sandbox as two flags: the set is built once, from a literal.
            var production = false
            var sandbox = false
            for name in names {
                guard let environment = ReceiptEnvironment(rawValue: name), environment != .xcode else {
                    throw Refusal(ServiceError(.invalidMember, "environments: \"\(name)\" is not Production or Sandbox (or Xcode alone)"))
                }
                if environment == .production { production = true } else { sandbox = true }
            }
            let environments: Set<ReceiptEnvironment> =
                production && sandbox ? [.production, .sandbox] : production ? [.production] : sandbox ? [.sandbox] : []
            let roots: [Certificate]
            if let given = request.roots {
                (roots, anchor) = try anchoredRoots(given, apple: .appleIncRoot)
            } else {
                do { roots = [try installedAppleRoot(.appleIncRoot, member: "roots")] } catch { throw Refusal(error) }
                anchor = .apple
            }
            do { verifier = try AppReceiptVerifier(trustedRoots: roots, identity: identity, environments: environments) } catch {
                throw Refusal(error)
            }
        }
        let verified: VerifiedAppReceipt
        do { verified = try verifier.verify(Array(request.data.utf8), at: request.at) } catch { throw Refusal(error) }
        return AnswerEncoding.valid(
            kind: request.kind.rawValue, environment: verified.identity.environment.rawValue, trust: anchor, field: "receipt",
            value: AnswerEncoding.receipt(verified.receipt),
            notEnforced: relaxations(verified.identity.enforced ? [] : ["bundleId"], anchor: anchor, at: request.at))
    }

    // MARK: - App Attest

    private func appID(_ request: VerificationRequest) throws(ServiceError) -> AppAttestAppID {
        guard let teamId = request.teamId, !teamId.isEmpty else {
            throw ServiceError(.missingMember, "teamId is required for App Attest (the App ID is teamId.bundleId)")
        }
        guard let bundleId = request.bundleId else {
            throw ServiceError(.missingMember, "bundleId is required for App Attest (the App ID is teamId.bundleId)")
        }
        return AppAttestAppID(teamID: teamId, bundleID: bundleId)
    }

    private func clientDataHash(_ request: VerificationRequest) throws(ServiceError) -> [UInt8] {
        switch (request.clientData, request.clientDataHash) {
        case (let data?, nil): return SHA256.hash(data)
        case (nil, let hash?): return hash
        default: throw ServiceError(.missingMember, "exactly one of clientData and clientDataHash is required")
        }
    }

    private func verifyAttestation(_ request: VerificationRequest) throws(Refusal) -> JSONValue {
        let appID: AppAttestAppID
        let hash: [UInt8]
        do {
            appID = try self.appID(request)
            hash = try clientDataHash(request)
        } catch { throw Refusal(error) }
        let names = request.environments ?? [AppAttestEnvironment.production.rawValue]
        guard names.count == 1, let environment = AppAttestEnvironment(rawValue: names[0]) else {
            throw Refusal(ServiceError(.invalidMember, "environments: one of production or development for an attestation"))
        }
        let verifier: AttestationVerifier
        let anchor: TrustAnchor
        switch (request.roots, request.unpinnedTestRoot) {
        case (nil, false):
            anchor = .apple
            let root: Certificate
            do { root = try installedAppleRoot(.appAttestationRoot, member: "roots") } catch { throw Refusal(error) }
            do { verifier = try AttestationVerifier(appAttestationRoot: root, appID: appID, environment: environment) } catch {
                throw Refusal(error)
            }
        case (nil, true):
            throw Refusal(ServiceError(.missingMember, "unpinnedTestRoot needs roots: the test PKI's root, alone"))
        case (let roots?, let unpinned):
            guard roots.count == 1 else {
                throw Refusal(ServiceError(.invalidMember, "roots: one root for an attestation, not \(roots.count)"))
            }
            if unpinned && !Self.areExactly(roots, .appAttestationRoot) {
                anchor = .unpinnedTestRoot
                do { try admit(anchor, because: "unpinnedTestRoot") } catch { throw Refusal(error) }
                verifier = AttestationVerifier(testRoot: roots[0], appID: appID, environment: environment)
            } else {
                // Pinned: anything but the Apple App Attestation Root CA is refused by the verifier.
                anchor = .apple
                do { verifier = try AttestationVerifier(appAttestationRoot: roots[0], appID: appID, environment: environment) } catch {
                    throw Refusal(error)
                }
            }
        }
        let verified: VerifiedAttestation
        do {
            verified = try verifier.verify(
                Array(request.data.utf8), clientDataHash: hash, expectedKeyID: request.keyId, at: request.at ?? clock())
        } catch { throw Refusal(error) }
        return AnswerEncoding.valid(
            kind: request.kind.rawValue, environment: verified.environment.rawValue, trust: anchor, field: "attestation",
            value: AnswerEncoding.attestation(verified, appID: appID),
            notEnforced: relaxations(
                verified.policyReport.enforced ? [] : ["validationCategory", "bundleVersion"], anchor: anchor, at: request.at))
    }

    private func verifyAssertion(_ request: VerificationRequest) throws(Refusal) -> JSONValue {
        let appID: AppAttestAppID
        let hash: [UInt8]
        do {
            appID = try self.appID(request)
            hash = try clientDataHash(request)
        } catch { throw Refusal(error) }
        guard let keyBytes = request.publicKey else {
            throw Refusal(
                ServiceError(.missingMember, "publicKey is required for an assertion (the attested key, X9.62 uncompressed, base64)"))
        }
        let key: ECDSAPublicKey
        do { key = try ECDSAPublicKey(sec1Representation: keyBytes, curve: .p256) } catch {
            throw Refusal(ServiceError(.invalidMember, "publicKey is not a P-256 point: \(error.reason)"))
        }
        let verified: VerifiedAssertion
        do {
            verified = try AssertionVerifier(appID: appID).verify(
                Array(request.data.utf8), clientDataHash: hash, publicKey: key, previousCounter: request.counter ?? 0)
        } catch { throw Refusal(error) }
        return AnswerEncoding.valid(
            kind: request.kind.rawValue, environment: nil, trust: .attestedKey, field: "assertion",
            value: AnswerEncoding.assertion(verified),
            notEnforced: relaxations(
                verified.policyReport.enforced ? [] : ["validationCategory", "bundleVersion"], anchor: .attestedKey, at: request.at))
    }
}
