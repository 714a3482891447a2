import SigilCore
import SigilX509

/// Online revocation checking for validated chains: each certificate except the trusted root is
/// checked against the OCSP responder named in its authorityInfoAccess (RFC 5280 §4.2.2.1),
/// through the transport the caller passes in, with a bounded time and response size. Results
/// are cached per (certificate, issuer) until the response's nextUpdate, with a bound on entries.
///
/// Outcomes: revoked and unknown always fail the chain; a response that fails verification fails
/// it (not retryable); a network failure (down, slow, refused, oversized, non-200) is reported as
/// retryable and fails the chain in `.hardFail` mode only.
public actor OCSPRevocationChecker {
    /// What a certificate whose status could not be fetched does to the chain.
    public enum Mode: Sendable {
        /// A certificate whose status could not be fetched fails the chain.
        case hardFail
        /// Network failures are tolerated (revoked, unknown and invalid responses still fail).
        case softFail
    }

    /// How requests reach the responders.
    public let transport: any OCSPTransport
    /// The checks each response passes before it is believed.
    public let verifier: OCSPResponseVerifier
    /// Hard fail (the default) or soft fail on network failures.
    public let mode: Mode
    /// The hash of the CertIDs sent (SHA-1 by default, what responders expect).
    public let hash: HashAlgorithm
    /// Seconds allowed for each request.
    public let timeout: Double
    /// The largest response body accepted, in bytes.
    public let maximumResponseSize: Int
    /// The most answers kept in the cache; the oldest is evicted first.
    public let cacheLimit: Int

    private struct CacheKey: Hashable {
        let certificate: [UInt8]
        let issuer: [UInt8]
    }

    private struct CacheEntry {
        let status: OCSPVerifiedStatus
        let expires: Int64
    }

    private var cache: [CacheKey: CacheEntry] = [:]
    private var cacheOrder: [CacheKey] = []
    /// Responses fetched from the network (for tests and monitoring).
    public private(set) var fetchCount = 0

    /// A checker that asks through `transport` and believes what `verifier` accepts, in `mode`, with
    /// `hash` CertIDs, `timeout` seconds per request, responses up to `maximumResponseSize` bytes and
    /// `cacheLimit` cached answers.
    public init(
        transport: any OCSPTransport, verifier: OCSPResponseVerifier = OCSPResponseVerifier(), mode: Mode = .hardFail,
        hash: HashAlgorithm = .sha1, timeout: Double = 10, maximumResponseSize: Int = 64 * 1024, cacheLimit: Int = 1024
    ) {
        self.transport = transport
        self.verifier = verifier
        self.mode = mode
        self.hash = hash
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.cacheLimit = cacheLimit
    }

    /// The verified status of `certificate` (issued by `issuer`) at `time`, from the cache or the
    /// responder at `url` (default: the certificate's first OCSP URL). A fresh nonce is sent
    /// with every request and must be echoed.
    public func status(
        of certificate: Certificate, issuer: Certificate, at time: Int64, url: String? = nil,
        nonce: [UInt8]? = nil
    ) async throws(OCSPError) -> OCSPVerifiedStatus {
        let key = CacheKey(certificate: certificate.derBytes, issuer: issuer.derBytes)
        if let entry = cache[key], time <= entry.expires { return entry.status }
        guard let target = url ?? certificate.ocspURLs.first else {
            throw OCSPError(.invalidArgument, "\(certificate.subject) names no OCSP responder")
        }
        var system = SystemRandomNumberGenerator()
        let requestNonce = nonce ?? (0..<OCSPRequest.maximumNonceLength).map { _ in UInt8.random(in: 0...255, using: &system) }
        let request = try OCSPRequest(certIDs: [CertID(certificate: certificate, issuer: issuer, hash: hash)], nonce: requestNonce)
        let body: [UInt8]
        do {
            fetchCount += 1
            body = try await transport.post(
                request.derRepresentation, to: target, timeout: timeout, maximumResponseSize: maximumResponseSize)
        } catch {
            throw OCSPError(.retryable, "OCSP responder \(target): \(error)")
        }
        guard body.count <= maximumResponseSize else {
            throw OCSPError(.retryable, "OCSP response of \(body.count) bytes exceeds \(maximumResponseSize)")
        }
        let response = try OCSPResponse(derEncoded: body)
        if response.status == .tryLater || response.status == .internalError {
            throw OCSPError(.retryable, "the responder answered \(response.status)")
        }
        let verified = try verifier.verify(response, certificate: certificate, issuer: issuer, requestNonce: requestNonce, at: time)
        if let next = verified.nextUpdate { remember(key, CacheEntry(status: verified, expires: next)) }
        return verified
    }

    private func remember(_ key: CacheKey, _ entry: CacheEntry) {
        if cache[key] == nil {
            cacheOrder.append(key)
            if cacheOrder.count > cacheLimit {
                cache[cacheOrder.removeFirst()] = nil
            }
        }
        cache[key] = entry
    }

    /// The revocation failures of a validated chain (leaf first, trusted root last): every
    /// certificate but the root is checked against its issuer, the next one in the chain.
    public func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for index in 0..<max(0, chain.count - 1) {
            let certificate = chain[index]
            let issuer = chain[index + 1]
            let named = PathCertificate(certificate, position: index)
            do {
                let result = try await status(of: certificate, issuer: issuer, at: time)
                if let failure = result.failure(for: named) { failures.append(failure) }
            } catch {
                let retryable = error.code == .retryable
                if retryable && mode == .softFail { continue }
                failures.append(.revocationCheckFailed(certificate: named, reason: error.description, retryable: retryable))
            }
        }
        return failures
    }
}

/// OCSP is one of the revocation checkers a caller composes (`RevocationPolicy.anyOf/allOf`).
extension OCSPRevocationChecker: RevocationChecker {}
