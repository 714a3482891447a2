import Foundation
import SigilAppStore

// The Retention Messaging API (https://developer.apple.com/documentation/retentionmessaging):
// images, messages, default messages per product and locale, the realtime URL and its performance
// test. Same host, token and error handling as the App Store Server API. The realtime exchange's
// own bodies (RealtimeRequestBody / RealtimeResponseBody) live in SigilAppStore, next to the
// verifier of the signed request.

/// A request Sigil refuses to send because it breaks one of Apple's documented rules (the server
/// would answer 400 with the code named in `reason`).
public struct AppleAPIRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending field, as a path into the request (`bulletPoints[2].text`).
    public let field: String
    public let reason: String
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
    public var description: String { "\(field): \(reason)" }
}

// MARK: - Enumerations (open: unknown values kept raw)

/// https://developer.apple.com/documentation/retentionmessaging/imagesize
public struct ImageSize: AppStoreOpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fullSize = ImageSize(rawValue: "FULL_SIZE")
    public static let bulletPoint = ImageSize(rawValue: "BULLET_POINT")
    public static let documented: [ImageSize] = [.fullSize, .bulletPoint]
}

/// https://developer.apple.com/documentation/retentionmessaging/imagestate
public struct ImageState: AppStoreOpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let pending = ImageState(rawValue: "PENDING")
    public static let approved = ImageState(rawValue: "APPROVED")
    public static let rejected = ImageState(rawValue: "REJECTED")
    public static let documented: [ImageState] = [.pending, .approved, .rejected]
}

/// https://developer.apple.com/documentation/retentionmessaging/messagestate
public struct MessageState: AppStoreOpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let pending = MessageState(rawValue: "PENDING")
    public static let approved = MessageState(rawValue: "APPROVED")
    public static let rejected = MessageState(rawValue: "REJECTED")
    public static let documented: [MessageState] = [.pending, .approved, .rejected]
}

/// https://developer.apple.com/documentation/retentionmessaging/headerposition
public struct HeaderPosition: AppStoreOpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let aboveBody = HeaderPosition(rawValue: "ABOVE_BODY")
    public static let aboveImage = HeaderPosition(rawValue: "ABOVE_IMAGE")
    public static let documented: [HeaderPosition] = [.aboveBody, .aboveImage]
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestresult
public struct PerformanceTestStatus: AppStoreOpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let pending = PerformanceTestStatus(rawValue: "PENDING")
    public static let pass = PerformanceTestStatus(rawValue: "PASS")
    public static let fail = PerformanceTestStatus(rawValue: "FAIL")
    public static let documented: [PerformanceTestStatus] = [.pending, .pass, .fail]
}

/// The outcome of one delivery attempt (notifications, realtime performance tests)
/// (https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult).
public struct SendAttemptResult: AppStoreOpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    public static let unsuccessfulHTTPResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    public static let other = SendAttemptResult(rawValue: "OTHER")
    public static let documented: [SendAttemptResult] = [
        .success, .timedOut, .tlsIssue, .circularRedirect, .noResponse, .socketIssue,
        .unsupportedCharset, .invalidResponse, .prematureClose,
        .unsuccessfulHTTPResponseCode, .other,
    ]
}

// MARK: - Request and response bodies

/// https://developer.apple.com/documentation/retentionmessaging/uploadmessageimage
public struct UploadMessageImage: Codable, Hashable, Sendable {
    public var imageIdentifier: String
    public var altText: String
    public init(imageIdentifier: UUID, altText: String) {
        self.imageIdentifier = imageIdentifier.uuidString.lowercased()
        self.altText = altText
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/bulletpoint
public struct BulletPoint: Codable, Hashable, Sendable {
    public var text: String
    public var imageIdentifier: String
    public var altText: String
    public init(text: String, imageIdentifier: UUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier.uuidString.lowercased()
        self.altText = altText
    }
}

/// The Upload Message body (https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody).
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    public var header: String
    public var body: String
    public var image: UploadMessageImage?
    public var headerPosition: HeaderPosition?
    public var bulletPoints: [BulletPoint]?

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
        public static let header = 66
        public static let body = 144
        public static let altText = 150
        public static let bulletPoints = 5
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
    public var imageIdentifiers: [GetImageListResponseItem]?
}

public struct GetImageListResponseItem: Codable, Hashable, Sendable {
    public var imageIdentifier: String?
    public var imageState: ImageState?
    public var imageSize: ImageSize?
}

/// https://developer.apple.com/documentation/retentionmessaging/getmessagelistresponse
public struct GetMessageListResponse: Codable, Hashable, Sendable {
    public var messageIdentifiers: [GetMessageListResponseItem]?
}

public struct GetMessageListResponseItem: Codable, Hashable, Sendable {
    public var messageIdentifier: String?
    public var messageState: MessageState?
}

/// https://developer.apple.com/documentation/retentionmessaging/defaultconfigurationrequest
public struct DefaultConfigurationRequest: Codable, Hashable, Sendable {
    public var messageIdentifier: String
    public init(messageIdentifier: UUID) { self.messageIdentifier = messageIdentifier.uuidString.lowercased() }
}

/// https://developer.apple.com/documentation/retentionmessaging/defaultconfigurationresponse
public struct DefaultConfigurationResponse: Codable, Hashable, Sendable {
    public var messageIdentifier: String?
}

/// https://developer.apple.com/documentation/retentionmessaging/realtimeurlrequest
public struct RealtimeUrlRequest: Codable, Hashable, Sendable {
    public var realtimeURL: String
    public init(realtimeURL: String) { self.realtimeURL = realtimeURL }
}

/// https://developer.apple.com/documentation/retentionmessaging/realtimeurlresponse
public struct RealtimeUrlResponse: Codable, Hashable, Sendable {
    public var realtimeURL: String?
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestrequest
public struct PerformanceTestRequest: Codable, Hashable, Sendable {
    public var originalTransactionId: String
    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }
}

/// https://developer.apple.com/documentation/retentionmessaging/performancetestconfig
public struct PerformanceTestConfig: Codable, Hashable, Sendable {
    public var maxConcurrentRequests: Int64?
    public var totalRequests: Int64?
    /// Milliseconds.
    public var totalDuration: Int64?
    /// Milliseconds.
    public var responseTimeThreshold: Int64?
    /// Percent.
    public var successRateThreshold: Int32?
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
    public var config: PerformanceTestConfig?
    public var requestId: String?
}

/// Response-time percentiles in milliseconds.
public struct PerformanceTestResponseTimes: Codable, Hashable, Sendable {
    public var average: Int64?
    public var p50: Int64?
    public var p90: Int64?
    public var p95: Int64?
    public var p99: Int64?
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
    public var config: PerformanceTestConfig?
    public var target: String?
    public var result: PerformanceTestStatus?
    public var successRate: Int32?
    public var numPending: Int32?
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
