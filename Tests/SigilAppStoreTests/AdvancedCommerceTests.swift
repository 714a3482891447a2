import Foundation
import SigilASN1
import SigilAdvancedCommerce
import SigilAppStore
import SigilCore
import SigilJOSE
import SigilTestSupport
import SigilTokens
import XCTest

/// Apple's Advanced Commerce model fixtures: each decodes with every field, re-encodes to the same
/// JSON (in-app requests add their fixed operation and version), and the in-app requests sign
/// into a JWS whose `request` claim carries exactly that JSON. Apple's field limits are refused
/// before signing.
final class AdvancedCommerceTests: XCTestCase {
    func fixture(_ name: String, java: Bool = false) throws -> Data {
        let base = java ? "library/java/src/test/resources/models" : "library/swift/Tests/AppStoreServerLibraryTests/resources/models"
        return try Data(contentsOf: try TestPaths.requireAppleVectors().appendingPathComponent("\(base)/\(name).json"))
    }

    func object(_ data: Data) throws -> NSDictionary {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    /// Decodes with Foundation and with the strict decoder (same value), re-encodes, and compares
    /// with the fixture plus `extra` members.
    @discardableResult
    func roundTrip<T: Codable & Equatable>(
        _ type: T.Type, _ name: String, java: Bool = false, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> T {
        let data = try fixture(name, java: java)
        let decoded = try JSONDecoder().decode(T.self, from: data)
        XCTAssertEqual(try JSONValueDecoder().decode(T.self, fromJSON: data), decoded, name, file: file, line: line)
        let expected = try object(data).mutableCopy() as? NSMutableDictionary
        for (k, v) in extra { expected?[k] = v }
        if java { expected?.removeObject(forKey: "unknownField") }
        XCTAssertEqual(try object(try JSONEncoder().encode(decoded)), expected, "\(name) does not round-trip", file: file, line: line)
        return decoded
    }

    func testEveryFixtureRoundTrips() throws {
        let d = try roundTrip(AdvancedCommerceDescriptors.self, "advancedCommerceDescriptors")
        XCTAssertEqual(d.displayName, "display name")
        let offer = try roundTrip(AdvancedCommerceOffer.self, "advancedCommerceOffer")
        XCTAssertEqual(offer, AdvancedCommerceOffer(period: .p1W, periodCount: 3, price: 5000, reason: .winBack))
        let info = try roundTrip(AdvancedCommerceRequestInfo.self, "advancedCommerceRequestInfo")
        XCTAssertEqual(info.appAccountToken, UUID(uuidString: "660e8400-e29b-41d4-a716-446655440011"))
        XCTAssertEqual(info.consistencyToken, "consistency_token_value")
        XCTAssertEqual(try roundTrip(AdvancedCommerceOneTimeChargeItem.self, "advancedCommerceOneTimeChargeItem").price, 15000)
        let refundItem = try roundTrip(AdvancedCommerceRequestRefundItem.self, "advancedCommerceRequestRefundItem")
        XCTAssertEqual(refundItem.refundReason, .legal)
        XCTAssertEqual(refundItem.refundAmount, 5000)
        let refund = try roundTrip(AdvancedCommerceRequestRefundRequest.self, "advancedCommerceRequestRefundRequest")
        XCTAssertEqual(refund.items.map(\.refundType), [.full, .prorated])
        XCTAssertTrue(refund.refundRiskingPreference)
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceRequestRefundResponse.self, "advancedCommerceRequestRefundResponse").signedTransactionInfo,
            "signed_transaction_info_value")
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionCancelRequest.self, "advancedCommerceSubscriptionCancelRequest").storefront, "USA")
        for name in [
            "advancedCommerceSubscriptionCancelResponse", "advancedCommerceSubscriptionChangeMetadataResponse",
            "advancedCommerceSubscriptionMigrateResponse", "advancedCommerceSubscriptionPriceChangeResponse",
            "advancedCommerceSubscriptionRevokeResponse",
        ] {
            try roundTrip(AdvancedCommerceSubscriptionResponse.self, name)
        }
        let unknown = try roundTrip(AdvancedCommerceSubscriptionResponse.self, "advancedCommerceResponseWithUnknownFields", java: true)
        XCTAssertEqual(unknown.signedRenewalInfo, "signed_renewal_info_value")
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionModifyDescriptors.self, "advancedCommerceSubscriptionChangeMetadataDescriptors")
                .effective,
            .immediately)
        let metadataItem = try roundTrip(
            AdvancedCommerceSubscriptionChangeMetadataItem.self, "advancedCommerceSubscriptionChangeMetadataItem")
        XCTAssertEqual(metadataItem.effective, .nextBillCycle)
        XCTAssertEqual(metadataItem.currentSKU, "currentSku")
        XCTAssertEqual(
            try roundTrip(
                AdvancedCommerceSubscriptionChangeMetadataItem.self, "advancedCommerceSubscriptionChangeMetadataItem",
                java: true
            ).currentSKU, "currentSKU")
        XCTAssertEqual(
            try roundTrip(
                AdvancedCommerceSubscriptionChangeMetadataRequest.self,
                "advancedCommerceSubscriptionChangeMetadataRequest"
            ).items?.first?.sku, "sku")
        XCTAssertEqual(try roundTrip(AdvancedCommerceSubscriptionCreateItem.self, "advancedCommerceSubscriptionCreateItem").price, 20000)
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceDescriptors.self, "advancedCommerceSubscriptionMigrateDescriptors").displayName, "displayName")
        try roundTrip(AdvancedCommerceSubscriptionMigrateItem.self, "advancedCommerceSubscriptionMigrateItem")
        try roundTrip(AdvancedCommerceSubscriptionMigrateItem.self, "advancedCommerceSubscriptionMigrateRenewalItem")
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionMigrateRequest.self, "advancedCommerceSubscriptionMigrateRequest").targetProductId,
            "targetProductId")
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionModifyAddItem.self, "advancedCommerceSubscriptionModifyAddItem").price, 12000)
        let change = try roundTrip(AdvancedCommerceSubscriptionModifyChangeItem.self, "advancedCommerceSubscriptionModifyChangeItem")
        XCTAssertEqual(change.reason, .upgrade)
        try roundTrip(AdvancedCommerceSubscriptionModifyChangeItem.self, "advancedCommerceSubscriptionModifyChangeItem", java: true)
        try roundTrip(AdvancedCommerceSubscriptionModifyDescriptors.self, "advancedCommerceSubscriptionModifyDescriptors")
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionModifyPeriodChange.self, "advancedCommerceSubscriptionModifyPeriodChange").period,
            .p3M)
        try roundTrip(AdvancedCommerceSKUItem.self, "advancedCommerceSubscriptionModifyRemoveItem")
        try roundTrip(AdvancedCommerceSKUItem.self, "advancedCommerceSubscriptionReactivateItem")
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionPriceChangeItem.self, "advancedCommerceSubscriptionPriceChangeItem").dependentSKUs,
            ["dependentSKU"])
        XCTAssertEqual(
            try roundTrip(AdvancedCommerceSubscriptionPriceChangeRequest.self, "advancedCommerceSubscriptionPriceChangeRequest").items
                .first?.price,
            15000)
        let revoke = try roundTrip(AdvancedCommerceSubscriptionRevokeRequest.self, "advancedCommerceSubscriptionRevokeRequest")
        XCTAssertEqual(revoke.refundType, .full)

        // In-app requests: decoding sets operation and version, encoding writes them.
        let oneTime = try roundTrip(
            AdvancedCommerceOneTimeChargeCreateRequest.self, "advancedCommerceOneTimeChargeCreateRequest",
            extra: ["operation": "CREATE_ONE_TIME_CHARGE", "version": "1"])
        XCTAssertEqual(oneTime.item.price, 10000)
        let create = try roundTrip(
            AdvancedCommerceSubscriptionCreateRequest.self, "advancedCommerceSubscriptionCreateRequest",
            extra: ["operation": "CREATE_SUBSCRIPTION", "version": "1"])
        XCTAssertEqual(create.items.map(\.price), [20000, 30000])
        XCTAssertEqual(create.period, .p1M)
        let modify = try roundTrip(
            AdvancedCommerceSubscriptionModifyInAppRequest.self, "advancedCommerceSubscriptionModifyInAppRequest",
            extra: ["operation": "MODIFY_SUBSCRIPTION", "version": "1"])
        XCTAssertTrue(modify.retainBillingCycle)
        let reactivate = try roundTrip(
            AdvancedCommerceSubscriptionReactivateInAppRequest.self, "advancedCommerceSubscriptionReactivateInAppRequest",
            extra: ["operation": "REACTIVATE_SUBSCRIPTION", "version": "1"])
        XCTAssertEqual(reactivate.items?.first?.sku, "sku")
        // A request carrying another operation or version is refused.
        let json = try object(try fixture("advancedCommerceSubscriptionReactivateInAppRequest")).mutableCopy() as? NSMutableDictionary
        json?["operation"] = "CREATE_SUBSCRIPTION"
        XCTAssertThrowsError(
            try JSONDecoder().decode(
                AdvancedCommerceSubscriptionReactivateInAppRequest.self,
                from: try JSONSerialization.data(withJSONObject: json ?? [:])))
        json?["operation"] = "REACTIVATE_SUBSCRIPTION"
        json?["version"] = "2"
        XCTAssertThrowsError(
            try JSONDecoder().decode(
                AdvancedCommerceSubscriptionReactivateInAppRequest.self,
                from: try JSONSerialization.data(withJSONObject: json ?? [:])))
    }

    func testSignedInAppRequestAndLimits() throws {
        let key = try AppleSigningKey(privateKey: ECDSAPrivateKey.generate(curve: .p256), keyID: "KEY1234567")
        let info = AdvancedCommerceRequestInfo(requestReferenceId: UUID(uuidString: "550E8400-E29B-41D4-A716-446655440000") ?? UUID())
        let item = AdvancedCommerceSubscriptionCreateItem(
            sku: "sku", description: "d", displayName: "n", price: 999,
            offer: AdvancedCommerceOffer(period: .p1M, periodCount: 2, price: 100, reason: .acquisition))
        let request = AdvancedCommerceSubscriptionCreateRequest(
            requestInfo: info, currency: "USD",
            descriptors: AdvancedCommerceDescriptors(description: "desc", displayName: "name"),
            items: [item], period: .p1M, taxCode: "C003-00-1")
        let token = try AppleTokens.advancedCommerceInAppRequest(
            key: key, issuerID: "issuer", bundleID: "com.example", request: request,
            nonce: "nonce", issuedAt: 1_700_000_000)
        let jws = try JWS(compact: token)
        try jws.verify(with: .ecdsa(key.privateKey.publicKey))
        let claims = try jws.payloadJSON()
        XCTAssertEqual(claims["aud"]?.stringValue, "advanced-commerce-api")
        let requestBytes = try Base64.decode(Array((claims["request"]?.stringValue ?? "").utf8), alphabet: .standard)
        let decoded = try JSONValueDecoder().decode(AdvancedCommerceSubscriptionCreateRequest.self, fromJSON: requestBytes)
        XCTAssertEqual(decoded, request)
        let requestJSON = try JSONValue(parsing: requestBytes)
        XCTAssertEqual(requestJSON["operation"]?.stringValue, "CREATE_SUBSCRIPTION")
        XCTAssertEqual(requestJSON["version"]?.stringValue, "1")
        XCTAssertEqual(requestJSON["requestInfo"]?["requestReferenceId"]?.stringValue, "550e8400-e29b-41d4-a716-446655440000")

        func refused(_ r: some AdvancedCommerceInAppRequest, _ fragment: String, line: UInt = #line) {
            XCTAssertThrowsError(
                try AppleTokens.advancedCommerceInAppRequest(key: key, issuerID: "i", bundleID: "b", request: r, issuedAt: 0),
                line: line
            ) { error in
                XCTAssertEqual((error as? AppStoreError)?.code, .invalidConfiguration, line: line)
                XCTAssertTrue("\(error)".contains(fragment), "\(error) should name \(fragment)", line: line)
            }
        }
        var r = request
        r.descriptors.description = String(repeating: "x", count: 46)
        refused(r, "descriptors.description")
        r = request
        r.descriptors.displayName = String(repeating: "x", count: 31)
        refused(r, "descriptors.displayName")
        r = request
        r.items[0].sku = String(repeating: "s", count: 129)
        refused(r, "items[0].SKU")
        r = request
        r.items[0].offer?.periodCount = 13
        refused(r, "items[0].offer.periodCount")
        r = request
        r.items = []
        refused(r, "items")
        var modify = AdvancedCommerceSubscriptionModifyInAppRequest(
            requestInfo: info, transactionId: "1", retainBillingCycle: false, removeItems: [])
        refused(modify, "removeItems")
        modify.removeItems = [AdvancedCommerceSKUItem(sku: "a")]
        XCTAssertNoThrow(try AppleTokens.advancedCommerceInAppRequest(key: key, issuerID: "i", bundleID: "b", request: modify, issuedAt: 0))
        // The limits count characters, not bytes: 45 two-byte characters are allowed.
        r = request
        r.descriptors.description = String(repeating: "é", count: 45)
        XCTAssertNoThrow(try AppleTokens.advancedCommerceInAppRequest(key: key, issuerID: "i", bundleID: "b", request: r, issuedAt: 0))
    }
}
