// Apple Pay (verification, decryption, the replay store): the regular build only. Embedded Swift
// builds of the service answer kind applepay `service.notConfigured`.
#if !hasFeature(Embedded)
import SigilASN1
import SigilAppStore
import SigilApplePay
import SigilBase
import SigilCore
import SigilJOSE
import SigilX509

/// One accepted Apple Pay token, as a replay store records it. No card data: the replay key, the
/// transaction id, the key it was made for, two times and the request's fingerprint.
public struct ApplePayTransactionRecord: Sendable, Hashable {
    /// The token's `PaymentToken.replayKey` (SHA-256 of what Apple signed, lowercase hex): the
    /// store's unique key. No re-framing of the token's fields changes it.
    public let replayKey: String
    /// The token's `transactionId`, lowercase hex (indexed, for lookups; not unique by itself
    /// across re-framings of one token, which the decoder refuses anyway).
    public let transactionId: String
    /// The token's `publicKeyHash`, base64: which merchant key it was made for.
    public let publicKeyHash: String
    /// The CMS signing time, seconds since 1970.
    public let signingTime: Int64
    /// When the service accepted it, seconds since 1970.
    public let acceptedAt: Int64
    /// SHA-256 of the request body that was accepted, lowercase hex: a later request with the same
    /// body is a retry of this one (answered again, flagged `retry`), any other a replay.
    public let requestFingerprint: String

    /// A record of these values.
    public init(
        replayKey: String, transactionId: String, publicKeyHash: String, signingTime: Int64, acceptedAt: Int64,
        requestFingerprint: String
    ) {
        self.replayKey = replayKey
        self.transactionId = transactionId
        self.publicKeyHash = publicKeyHash
        self.signingTime = signingTime
        self.acceptedAt = acceptedAt
        self.requestFingerprint = requestFingerprint
    }
}

/// What a replay store's ``ApplePayReplayStore/record(_:)`` decided.
public enum ApplePayRecordOutcome: Sendable, Hashable {
    /// The record is stored now: a new acceptance.
    case recorded
    /// A record with this replay key was stored before by a request with the same fingerprint (the
    /// same body): the caller is retrying, for example after a timeout that hid a committed
    /// insert. The service answers again, flagged `retry`, with the first acceptance's time.
    case retryOfSameRequest(firstAcceptedAt: Int64)
    /// A record with this replay key was stored before by another request: a replay.
    case replay

    /// The outcome for `incoming` when `stored` already holds its replay key (what a store answers
    /// after its insert found the key taken).
    public init(stored: (requestFingerprint: String, acceptedAt: Int64), incoming: ApplePayTransactionRecord) {
        self = stored.requestFingerprint == incoming.requestFingerprint ? .retryOfSameRequest(firstAcceptedAt: stored.acceptedAt) : .replay
    }
}

/// Where accepted Apple Pay tokens are kept, so that a token is accepted once.
///
/// `record` inserts the row and answers ``ApplePayRecordOutcome/recorded`` only once the insert
/// has committed durably. When the replay key is already stored it writes nothing and answers
/// ``ApplePayRecordOutcome/retryOfSameRequest(firstAcceptedAt:)`` if the stored row's request
/// fingerprint is the incoming one, ``ApplePayRecordOutcome/replay`` otherwise — decided by the
/// database's unique key, so of concurrent submissions of one token (even to several processes
/// sharing the database) one records it.
public protocol ApplePayReplayStore: Sendable {
    /// Records `record` unless its replay key is stored, and says which of the three happened.
    func record(_ record: ApplePayTransactionRecord) async throws -> ApplePayRecordOutcome
}

