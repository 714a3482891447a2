import SigilJOSE
import SigilX509

// Retention Messaging realtime exchange (https://developer.apple.com/documentation/retentionmessaging):
// Apple POSTs a RealtimeRequestBody (a signed DecodedRealtimeRequestBody, verified by
// `SignedDataVerifier.verifyRealtimeRequest`) to the developer's realtime URL, and the developer
// answers with a RealtimeResponseBody naming one message, alternate product, promotional offer or
// Advanced Commerce offer to show. Identifiers stay strings exactly as sent.

/// The body Apple sends to the realtime URL
/// (https://developer.apple.com/documentation/retentionmessaging/realtimerequestbody).
public struct RealtimeRequestBody: Hashable, Sendable {
    /// A JWS whose payload is a `DecodedRealtimeRequestBody`.
    public var signedPayload: String?
    /// Creates the value; members left nil are not encoded.
    public init(signedPayload: String?) { self.signedPayload = signedPayload }
}

/// The developer's answer to a realtime request
/// (https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody). Apple
/// expects exactly one of the four members; `validate()` checks that before it is sent.
public struct RealtimeResponseBody: Hashable, Sendable {
    /// A Retention Messaging message to show.
    public var message: RealtimeMessage?
    /// A product to offer instead.
    public var alternateProduct: AlternateProduct?
    /// A promotional offer to show.
    public var promotionalOffer: RealtimePromotionalOffer?
    /// The Advanced Commerce API data, for a product sold through it.
    public var advancedCommerceInfo: AdvancedCommerceInfo?

