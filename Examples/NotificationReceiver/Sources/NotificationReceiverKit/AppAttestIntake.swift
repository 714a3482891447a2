import Foundation
import Hummingbird
import Logging
import SigilAppAttest
import SigilCore

/// The App Attest endpoints' logic, apart from HTTP: issue one-time challenges, accept
/// attestations (verify with `AttestationVerifier`, then consume the challenge and store the key
/// with counter 0 in one transaction), accept assertions (verify with `AssertionVerifier` against
/// the stored key and counter, then consume the challenge, compare-and-set the counter and record
/// the assertion in one transaction). An answer is 200 only after the commit; a store that fails
/// or does not answer within `storeTimeout` gives 503 and nothing is acknowledged.
///
/// Wire format (JSON, binary values in standard base64):
/// - `POST /appattest/challenge` → `{"challenge", "expiresAt"}` (32 random bytes; ms since 1970).
/// - `POST /appattest/attestation` `{"keyId", "attestationObject", "challenge"}`: the app passed
///   SHA-256(challenge bytes) to `attestKey` as clientDataHash.
/// - `POST /appattest/assertion` `{"keyId", "assertion", "clientData"}`: clientData is the bytes
///   the app signed (`generateAssertion` was given SHA-256 of them), a JSON object whose
///   `"challenge"` member is an issued challenge (base64); the rest of it is the app's request.
///
/// Refusals answer `{"error": "domain.code", "message"}`: `appattest.*` from the verifiers,
/// `receiver.*` from the service (challenge unknown, expired or used, key unknown or attested
/// already, malformed request, storage unavailable).
public struct AppAttestIntake: Sendable {
    public let attestationVerifier: AttestationVerifier
    public let assertionVerifier: AssertionVerifier
    public let store: any AppAttestStore
    public let logger: Logger
    public let challengeMilliseconds: Int64
    public let storeTimeout: Duration
    /// The most challenge rows the store holds (issued, used or expired within the grace period):
    /// past it, `POST /appattest/challenge` answers 429 and writes nothing.
    public let maximumChallenges: Int
    /// How many challenges one client (by address) may ask for: past it, 429.
    public let challengeLimiter: RateLimiter
    /// Milliseconds since 1970.
    public let clock: @Sendable () -> Int64
    /// How long an expired challenge row is kept (refused as expired rather than unknown).
    static let expiredGraceMilliseconds: Int64 = 60_000

    public init(
        attestationVerifier: AttestationVerifier, assertionVerifier: AssertionVerifier, store: any AppAttestStore, logger: Logger,
        challengeSeconds: Int = 300, storeTimeout: Duration = .seconds(5), maximumChallenges: Int = 100_000,
        challengeLimiter: RateLimiter = RateLimiter(perMinute: 60),
        clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.attestationVerifier = attestationVerifier
        self.assertionVerifier = assertionVerifier
        self.store = store
        self.logger = logger
        challengeMilliseconds = Int64(challengeSeconds) * 1000
        self.storeTimeout = storeTimeout
        self.maximumChallenges = maximumChallenges
        self.challengeLimiter = challengeLimiter
        self.clock = clock
    }

    /// An answer: HTTP status and a JSON object.
    public struct Answer: Sendable {
        public let status: Int
        public let body: [String: JSONField]

        static func refused(_ status: Int, _ error: String, _ message: String) -> Answer {
            Answer(status: status, body: ["error": .string(error), "message": .string(message)])
        }
    }