/// What the service needs to answer kind `applepay`: the merchant keys (several, chosen by each
/// token's `publicKeyHash`, as during a certificate rotation), the signature verifier (Apple Root
/// CA - G3 unless a test PKI's root is configured; the signing-time window) and the replay
/// protection. All of it is the server's configuration; a request names only the token and, for a
/// stored token, the time it was received (`at`).
public struct ApplePayServiceConfiguration: Sendable {
    /// How a token seen twice is refused.
    public enum ReplayProtection: Sendable {
        /// Each accepted token's replay key is recorded in `store`; another request with the same
        /// replay key is refused with `applepay.replayedTransaction` (a retry of the identical
        /// request body is answered again, flagged `retry`).
        case store(any ApplePayReplayStore)
        /// The named relaxation: no replay store; a token is accepted as often as it is sent (the
        /// answer lists `replayKey` in `notEnforced`). For a caller that keeps its own record of
        /// replay keys; never the default.
        case disabledAcceptingReplays
    }

    /// The decryptor over the merchant keys.
    public let decryptor: PaymentTokenDecryptor
    /// The signature, chain and signing-time check.
    public let verifier: PaymentTokenVerifier
    /// How replays are refused.
    public let replayProtection: ReplayProtection
    /// Now, in seconds since 1970 (the signing-time window's centre when a request gives no `at`).
    public let clock: @Sendable () -> Int64

    /// A configuration with the merchant keys, the verifier and the replay protection.
    public init(
        merchantKeys: [MerchantKey], verifier: PaymentTokenVerifier, replayProtection: ReplayProtection,
        clock: @escaping @Sendable () -> Int64 = SignedDataVerifier.systemClock
    ) {
        decryptor = PaymentTokenDecryptor(merchantKeys: merchantKeys)
        self.verifier = verifier
        self.replayProtection = replayProtection
        self.clock = clock
    }
}

/// Kind `applepay`: verify Apple's signature, decrypt with the merchant key the token names, record
/// the replay key, answer. Nothing of the decrypted payment reaches an error message; the
/// answer carries it (`applepay.payment`) because the service holds the merchant keys so that its
/// callers need not: a verdict alone would send them back to decrypting the token themselves.
extension VerificationService {
    /// The answer to the request document `json`, with the state some kinds need: for `applepay`
    /// the token's replay key and SHA-256 of `json` are recorded in the configured replay store
    /// before a valid answer is given; the same `json` again gets the same answer flagged
    /// `"retry": true` with `firstAcceptedAt`, any other request carrying a token with that replay
    /// key `applepay.replayedTransaction` (the HTTP verification service calls this; every other
    /// kind answers as ``verify(json:)``).
    public func verifyRecordingReplays(json: [UInt8]) async -> VerificationAnswer {
        let request: VerificationRequest
        do { request = try VerificationRequest(json: json) } catch { return VerificationAnswer(error) }
        guard request.kind == .applepay else { return verify(request) }
        do {
            let accepted = try applePayAccepted(request)
            switch accepted.configuration.replayProtection {
            case .disabledAcceptingReplays:
                return VerificationAnswer(
                    status: .verified, json: applePayAnswer(accepted, replay: nil, at: request.at).serialized)
            case .store(let store):
                let record = ApplePayTransactionRecord(
                    replayKey: accepted.replayKey, transactionId: Base16.encode(accepted.token.transactionId),
                    publicKeyHash: Base64.encode(accepted.token.publicKeyHash), signingTime: accepted.verified.signingTime,
                    acceptedAt: accepted.configuration.clock(), requestFingerprint: Base16.encode(SHA256.hash(json)))
                let outcome: ApplePayRecordOutcome
                do { outcome = try await store.record(record) } catch {
                    // The store's error is not shown: a driver's message may quote the statement.
                    throw ServiceConfigurationError(
                        .replayStoreUnavailable,
                        "the replay store did not record the transaction (\(type(of: error))); nothing was accepted")
                }
                guard outcome != .replay else {
                    throw ApplePayError(
                        .replayedTransaction,
                        "a token with replay key \(record.replayKey) (transactionId \(record.transactionId)) was already accepted",
                        step: "replay", clause: "Payment Token Format Reference, transactionId; a token is used once")
                }
                return VerificationAnswer(
                    status: .verified, json: applePayAnswer(accepted, replay: outcome, at: request.at).serialized)
            }
        } catch {
            return Self.answer(refusal: error)
        }
    }

