import SigilOCSP

/// `OCSPTransport` over any `HTTPTransport` (URLSession by default): RFC 6960 Appendix A.1 —
/// HTTP POST, Content-Type application/ocsp-request, Accept application/ocsp-response; a status
/// other than 200 is an error. Time and size bounds are the transport's.
public struct URLSessionOCSPTransport: OCSPTransport {
    let http: any HTTPTransport

    /// A transport posting over `http` (URLSession by default).
    public init(http: any HTTPTransport = URLSessionHTTPTransport()) { self.http = http }

    /// The error a failed exchange throws.
    public typealias TransportError = HTTPTransportError

    /// Posts the DER `request` to `url` and returns the DER response; a status other than 200 throws.
    public func post(_ request: [UInt8], to url: String, timeout: Double, maximumResponseSize: Int) async throws -> [UInt8] {
        let exchange = HTTPRequest(
            method: "POST", url: url,
            headers: [
                HTTPHeader("Content-Type", "application/ocsp-request"),
                HTTPHeader("Accept", "application/ocsp-response"),
                // One request per connection: single-threaded responders (openssl ocsp) otherwise wait
                // on the idle kept-alive connection and accept no other.
                HTTPHeader("Connection", "close"),
            ], body: request)
        let response = try await http.send(exchange, timeout: timeout, maximumResponseSize: maximumResponseSize)
        guard response.status == 200 else { throw HTTPTransportError("HTTP status \(response.status)") }
        return response.body
    }
}
