import Foundation
import Hummingbird
import Logging
import SigilAppStore
import SigilJOSE
import SigilPKCS7
import SigilReceipts

/// What POST /appstore/notifications does with one body: decode Apple's `{"signedPayload": …}`,
/// verify the notification and every signed item inside it (transaction, renewal info, app
/// transaction) with `SignedDataVerifier`, and store it. Separate from the HTTP layer so that the
/// benchmark can time each step.
public struct NotificationIntake: Sendable {
    public let verifier: SignedDataVerifier
    public let store: any NotificationStore
    public let logger: Logger
    public let clock: @Sendable () -> Int64
    /// How long a database call may take before the answer is given without it (a 5xx: whether a
    /// write committed is then unknown, so it is never acknowledged, and Apple delivers again).
    public let storeTimeout: Duration
    /// Where each newly stored notification is forwarded (through the outbox).
    public let forwarding: [ForwardingRule]

    public init(
        verifier: SignedDataVerifier, store: any NotificationStore, logger: Logger,
        clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) },
        storeTimeout: Duration = .seconds(5), forwarding: [ForwardingRule] = []
    ) {
        self.forwarding = forwarding
        self.verifier = verifier
        self.store = store
        self.logger = logger
        self.clock = clock
        self.storeTimeout = storeTimeout
    }

    /// The answer to one delivery: HTTP status and a JSON body.
    public struct Outcome: Sendable {
        public let status: Int
        public let body: [String: String]
        /// Seconds spent verifying and storing (zero when the step did not run).
        public var verifySeconds = 0.0
        public var storeSeconds = 0.0
    }

    /// Verifies and stores `body`; the outcome is 200 only once the row is committed.
    public func accept(body: [UInt8]) async -> Outcome {
        // Strict first (Sigil's parser: no duplicate member names, nesting bounded, UTF-8 checked),
        // so that no two readers of the body can see two different notifications.
        if let reason = ReceiverRoutes.strictObjectRefusal(body) {
            logger.warning("refused a notification: \(reason)")
            return Outcome(status: 400, body: ["status": "MALFORMED_BODY", "reason": reason])
        }
        guard let request = try? JSONDecoder().decode(ResponseBodyV2.self, from: Data(body)) else {
            logger.warning("refused a notification: the body is not JSON of the form {\"signedPayload\": …}")
            return Outcome(status: 400, body: ["status": "MALFORMED_BODY", "reason": "the body is not JSON with a signedPayload string"])
        }
        guard let signedPayload = request.signedPayload, !signedPayload.isEmpty else {
            logger.warning("refused a notification: the body has no signedPayload")
            return Outcome(status: 400, body: ["status": "MALFORMED_BODY", "reason": "the body has no signedPayload"])
        }
        return await accept(signedPayload: signedPayload)
    }

    /// Verifies and stores one notification JWS — POSTed by Apple, or read from Apple's
    /// notification history by the backfill — through the same idempotent path.
    public func accept(signedPayload: String) async -> Outcome {
        if verifier.environments.trust == .unverified {
            logger.warning(
                "INSECURE: serving an unsigned LocalTesting notification (--insecure-accept-unsigned): nothing of it is verified")
        }
        let started = ContinuousClock.now
        let verified: VerifiedNotification
        do {
            verified = try await verifier.verifyNotificationAndNested(signedPayload)
        } catch {
            let seconds = Self.seconds(since: started)
            // Retryable (an OCSP responder was unreachable): 503, so Apple delivers it again.
            let status = error.isRetryable ? 503 : (error.code == .invalidJWTFormat ? 400 : 403)
            logger.warning("refused a notification: \(error.code): \(error.reason)", metadata: ["status": "\(status)"])
            var outcome = Outcome(status: status, body: ["status": error.code.rawValue, "reason": error.reason])
            outcome.verifySeconds = seconds
            return outcome
        }
        let verifySeconds = Self.seconds(since: started)
        var record: NotificationRecord
        do {
            record = try Self.record(verified, signedPayload: signedPayload, receivedAt: clock())
            record.forwardTo = forwarding.filter { $0.applies(to: record.environment) }.map(\.url)
        } catch {
            logger.warning("refused a notification: \(error)")
            var outcome = Outcome(status: 400, body: ["status": "INCOMPLETE_NOTIFICATION", "reason": "\(error)"])
            outcome.verifySeconds = verifySeconds
            return outcome
        }
        let storing = ContinuousClock.now
        do {
            let result = try await withinStoreTimeout(storeTimeout) { [store, record] in try await store.store(record) }
            var outcome = Outcome(status: 200, body: ["status": result.rawValue, "notificationUUID": record.notificationUUID])
            outcome.verifySeconds = verifySeconds
            outcome.storeSeconds = Self.seconds(since: storing)
            let metadata: Logger.Metadata = [
                "notificationUUID": "\(record.notificationUUID)", "notificationType": "\(record.notificationType)",
                "environment": "\(record.environment)", "result": "\(result.rawValue)",
            ]
            if result == .duplicate {
                logger.info("duplicate delivery of notification \(record.notificationUUID); already stored", metadata: metadata)
            } else {
                logger.debug("stored notification \(record.notificationUUID)", metadata: metadata)
            }
            return outcome
        } catch {
            // Not committed, or not known to be (the store timed out): 500, so Apple delivers it
            // again (a redelivery of a committed one is then answered as a duplicate).
            logger.error(
                "could not store notification \(record.notificationUUID): \(String(reflecting: error))",
                metadata: ["notificationUUID": "\(record.notificationUUID)"])
            var outcome = Outcome(status: 500, body: ["status": "STORAGE_FAILURE", "reason": "the notification was not stored"])
            outcome.verifySeconds = verifySeconds
            return outcome
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    struct Incomplete: Error, CustomStringConvertible {
        let description: String
    }

    /// The row to store for a verified notification, with the environment the verifier found it
    /// (and its transaction) in.
    static func record(_ verified: VerifiedNotification, signedPayload: String, receivedAt: Int64) throws -> NotificationRecord {
        let payload = verified.notification.payload
        guard let uuid = payload.notificationUUID, !uuid.isEmpty, uuid.utf8.count <= 128 else {
            throw Incomplete(description: "the notification has no usable notificationUUID")
        }
        guard let type = payload.notificationType?.rawValue, !type.isEmpty else {
            throw Incomplete(description: "the notification has no notificationType")
        }
        guard let signedDate = payload.signedDate else { throw Incomplete(description: "the notification has no signedDate") }
        let environment = verified.notification.environment
        var state: TransactionState?
        if let transaction = verified.transaction, let signedTransaction = payload.data?.signedTransactionInfo {
            let info = transaction.payload
            guard let original = info.originalTransactionId, !original.isEmpty, let id = info.transactionId, !id.isEmpty,
                let transactionSigned = info.signedDate
            else {
                throw Incomplete(description: "the signed transaction has no originalTransactionId, transactionId or signedDate")
            }
            let renewal = verified.renewalInfo?.payload
            state = TransactionState(
                originalTransactionId: original, transactionId: id, productId: info.productId, bundleId: info.bundleId,
                environment: transaction.environment.rawValue, signedDate: milliseconds(transactionSigned),
                purchaseDate: info.purchaseDate.map(milliseconds), expiresDate: info.expiresDate.map(milliseconds),
                revocationDate: info.revocationDate.map(milliseconds), autoRenewStatus: renewal?.autoRenewStatus?.rawValue,
                autoRenewProductId: renewal?.autoRenewProductId, lastNotificationUUID: uuid, lastNotificationType: type,
                lastNotificationSubtype: payload.subtype?.rawValue, updatedAt: receivedAt, signedTransactionInfo: signedTransaction,
                signedRenewalInfo: payload.data?.signedRenewalInfo)
        }
        return NotificationRecord(
            notificationUUID: uuid, notificationType: type, subtype: payload.subtype?.rawValue,
            signedDate: milliseconds(signedDate), environment: environment.rawValue, signedPayload: signedPayload,
            receivedAt: receivedAt, transaction: state)
    }

    static func milliseconds(_ date: AppStoreDate) -> Int64 {
        Int64(date.millisecondsSince1970.rounded(.down))
    }
}

/// The HTTP service: routes over a `NotificationIntake`.
///
/// - `POST /appstore/notifications`: 200 once stored (or already stored), 400 for a body that is
///   not `{"signedPayload": …}`, 403 (400 for a malformed JWS) with `{"status": AppStoreError
///   code, "reason": …}` when verification fails, 413 for a body over the size limit, 500/503 when
///   the notification could not be stored or checked now (Apple retries).
/// - `GET /appstore/transactions/{originalTransactionId}`: the stored `TransactionState` as JSON,
///   404 if none; an operator route: 401 without the API key when one is configured (`OperatorAccess`).
/// - `GET /metrics`: the counters in Prometheus's text format (`ReceiverMetrics`); an operator route.
/// - `POST /siwa/notifications` when Sign in with Apple client ids are configured (`AppleIDEventIntake`).
/// - `POST /verifyReceipt`: a drop-in for Apple's deprecated `verifyReceipt` endpoint, offline —
///   Apple's request body (`{"receipt-data": base64, …}`), Apple's response body
///   (`VerifyReceiptResponse`: status 0/21002/21003/21007/21008, `environment`, `receipt` with
///   `in_app`) with HTTP 200 as Apple answers; the receiver's environments decide which endpoints
///   it stands for (Production: `buy.itunes.apple.com`, otherwise the sandbox). A receiver of both
///   does Apple's 21007 retry itself: a sandbox receipt is answered as the sandbox endpoint would,
///   in the same call. Like Apple's endpoint it checks no bundle id (its verifier is report-only by
///   name): `receipt.bundle_id` is the caller's to compare.
/// - `GET /health`: 200 `{"status":"ok", …}` once the schema is in place and the database answers.
/// - `POST /appattest/challenge|attestation|assertion` when App Attest is configured (`AppAttestIntake`).
///
/// Every POST body is read within `bodyTimeout` (408 and the connection closed when it stalls)
/// and up to `maxBodyBytes` (413).
public enum ReceiverRoutes {
    public static func router(
        intake: NotificationIntake, receipts: ReceiptIntake, maxBodyBytes: Int,
        bodyTimeout: Duration = VerificationRoutes.defaultBodyTimeout,
        appAttest: AppAttestIntake? = nil, appleID: AppleIDEventIntake? = nil, access: OperatorAccess, metrics: ReceiverMetrics
    ) -> Router<ReceiverRequestContext> {
        let router = Router(context: ReceiverRequestContext.self)
        if let appAttest { addAppAttest(appAttest, to: router, maxBodyBytes: maxBodyBytes, bodyTimeout: bodyTimeout, metrics: metrics) }
        if let appleID {
            router.post("/siwa/notifications") { request, _ -> Response in
                let body: [UInt8]
                switch await VerificationRoutes.readBody(request, maxBodyBytes: maxBodyBytes, timeout: bodyTimeout) {
                case .body(let bytes): body = bytes
                case .tooLarge:
                    metrics.count("sigil_receiver_siwa_notifications_total", "BODY_TOO_LARGE")
                    return json(413, ["status": "BODY_TOO_LARGE", "reason": "the body is over \(maxBodyBytes) bytes"], close: true)
                case .timedOut:
                    metrics.count("sigil_receiver_siwa_notifications_total", "REQUEST_TIMEOUT")
                    return timedOut(bodyTimeout)
                }
                let outcome = await appleID.accept(body: body)
                metrics.count("sigil_receiver_siwa_notifications_total", outcome.body["status"] ?? "\(outcome.status)")
                if outcome.status == 500 { metrics.count("sigil_receiver_store_errors_total", "siwa") }
                return json(outcome.status, outcome.body)
            }
        }
        router.get("/metrics") { request, _ -> Response in
            guard access.allows(request) else {
                metrics.count("sigil_receiver_http_unauthorized_total", "metrics")
                return OperatorAccess.refusal
            }
            var gauges: [(String, String, Double)] = []
            if let depth = try? await withinStoreTimeout(intake.storeTimeout, { [store = intake.store] in try await store.outboxDepth() }) {
                gauges.append(("sigil_receiver_outbox_depth", "Forwards not yet delivered.", Double(depth)))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.render(gauges: gauges))))
        }
        router.post("/verifyReceipt") { request, _ -> Response in
            switch await VerificationRoutes.readBody(request, maxBodyBytes: maxBodyBytes, timeout: bodyTimeout) {
            case .body(let body): return receipts.response(receipts.answer(body: body))
            case .tooLarge:
                // Apple's shape (status 21002) on HTTP 413, as every other route refuses a large body.
                var response = receipts.response(VerifyReceiptResponse(status: 21002))
                response.status = .contentTooLarge
                response.headers[.connection] = "close"
                return response
            case .timedOut: return timedOut(bodyTimeout)
            }
        }
        router.post("/appstore/notifications") { request, _ -> Response in
            let body: [UInt8]
            switch await VerificationRoutes.readBody(request, maxBodyBytes: maxBodyBytes, timeout: bodyTimeout) {
            case .body(let bytes): body = bytes
            case .tooLarge:
                intake.logger.warning("refused a notification: the body is over \(maxBodyBytes) bytes")
                metrics.count("sigil_receiver_notifications_total", "refused")
                metrics.count("sigil_receiver_notifications_refused_total", "BODY_TOO_LARGE")
                return json(413, ["status": "BODY_TOO_LARGE", "reason": "the body is over \(maxBodyBytes) bytes"], close: true)
            case .timedOut:
                intake.logger.warning("refused a notification: the body did not arrive within \(bodyTimeout)")
                metrics.count("sigil_receiver_notifications_total", "refused")
                metrics.count("sigil_receiver_notifications_refused_total", "REQUEST_TIMEOUT")
                return timedOut(bodyTimeout)
            }
            let outcome = await intake.accept(body: body)
            if outcome.verifySeconds > 0 { metrics.observeVerification(seconds: outcome.verifySeconds) }
            if outcome.status == 200 {
                metrics.count("sigil_receiver_notifications_total", outcome.body["status"] ?? "stored")
            } else {
                metrics.count("sigil_receiver_notifications_total", "refused")
                metrics.count("sigil_receiver_notifications_refused_total", outcome.body["status"] ?? "\(outcome.status)")
                if outcome.status == 500 { metrics.count("sigil_receiver_store_errors_total", "notifications") }
            }
            var response = json(outcome.status, outcome.body)
            let timing =
                "verify;dur=\(Int((outcome.verifySeconds * 1_000_000).rounded()) ) , store;dur=\(Int((outcome.storeSeconds * 1_000_000).rounded()))"
            response.headers[.init("Server-Timing")!] = timing.replacingOccurrences(of: " ,", with: ",")
            return response
        }
        router.get("/appstore/transactions/:originalTransactionId") { request, context -> Response in
            guard access.allows(request) else {
                metrics.count("sigil_receiver_http_unauthorized_total", "transactions")
                return OperatorAccess.refusal
            }
            guard let id = context.parameters.get("originalTransactionId"), !id.isEmpty, id.utf8.count <= 128 else {
                return json(400, ["status": "BAD_REQUEST", "reason": "no originalTransactionId"])
            }
            do {
                let state = try await withinStoreTimeout(intake.storeTimeout) { [store = intake.store] in
                    try await store.transactionState(originalTransactionId: id)
                }
                guard let state else {
                    return json(404, ["status": "NOT_FOUND", "reason": "no stored transaction \(id)"])
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(state))))
            } catch {
                intake.logger.error("could not read transaction \(id): \(String(reflecting: error))")
                metrics.count("sigil_receiver_store_errors_total", "transactions")
                return json(500, ["status": "STORAGE_FAILURE", "reason": "the store did not answer"])
            }
        }
        router.get("/health") { _, _ -> Response in
            do {
                let version = try await withinStoreTimeout(intake.storeTimeout) { [store = intake.store] in try await store.schemaVersion()
                }
                return json(200, ["status": "ok", "store": intake.store.kind, "schemaVersion": "\(version)"])
            } catch {
                return json(503, ["status": "unavailable", "store": intake.store.kind])
            }
        }
        return router
    }

    static func json(_ status: Int, _ body: [String: String], close: Bool = false) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = (try? encoder.encode(body)) ?? Data("{}".utf8)
        var response = Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        if close { response.headers[.connection] = "close" }
        return response
    }

    /// Nil when `body` is one JSON object by Sigil's strict parser (RFC 8259, no duplicate member
    /// names, nesting bounded, UTF-8 checked), else why not — a reason that quotes the client's
    /// text only escaped and bounded (`JSONValue.quotedForMessage`).
    static func strictObjectRefusal(_ body: [UInt8]) -> String? {
        do {
            guard case .object = try JSONValue(parsing: body) else { return "the body is not a JSON object" }
            return nil
        } catch {
            return error.reason
        }
    }

    /// 408 for a body that did not arrive within `timeout`; the connection is closed (what is
    /// left of the body would otherwise be read as the next request).
    static func timedOut(_ timeout: Duration) -> Response {
        json(408, ["status": "REQUEST_TIMEOUT", "reason": "the body did not arrive within \(timeout)"], close: true)
    }
}

