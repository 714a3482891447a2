import Foundation
import Hummingbird
import Logging
import NotificationReceiverKit
import XCTest

/// Fan-out: each stored notification forwarded to a downstream receiver through the outbox.
extension Scenarios {
    func fanOutSurvivesADownstreamOutageAndAKill() async throws {
        let downstream = try await Downstream.start()
        defer { downstream.stop() }
        let forward = ["--forward", "Sandbox=\(downstream.url)", "--forward-max-backoff", "1"]
        var receiver = try await start(extraArguments: forward)
        let store = try await openStore()

        // The downstream is down — it holds each request 4 s, then answers 503: Apple's POSTs are
        // still answered without waiting for it, and the outbox fills.
        let bodies = try (0..<12).map { _ in try signer.notification(type: "DID_RENEW") }
        let payloads = Set(try bodies.map(Scenarios.signedPayload))
        var slowest = 0.0
        for body in bodies {
            let started = Date()
            let status = try await sender.post(receiver.baseURL, body).status
            XCTAssertEqual(status, 200)
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        XCTAssertLessThan(slowest, Downstream.stall, "forwarding never delays Apple's answer")
        try await Task.sleep(for: .milliseconds(1500))
        XCTAssertGreaterThan(downstream.attemptsWhileDown.value, 0, "the forwarder tried while the downstream was down")
        let metrics = try PrometheusText.parse(try await sender.get(receiver.baseURL + "/metrics").body)
        XCTAssertEqual(metrics["sigil_receiver_outbox_depth"], 12)

        // Killed with a non-empty outbox, restarted, the downstream back: every notification arrives.
        receiver.kill()
        downstream.up.set(true)
        receiver = try await start(extraArguments: forward)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let depth = try await store.outboxDepth()
            if downstream.received.value.count == payloads.count, depth == 0 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        XCTAssertEqual(downstream.received.value, payloads, "each accepted notification reached the downstream")
        let depth = try await store.outboxDepth()
        XCTAssertEqual(depth, 0)
        XCTAssertEqual(downstream.contentTypes.value, ["application/json"], "forwarded as Apple POSTs")
    }
}

/// A downstream receiver on loopback that answers 503 while down and records what it got.
final class Downstream: Sendable {
    let url: String
    let up = Shared(false)
    let attemptsWhileDown = Shared(0)
    /// Seconds a request waits while the downstream is down.
    static let stall = 4.0
    let received = Shared<Set<String>>([])
    let contentTypes = Shared<Set<String>>([])
    let task: Shared<Task<Void, Error>?> = Shared(nil)

    init(url: String) { self.url = url }

    static func start() async throws -> Downstream {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let box = Shared<Downstream?>(nil)
        let router = Router()
        router.post("/appstore/notifications") { request, _ -> Response in
            guard let downstream = box.value else { return Response(status: .serviceUnavailable) }
            let body = try await request.body.collect(upTo: 1 << 20)
            guard downstream.up.value else {
                downstream.attemptsWhileDown.update { $0 += 1 }
                try? await Task.sleep(for: .seconds(Downstream.stall))
                return Response(status: .serviceUnavailable)
            }
            let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
            if let payload = object?["signedPayload"] as? String { downstream.received.update { $0.insert(payload) } }
            if let type = request.headers[.contentType] { downstream.contentTypes.update { $0.insert(type) } }
            return Response(status: .ok)
        }
        var logger = Logger(label: "downstream")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await value in ports {
            port = value
            break
        }
        let downstream = Downstream(url: "http://127.0.0.1:\(port)/appstore/notifications")
        downstream.task.set(task)
        box.set(downstream)
        return downstream
    }

    func stop() { task.value?.cancel() }
}
