/// How an OCSP request reaches a responder (RFC 6960 Appendix A.1: HTTP POST with
/// Content-Type application/ocsp-request). Sigil's OCSP layer has no networking of its own: the
/// caller passes a transport in — `URLSessionOCSPTransport` from SigilHTTP for real use, or any
/// other implementation (a test double, AsyncHTTPClient).
public protocol OCSPTransport: Sendable {
    /// POSTs `request` to `url` and returns the response body. Must give up after `timeout`
    /// seconds and once the body exceeds `maximumResponseSize` bytes. Any error thrown is
    /// reported to the caller as a retryable network failure.
    func post(_ request: [UInt8], to url: String, timeout: Double, maximumResponseSize: Int) async throws -> [UInt8]
}
