import SigilASN1
import SigilAppStore
import SigilApplePay
import SigilBase
import SigilJOSE
import SigilX509

/// One accepted Apple Pay token, as a replay store records it. No card data: the transaction id,
/// the key it was made for and two times.
public struct ApplePayTransactionRecord: Sendable, Hashable {
    /// The token's `transactionId`, lowercase hex (the store's unique key).
    public let transactionId: String
    /// The token's `publicKeyHash`, base64: which merchant key it was made for.
    public let publicKeyHash: String
    /// The CMS signing time, seconds since 1970.
    public let signingTime: Int64
    /// When the service accepted it, seconds since 1970.
    public let acceptedAt: Int64

    /// A record of these values.
    public init(transactionId: String, publicKeyHash: String, signingTime: Int64, acceptedAt: Int64) {
        self.transactionId = transactionId
        self.publicKeyHash = publicKeyHash
        self.signingTime = signingTime
        self.acceptedAt = acceptedAt
    }
}

/// Where accepted Apple Pay transaction ids are kept, so that a token is accepted once.
///
/// `record` inserts the row and returns true only once the insert has committed durably; it returns
/// false, writing nothing, when the transaction id is already stored — decided by the database's
/// unique key, so two concurrent submissions of one token (even to several processes sharing the
/// database) record it once and one of them is refused.
public protocol ApplePayReplayStore: Sendable {
    /// Records `record`: true when stored now, false when its transaction id was stored before.
    func record(_ record: ApplePayTransactionRecord) async throws -> Bool
}

/// What the service needs to answer kind `applepay`: the merchant keys (several, chosen by each
/// token's `publicKeyHash`, as during a certificate rotation), the signature verifier (Apple Root
/// CA - G3 unless a test PKI's root is configured; the signing-time window) and the replay
/// protection. All of it is the server's configuration; a request names only the token and, for a
/// stored token, the time it was received (`at`).
public struct ApplePayServiceConfiguration: Sendable {
    /// How a token seen twice is refused.
    public enum ReplayProtection: Sendable {
        /// Each accepted token's transaction id is recorded in `store`; a second one is refused
        /// with `applepay.replayedTransaction`.
        case store(any ApplePayReplayStore)
        /// The named relaxation: no replay store; a token is accepted as often as it is sent (the
        /// answer lists `transactionId` in `notEnforced`). For a caller that keeps its own record
        /// of transaction ids; never the default.
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
/// the transaction id, answer. Nothing of the decrypted payment reaches an error message; the
/// answer carries it (`applepay.payment`) because the service holds the merchant keys so that its
/// callers need not: a verdict alone would send them back to decrypting the token themselves.
extension VerificationService {
    /// The answer to the request document `json`, with the state some kinds need: for `applepay`
    /// the transaction id is recorded in the configured replay store before a valid answer is given
    /// (the HTTP verification service calls this; every other kind answers as ``verify(json:)``).
    public func verifyRecordingReplays(json: [UInt8]) async -> VerificationAnswer {
        let request: VerificationRequest
        do { request = try VerificationRequest(json: json) } catch { return VerificationAnswer(error) }
        guard request.kind == .applepay else { return verify(request) }
        do {
            let accepted = try applePayAccepted(request)
            switch accepted.configuration.replayProtection {
            case .disabledAcceptingReplays:
                return VerificationAnswer(
                    status: .verified, json: applePayAnswer(accepted, replayChecked: false, at: request.at).serialized)
            case .store(let store):
                let record = ApplePayTransactionRecord(
                    transactionId: Base16.encode(accepted.token.transactionId).lowercased(),
                    publicKeyHash: Base64.encode(accepted.token.publicKeyHash), signingTime: accepted.verified.signingTime,
                    acceptedAt: accepted.configuration.clock())
                let stored: Bool
                do { stored = try await store.record(record) } catch {
                    // The store's error is not shown: a driver's message may quote the statement.
                    throw ServiceConfigurationError(
                        .replayStoreUnavailable,
                        "the replay store did not record the transaction (\(type(of: error))); nothing was accepted")
                }
                guard stored else {
                    throw ApplePayError(
                        .replayedTransaction, "transactionId \(record.transactionId) was already accepted", step: "replay",
                        clause: "Payment Token Format Reference, transactionId; a token is used once")
                }
                return VerificationAnswer(
                    status: .verified, json: applePayAnswer(accepted, replayChecked: true, at: request.at).serialized)
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
                .notConfigured, "kind applepay records each transactionId in the replay store: this door cannot (verifyRecordingReplays)")
        }
        return applePayAnswer(try applePayAccepted(request), replayChecked: false, at: request.at)
    }

    static let notConfigured = ServiceConfigurationError(
        .notConfigured,
        "kind applepay needs the service's merchant keys and a replay store (the HTTP verification service's --applepay-* options)")

    struct ApplePayAccepted {
        let configuration: ApplePayServiceConfiguration
        let token: PaymentToken
        let verified: PaymentTokenVerifier.Verified
        let payment: DecryptedPayment
    }

    /// The token verified (signature, chain, signing time) and decrypted, or the first refusal.
    private func applePayAccepted(_ request: VerificationRequest) throws -> ApplePayAccepted {
        guard let configuration = applePay else { throw Self.notConfigured }
        let token = try PaymentToken(json: Array(request.data.utf8))
        let verified = try configuration.verifier.verify(token, at: request.at ?? configuration.clock())
        let payment = try configuration.decryptor.decrypt(token)
        return ApplePayAccepted(configuration: configuration, token: token, verified: verified, payment: payment)
    }

    /// `{"valid": true, "kind": "applepay", "trust", "applepay": {version, transactionId (hex),
    /// publicKeyHash (base64), signingTime, applicationData (hex)?, paymentDataType, payment},
    /// "notEnforced"}`: trust `apple` when the configured roots are Apple Root CA - G3 alone,
    /// else `configured-roots` (and `appleRoot` not enforced); `at` is compared with the
    /// configuration's clock.
    func applePayAnswer(_ accepted: ApplePayAccepted, replayChecked: Bool, at: Int64?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .string(accepted.token.version.rawValue)),
            ("transactionId", .string(Base16.encode(accepted.token.transactionId).lowercased())),
            ("publicKeyHash", .string(Base64.encode(accepted.token.publicKeyHash))),
            ("signingTime", .int(accepted.verified.signingTime)),
        ]
        if let applicationData = accepted.token.applicationData {
            members.append(("applicationData", .string(Base16.encode(applicationData).lowercased())))
        }
        members.append(("paymentDataType", .string(accepted.payment.paymentDataType)))
        // The decrypted payment data as Apple wrote it (it parsed as a JSON object to get here).
        let payment = (try? JSONValue(parsing: accepted.payment.plaintext)) ?? .object([])
        members.append(("payment", payment))
        let anchor: TrustAnchor = Self.areExactly(accepted.configuration.verifier.trustedRoots, .appleRootCAG3) ? .apple : .configuredRoots
        return AnswerEncoding.valid(
            kind: VerificationRequest.Kind.applepay.rawValue, environment: nil, trust: anchor, field: "applepay", value: .object(members),
            notEnforced: relaxations(replayChecked ? [] : ["transactionId"], anchor: anchor, at: at, now: accepted.configuration.clock()))
    }
}
