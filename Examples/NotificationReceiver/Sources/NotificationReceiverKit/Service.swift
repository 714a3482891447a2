import Foundation
import Hummingbird
import Logging
import SigilAppStore
import SigilPKCS7
import SigilReceipts
import SigilService
import SigilX509

/// Builds the whole service from a configuration: store (PostgreSQL when a URL is set, else
/// SQLite), verifier, routes; the schema is created or upgraded before the server accepts
/// connections. Prints `listening on HOST:PORT` on standard output once it does.
public enum ReceiverService {
    public static func run(configuration: ReceiverConfiguration, logger: Logger) async throws {
        let roots = try configuration.loadRootCertificates()
        let environments = try configuration.acceptedEnvironments()
        let verifier = try SignedDataVerifier(
            rootCertificates: roots, bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId, environments: environments)
        let postgres = try configuration.postgresURL.map { try PostgresNotificationStore(url: $0, logger: logger) }
        let store: any NotificationStore = try postgres ?? SQLiteNotificationStore(path: configuration.sqlitePath)
        let storeTimeout = Duration.milliseconds(Int64(configuration.storeTimeoutSeconds * 1000))
        let intake = NotificationIntake(verifier: verifier, store: store, logger: logger, storeTimeout: storeTimeout)
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
                attestationVerifier: verifiers.attestation, assertionVerifier: verifiers.assertion, store: store, logger: logger,
                challengeSeconds: configuration.challengeSeconds,
                storeTimeout: storeTimeout)
        }
        let router = ReceiverRoutes.router(
            intake: intake, receipts: receipts, maxBodyBytes: configuration.maxBodyBytes, appAttest: appAttest)
        // Issue 37: the same process serves POST /v1/verify and /v1/openapi.json (stateless).
        VerificationRoutes.add(to: router, service: VerificationService(), maxBodyBytes: configuration.maxBodyBytes, health: false)
        var app = Application(
            router: router,
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
            if let appAttest {
                logger.info(
                    "App Attest for \(appAttest.attestationVerifier.appID) (\(appAttest.attestationVerifier.environment)) on /appattest/…")
            }
        }
        try await app.runService()
    }
}