    /// Creates the value; members left nil are not encoded.
    public init(
        message: RealtimeMessage? = nil, alternateProduct: AlternateProduct? = nil,
        promotionalOffer: RealtimePromotionalOffer? = nil, advancedCommerceInfo: AdvancedCommerceInfo? = nil
    ) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
        self.advancedCommerceInfo = advancedCommerceInfo
    }

    /// Exactly one of message, alternateProduct, promotionalOffer and advancedCommerceInfo is set,
    /// and a promotional offer carries one signature form, not both.
    public func validate() throws(AppStoreError) {
        let present = [message != nil, alternateProduct != nil, promotionalOffer != nil, advancedCommerceInfo != nil].filter { $0 }.count
        guard present == 1 else {
            throw AppStoreError(
                .invalidConfiguration,
                "a realtime response names exactly one of message, alternateProduct, promotionalOffer, "
                    + "advancedCommerceInfo; this one has \(present)")
        }
        if let offer = promotionalOffer, (offer.promotionalOfferSignatureV1 == nil) == (offer.promotionalOfferSignatureV2 == nil) {
            throw AppStoreError(
                .invalidConfiguration, "promotionalOffer carries exactly one of promotionalOfferSignatureV1 and promotionalOfferSignatureV2"
            )
        }
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/message
public struct RealtimeMessage: Hashable, Sendable {
    /// The identifier of the message to show.
    public var messageIdentifier: String?
    /// Creates the value; members left nil are not encoded.
    public init(messageIdentifier: String?) { self.messageIdentifier = messageIdentifier }
}

/// https://developer.apple.com/documentation/retentionmessaging/alternateproduct
public struct AlternateProduct: Hashable, Sendable {
    /// The identifier of the message to show.
    public var messageIdentifier: String?
    /// The in-app purchase's product identifier.
    public var productId: String?
    /// How a subscription with a commitment is billed.
    public var billingPlanType: BillingPlanType?
    /// Creates the value; members left nil are not encoded.
    public init(messageIdentifier: String? = nil, productId: String? = nil, billingPlanType: BillingPlanType? = nil) {
        self.messageIdentifier = messageIdentifier
        self.productId = productId
        self.billingPlanType = billingPlanType
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/promotionaloffer
public struct RealtimePromotionalOffer: Hashable, Sendable {
    /// The identifier of the message to show.
    public var messageIdentifier: String?
    /// A JWS from `AppleTokens.promotionalOfferV2`.
    public var promotionalOfferSignatureV2: String?
    /// The StoreKit 1 promotional offer signature.
    public var promotionalOfferSignatureV1: PromotionalOfferSignatureV1?
    /// Creates the value; members left nil are not encoded.
    public init(
        messageIdentifier: String? = nil, promotionalOfferSignatureV2: String? = nil,
        promotionalOfferSignatureV1: PromotionalOfferSignatureV1? = nil
    ) {
        self.messageIdentifier = messageIdentifier
        self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
        self.promotionalOfferSignatureV1 = promotionalOfferSignatureV1
    }
}

/// The parts of a v1 promotional offer signature
/// (https://developer.apple.com/documentation/retentionmessaging/promotionaloffersignaturev1).
/// `encodedSignature` is the base64 DER signature `AppleTokens.promotionalOfferV1` returns for the
/// same fields.
public struct PromotionalOfferSignatureV1: Hashable, Sendable {
    /// The signature, base64.
    public var encodedSignature: String
    /// The in-app purchase's product identifier.
    public var productId: String
    /// The nonce the signature covers (a lowercase UUID).
    public var nonce: String
    /// Milliseconds since 1970.
    public var timestamp: Int64
    /// The identifier of the key that made the signature.
    public var keyId: String
    /// The offer code or promotional offer identifier.
    public var offerIdentifier: String
    /// The UUID your app associated with the user at purchase, when it set one.
    public var appAccountToken: String?
    /// Creates the value; members left nil are not encoded.
    public init(
        encodedSignature: String, productId: String, nonce: String, timestamp: Int64, keyId: String, offerIdentifier: String,
        appAccountToken: String? = nil
    ) {
        self.encodedSignature = encodedSignature
        self.productId = productId
        self.nonce = nonce
        self.timestamp = timestamp
        self.keyId = keyId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }
}

/// https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo
public struct AdvancedCommerceInfo: Hashable, Sendable {
    /// The identifier of the message to show.
    public var messageIdentifier: String?
    /// A JWS from `AppleTokens.advancedCommerceInAppRequest`.
    public var advancedCommerceData: String?
    /// Creates the value; members left nil are not encoded.
    public init(messageIdentifier: String? = nil, advancedCommerceData: String? = nil) {
        self.messageIdentifier = messageIdentifier
        self.advancedCommerceData = advancedCommerceData
    }
}

#if !hasFeature(Embedded)
extension RealtimeRequestBody: Codable {}
extension RealtimeRequestBody.CodingKeys: CodingKey {}
extension RealtimeResponseBody: Codable {}
extension RealtimeResponseBody.CodingKeys: CodingKey {}
extension RealtimeMessage: Codable {}
extension RealtimeMessage.CodingKeys: CodingKey {}
extension AlternateProduct: Codable {}
extension AlternateProduct.CodingKeys: CodingKey {}
extension RealtimePromotionalOffer: Codable {}
extension RealtimePromotionalOffer.CodingKeys: CodingKey {}
extension PromotionalOfferSignatureV1: Codable {}
extension PromotionalOfferSignatureV1.CodingKeys: CodingKey {}
extension AdvancedCommerceInfo: Codable {}
extension AdvancedCommerceInfo.CodingKeys: CodingKey {}
#endif

extension RealtimeRequestBody {
    /// Reads a realtime request body from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The request body as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension RealtimeResponseBody {
    /// Reads a realtime response body from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The response body as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension RealtimeRequestBody: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case signedPayload
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(signedPayload: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .signedPayload: signedPayload = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .signedPayload: signedPayload?.memberJSON
        }
    }
}

extension RealtimeResponseBody: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case message, alternateProduct, promotionalOffer, advancedCommerceInfo
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(message: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .message: message = try RealtimeMessage(member: value)
        case .alternateProduct: alternateProduct = try AlternateProduct(member: value)
        case .promotionalOffer: promotionalOffer = try RealtimePromotionalOffer(member: value)
        case .advancedCommerceInfo: advancedCommerceInfo = try AdvancedCommerceInfo(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .message: message?.memberJSON
        case .alternateProduct: alternateProduct?.memberJSON
        case .promotionalOffer: promotionalOffer?.memberJSON
        case .advancedCommerceInfo: advancedCommerceInfo?.memberJSON
        }
    }
}

extension RealtimeMessage: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case messageIdentifier
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(messageIdentifier: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .messageIdentifier: messageIdentifier = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .messageIdentifier: messageIdentifier?.memberJSON
        }
    }
}

