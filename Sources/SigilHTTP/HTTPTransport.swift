import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange as Sigil's clients describe it: method, absolute URL, headers, body.
public struct HTTPRequest: Sendable, Hashable {
    /// The HTTP method.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Header fields in order (names as written; HTTP compares them case-insensitively).
    public var headers: [HTTPHeader]
    /// The message's body.
    public var body: [UInt8]?

    /// A request with `method`, `url`, `headers` and `body`.
    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the header named `name` (compared without case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// One request header.
public struct HTTPHeader: Sendable, Hashable {
    /// The header's name.
    public var name: String
    /// The header's value.
    public var value: String
    /// A header `name: value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A response: status, header fields (names lowercased), body.
public struct HTTPResponse: Sendable, Hashable {
    /// What the report says about the token.
    public var status: Int
    /// The response headers, names lowercased.
    public var headers: [String: String]
    /// The message's body.
    public var body: [UInt8]

    /// A response with `status`, `headers` (names lowercased) and `body`.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of the header named `name` (compared without case), or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// How Sigil's clients reach a server. One call per exchange; implementations must give up after
/// `timeout` seconds and as soon as the body exceeds `maximumResponseSize` bytes, must honour task
/// cancellation, and must return any status (the client interprets it). `URLSessionHTTPTransport`
/// is the implementation shipped here; AsyncHTTPClient or a test double plug in the same way.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the answer, whatever its status, within `timeout` seconds and `maximumResponseSize` bytes.
    func send(_ request: HTTPRequest, timeout: Double, maximumResponseSize: Int) async throws -> HTTPResponse
}

/// A transport failure: no usable response (connection refused or dropped, deadline, oversized
/// body, cancellation). Always worth retrying later.
public struct HTTPTransportError: Error, CustomStringConvertible, Sendable {
    /// What failed, for people.
    public let description: String
    /// A transport error described by `description`.
    public init(_ description: String) { self.description = description }
}

/// The URLSession (FoundationNetworking) transport.
///
/// Bounded: the whole exchange is abandoned after `timeout` seconds (enforced by URLSession and
/// by a deadline task, whichever fires first), and the body is collected by a delegate that
/// cancels the task as soon as it exceeds `maximumResponseSize` — an oversized body is never held
/// in memory. No global state: each call uses an ephemeral session, invalidated when it ends;
/// no cookies, no cache, redirects are not followed.
public struct URLSessionHTTPTransport: HTTPTransport {
    /// A transport over URLSession.
    public init() {}

    /// Sends `request` over a fresh ephemeral URLSession, within `timeout` seconds and `maximumResponseSize` bytes.
    public func send(_ request: HTTPRequest, timeout: Double, maximumResponseSize: Int) async throws -> HTTPResponse {
        guard let target = URL(string: request.url), let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPTransportError("\(request.url) is not an http(s) URL")
        }
        var urlRequest = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.httpBody = request.body.map { Data($0) }
        urlRequest.httpShouldHandleCookies = false
        let collector = BoundedCollector(limit: maximumResponseSize)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        let box = SessionBox(URLSession(configuration: configuration, delegate: collector, delegateQueue: nil))
        defer { box.session.invalidateAndCancel() }
        let urlRequestCopy = urlRequest
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                        collector.start(continuation)
                        box.session.dataTask(with: urlRequestCopy).resume()
                    }
                } onCancel: {
                    collector.fail("cancelled")
                    box.session.invalidateAndCancel()
                }
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1_000_000_000))
                throw HTTPTransportError("no response within \(timeout) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HTTPTransportError("no result") }
            return first
        }
    }
}

/// URLSession is thread-safe but not declared Sendable in swift-corelibs-foundation.
private final class SessionBox: @unchecked Sendable {
    let session: URLSession
    init(_ session: URLSession) { self.session = session }
}

/// Collects a response up to a size limit; resumes the continuation exactly once; refuses redirects.
private final class BoundedCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var status = 0
    private var headers: [String: String] = [:]
    private var continuation: CheckedContinuation<HTTPResponse, Error>?
    private var failure: String?

    init(limit: Int) { self.limit = limit }

    func start(_ continuation: CheckedContinuation<HTTPResponse, Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    func fail(_ reason: String) { finish(.failure(HTTPTransportError(reason))) }

    private func finish(_ result: Result<HTTPResponse, Error>) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http?.allHeaderFields ?? [:] {
            if let name = key as? String, let text = value as? String { fields[name.lowercased()] = text }
        }
        lock.lock()
        status = http?.statusCode ?? 0
        headers = fields
        lock.unlock()
        if response.expectedContentLength > Int64(limit) {
            lock.lock()
            failure = "the response announces \(response.expectedContentLength) bytes, over the limit of \(limit)"
            lock.unlock()
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive chunk: Data) {
        lock.lock()
        data.append(contentsOf: chunk)
        let over = data.count > limit
        if over { failure = "the response exceeds \(limit) bytes" }
        lock.unlock()
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let body = data
        let code = status
        let fields = headers
        let overLimit = failure
        lock.unlock()
        if let overLimit {
            finish(.failure(HTTPTransportError(overLimit)))
        } else if let error {
            finish(.failure(HTTPTransportError(error.localizedDescription)))
        } else {
            finish(.success(HTTPResponse(status: code, headers: fields, body: body)))
        }
    }
}