    /// A JSON member value: a string or an integer.
    public enum JSONField: Sendable, Hashable, Encodable {
        case string(String)
        case integer(Int64)

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            }
        }
    }

    /// `operation`, or `StoreTimeout` once `storeTimeout` has passed (see `withinStoreTimeout`).
    func withinStoreTimeout<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await NotificationReceiverKit.withinStoreTimeout(storeTimeout, operation)
    }

    func unavailable(_ what: String, _ error: any Error) -> Answer {
        logger.error("App Attest: could not \(what): \(String(reflecting: error))")
        return .refused(503, "receiver.storageUnavailable", "the database is unavailable; nothing was stored, try again")
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func bytes(_ text: String?, count: Int? = nil) -> [UInt8]? {
        guard let text, let data = Data(base64Encoded: text) else { return nil }
        if let count, data.count != count { return nil }
        return Array(data)
    }

    // MARK: - Challenge

    /// A fresh challenge for `client` (its address), stored before it is returned; 429 when the
    /// client asked too often or the store holds `maximumChallenges` rows.
    public func issueChallenge(client: String) async -> Answer {
        guard challengeLimiter.allow(client, now: clock()) else {
            logger.warning("App Attest: refused a challenge: client \(client) is over \(challengeLimiter.perMinute) a minute")
            return .refused(429, "receiver.rateLimited", "too many challenges from this client; try again in a minute")
        }
        var generator = SystemRandomNumberGenerator()
        let challenge = Self.base64((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let now = clock()
        let expiresAt = now + challengeMilliseconds
        // Each issue first drops the challenges that expired more than a minute ago (until then an
        // expired one is refused as expired, then as unknown), so the table holds live ones only.
        let inserted: Bool
        do {
            inserted = try await withinStoreTimeout {
                try await store.insertChallenge(
                    challenge, issuedAt: now, expiresAt: expiresAt, purgeExpiredBefore: now - Self.expiredGraceMilliseconds,
                    maximumRows: maximumChallenges)
            }
        } catch {
            return unavailable("store a challenge", error)
        }
        guard inserted else {
            logger.warning("App Attest: refused a challenge: \(maximumChallenges) challenges are outstanding")
            return .refused(429, "receiver.tooManyChallenges", "too many challenges are outstanding; try again later")
        }
        return Answer(status: 200, body: ["challenge": .string(challenge), "expiresAt": .integer(expiresAt)])
    }

    /// The app's validation category and bundle version, when the authenticator data states them.
    static func facts(_ report: AppAttestPolicyReport) -> [String: JSONField] {
        var facts: [String: JSONField] = [:]
        if let category = report.validationCategory { facts["validationCategory"] = .integer(Int64(category.rawValue)) }
        if let version = report.bundleVersion { facts["bundleVersion"] = .string(version) }
        return facts
    }

    // MARK: - Refusals

    /// The answer for a verifier's refusal: 400 for an object that does not decode, 409 for a
    /// counter that does not increase (a replay), 403 for the rest.
    func refused(_ error: AppAttestError, _ what: String) -> Answer {
        let status: Int
        switch error.code {
        case .malformedObject, .unsupportedFormat, .malformedAuthenticatorData: status = 400
        case .counterNotIncreasing: status = 409
        case .policyNotMet: status = 403
        default: status = 403
        }
        logger.warning("App Attest: refused \(what): \(error.qualifiedCode): \(error.reason)")
        return .refused(status, error.qualifiedCode, error.reason)
    }

    func refused(_ refusal: ChallengeRefusal, _ what: String) -> Answer {
        logger.warning("App Attest: refused \(what): challenge \(refusal.rawValue)")
        switch refusal {
        case .unknown: return .refused(403, "receiver.challengeUnknown", "the challenge was not issued by this service")
        case .expired: return .refused(403, "receiver.challengeExpired", "the challenge has expired; ask for a new one")
        case .used: return .refused(409, "receiver.challengeUsed", "the challenge has been used already")
        }
    }

    func malformed(_ message: String) -> Answer {
        logger.warning("App Attest: refused a request: \(message)")
        return .refused(400, "receiver.malformedRequest", message)
    }

    // MARK: - Attestation

    struct AttestationRequest: Decodable {
        let keyId: String?
        let attestationObject: String?
        let challenge: String?
    }

    /// Verifies an attestation and stores its key (counter 0, receipt) while consuming the challenge.
    public func acceptAttestation(body: [UInt8]) async -> Answer {
        if let reason = ReceiverRoutes.strictObjectRefusal(body) { return malformed(reason) }
        guard let request = try? JSONDecoder().decode(AttestationRequest.self, from: Data(body)) else {
            return malformed("the body is not JSON {\"keyId\", \"attestationObject\", \"challenge\"}")
        }
        guard let keyId = Self.bytes(request.keyId, count: 32) else { return malformed("keyId is not base64 of 32 bytes") }
        guard let challenge = Self.bytes(request.challenge, count: 32) else { return malformed("challenge is not base64 of 32 bytes") }
        guard let object = Self.bytes(request.attestationObject), !object.isEmpty else {
            return malformed("attestationObject is not base64")
        }
        let now = clock()
        let verified: VerifiedAttestation
        do {
            verified = try attestationVerifier.verify(
                object, clientDataHash: SHA256.hash(challenge), expectedKeyID: keyId, at: now / 1000)
        } catch {
            return refused(error, "an attestation")
        }
        let record = AttestedKeyRecord(
            keyId: Self.base64(verified.keyID), publicKey: Self.base64(verified.publicKey.uncompressedRepresentation),
            counter: Int64(verified.counter), receipt: Self.base64(verified.receipt), environment: verified.environment.rawValue,
            attestedAt: now)
        let outcome: AttestationStoreOutcome
        do {
            outcome = try await withinStoreTimeout { [store] in
                try await store.storeAttestation(record, challenge: Self.base64(challenge), now: now)
            }
        } catch {
            return unavailable("store the attestation of key \(record.keyId)", error)
        }
        switch outcome {
        case .stored:
            logger.info("App Attest: attested key \(record.keyId) (\(record.environment))")
            return Answer(
                status: 200,
                body: [
                    "status": .string("attested"), "keyId": .string(record.keyId), "environment": .string(record.environment),
                    "counter": .integer(record.counter),
                ].merging(Self.facts(verified.policyReport)) { a, _ in a })
        case .challengeRefused(let refusal): return refused(refusal, "an attestation")
        case .keyExists:
            logger.warning("App Attest: refused an attestation: key \(record.keyId) is attested already")
            return .refused(409, "receiver.keyAlreadyAttested", "the key \(record.keyId) is attested already")
        }
    }

    // MARK: - Assertion

    struct AssertionRequest: Decodable {
        let keyId: String?
        let assertion: String?
        let clientData: String?
    }

    struct ClientData: Decodable {
        let challenge: String?
    }

    /// How many times an assertion is verified again after another one for the same key moved
    /// the counter first (each retry follows someone else's commit).
    static let compareAndSetAttempts = 32

    /// Verifies an assertion against the stored key and counter, then stores the new counter by
    /// compare-and-set while consuming the challenge in clientData.
    public func acceptAssertion(body: [UInt8]) async -> Answer {
        if let reason = ReceiverRoutes.strictObjectRefusal(body) { return malformed(reason) }
        guard let request = try? JSONDecoder().decode(AssertionRequest.self, from: Data(body)) else {
            return malformed("the body is not JSON {\"keyId\", \"assertion\", \"clientData\"}")
        }
        guard let keyIdBytes = Self.bytes(request.keyId, count: 32) else { return malformed("keyId is not base64 of 32 bytes") }
        guard let assertion = Self.bytes(request.assertion), !assertion.isEmpty else { return malformed("assertion is not base64") }
        guard let clientData = Self.bytes(request.clientData) else { return malformed("clientData is not base64") }
        guard let fields = try? JSONDecoder().decode(ClientData.self, from: Data(clientData)),
            let challengeBytes = Self.bytes(fields.challenge, count: 32)
        else {
            return malformed("clientData is not a JSON object with a \"challenge\" (base64 of 32 bytes)")
        }
        let keyId = Self.base64(keyIdBytes)
        let challenge = Self.base64(challengeBytes)
        for _ in 0..<Self.compareAndSetAttempts {
            let stored: AttestedKeyRecord?
            do {
                stored = try await withinStoreTimeout { [store] in try await store.attestedKey(keyId: keyId) }
            } catch {
                return unavailable("read key \(keyId)", error)
            }
            guard let stored else { return unknownKey(keyId) }
            guard let point = Self.bytes(stored.publicKey), let publicKey = try? ECDSAPublicKey(sec1Representation: point, curve: .p256),
                let previous = UInt32(exactly: stored.counter)
            else {
                logger.error("App Attest: the stored key \(keyId) or its counter \(stored.counter) does not decode")
                return .refused(500, "receiver.storedKeyUnreadable", "the stored key does not decode")
            }
            let verified: VerifiedAssertion
            do {
                verified = try assertionVerifier.verify(assertion, clientData: clientData, publicKey: publicKey, previousCounter: previous)
            } catch {
                return refused(error, "an assertion for key \(keyId)")
            }
            let now = clock()
            let outcome: AssertionStoreOutcome
            do {
                outcome = try await withinStoreTimeout { [store] in
                    try await store.storeAssertion(
                        keyId: keyId, expectedCounter: stored.counter, newCounter: Int64(verified.counter), challenge: challenge, now: now)
                }
            } catch {
                return unavailable("store an assertion for key \(keyId)", error)
            }
            switch outcome {
            case .accepted:
                return Answer(
                    status: 200,
                    body: ["status": .string("accepted"), "keyId": .string(keyId), "counter": .integer(Int64(verified.counter))]
                        .merging(Self.facts(verified.policyReport)) { a, _ in a })
            case .counterMoved: continue
            case .unknownKey: return unknownKey(keyId)
            case .challengeRefused(let refusal): return refused(refusal, "an assertion for key \(keyId)")
            }
        }
        logger.warning("App Attest: key \(keyId): the counter kept moving; gave up")
        return .refused(503, "receiver.contention", "other assertions for this key kept moving its counter; try again")
    }

    func unknownKey(_ keyId: String) -> Answer {
        logger.warning("App Attest: refused an assertion: no attested key \(keyId)")
        return .refused(404, "receiver.unknownKey", "no attested key \(keyId)")
    }
}

extension ReceiverRoutes {
    /// `POST /appattest/challenge`, `/appattest/attestation`, `/appattest/assertion` over `intake`.
    static func addAppAttest(
        _ intake: AppAttestIntake, to router: Router<ReceiverRequestContext>, maxBodyBytes: Int, bodyTimeout: Duration,
        metrics: ReceiverMetrics
    ) {
        /// The body, or the refusal (413, 408) in App Attest's shape.
        @Sendable func read(_ request: Request) async -> Result<[UInt8], AppAttestRefusal> {
            switch await VerificationRoutes.readBody(request, maxBodyBytes: maxBodyBytes, timeout: bodyTimeout) {
            case .body(let bytes): return .success(bytes)
            case .tooLarge: return .failure(AppAttestRefusal(response: tooLarge(intake, maxBodyBytes)))
            case .timedOut:
                intake.logger.warning("App Attest: refused a request: the body did not arrive within \(bodyTimeout)")
                var refusal = response(.refused(408, "receiver.requestTimeout", "the body did not arrive within \(bodyTimeout)"))
                refusal.headers[.connection] = "close"
                return .failure(AppAttestRefusal(response: refusal))
            }
        }
        router.post("/appattest/challenge") { request, context -> Response in
            // The challenge takes no body; one that is sent is still read within the limits.
            if case .failure(let refusal) = await read(request) { return refusal.response }
            let answer = await intake.issueChallenge(client: context.clientAddress)
            if answer.status == 429 {
                metrics.count(
                    "sigil_receiver_challenges_refused_total", answer.body["error"] == .string("receiver.rateLimited") ? "rate" : "cap")
            } else if answer.status >= 500 {
                metrics.count("sigil_receiver_store_errors_total", "appattest")
            }
            return response(answer)
        }
        router.post("/appattest/attestation") { request, _ -> Response in
            switch await read(request) {
            case .success(let body): return response(await intake.acceptAttestation(body: body))
            case .failure(let refusal): return refusal.response
            }
        }
        router.post("/appattest/assertion") { request, _ -> Response in
            switch await read(request) {
            case .success(let body): return response(await intake.acceptAssertion(body: body))
            case .failure(let refusal): return refusal.response
            }
        }
    }

    /// A refused App Attest body, as the error of a `Result`.
    struct AppAttestRefusal: Error {
        let response: Response
    }

    static func tooLarge(_ intake: AppAttestIntake, _ maxBodyBytes: Int) -> Response {
        intake.logger.warning("App Attest: refused a request: the body is over \(maxBodyBytes) bytes")
        var refusal = response(.refused(413, "receiver.bodyTooLarge", "the body is over \(maxBodyBytes) bytes"))
        refusal.headers[.connection] = "close"
        return refusal
    }

    static func response(_ answer: AppAttestIntake.Answer) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(answer.body)) ?? Data("{}".utf8)
        return Response(
            status: .init(code: answer.status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