extension AlternateProduct: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case messageIdentifier, productId, billingPlanType
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(messageIdentifier: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .messageIdentifier: messageIdentifier = try String(member: value)
        case .productId: productId = try String(member: value)
        case .billingPlanType: billingPlanType = try BillingPlanType(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .messageIdentifier: messageIdentifier?.memberJSON
        case .productId: productId?.memberJSON
        case .billingPlanType: billingPlanType?.memberJSON
        }
    }
}

extension RealtimePromotionalOffer: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case messageIdentifier, promotionalOfferSignatureV2, promotionalOfferSignatureV1
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(messageIdentifier: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .messageIdentifier: messageIdentifier = try String(member: value)
        case .promotionalOfferSignatureV2: promotionalOfferSignatureV2 = try String(member: value)
        case .promotionalOfferSignatureV1: promotionalOfferSignatureV1 = try PromotionalOfferSignatureV1(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .messageIdentifier: messageIdentifier?.memberJSON
        case .promotionalOfferSignatureV2: promotionalOfferSignatureV2?.memberJSON
        case .promotionalOfferSignatureV1: promotionalOfferSignatureV1?.memberJSON
        }
    }
}

extension AdvancedCommerceInfo: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case messageIdentifier, advancedCommerceData
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(messageIdentifier: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .messageIdentifier: messageIdentifier = try String(member: value)
        case .advancedCommerceData: advancedCommerceData = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .messageIdentifier: messageIdentifier?.memberJSON
        case .advancedCommerceData: advancedCommerceData?.memberJSON
        }
    }
}

extension PromotionalOfferSignatureV1: ModelValue {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case encodedSignature, productId, nonce, timestamp, keyId, offerIdentifier, appAccountToken
    }

    /// The members as read, each nil until read: all but appAccountToken are required.
    struct Partial: DirectModel {
        static let members = ModelMembers<CodingKeys>()
        var encodedSignature: String?
        var productId: String?
        var nonce: String?
        var timestamp: Int64?
        var keyId: String?
        var offerIdentifier: String?
        var appAccountToken: String?

        static func isRequired(_ member: Member) -> Bool { member != .appAccountToken }

        @inline(__always)
        mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
            switch member {
            case .encodedSignature: encodedSignature = try String(member: value)
            case .productId: productId = try String(member: value)
            case .nonce: nonce = try String(member: value)
            case .timestamp: timestamp = try Int64(member: value)
            case .keyId: keyId = try String(member: value)
            case .offerIdentifier: offerIdentifier = try String(member: value)
            case .appAccountToken: appAccountToken = try String(member: value)
            }
        }

        func json(of member: CodingKeys) -> JSONValue? {
            switch member {
            case .encodedSignature: encodedSignature?.memberJSON
            case .productId: productId?.memberJSON
            case .nonce: nonce?.memberJSON
            case .timestamp: timestamp?.memberJSON
            case .keyId: keyId?.memberJSON
            case .offerIdentifier: offerIdentifier?.memberJSON
            case .appAccountToken: appAccountToken?.memberJSON
            }
        }
    }

    /// The required members unwrapped in declaration order (the first absent or refused is
    /// reported), then appAccountToken's refusal, if any.
    init(member json: JSONValue) throws(ModelReadFailure) {
        var partial = Partial()
        let refusal = try partial.readMembers(of: json)
        self.init(
            encodedSignature: try partial.required(partial.encodedSignature, .encodedSignature, refusal),
            productId: try partial.required(partial.productId, .productId, refusal),
            nonce: try partial.required(partial.nonce, .nonce, refusal),
            timestamp: try partial.required(partial.timestamp, .timestamp, refusal),
            keyId: try partial.required(partial.keyId, .keyId, refusal),
            offerIdentifier: try partial.required(partial.offerIdentifier, .offerIdentifier, refusal),
            appAccountToken: partial.appAccountToken)
        if let refusal { throw refusal.failure }
    }

    var memberJSON: JSONValue {
        Partial(
            encodedSignature: encodedSignature, productId: productId, nonce: nonce, timestamp: timestamp, keyId: keyId,
            offerIdentifier: offerIdentifier, appAccountToken: appAccountToken
        ).memberJSON
    }
}
