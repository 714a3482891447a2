#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SigilOCSP

/// The AsyncHTTPClient (SwiftNIO) transport; compiled only with the package trait
/// `AsyncHTTPClient` (`swift build --traits AsyncHTTPClient`, or `traits: ["AsyncHTTPClient"]` on
/// the `.package` line of a depending package).
///
/// Bounded like `URLSessionHTTPTransport`: the whole exchange, body included, is abandoned after
/// `timeout` seconds (AsyncHTTPClient's request deadline, and a deadline task, whichever fires
/// first); the body is collected through `collect(upTo:)`, which refuses a Content-Length over
/// `maximumResponseSize` before reading and stops as soon as the bytes read exceed it, so an
/// oversized body is never held in memory; cancelling the calling task cancels the request.
/// Cookies are never stored. Redirects are whatever the client's configuration says
/// (`HTTPClient.shared` follows up to five; Apple's APIs and OCSP responders answer without them):
/// pass a client configured with `redirectConfiguration: .disallow` to refuse them.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client every exchange goes through; its lifecycle belongs to the caller.
    public let client: HTTPClient

    /// A transport over `client`: one the caller creates and shuts down, or the process-wide
    /// `HTTPClient.shared` (never shut down).
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    /// Sends `request` with the client, within `timeout` seconds and `maximumResponseSize` bytes.
    public func send(_ request: HTTPRequest, timeout: Double, maximumResponseSize: Int) async throws -> HTTPResponse {
        guard let target = URL(string: request.url), let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPTransportError("\(request.url) is not an http(s) URL")
        }
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let seconds = max(0, timeout)
        let deadline = NIODeadline.now() + .nanoseconds(Int64(min(seconds, 86_400) * 1_000_000_000))
        let client = self.client
        let limit = max(0, maximumResponseSize)
        let exchange = outgoing
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask {
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(exchange, deadline: deadline)
                } catch {
                    throw HTTPTransportError(Self.describe(error, timeout: seconds))
                }
                let body: ByteBuffer
                do {
                    body = try await response.body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw HTTPTransportError("the response exceeds \(limit) bytes")
                } catch {
                    throw HTTPTransportError(Self.describe(error, timeout: seconds))
                }
                var fields: [String: String] = [:]
                for (name, value) in response.headers where fields[name.lowercased()] == nil { fields[name.lowercased()] = value }
                return HTTPResponse(status: Int(response.status.code), headers: fields, body: Array(body.readableBytesView))
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
                throw HTTPTransportError("no response within \(timeout) s")
            }
            defer { group.cancelAll() }
            do {
                guard let first = try await group.next() else { throw HTTPTransportError("no result") }
                return first
            } catch is CancellationError {
                throw HTTPTransportError("cancelled")
            }
        }
    }

    private static func describe(_ error: any Error, timeout: Double) -> String {
        if error is CancellationError { return "cancelled" }
        if let clientError = error as? HTTPClientError {
            if clientError == .deadlineExceeded { return "no response within \(timeout) s" }
            if clientError == .cancelled { return "cancelled" }
            return "AsyncHTTPClient: \(clientError)"
        }
        return "\(error)"
    }
}

/// `OCSPTransport` over AsyncHTTPClient (trait `AsyncHTTPClient`): the same RFC 6960 Appendix
/// A.1 exchange as `URLSessionOCSPTransport` — HTTP POST, Content-Type
/// application/ocsp-request, a status other than 200 is an error — through
/// `AsyncHTTPClientTransport`.
public struct AsyncHTTPClientOCSPTransport: OCSPTransport {
    let exchange: URLSessionOCSPTransport

    /// An OCSP transport over `client` (by default `HTTPClient.shared`).
    public init(client: HTTPClient = .shared) {
        exchange = URLSessionOCSPTransport(http: AsyncHTTPClientTransport(client: client))
    }

    /// Posts the DER `request` to `url` and returns the DER response; a status other than 200 throws.
    public func post(_ request: [UInt8], to url: String, timeout: Double, maximumResponseSize: Int) async throws -> [UInt8] {
        try await exchange.post(request, to: url, timeout: timeout, maximumResponseSize: maximumResponseSize)
    }
}
#endif