/// `POST /verifyReceipt`: Apple's `verifyReceipt` request answered offline by
/// `AppReceiptVerifier.verifyReceiptResponse` — with a report-only verifier, so that the body is
/// Apple's (Apple's endpoint checks no bundle id).
public struct ReceiptIntake: Sendable {
    public let verifier: AppReceiptVerifier
    /// Which of Apple's endpoints this receiver stands for: one, or both (production answered
    /// first; a sandbox receipt, status 21007 there, answered by the sandbox in the same call).
    public let endpoints: Set<VerifyReceiptEndpoint>
    public let clock: @Sendable () -> Int64

    public init(
        verifier: AppReceiptVerifier, endpoints: Set<VerifyReceiptEndpoint>,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.verifier = verifier
        self.endpoints = endpoints.isEmpty ? [.sandbox] : endpoints
        self.clock = clock
    }

    /// The answer to Apple's request body `{"receipt-data": base64, "password": …, "exclude-old-transactions": …}`
    /// (status 21002 when there is no receipt-data string; the shared secret is checked only by Apple).
    public func answer(body: [UInt8]) -> VerifyReceiptResponse {
        guard let request = try? JSONValue(parsing: body), let data = request["receipt-data"]?.stringValue, !data.isEmpty else {
            return VerifyReceiptResponse(status: 21002)
        }
        let now = clock()
        guard endpoints.contains(.production) else {
            return verifier.verifyReceiptResponse(Array(data.utf8), sentTo: .sandbox, requestTime: now)
        }
        let production = verifier.verifyReceiptResponse(Array(data.utf8), sentTo: .production, requestTime: now)
        // Apple's 21007 ("a sandbox receipt sent to production"), retried here rather than by the client.
        guard production.status == 21007, endpoints.contains(.sandbox) else { return production }
        return verifier.verifyReceiptResponse(Array(data.utf8), sentTo: .sandbox, requestTime: now)
    }

    /// HTTP 200 with the body as JSON (Apple answers 200 whatever the status).
    public func response(_ body: VerifyReceiptResponse) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(body)) ?? Data(#"{"status":21002}"#.utf8)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
