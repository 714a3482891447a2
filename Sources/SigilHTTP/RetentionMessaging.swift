import Foundation
import SigilAppStore
import SigilBase

// The Retention Messaging API (https://developer.apple.com/documentation/retentionmessaging):
// images, messages, default messages per product and locale, the realtime URL and its performance
// test. Same host, token and error handling as the App Store Server API. The realtime exchange's
// own bodies (RealtimeRequestBody / RealtimeResponseBody) live in SigilAppStore, next to the
// verifier of the signed request.

// MARK: - Enumerations (open: unknown values kept raw)

/// https://developer.apple.com/documentation/retentionmessaging/imagesize
public struct ImageSize: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `FULL_SIZE`: an image for the top of the message.
    public static let fullSize = ImageSize(rawValue: "FULL_SIZE")
    /// `BULLET_POINT`: an image for a bullet point.
    public static let bulletPoint = ImageSize(rawValue: "BULLET_POINT")
    /// The values Apple documents.
    public static let documented: [ImageSize] = [.fullSize, .bulletPoint]
}

/// https://developer.apple.com/documentation/retentionmessaging/imagestate
public struct ImageState: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `PENDING`: awaiting Apple's review.
    public static let pending = ImageState(rawValue: "PENDING")
    /// `APPROVED`: approved; it may be shown.
    public static let approved = ImageState(rawValue: "APPROVED")
    /// `REJECTED`: rejected; it is not shown.
    public static let rejected = ImageState(rawValue: "REJECTED")
    /// The values Apple documents.
    public static let documented: [ImageState] = [.pending, .approved, .rejected]
}

/// https://developer.apple.com/documentation/retentionmessaging/messagestate
public struct MessageState: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `PENDING`: awaiting Apple's review.
    public static let pending = MessageState(rawValue: "PENDING")
    /// `APPROVED`: approved; it may be shown.
    public static let approved = MessageState(rawValue: "APPROVED")
    /// `REJECTED`: rejected; it is not shown.
    public static let rejected = MessageState(rawValue: "REJECTED")
    /// The values Apple documents.
    public static let documented: [MessageState] = [.pending, .approved, .rejected]
}

/// https://developer.apple.com/documentation/retentionmessaging/headerposition
public struct HeaderPosition: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `ABOVE_BODY`: the header goes above the body.
    public static let aboveBody = HeaderPosition(rawValue: "ABOVE_BODY")
    /// `ABOVE_IMAGE`: the header goes above the image (the message needs one).
    public static let aboveImage = HeaderPosition(rawValue: "ABOVE_IMAGE")
    /// The values Apple documents.
    public static let documented: [HeaderPosition] = [.aboveBody, .aboveImage]
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestresult
public struct PerformanceTestStatus: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `PENDING`: the test is running.
    public static let pending = PerformanceTestStatus(rawValue: "PENDING")
    /// `PASS`: the endpoint met the thresholds.
    public static let pass = PerformanceTestStatus(rawValue: "PASS")
    /// `FAIL`: the endpoint did not meet them.
    public static let fail = PerformanceTestStatus(rawValue: "FAIL")
    /// The values Apple documents.
    public static let documented: [PerformanceTestStatus] = [.pending, .pass, .fail]
}

/// The outcome of one delivery attempt (notifications, realtime performance tests)
/// (https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult).
public struct SendAttemptResult: AppleOpenEnum {
    /// The value as Apple sent it.
    public let rawValue: String
    /// Wraps a raw value as received, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `SUCCESS`: delivered.
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    /// `TIMED_OUT`: the server did not answer in time.
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    /// `TLS_ISSUE`: the TLS connection failed.
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    /// `CIRCULAR_REDIRECT`: the server redirected in a loop.
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    /// `NO_RESPONSE`: no response.
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    /// `SOCKET_ISSUE`: a socket error.
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    /// `UNSUPPORTED_CHARSET`: the response's charset is not supported.
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    /// `INVALID_RESPONSE`: the response was invalid.
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    /// `PREMATURE_CLOSE`: the connection closed early.
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    /// `UNSUCCESSFUL_HTTP_RESPONSE_CODE`: the server answered with a status other than success.
    public static let unsuccessfulHTTPResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    /// `OTHER`: another failure.
    public static let other = SendAttemptResult(rawValue: "OTHER")
    /// The values Apple documents.
    public static let documented: [SendAttemptResult] = [
        .success, .timedOut, .tlsIssue, .circularRedirect, .noResponse, .socketIssue,
        .unsupportedCharset, .invalidResponse, .prematureClose,
        .unsuccessfulHTTPResponseCode, .other,
    ]
}

