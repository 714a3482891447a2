import Foundation
import Hummingbird
import Logging
import NIOCore
import SigilBase
import SigilJOSE
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
    /// notification receiver has its own). `access` guards `POST /v1/verify` (401 without its key,
    /// before the body is read; `onUnauthorized` counts each refusal); `GET /v1/openapi.json` and
    /// `/health` carry no data and stay open.
    ///
    /// Why `/v1/verify` is an operator route wherever it is served: every kind answers data no
    /// stranger should get from this deployment — kind `applepay` decrypts with the merchant's
    /// own keys (card number, cryptogram) and records the token's transaction id as used, so a
    /// stranger's replay of an intercepted token would also burn the merchant's own submission;
    /// the request's `at` moves the signing-time window; the other kinds return the verified
    /// customer data of transactions, receipts and attestations. Apple never calls it (Apple calls
    /// `/appstore/notifications` and `/siwa/notifications`), so requiring the key costs Apple nothing.
    public static func add<Context: RequestContext>(
        to router: Router<Context>, service: VerificationService, maxBodyBytes: Int = defaultMaxBodyBytes,
        bodyTimeout: Duration = defaultBodyTimeout, access: OperatorAccess = OperatorAccess(apiKey: nil),
        onUnauthorized: @escaping @Sendable () -> Void = {}, health: Bool
    ) {
        router.post("/v1/verify") { request, _ -> Response in
            guard access.allows(request) else {
                onUnauthorized()
                var refusal = failure(
                    401, code: "http.unauthorized", "POST /v1/verify needs this service's API key (Authorization: Bearer <key>)",
                    close: true)
                refusal.headers[.wwwAuthenticate] = "Bearer"
                return refusal
            }
            let contentType = request.headers[.contentType] ?? ""
            let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard mediaType == "application/json" else {
                return failure(
                    415, code: "http.unsupportedMediaType",
                    "the body must be application/json, not \(JSONValue.quotedForMessage(String(contentType.prefix(100))))")
            }
            let body: [UInt8]
            switch await readBody(request, maxBodyBytes: maxBodyBytes, timeout: bodyTimeout) {
            case .body(let bytes): body = bytes
            case .timedOut:
                return failure(408, code: "http.requestTimeout", "the body did not arrive within \(bodyTimeout)", close: true)
            case .tooLarge:
                let refused = VerificationAnswer(ServiceError(.tooLarge, "the body is over \(maxBodyBytes) bytes"))
                var response = answer(refused)
                response.headers[.connection] = "close"
                return response
            }
            return answer(await service.verifyRecordingReplays(json: body))
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

    /// What reading a request body gave.
    enum BodyRead: Sendable {
        case body([UInt8])
        /// Over the size limit (or the stream failed): 413.
        case tooLarge
        /// Not all there within the body timeout: 408, and the connection closed.
        case timedOut
    }

    /// The body of `request`, at most `maxBodyBytes`, within `timeout`: the one way every POST
    /// route of the receiver and the verification service reads its body.
    static func readBody(_ request: Request, maxBodyBytes: Int, timeout: Duration) async -> BodyRead {
        do {
            let buffer = try await within(timeout) { try await request.body.collect(upTo: maxBodyBytes) }
            return .body(Array(buffer.readableBytesView))
        } catch is BodyTimeout {
            return .timedOut
        } catch {
            return .tooLarge
        }
    }

    /// A `Duration` as NIO's `TimeAmount` (the HTTP/1 server's idle timeout).
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

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
/// its replay store (`verification-service`, default 127.0.0.1:8080). With an API key,
/// `POST /v1/verify` answers only its holder (`Authorization: Bearer <key>`, 401 otherwise).
public enum VerificationServer {
    /// Runs the service as `options` say until it is stopped; prints `listening on HOST:PORT` on
    /// standard output once it accepts connections. A connection idle for the idle timeout (one
    /// that sends nothing, or stops within its headers) is closed. The Apple Pay replay store's
    /// schema is created or upgraded before the server accepts connections. Refuses to start
    /// (`VerificationServiceOptions.check`) with merchant keys on a non-loopback address without
    /// an API key.
    public static func run(options: VerificationServiceOptions, logger: Logger) async throws {
        try options.check()
        let router = Router()
        let applePayConfiguration = try options.applePay.configuration(logger: logger)
        let mdoc = try options.mdocConfiguration()
        VerificationRoutes.add(
            to: router,
            service: VerificationService(
                applePay: applePayConfiguration?.configuration, mdoc: mdoc, requestTrust: options.requestTrust),
            maxBodyBytes: options.maxBodyBytes, bodyTimeout: options.bodyTimeout, access: OperatorAccess(apiKey: options.apiKey),
            health: true)
        let (host, port) = (options.host, options.port)
        var app = Application(
            router: router, server: .http1(configuration: .init(idleTimeout: VerificationRoutes.timeAmount(options.idleTimeout))),
            configuration: .init(address: .hostname(host, port: port), serverName: "sigil-verification-service"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                FileHandle.standardOutput.write(Data("listening on \(host):\(bound)\n".utf8))
            },
            logger: logger)
        if let postgres = applePayConfiguration?.postgres { app.addServices(postgres.client) }
        app.beforeServerStarts {
            if options.apiKey == nil {
                logger.warning("no API key: POST /v1/verify answers every caller of \(host)")
            }
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
