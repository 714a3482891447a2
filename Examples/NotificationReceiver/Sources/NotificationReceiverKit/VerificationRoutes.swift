import Foundation
import Hummingbird
import Logging
import SigilBase
import SigilService

/// The verification service's routes (issue 37): `POST /v1/verify`, `GET /v1/openapi.json` and,
/// for the stateless service, `GET /health`. Every answer is SigilService's document, byte for
/// byte what the C ABI and the Python package give for the same request; this file only moves
/// bytes between HTTP and `VerificationService`, with the HTTP limits: the body's size (1 MiB by
/// default, 413), its content type (`application/json`, else 415) and the time it may take to
/// arrive (408 when a client stalls).
public enum VerificationRoutes {
    /// The largest body accepted by default.
    public static let defaultMaxBodyBytes = 1 << 20
    /// How long a request body may take to arrive by default.
    public static let defaultBodyTimeout: Duration = .seconds(10)

    /// Adds the routes to `router`; `health` adds the stateless service's `GET /health` (the
    /// notification receiver has its own).
    public static func add<Context: RequestContext>(
        to router: Router<Context>, service: VerificationService, maxBodyBytes: Int = defaultMaxBodyBytes,
        bodyTimeout: Duration = defaultBodyTimeout, health: Bool
    ) {
        router.post("/v1/verify") { request, _ -> Response in
            let contentType = request.headers[.contentType] ?? ""
            let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard mediaType == "application/json" else {
                return failure(
                    415, code: "http.unsupportedMediaType", "the body must be application/json, not \"\(contentType.prefix(100))\"")
            }
            let body: ByteBuffer
            do {
                body = try await within(bodyTimeout) { try await request.body.collect(upTo: maxBodyBytes) }
            } catch is BodyTimeout {
                return failure(408, code: "http.requestTimeout", "the body did not arrive within \(bodyTimeout)", close: true)
            } catch {
                let refused = VerificationAnswer(ServiceError(.tooLarge, "the body is over \(maxBodyBytes) bytes"))
                var response = answer(refused)
                response.headers[.connection] = "close"
                return response
            }
            return answer(await service.verifyRecordingReplays(json: Array(body.readableBytesView)))
        }
        router.get("/v1/openapi.json") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: VerificationOpenAPI.document)))
        }
        if health {
            router.get("/health") { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok","version":"\#(SigilVersion.current)"}"#)))
            }
        }
    }

    static func answer(_ answer: VerificationAnswer) -> Response {
        Response(
            status: .init(code: answer.status.rawValue), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: answer.json)))
    }

    /// A failure of the HTTP exchange itself, in the answer's shape (`http.*` codes).
    static func failure(_ status: Int, code: String, _ message: String, close: Bool = false) -> Response {
        let document: [String: Any] = ["valid": false, "error": ["code": code, "message": message, "failures": [Any]()]]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        var response = Response(
            status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        if close { response.headers[.connection] = "close" }
        return response
    }

    struct BodyTimeout: Error {}

    /// `body`'s result, or `BodyTimeout` once `timeout` has passed (the body's task is cancelled).
    static func within<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw BodyTimeout()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw BodyTimeout() }
            return first
        }
    }
}

/// The verification service: the verification routes alone, no configuration needed; with Apple
/// Pay options (issue 38) it also answers kind `applepay` with the configured merchant keys and
/// its replay store (`verification-service`, default 127.0.0.1:8080).
public enum VerificationServer {
    /// Runs the service on `host`:`port` (0: any free port) until it is stopped; prints
    /// `listening on HOST:PORT` on standard output once it accepts connections. A connection idle
    /// for `idleTimeout` (one that sends nothing, or stops within its headers) is closed. The
    /// Apple Pay replay store's schema is created or upgraded before the server accepts connections.
    /// `requestTrust` (issue 46; no default) says whether a request's own trust anchors are
    /// verified and reported (`verification-service` by default) or refused
    /// (`--refuse-request-trust`).
    public static func run(
        host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = VerificationRoutes.defaultMaxBodyBytes,
        bodyTimeout: Duration = VerificationRoutes.defaultBodyTimeout, idleTimeout: Duration = .seconds(30),
        applePay: ApplePayOptions = ApplePayOptions(), requestTrust: RequestTrust, logger: Logger
    ) async throws {
        let router = Router()
        let applePayConfiguration = try applePay.configuration(logger: logger)
        VerificationRoutes.add(
            to: router, service: VerificationService(applePay: applePayConfiguration?.configuration, requestTrust: requestTrust),
            maxBodyBytes: maxBodyBytes, bodyTimeout: bodyTimeout, health: true)
        let idleNanoseconds = idleTimeout.components.seconds * 1_000_000_000 + idleTimeout.components.attoseconds / 1_000_000_000
        var app = Application(
            router: router, server: .http1(configuration: .init(idleTimeout: .nanoseconds(idleNanoseconds))),
            configuration: .init(address: .hostname(host, port: port), serverName: "sigil-verification-service"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                FileHandle.standardOutput.write(Data("listening on \(host):\(bound)\n".utf8))
            },
            logger: logger)
        if let postgres = applePayConfiguration?.postgres { app.addServices(postgres.client) }
        app.beforeServerStarts {
            guard let configuration = applePayConfiguration else { return }
            if let store = configuration.store {
                try await store.prepare()
                logger.info(
                    "applepay: \(configuration.configuration.decryptor.merchantKeys.count) merchant key(s), replay store \(store.kind)")
            } else {
                logger.warning(
                    "applepay: replay protection DISABLED (--applepay-without-replay-protection): a token is accepted as often as it is sent"
                )
            }
        }
        try await app.runService()
    }
}
