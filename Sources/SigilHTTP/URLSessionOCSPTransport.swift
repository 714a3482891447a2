import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SigilOCSP

/// The URLSession implementation of `OCSPTransport` (RFC 6960 Appendix A.1: HTTP POST,
/// Content-Type application/ocsp-request, Accept application/ocsp-response).
///
/// Bounded: the whole exchange is abandoned after `timeout` seconds, and the body is collected by
/// a delegate that cancels the task as soon as it exceeds `maximumResponseSize` (so an oversized
/// body is never held in memory). A status other than 200 is an error. No global state: each call
/// uses an ephemeral session that is invalidated when it ends.
public struct URLSessionOCSPTransport: OCSPTransport {
    public init() {}

    public struct TransportError: Error, CustomStringConvertible {
        public let description: String
    }

    public func post(_ request: [UInt8], to url: String, timeout: Double, maximumResponseSize: Int) async throws -> [UInt8] {
        guard let target = URL(string: url), let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw TransportError(description: "\(url) is not an http(s) URL")
        }
        var urlRequest = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/ocsp-request", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue("application/ocsp-response", forHTTPHeaderField: "Accept")
        // One request per connection: single-threaded responders (openssl ocsp) otherwise wait on
        // the idle kept-alive connection and accept no other.
        urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        urlRequest.httpBody = Data(request)
        let collector = BoundedCollector(limit: maximumResponseSize)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let box = SessionBox(URLSession(configuration: configuration, delegate: collector, delegateQueue: nil))
        defer { box.session.invalidateAndCancel() }
        let urlRequestCopy = urlRequest
        // The time bound is enforced here as well as by URLSession: whichever of the exchange and
        // the deadline ends first wins, and the loser is cancelled (the collector resumes at most once).
        return try await withThrowingTaskGroup(of: [UInt8].self) { group in
            group.addTask {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], Error>) in
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
                throw TransportError(description: "no response within \(timeout) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw TransportError(description: "no result") }
            return first
        }
    }
}

/// URLSession is thread-safe but not declared Sendable in swift-corelibs-foundation.
private final class SessionBox: @unchecked Sendable {
    let session: URLSession
    init(_ session: URLSession) { self.session = session }
}

/// Collects a response body up to a limit; resumes the continuation exactly once.
private final class BoundedCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var status = 0
    private var continuation: CheckedContinuation<[UInt8], Error>?
    private var failure: String?

    init(limit: Int) { self.limit = limit }

    func start(_ continuation: CheckedContinuation<[UInt8], Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    /// Ends the exchange with an error (cancellation, deadline), if it has not ended yet.
    func fail(_ reason: String) {
        finish(.failure(URLSessionOCSPTransport.TransportError(description: reason)))
    }

    private func finish(_ result: Result<[UInt8], Error>) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(with: result)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let code = (response as? HTTPURLResponse)?.statusCode ?? 0
        lock.lock()
        status = code
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
        let body = data, code = status, overLimit = failure
        lock.unlock()
        if let overLimit {
            finish(.failure(URLSessionOCSPTransport.TransportError(description: overLimit)))
        } else if let error {
            finish(.failure(URLSessionOCSPTransport.TransportError(description: error.localizedDescription)))
        } else if code != 200 {
            finish(.failure(URLSessionOCSPTransport.TransportError(description: "HTTP status \(code)")))
        } else {
            finish(.success(body))
        }
    }
}
