import Foundation
import SigilAppStore
import SigilCore
import SigilTokens
import XCTest

/// The Retention Messaging realtime response the developer returns to Apple.
final class RealtimeResponseTests: XCTestCase {
    func testExactlyOneChoiceAndRoundTrip() throws {
        let key = try AppleSigningKey(privateKey: ECDSAPrivateKey.generate(curve: .p256), keyID: "KEY1")
        let v2 = try AppleTokens.promotionalOfferV2(
            key: key, issuerID: "iss", bundleID: "com.example", productID: "p", offerIdentifier: "o",
            transactionID: nil, issuedAt: 1_700_000_000)
        let offer = RealtimeResponseBody(
            promotionalOffer: RealtimePromotionalOffer(messageIdentifier: "m1", promotionalOfferSignatureV2: v2))
        XCTAssertNoThrow(try offer.validate())
        let json = try JSONEncoder().encode(offer)
        XCTAssertEqual(try JSONDecoder().decode(RealtimeResponseBody.self, from: json), offer)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        XCTAssertEqual(object?.keys.sorted(), ["promotionalOffer"], "absent choices are not written")

        let v1 = PromotionalOfferSignatureV1(
            encodedSignature: "MEUC", productId: "p", nonce: "n", timestamp: 1_700_000_000_000, keyId: "KEY1",
            offerIdentifier: "o")
        let accepted: [RealtimeResponseBody] = [
            RealtimeResponseBody(message: RealtimeMessage(messageIdentifier: "m")),
            RealtimeResponseBody(alternateProduct: AlternateProduct(messageIdentifier: "m", productId: "p2", billingPlanType: .monthly)),
            RealtimeResponseBody(promotionalOffer: RealtimePromotionalOffer(promotionalOfferSignatureV1: v1)),
            RealtimeResponseBody(advancedCommerceInfo: AdvancedCommerceInfo(advancedCommerceData: "jws")),
        ]
        for body in accepted {
            XCTAssertNoThrow(try body.validate(), "\(body)")
            XCTAssertEqual(try JSONDecoder().decode(RealtimeResponseBody.self, from: JSONEncoder().encode(body)), body)
        }
        let refused: [RealtimeResponseBody] = [
            RealtimeResponseBody(),
            RealtimeResponseBody(message: RealtimeMessage(messageIdentifier: "m"), alternateProduct: AlternateProduct(productId: "p")),
            RealtimeResponseBody(promotionalOffer: RealtimePromotionalOffer(messageIdentifier: "m")),
            RealtimeResponseBody(
                promotionalOffer: RealtimePromotionalOffer(promotionalOfferSignatureV2: v2, promotionalOfferSignatureV1: v1)),
        ]
        for body in refused {
            XCTAssertThrowsError(try body.validate(), "\(body)") { XCTAssertEqual(($0 as? AppStoreError)?.code, .invalidConfiguration) }
        }
        // An unknown billing plan type from Apple round-trips raw.
        let odd = try JSONDecoder().decode(AlternateProduct.self, from: Data(#"{"billingPlanType":"WEEKLY","productId":"p"}"#.utf8))
        XCTAssertEqual(odd.billingPlanType?.rawValue, "WEEKLY")
        XCTAssertEqual(odd.billingPlanType?.isDocumented, false)
    }
}
