import Foundation
import Hummingbird
import NIOCore
import SigilCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// `POST /v1/verify`): the holder of the configured API key, sent as `Authorization: Bearer
/// <key>`, compared in constant time (the SHA-256 of what was sent against the key's, so the
/// comparison takes the same time whatever the length). Apple's and the app's write routes are
/// public. Without a key, the operator routes are served only when the receiver listens on
/// loopback (`ReceiverConfiguration.load` refuses to start otherwise). `POST /v1/verify` is an
/// operator route for every kind: each answers verified customer data (kind `applepay` decrypts
/// card data with the merchant's keys and records its transaction id as used), and Apple never
/// calls it (see `VerificationRoutes.add`). The verification service uses the same check for its
/// own key.
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
///
/// A client is its address's network, not the exact address: an IPv4 address (or an IPv4-mapped
/// IPv6 one, `::ffff:a.b.c.d`) is itself, an IPv6 address is its /64 — one host is usually given a
/// whole /64, so rotating the low 64 bits would otherwise make a new client at every request.
///
/// Bounded: it tracks at most `maximumClients` networks. When the table is full, the buckets that
/// are full again are dropped (a full bucket is what a new client gets, so they lose nothing); if
/// none is, a newcomer is not given a bucket of its own at another client's expense — every
/// newcomer then shares one overflow bucket. A flood of addresses can neither grow the table nor
/// evict the clients it tracks (which would hand each of them a fresh burst).
public final class RateLimiter: Sendable {
    public let perMinute: Int
    let maximumClients: Int
    private let buckets = Mutex<[String: (tokens: Double, at: Int64)]>([:])
    /// The bucket every newcomer shares while the table is full.
    static let overflowKey = "overflow"

    public init(perMinute: Int, maximumClients: Int = 10_000) {
        self.perMinute = perMinute
        self.maximumClients = maximumClients
    }

    /// How many client buckets are held (the overflow bucket included).
    public var trackedClients: Int { buckets.withLock { $0.count } }

    /// The bucket `address` counts against: an IPv4 address as is, an IPv4-mapped IPv6 address
    /// as its IPv4 address, any other IPv6 address as its /64 (`2001:db8:1:2::/64`); text that is
    /// no address (`unknown`) as is.
    public static func clientKey(forAddress address: String) -> String {
        guard address.contains(":"), let bytes = IPAddressText.v6(address) else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map { String($0) }.joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// Takes one token for `client` (an address, see `clientKey(forAddress:)`) at `now` (ms since
    /// 1970); false when its bucket is empty.
    public func allow(_ client: String, now: Int64) -> Bool {
        let rate = Double(perMinute) / 60_000
        var key = Self.clientKey(forAddress: client)
        return buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= maximumClients {
                // Drop the clients whose buckets are full again (they lose nothing); if none is,
                // the newcomer shares the overflow bucket rather than evicting a tracked client.
                let full = buckets.filter { Double(perMinute) <= $0.value.tokens + Double(now - $0.value.at) * rate }.map(\.key)
                for full in full { buckets[full] = nil }
                if buckets.count >= maximumClients { key = Self.overflowKey }
            }
            var bucket = buckets[key] ?? (Double(perMinute), now)
            bucket.tokens = min(Double(perMinute), bucket.tokens + Double(max(0, now - bucket.at)) * rate)
            bucket.at = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            buckets[key] = bucket
            return allowed
        }
    }
}

/// IP address text parsed numerically (inet_pton): no name is an address.
enum IPAddressText {
    /// The 4 bytes of a dotted-quad IPv4 address.
    static func v4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The 16 bytes of an IPv6 address (a zone, `%eth0`, is not accepted).
    static func v6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }
}