    /// Kind `applepay` through the synchronous doors (the C ABI, the Python package): answered only
    /// under the named relaxation that disables replay protection; a replay store needs
    /// ``verifyRecordingReplays(json:)``.
    func verifyApplePayWithoutStore(_ request: VerificationRequest) throws -> JSONValue {
        guard let configuration = applePay else { throw Self.notConfigured }
        guard case .disabledAcceptingReplays = configuration.replayProtection else {
            throw ServiceConfigurationError(
                .notConfigured,
                "kind applepay records each token's replay key in the replay store: this door cannot (verifyRecordingReplays)")
        }
        return applePayAnswer(try applePayAccepted(request), replay: nil, at: request.at)
    }

    static let notConfigured = ServiceConfigurationError.applePayNotConfigured

    struct ApplePayAccepted {
        let configuration: ApplePayServiceConfiguration
        let token: PaymentToken
        let verified: PaymentTokenVerifier.Verified
        let payment: DecryptedPayment
        /// The token's replay key, hashed once for the record and the answer.
        let replayKey: String
    }

    /// The token verified (signature, chain, signing time) and decrypted, or the first refusal.
    private func applePayAccepted(_ request: VerificationRequest) throws -> ApplePayAccepted {
        guard let configuration = applePay else { throw Self.notConfigured }
        let token = try PaymentToken(json: Array(request.data.utf8))
        let verified = try configuration.verifier.verify(token, at: request.at ?? configuration.clock())
        let payment = try configuration.decryptor.decrypt(token)
        return ApplePayAccepted(
            configuration: configuration, token: token, verified: verified, payment: payment, replayKey: token.replayKey)
    }

    /// `{"valid": true, "kind": "applepay", "trust", "applepay": {version, transactionId (hex),
    /// replayKey, publicKeyHash (base64), signingTime, applicationData (hex)?, paymentDataType,
    /// payment, retry?, firstAcceptedAt?}, "notEnforced"}`. `replay` is the store's outcome (nil: no
    /// store, `replayKey` in `notEnforced`): `retry` is false for a new acceptance, true with
    /// `firstAcceptedAt` for a retry of the same request, so that no caller takes a retry for a
    /// second payment. Trust is `apple` when the configured roots are Apple Root CA - G3 alone, else
    /// `configured-roots` (and `appleRoot` not enforced); `at` is compared with the configuration's
    /// clock.
    func applePayAnswer(_ accepted: ApplePayAccepted, replay: ApplePayRecordOutcome?, at: Int64?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .string(accepted.token.version.rawValue)),
            ("transactionId", .string(Base16.encode(accepted.token.transactionId))),
            ("replayKey", .string(accepted.replayKey)),
            ("publicKeyHash", .string(Base64.encode(accepted.token.publicKeyHash))),
            ("signingTime", .int(accepted.verified.signingTime)),
        ]
        if let applicationData = accepted.token.applicationData {
            members.append(("applicationData", .string(Base16.encode(applicationData))))
        }
        members.append(("paymentDataType", .string(accepted.payment.paymentDataType)))
        // The decrypted payment data as Apple wrote it (it parsed as a JSON object to get here).
        let payment = (try? JSONValue(parsing: accepted.payment.plaintext)) ?? .object([])
        members.append(("payment", payment))
        switch replay {
        case .retryOfSameRequest(let firstAcceptedAt)?:
            members.append(("retry", .bool(true)))
            members.append(("firstAcceptedAt", .int(firstAcceptedAt)))
        case .recorded?, .replay?: members.append(("retry", .bool(false)))
        case nil: break
        }
        let anchor: TrustAnchor = Self.areExactly(accepted.configuration.verifier.trustedRoots, .appleRootCAG3) ? .apple : .configuredRoots
        return AnswerEncoding.valid(
            kind: VerificationRequest.Kind.applepay.rawValue, environment: nil, trust: anchor, field: "applepay", value: .object(members),
            notEnforced: relaxations(replay == nil ? ["replayKey"] : [], anchor: anchor, at: at, now: accepted.configuration.clock()))
    }
}
#endif
