import Foundation
import Hummingbird
import Logging
import SigilAppStore
import SigilHTTP
import SigilPKCS7
import SigilReceipts
import SigilService
import SigilTokens
import SigilX509

/// Builds the whole service from a configuration: store (PostgreSQL when a URL is set, else
/// SQLite), verifier, routes; the schema is created or upgraded before the server accepts
/// connections. Prints `listening on HOST:PORT` on standard output once it does.
public enum ReceiverService {
    public static func run(configuration: ReceiverConfiguration, logger: Logger, hooks: ReceiverHooks = ReceiverHooks()) async throws {
        let environments = try configuration.acceptedEnvironments()
        let verifier = try makeVerifier(configuration)
        let (store, postgres) = try makeStore(configuration, logger: logger)
        let storeTimeout = Duration.milliseconds(Int64(configuration.storeTimeoutSeconds * 1000))
        let intake = NotificationIntake(
            verifier: verifier, store: store, logger: logger, storeTimeout: storeTimeout, forwarding: configuration.forwarding)
        let forwarder =
            configuration.forwarding.isEmpty
            ? nil
            : OutboxForwarder(
                store: store, transport: AsyncHTTPClientTransport(), logger: logger, maximumBackoff: configuration.forwardMaximumBackoff)
        let metrics = ReceiverMetrics()
        let (router, appAttest, appleID, applePay) = try routes(
            configuration: configuration, intake: intake, logger: logger, hooks: hooks, metrics: metrics)
        let idleTimeout = Duration.milliseconds(Int64(configuration.idleTimeoutSeconds * 1000))
        var app = Application(
            router: router, server: .http1(configuration: .init(idleTimeout: VerificationRoutes.timeAmount(idleTimeout))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "sigil-notification-receiver"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                FileHandle.standardOutput.write(Data("listening on \(configuration.host):\(port)\n".utf8))
            },
            logger: logger)
        // PostgresNIO's pool runs as a service of the application (started before the migration).
        if let postgres { app.addServices(postgres.client) }
        app.beforeServerStarts {
            try await store.prepare()
            logger.info(
                "store \(store.kind) ready at schema version \(NotificationSchema.version); bundle \(configuration.bundleId), \(environments)"
            )
            if environments.trust == .unverified {
                logger.warning(
                    "INSECURE: accepting unsigned LocalTesting notifications (--insecure-accept-unsigned): nothing is verified")
            }
            if configuration.acceptRequestTrust {
                logger.warning(
                    "POST /v1/verify takes trust anchors from requests (--accept-request-trust): answers name them in trust and notEnforced"
                )
            }
            if let forwarder {
                // Delivers the outbox beside the server, from the rows left by any earlier run too.
                Task { await forwarder.run() }
                logger.info("forwarding to \(configuration.forwarding.map(\.url))")
            }
            if let appleID {
                logger.info("Sign in with Apple notifications for \(appleID.verifier.clientIDs) on /siwa/notifications")
            }
            if configuration.apiKey == nil {
                logger.warning(
                    "no API key: the operator routes (transactions, metrics, POST /v1/verify) are open to every caller of \(configuration.host)"
                )
            }
            if let applePay {
                logger.info(
                    "Apple Pay: \(applePay.decryptor.merchantKeys.count) merchant key(s) for POST /v1/verify kind applepay, replay store \(store.kind)"
                )
            }
            if let appAttest {
                logger.info(
                    "App Attest for \(appAttest.attestationVerifier.appID) (\(appAttest.attestationVerifier.environment)) on /appattest/…")
            }
        }
        try await app.runService()
    }
}

