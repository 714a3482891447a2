#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Retention Messaging realtime exchange (https://developer.apple.com/documentation/retentionmessaging):
// Apple POSTs a RealtimeRequestBody (a signed DecodedRealtimeRequestBody, verified by
// `SignedDataVerifier.verifyRealtimeRequest`) to the developer's realtime URL, and the developer
// answers with a RealtimeResponseBody naming one message, alternate product, promotional offer or
// Advanced Commerce offer to show. Identifiers stay strings exactly as sent.

/// The body Apple sends to the realtime URL
/// (https://developer.apple.com/documentation/retentionmessaging/realtimerequestbody).
public struct RealtimeRequestBody: Codable, Hashable, Sendable {
    /// A JWS whose payload is a `DecodedRealtimeRequestBody`.
    public var signedPayload: String?
    /// Creates the value; members left nil are not encoded.
    public init(signedPayload: String?) { self.signedPayload = signedPayload }
}

/// The developer's answer to a realtime request
/// (https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody). Apple
/// expects exactly one of the four members; `validate()` checks that before it is sent.
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
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
public struct RealtimeMessage: Codable, Hashable, Sendable {
    /// The identifier of the message to show.
    public var messageIdentifier: String?
    /// Creates the value; members left nil are not encoded.
    public init(messageIdentifier: String?) { self.messageIdentifier = messageIdentifier }
}

/// https://developer.apple.com/documentation/retentionmessaging/alternateproduct
public struct AlternateProduct: Codable, Hashable, Sendable {
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
public struct RealtimePromotionalOffer: Codable, Hashable, Sendable {
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
public struct PromotionalOfferSignatureV1: Codable, Hashable, Sendable {
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
public struct AdvancedCommerceInfo: Codable, Hashable, Sendable {
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
