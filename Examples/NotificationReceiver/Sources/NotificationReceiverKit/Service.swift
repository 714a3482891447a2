import Foundation
import Hummingbird
import Logging
import SigilAppStore

/// Builds the whole service from a configuration: store (PostgreSQL when a URL is set, else
/// SQLite), verifier, routes; the schema is created or upgraded before the server accepts
/// connections. Prints `listening on HOST:PORT` on standard output once it does.
public enum ReceiverService {
    public static func run(configuration: ReceiverConfiguration, logger: Logger) async throws {
        let roots = try configuration.loadRootCertificates()
        let verifier = try SignedDataVerifier(rootCertificates: roots, bundleId: configuration.bundleId,
                                              appAppleId: configuration.appAppleId, environment: configuration.environment)
        let store: any NotificationStore
        var services: [any Service] = []
        if let url = configuration.postgresURL {
            let postgres = try PostgresNotificationStore(url: url, logger: logger)
            services.append(postgres.client)
            store = postgres
        } else {
            store = try SQLiteNotificationStore(path: configuration.sqlitePath)
        }
        let intake = NotificationIntake(verifier: verifier, store: store, logger: logger)
        let router = ReceiverRoutes.router(intake: intake, maxBodyBytes: configuration.maxBodyBytes)
        var app = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sigil-notification-receiver"),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                print("listening on \(configuration.host):\(port)")
                fflush(stdout)
            },
            logger: logger)
        app.beforeServerStarts {
            try await store.prepare()
            logger.info("store \(store.kind) ready at schema version \(NotificationSchema.version); bundle \(configuration.bundleId), \(configuration.environment)")
        }
        try await app.runService()
    }
}
