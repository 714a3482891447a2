import Foundation
import SigilCRL
import SigilX509

/// CRLs fetched from a certificate's cRLDistributionPoints (http and https URIs; RFC 5280
/// §4.2.1.13, and the freshestCRL of each complete CRL fetched, §5.2.6, for delta CRLs) through
/// an `HTTPTransport`, with a bounded cache.
///
/// Bounds: each fetch gives up after `timeout` seconds and past `maximumCRLSize` bytes, at most
/// `maximumURLsPerCertificate` URLs are tried per certificate, and every CRL parses under
/// `limits`. The cache holds at most `cacheEntryLimit` URLs and `cacheByteLimit` bytes of CRLs
/// (least recently used first out); an entry is used only while the validation time is not past
/// the nextUpdate of every CRL it holds, and a CRL without nextUpdate is never cached.
public actor HTTPCRLSource: CRLSource {
    /// How CRLs are fetched.
    public let http: any HTTPTransport
    /// Seconds allowed for each request.
    public let timeout: Double
    /// The largest CRL accepted, in bytes.
    public let maximumCRLSize: Int
    /// The most distribution point URLs tried per certificate.
    public let maximumURLsPerCertificate: Int
    /// The most CRLs kept.
    public let cacheEntryLimit: Int
    /// The most CRL bytes kept.
    public let cacheByteLimit: Int
    /// The bounds every CRL is parsed with.
    public let limits: CRL.Limits

    private struct Entry {
        let crls: [CRL]
        let bytes: Int
        let expires: Int64
    }

    private var cache: [String: Entry] = [:]
    /// Least recently used first.
    private var order: [String] = []
    private var cachedBytes = 0
    /// CRLs fetched from the network (for tests and monitoring).
    public private(set) var fetchCount = 0

    /// A source fetching through `http` (URLSession by default), with the given bounds.
    public init(
        http: any HTTPTransport = URLSessionHTTPTransport(), timeout: Double = 10, maximumCRLSize: Int = 16 << 20,
        maximumURLsPerCertificate: Int = 4, cacheEntryLimit: Int = 64, cacheByteLimit: Int = 64 << 20,
        limits: CRL.Limits = .default
    ) {
        self.http = http
        self.timeout = timeout
        self.maximumCRLSize = maximumCRLSize
        self.maximumURLsPerCertificate = maximumURLsPerCertificate
        self.cacheEntryLimit = cacheEntryLimit
        self.cacheByteLimit = cacheByteLimit
        self.limits = limits
    }

    /// The number of URLs cached and the bytes of CRL they hold.
    public var cacheUsage: (entries: Int, bytes: Int) { (cache.count, cachedBytes) }

    /// The CRLs at the certificate's http(s) distribution points and at the freshestCRL points of
    /// those fetched; throws only when every URL failed.
    public func crls(for certificate: Certificate, issuer: Certificate, at time: Int64) async throws -> [CRL] {
        var urls = HTTPCRLSource.httpURLs(certificate.crlDistributionPoints)
        var result: [CRL] = []
        var errors: [String] = []
        var tried = Set<String>()
        var index = 0
        while index < urls.count, tried.count < maximumURLsPerCertificate {
            let url = urls[index]
            index += 1
            guard tried.insert(url).inserted else { continue }
            do {
                let crls = try await fetch(url, at: time)
                result += crls
                // Delta CRLs named by the complete CRLs just fetched.
                for crl in crls where !crl.isDelta { urls += HTTPCRLSource.httpURLs(crl.freshestCRL ?? []) }
            } catch {
                errors.append("\(url): \(error)")
            }
        }
        if result.isEmpty, !errors.isEmpty { throw HTTPTransportError(errors.joined(separator: "; ")) }
        return result
    }

    static func httpURLs(_ points: [DistributionPoint]) -> [String] {
        points.flatMap(\.uris).filter { $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://") }
    }

    /// The CRLs at `url`: from the cache while current, otherwise fetched (GET) and cached.
    func fetch(_ url: String, at time: Int64) async throws -> [CRL] {
        if let entry = cache[url] {
            if time <= entry.expires {
                order.removeAll { $0 == url }
                order.append(url)
                return entry.crls
            }
            evict(url)
        }
        fetchCount += 1
        let response = try await http.send(
            HTTPRequest(method: "GET", url: url, headers: [HTTPHeader("Accept", "application/pkix-crl")]),
            timeout: timeout, maximumResponseSize: maximumCRLSize)
        guard response.status == 200 else { throw HTTPTransportError("HTTP status \(response.status)") }
        guard response.body.count <= maximumCRLSize else {
            throw HTTPTransportError("CRL of \(response.body.count) bytes exceeds \(maximumCRLSize)")
        }
        let crls = try CRL.load(response.body, limits: limits)
        // Cached until the earliest nextUpdate; a CRL without one is not cached at all.
        let nextUpdates = crls.map(\.nextUpdate)
        if !nextUpdates.contains(nil), let expires = nextUpdates.compactMap({ $0 }).min(), response.body.count <= cacheByteLimit {
            cache[url] = Entry(crls: crls, bytes: response.body.count, expires: expires)
            order.append(url)
            cachedBytes += response.body.count
            while cache.count > cacheEntryLimit || cachedBytes > cacheByteLimit, let oldest = order.first { evict(oldest) }
        }
        return crls
    }

    private func evict(_ url: String) {
        if let entry = cache.removeValue(forKey: url) { cachedBytes -= entry.bytes }
        order.removeAll { $0 == url }
    }
}
