import Foundation
import SigilAppStore
import SigilBase
import SigilJOSE

/// What the App Store Server API and External Purchase Server API clients share: bearer token per
/// request, bounded transport call, error body decoding, 429 handling, pagination.
struct AppleAPIRequester: Sendable {
    let baseURL: String
    let transport: any HTTPTransport
    let timeout: Double
    let maximumResponseSize: Int
    let maximumRetries: Int
    let maximumRetryAfter: Double
    let clock: @Sendable () -> Int64
    let sleep: @Sendable (Double) async throws -> Void
    /// A fresh bearer token issued at the given time (seconds since 1970).
    let token: @Sendable (Int64) throws -> String

    /// A request body: its bytes and content type.
    struct Body: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    static func json(_ value: any Encodable) throws -> Body {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return Body(bytes: Array(try encoder.encode(value)), contentType: "application/json")
    }

    /// A path segment percent-encoded (anything but unreserved characters), so an identifier
    /// can never change the path.
    static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// RFC 3986 unreserved characters: everything else in a path segment or query value is
    /// percent-encoded.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    func url(_ path: String, _ query: [(String, String)]) -> String {
        let encoded = query.map { "\($0.0)=\(Self.segment($0.1))" }
        return baseURL + path + (encoded.isEmpty ? "" : "?" + encoded.joined(separator: "&"))
    }

    func call<Response: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [],
        body: (any Encodable)? = nil
    ) async throws -> Response {
        let response = try await send(method, path, query: query, body: try body.map(Self.json))
        do {
            return try JSONValueDecoder().decode(Response.self, fromJSON: response.body)
        } catch {
            throw AppStoreServerAPIError(
                httpStatus: response.status, apiError: nil,
                errorMessage: "the response is not a valid \(Response.self): \(error)", retryAfter: nil)
        }
    }

    func send(_ method: String, _ path: String, query: [(String, String)] = [], body: Body?) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            let bearer = try token(clock())
            var headers = [
                HTTPHeader("Authorization", "Bearer \(bearer)"), HTTPHeader("Accept", "application/json"),
                HTTPHeader("User-Agent", SigilVersion.userAgent),
            ]
            if let body { headers.append(HTTPHeader("Content-Type", body.contentType)) }
            let response: HTTPResponse
            do {
                response = try await transport.send(
                    HTTPRequest(method: method, url: url(path, query), headers: headers, body: body?.bytes),
                    timeout: timeout, maximumResponseSize: maximumResponseSize)
            } catch {
                throw AppStoreServerAPIError(httpStatus: 0, apiError: nil, errorMessage: "no response: \(error)", retryAfter: nil)
            }
            if (200..<300).contains(response.status) { return response }
            let parsed = try? JSONValue(parsing: response.body)
            let code = parsed?["errorCode"]?.int64Value
            let message = parsed?["errorMessage"]?.stringValue
            let retryAfter = response.header("Retry-After").flatMap(Self.parseRetryAfter)
            let error = AppStoreServerAPIError(
                httpStatus: response.status, apiError: code.map(AppStoreAPIErrorCode.init(rawValue:)),
                errorMessage: message, retryAfter: retryAfter, body: parsed)
            if response.status == 429, attempt < maximumRetries, let delay = retryAfter, delay <= maximumRetryAfter {
                attempt += 1
                try await sleep(delay)
                continue
            }
            throw error
        }
    }

    /// A stream of pages: `fetch(cursor)` returns a page and the next cursor (nil at the end). A
    /// repeated cursor ends the stream with an error rather than looping forever.
    static func pages<Page: Sendable>(_ fetch: @escaping @Sendable (String?) async throws -> (Page, String?)) -> AsyncThrowingStream<
        Page, Error
    > {
        AsyncThrowingStream { continuation in
            let task = Task {
                var cursor: String?
                var seen = Set<String>()
                do {
                    repeat {
                        let (page, next) = try await fetch(cursor)
                        continuation.yield(page)
                        if let next, !seen.insert(next).inserted {
                            throw AppStoreServerAPIError(
                                httpStatus: 200, apiError: nil, errorMessage: "the server repeated the page cursor \(next)",
                                retryAfter: nil)
                        }
                        cursor = next
                    } while cursor != nil && !Task.isCancelled
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in seconds from now.
    static func parseRetryAfter(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }
}