// MARK: - Request and response bodies

/// https://developer.apple.com/documentation/retentionmessaging/uploadmessageimage
public struct UploadMessageImage: Codable, Hashable, Sendable {
    /// The image's identifier (a lowercase UUID).
    public var imageIdentifier: String
    /// The image's alternative text, for accessibility.
    public var altText: String
    /// An image reference with `imageIdentifier` (written lowercase) and `altText`.
    public init(imageIdentifier: UUID, altText: String) {
        self.imageIdentifier = imageIdentifier.uuidString.lowercased()
        self.altText = altText
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/bulletpoint
public struct BulletPoint: Codable, Hashable, Sendable {
    /// The bullet point's text.
    public var text: String
    /// The image's identifier (a lowercase UUID).
    public var imageIdentifier: String
    /// The image's alternative text, for accessibility.
    public var altText: String
    /// A bullet point with `text`, its image `imageIdentifier` (written lowercase) and `altText`.
    public init(text: String, imageIdentifier: UUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier.uuidString.lowercased()
        self.altText = altText
    }
}

/// The Upload Message body (https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody).
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    /// The message's header.
    public var header: String
    /// The message's body.
    public var body: String
    /// The message's image, when it has one.
    public var image: UploadMessageImage?
    /// Where the header goes: above the body or above the image.
    public var headerPosition: HeaderPosition?
    /// The bullet points, when the message has them.
    public var bulletPoints: [BulletPoint]?

    /// A message with `header`, `body` and, when given, an image, a header position and bullet points.
    public init(
        header: String, body: String, image: UploadMessageImage? = nil, headerPosition: HeaderPosition? = nil,
        bulletPoints: [BulletPoint]? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.headerPosition = headerPosition
        self.bulletPoints = bulletPoints
    }

    /// Apple's limits, in Unicode scalars: header 66 (HeaderTooLongError), body 144
    /// (BodyTooLongError), altText 150 (AltTextTooLongError) — from the field pages of the Retention
    /// Messaging documentation; at most 5 bullet points of at most 66 characters each, the limits
    /// Apple's own libraries apply for BadRequestTooManyBulletPoints /
    /// BadRequestBulletPointTextTooLong; ABOVE_IMAGE needs an image (BadRequestAboveImageRequiresAnImage).
    public enum Limits {
        /// The longest header, in Unicode scalars.
        public static let header = 66
        /// The longest body, in Unicode scalars.
        public static let body = 144
        /// The longest alternative text, in Unicode scalars.
        public static let altText = 150
        /// The most bullet points.
        public static let bulletPoints = 5
        /// The longest bullet point text, in Unicode scalars.
        public static let bulletPointText = 66
    }

    /// Checks Apple's documented limits before anything is sent.
    public func validate() throws(AppleAPIRequestError) {
        func length(_ field: String, _ value: String, _ limit: Int) throws(AppleAPIRequestError) {
            let count = value.unicodeScalars.count
            guard count <= limit else {
                throw AppleAPIRequestError(field: field, reason: "\(count) characters; Apple allows at most \(limit)")
            }
        }
        try length("header", header, Limits.header)
        try length("body", body, Limits.body)
        if let image { try length("image.altText", image.altText, Limits.altText) }
        if let bulletPoints {
            guard bulletPoints.count <= Limits.bulletPoints else {
                throw AppleAPIRequestError(
                    field: "bulletPoints", reason: "\(bulletPoints.count) bullet points; Apple allows at most \(Limits.bulletPoints)")
            }
            for (i, point) in bulletPoints.enumerated() {
                try length("bulletPoints[\(i)].text", point.text, Limits.bulletPointText)
                try length("bulletPoints[\(i)].altText", point.altText, Limits.altText)
            }
        }
        if headerPosition == .aboveImage, image == nil {
            throw AppleAPIRequestError(field: "headerPosition", reason: "ABOVE_IMAGE needs an image")
        }
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/getimagelistresponse
public struct GetImageListResponse: Codable, Hashable, Sendable {
    /// The images uploaded.
    public var imageIdentifiers: [GetImageListResponseItem]?
}

/// One uploaded image and its state.
public struct GetImageListResponseItem: Codable, Hashable, Sendable {
    /// The image's identifier (a lowercase UUID).
    public var imageIdentifier: String?
    /// The image's review state.
    public var imageState: ImageState?
    /// The image's size class.
    public var imageSize: ImageSize?
}

/// https://developer.apple.com/documentation/retentionmessaging/getmessagelistresponse
public struct GetMessageListResponse: Codable, Hashable, Sendable {
    /// The messages uploaded.
    public var messageIdentifiers: [GetMessageListResponseItem]?
}

/// One uploaded message and its state.
public struct GetMessageListResponseItem: Codable, Hashable, Sendable {
    /// The message's identifier.
    public var messageIdentifier: String?
    /// The message's review state.
    public var messageState: MessageState?
}

/// https://developer.apple.com/documentation/retentionmessaging/defaultconfigurationrequest
public struct DefaultConfigurationRequest: Codable, Hashable, Sendable {
    /// The message's identifier.
    public var messageIdentifier: String
    /// A request naming `messageIdentifier` (written lowercase).
    public init(messageIdentifier: UUID) { self.messageIdentifier = messageIdentifier.uuidString.lowercased() }
}

/// https://developer.apple.com/documentation/retentionmessaging/defaultconfigurationresponse
public struct DefaultConfigurationResponse: Codable, Hashable, Sendable {
    /// The message's identifier.
    public var messageIdentifier: String?
}

/// https://developer.apple.com/documentation/retentionmessaging/realtimeurlrequest
public struct RealtimeUrlRequest: Codable, Hashable, Sendable {
    /// The URL Apple calls with realtime requests.
    public var realtimeURL: String
    /// A request to use `realtimeURL`.
    public init(realtimeURL: String) { self.realtimeURL = realtimeURL }
}

/// https://developer.apple.com/documentation/retentionmessaging/realtimeurlresponse
public struct RealtimeUrlResponse: Codable, Hashable, Sendable {
    /// The URL Apple calls with realtime requests.
    public var realtimeURL: String?
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestrequest
public struct PerformanceTestRequest: Codable, Hashable, Sendable {
    /// The transaction id of the original purchase.
    public var originalTransactionId: String
    /// A request for `originalTransactionId`.
    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestconfig
public struct PerformanceTestConfig: Codable, Hashable, Sendable {
    /// How many requests Apple sends at once.
    public var maxConcurrentRequests: Int64?
    /// How many requests Apple sends in all.
    public var totalRequests: Int64?
    /// Milliseconds.
    public var totalDuration: Int64?
    /// Milliseconds.
    public var responseTimeThreshold: Int64?
    /// Percent.
    public var successRateThreshold: Int32?
    /// A configuration with the given settings (Apple's defaults for those left nil).
    public init(
        maxConcurrentRequests: Int64? = nil, totalRequests: Int64? = nil, totalDuration: Int64? = nil,
        responseTimeThreshold: Int64? = nil, successRateThreshold: Int32? = nil
    ) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestresponse
public struct PerformanceTestResponse: Codable, Hashable, Sendable {
    /// The test's settings.
    public var config: PerformanceTestConfig?
    /// The test's identifier, for fetching its result.
    public var requestId: String?
}

/// Response-time percentiles in milliseconds.
public struct PerformanceTestResponseTimes: Codable, Hashable, Sendable {
    /// The mean response time.
    public var average: Int64?
    /// The median response time.
    public var p50: Int64?
    /// The 90th percentile response time.
    public var p90: Int64?
    /// The 95th percentile response time.
    public var p95: Int64?
    /// The 99th percentile response time.
    public var p99: Int64?
    /// Percentiles with the given values.
    public init(average: Int64? = nil, p50: Int64? = nil, p90: Int64? = nil, p95: Int64? = nil, p99: Int64? = nil) {
        self.average = average
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestresultresponse
public struct PerformanceTestResultResponse: Codable, Hashable, Sendable {
    /// The test's settings.
    public var config: PerformanceTestConfig?
    /// The URL tested.
    public var target: String?
    /// The test's outcome.
    public var result: PerformanceTestStatus?
    /// The share of requests answered in time, in percent.
    public var successRate: Int32?
    /// How many requests are still pending.
    public var numPending: Int32?
    /// The response-time percentiles.
    public var responseTimes: PerformanceTestResponseTimes?
    /// Failed attempts per SendAttemptResult raw value, exactly as sent.
    public var failures: [String: Int32]?

    /// `failures` keyed by the open enum.
    public var failureCounts: [SendAttemptResult: Int32] {
        Dictionary((failures ?? [:]).map { (SendAttemptResult(rawValue: $0.key), $0.value) }, uniquingKeysWith: +)
    }
}

// MARK: - Calls

extension AppStoreServerAPIClient {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PUT /inApps/v1/messaging/image/{imageIdentifier}[?imageSize=…] with the PNG bytes as the body
    /// (https://developer.apple.com/documentation/retentionmessaging/upload-image). The identifier
    /// is sent in upper case, as Apple's libraries do. Bytes that do not start with the PNG
    /// signature are refused before sending (Apple answers InvalidImageError).
    public func uploadImage(imageIdentifier: UUID, png: [UInt8], imageSize: ImageSize? = nil) async throws {
        guard png.starts(with: Self.pngSignature) else {
            throw AppleAPIRequestError(field: "image", reason: "not a PNG file (the first 8 bytes are not the PNG signature)")
        }
        _ = try await requester.send(
            "PUT", "/inApps/v1/messaging/image/\(imageIdentifier.uuidString.uppercased())",
            query: imageSize.map { [("imageSize", $0.rawValue)] } ?? [],
            body: AppleAPIRequester.Body(bytes: png, contentType: "image/png"))
    }

    /// DELETE /inApps/v1/messaging/image/{imageIdentifier}
    public func deleteImage(imageIdentifier: UUID) async throws {
        try await callVoid("DELETE", "/inApps/v1/messaging/image/\(imageIdentifier.uuidString.uppercased())")
    }

    /// GET /inApps/v1/messaging/image/list
    public func getImageList() async throws -> GetImageListResponse {
        try await call("GET", "/inApps/v1/messaging/image/list")
    }

    /// PUT /inApps/v1/messaging/message/{messageIdentifier}; the body is checked against Apple's
    /// limits first (`UploadMessageRequestBody.validate()`).
    public func uploadMessage(messageIdentifier: UUID, body: UploadMessageRequestBody) async throws {
        try body.validate()
        try await callVoid("PUT", "/inApps/v1/messaging/message/\(messageIdentifier.uuidString.uppercased())", body: body)
    }

    /// DELETE /inApps/v1/messaging/message/{messageIdentifier}
    public func deleteMessage(messageIdentifier: UUID) async throws {
        try await callVoid("DELETE", "/inApps/v1/messaging/message/\(messageIdentifier.uuidString.uppercased())")
    }

    /// GET /inApps/v1/messaging/message/list
    public func getMessageList() async throws -> GetMessageListResponse {
        try await call("GET", "/inApps/v1/messaging/message/list")
    }

    /// PUT /inApps/v1/messaging/default/{productId}/{locale}
    public func configureDefaultMessage(productId: String, locale: String, request: DefaultConfigurationRequest) async throws {
        try await callVoid("PUT", "/inApps/v1/messaging/default/\(segment(productId))/\(segment(locale))", body: request)
    }

    /// DELETE /inApps/v1/messaging/default/{productId}/{locale}
    public func deleteDefaultMessage(productId: String, locale: String) async throws {
        try await callVoid("DELETE", "/inApps/v1/messaging/default/\(segment(productId))/\(segment(locale))")
    }

    /// GET /inApps/v1/messaging/default/{productId}/{locale}
    public func getDefaultMessage(productId: String, locale: String) async throws -> DefaultConfigurationResponse {
        try await call("GET", "/inApps/v1/messaging/default/\(segment(productId))/\(segment(locale))")
    }

    /// PUT /inApps/v1/messaging/realtime/url. Only an absolute https URL is sent.
    public func configureRealtimeURL(request: RealtimeUrlRequest) async throws {
        guard let url = URL(string: request.realtimeURL), url.scheme?.lowercased() == "https", url.host != nil else {
            throw AppleAPIRequestError(field: "realtimeURL", reason: "\"\(request.realtimeURL)\" is not an absolute https URL")
        }
        try await callVoid("PUT", "/inApps/v1/messaging/realtime/url", body: request)
    }

    /// DELETE /inApps/v1/messaging/realtime/url
    public func deleteRealtimeURL() async throws {
        try await callVoid("DELETE", "/inApps/v1/messaging/realtime/url")
    }

    /// GET /inApps/v1/messaging/realtime/url
    public func getRealtimeURL() async throws -> RealtimeUrlResponse {
        try await call("GET", "/inApps/v1/messaging/realtime/url")
    }

    /// POST /inApps/v1/messaging/performanceTest
    public func initiatePerformanceTest(request: PerformanceTestRequest) async throws -> PerformanceTestResponse {
        try await call("POST", "/inApps/v1/messaging/performanceTest", body: request)
    }

    /// GET /inApps/v1/messaging/performanceTest/result/{requestId}
    public func getPerformanceTestResults(requestId: String) async throws -> PerformanceTestResultResponse {
        try await call("GET", "/inApps/v1/messaging/performanceTest/result/\(segment(requestId))")
    }
}
