import Foundation
import Hummingbird
import NIOCore
import SigilCore
import Synchronization

/// The receiver's request context: Hummingbird's core context and the peer's address (the
/// challenge rate limit is per client).
public struct ReceiverRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address, or "unknown".
    public var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }
}

/// Who may use the read and operator routes (`GET /appstore/transactions/…`, `GET /metrics`,
/// `GET /siwa/events`): the holder of the configured API key, sent as `Authorization: Bearer
/// <key>`, compared in constant time (the SHA-256 of what was sent against the key's, so the
/// comparison takes the same time whatever the length). Apple's and the app's write routes are
/// public. Without a key, the read routes are served only when the receiver listens on loopback
/// (`ReceiverConfiguration.load` refuses to start otherwise).
public struct OperatorAccess: Sendable {
    let keyDigest: [UInt8]?

    /// Access for the holder of `apiKey`; nil: open (loopback only).
    public init(apiKey: String?) {
        keyDigest = apiKey.map { SHA256.hash(Array($0.utf8)) }
    }

    /// Whether `request` may read: it carries the key, or no key is configured.
    public func allows(_ request: Request) -> Bool {
        guard let keyDigest else { return true }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        let sent = SHA256.hash(Array(header.utf8.dropFirst("Bearer ".utf8.count)))
        return ConstantTime.equals(sent, keyDigest)
    }

    /// 401 with no data, and the scheme to use.
    static var refusal: Response {
        var response = ReceiverRoutes.json(401, ["status": "UNAUTHORIZED", "reason": "this route needs the receiver's API key"])
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
    }
}

/// A per-client token bucket: `perMinute` requests a minute, in bursts of up to `perMinute`.
/// Bounded: it tracks at most `maximumClients` addresses (the least recently seen dropped first),
/// so a flood of addresses cannot grow it.
public final class RateLimiter: Sendable {
    public let perMinute: Int
    let maximumClients: Int
    private let buckets = Mutex<[String: (tokens: Double, at: Int64)]>([:])

    public init(perMinute: Int, maximumClients: Int = 10_000) {
        self.perMinute = perMinute
        self.maximumClients = maximumClients
    }

    /// How many client buckets are held.
    public var trackedClients: Int { buckets.withLock { $0.count } }

    /// Takes one token for `client` at `now` (ms since 1970); false when its bucket is empty.
    public func allow(_ client: String, now: Int64) -> Bool {
        let rate = Double(perMinute) / 60_000
        return buckets.withLock { buckets in
            var bucket = buckets[client] ?? (Double(perMinute), now)
            bucket.tokens = min(Double(perMinute), bucket.tokens + Double(max(0, now - bucket.at)) * rate)
            bucket.at = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            if buckets[client] == nil, buckets.count >= maximumClients {
                // Drop the clients whose buckets are full again (they lose nothing), else the oldest.
                let full = buckets.filter { Double(perMinute) <= $0.value.tokens + Double(now - $0.value.at) * rate }.map(\.key)
                if full.isEmpty {
                    if let oldest = buckets.min(by: { $0.value.at < $1.value.at })?.key { buckets[oldest] = nil }
                } else {
                    for key in full { buckets[key] = nil }
                }
            }
            buckets[client] = bucket
            return allowed
        }
    }
}
