import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

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