extension ReceiverService {
    /// Every route the configuration serves, over `intake`: Apple's and the app's public routes,
    /// the operator routes (the API key's), the verification routes. `run` serves these; the
    /// adversarial tests list them (`Router.routes`) so that no route goes untested.
    public static func routes(
        configuration: ReceiverConfiguration, intake: NotificationIntake, logger: Logger, hooks: ReceiverHooks = ReceiverHooks(),
        metrics: ReceiverMetrics
    ) throws -> (
        router: Router<ReceiverRequestContext>, appAttest: AppAttestIntake?, appleID: AppleIDEventIntake?,
        applePay: ApplePayServiceConfiguration?
    ) {
        var receiptRoots: [Certificate] = []
        for der in try configuration.loadReceiptRootCertificates() { receiptRoots.append(try Certificate(derEncoded: der)) }
        // The verifyReceipt drop-in keeps Apple's response body: Apple's endpoint checks no bundle
        // id (the body carries bundle_id for the caller to compare), so its verifier is report-only
        // by name; the endpoint (this receiver's environment) decides 21007/21008.
        let receipts = ReceiptIntake(
            verifier: try AppReceiptVerifier(trustedRoots: receiptRoots, identity: .reportOnly, environments: [.production, .sandbox]),
            endpoints: configuration.receiptEndpoints)
        let appAttest = try configuration.appAttestVerifiers().map { verifiers in
            AppAttestIntake(
                attestationVerifier: verifiers.attestation, assertionVerifier: verifiers.assertion, store: intake.store, logger: logger,
                challengeSeconds: configuration.challengeSeconds,
                storeTimeout: intake.storeTimeout, maximumChallenges: configuration.maximumChallenges,
                challengeLimiter: RateLimiter(perMinute: configuration.challengeRatePerMinute))
        }
        let appleID =
            configuration.siwaClientIds.isEmpty
            ? nil
            : AppleIDEventIntake(
                verifier: AppleIDServerNotificationVerifier(clientIDs: configuration.siwaClientIds),
                keys: AppleIDEventIntake.keyCache(url: configuration.siwaJWKSURL, transport: AsyncHTTPClientTransport()),
                store: intake.store,
                logger: logger, storeTimeout: intake.storeTimeout, hook: hooks.appleIDEvent)
        let bodyTimeout = Duration.milliseconds(Int64(configuration.bodyTimeoutSeconds * 1000))
        let access = OperatorAccess(apiKey: configuration.apiKey)
        let router = ReceiverRoutes.router(
            intake: intake, receipts: receipts, maxBodyBytes: configuration.maxBodyBytes, bodyTimeout: bodyTimeout, appAttest: appAttest,
            appleID: appleID, access: access, metrics: metrics)
        // Issue 37: the same process serves POST /v1/verify and /v1/openapi.json; kind applepay
        // (issue 38) when merchant keys are configured, with this receiver's store as its replay store.
        // Issue 46: /v1/verify is an operator route here (the receiver faces the internet for
        // Apple's notifications; every kind of /v1/verify returns verified customer data or
        // decrypts, and Apple never calls it): 401 without the API key.
        let applePay = try configuration.applePay.configuration(receiverStore: intake.store, timeout: intake.storeTimeout)
        // A request's own trust anchors are refused unless --accept-request-trust (the receiver
        // knows its own roots).
        let requestTrust: RequestTrust = configuration.acceptRequestTrust ? .acceptedAndReported : .refused
        // Kind mdoc under the operator's IACA roots (--mdoc-iaca), the same reading as
        // verification-service's.
        var mdocOptions = VerificationServiceOptions()
        mdocOptions.mdocIACARoots = configuration.mdocIACARoots
        let mdoc = try mdocOptions.mdocConfiguration()
        VerificationRoutes.add(
            to: router, service: VerificationService(applePay: applePay, mdoc: mdoc, requestTrust: requestTrust),
            maxBodyBytes: configuration.maxBodyBytes,
            bodyTimeout: bodyTimeout, access: access,
            onUnauthorized: { metrics.count("sigil_receiver_http_unauthorized_total", "verify") }, health: false)
        return (router, appAttest, appleID, applePay)
    }
}

extension ReceiverService {
    /// The notification verifier the configuration names (roots, bundle id, app Apple id, environments).
    public static func makeVerifier(_ configuration: ReceiverConfiguration) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: try configuration.loadRootCertificates(), bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId, environments: try configuration.acceptedEnvironments())
    }

    /// The store: PostgreSQL when a URL is configured (its client must then run), else SQLite.
    public static func makeStore(
        _ configuration: ReceiverConfiguration, logger: Logger
    ) throws -> (store: any NotificationStore, postgres: PostgresNotificationStore?) {
        let postgres = try configuration.postgresURL.map { try PostgresNotificationStore(url: $0, logger: logger) }
        return (try postgres ?? SQLiteNotificationStore(path: configuration.sqlitePath), postgres)
    }
}

/// What the app adds to the receiver: code that runs on its events.
public struct ReceiverHooks: Sendable {
    /// Runs on each newly stored Sign in with Apple notification (see `AppleIDEventHook`).
    public var appleIDEvent: AppleIDEventHook?

    public init(appleIDEvent: AppleIDEventHook? = nil) {
        self.appleIDEvent = appleIDEvent
    }
}
