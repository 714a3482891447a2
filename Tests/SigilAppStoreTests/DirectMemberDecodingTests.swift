import Foundation
import SigilJOSE
import SigilTestSupport
import XCTest

@testable import SigilAppStore

/// A transaction's members read directly (`JWSTransactionDecodedPayload(json:)`) against the
/// generic `JSONValueDecoder`: whenever the generic decoder gives a value the direct reading gives
/// the same one, and whenever it refuses, the direct reading refuses too. Every scalar member
/// swapped for values of every kind and edge form, real transactions, Apple's library fixtures.
/// About 700 small parses and decodes: milliseconds. (DirectReaderDifferentialTests compares
/// every model's reader, refusals included, on far more variants.)
final class DirectMemberDecodingTests: XCTestCase {
    /// Every member the direct reader handles, each with a valid value.
    private static let flat = """
        {"transactionId":"23456","originalTransactionId":"12345","webOrderLineItemId":"34343","bundleId":"com.example",
        "productId":"com.example.product","subscriptionGroupIdentifier":"55555","purchaseDate":1698148900000,
        "originalPurchaseDate":1698148800000,"expiresDate":1698149000000.5,"quantity":1,"type":"Auto-Renewable Subscription",
        "appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138","inAppOwnershipType":"PURCHASED","signedDate":1698148900000,
        "revocationReason":1,"revocationDate":1698148950000,"isUpgraded":true,"offerType":1,"offerIdentifier":"abc.123",
        "environment":"LocalTesting","transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":10990,
        "currency":"USD","offerDiscountType":"PAY_AS_YOU_GO","appTransactionId":"71134","offerPeriod":"P1Y",
        "revocationType":"REFUND_PRORATED","revocationPercentage":50000,"billingPlanType":"MONTHLY",
        "deviceVerification":"abc=","deviceVerificationNonce":"7e3fb20b-4cdb-47cc-936d-99d65f608139"}
        """

    private static let replacements = [
        "null", "\"x\"", "\"\"", "\"\\u00e9\"", "0", "1", "-1", "-0", "1.5", "1e3", "1E+2", "2147483648", "-2147483649",
        "9223372036854775808", "1e17", "-99999999999999999", "1e400", "true", "false", "{}", "[]", "[1]", "{\"a\":1}",
    ]

    private func generic(_ json: JSONValue) -> Result<JWSTransactionDecodedPayload, any Error> {
        Result { try JSONValueDecoder().decode(JWSTransactionDecodedPayload.self, from: json) }
    }

    /// The direct reading is the generic value, or refuses when the generic decoder refuses.
    /// Returns whether it gave a value.
    @discardableResult
    private func agree(_ json: JSONValue, _ context: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let direct = try? JWSTransactionDecodedPayload(json: json)
        switch generic(json) {
        case .success(let value):
            XCTAssertEqual(direct, value, context, file: file, line: line)
        case .failure(let error):
            XCTAssertNil(
                direct, "\(context): the generic decoder refuses (\(error)) but the direct reading gave a value", file: file, line: line)
        }
        return direct != nil
    }

    func testTheFlatTransactionIsReadDirectlyAndEqually() throws {
        let json = try JSONValue(parsing: Array(Self.flat.utf8))
        XCTAssertTrue(agree(json, "flat"))
        let value = try JWSTransactionDecodedPayload(json: json)
        XCTAssertEqual(value.expiresDate?.millisecondsSince1970, 1_698_149_000_000.5)
        XCTAssertEqual(value.revocationPercentage, 50000)
        XCTAssertEqual(value.type, .autoRenewableSubscription)
        XCTAssertNil(value.advancedCommerceInfo)
    }

    func testEveryMemberSwappedForEveryKindOfValue() throws {
        guard case .object(let members) = try JSONValue(parsing: Array(Self.flat.utf8)) else { return XCTFail("not an object") }
        var readDirectly = 0
        var refusedByBoth = 0
        for index in members.indices {
            for replacement in Self.replacements {
                var text = "{"
                for (i, member) in members.enumerated() {
                    if i > 0 { text += "," }
                    text += JSONValue.string(member.0).serialized + ":" + (i == index ? replacement : member.1.serialized)
                }
                text += "}"
                let json = try JSONValue(parsing: Array(text.utf8))
                if agree(json, "\(members[index].0) = \(replacement)") {
                    readDirectly += 1
                } else if case .failure = generic(json) {
                    refusedByBoth += 1
                }
            }
        }
        // Both outcomes are exercised: values read directly and values both refuse.
        XCTAssertGreaterThan(readDirectly, members.count * 3)
        XCTAssertGreaterThan(refusedByBoth, members.count * 3)
    }

    func testNestedAndUnknownMembersAreReadDirectlyToo() throws {
        // A member Apple adds later is ignored; the nested members are read like the others.
        for extra in ["\"someFutureMember\":1", "\"advancedCommerceInfo\":{\"taxCode\":\"T\"}", "\"commitmentInfo\":{}"] {
            let text = "{\"transactionId\":\"1\"," + extra + "}"
            let json = try JSONValue(parsing: Array(text.utf8))
            XCTAssertEqual(try JWSTransactionDecodedPayload(json: json), try generic(json).get(), extra)
        }
        XCTAssertThrowsError(try JWSTransactionDecodedPayload(json: .array([])))
        XCTAssertTrue(agree(try JSONValue(parsing: Array("{}".utf8)), "empty object"))
    }

    func testRealTransactionsAndApplesFixtures() throws {
        let apple = try TestPaths.requireAppleVectors()
        var payloads: [(String, [UInt8])] = []
        let jws = apple.appendingPathComponent("real/jws")
        let found = try XCTUnwrap(FileManager.default.enumerator(at: jws, includingPropertiesForKeys: nil))
        for case let url as URL in found where url.pathExtension == "jws" {
            let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            payloads.append((url.lastPathComponent, try JWS(compact: text).payload))
        }
        let models = apple.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/models")
        for name in ["signedTransaction.json", "signedTransactionWithRevocation.json"] {
            payloads.append((name, Array(try Data(contentsOf: models.appendingPathComponent(name)))))
        }
        var readDirectly = 0
        for (name, bytes) in payloads {
            if agree(try JSONValue(parsing: bytes), name) { readDirectly += 1 }
        }
        // Every payload is a valid transaction, read directly.
        XCTAssertEqual(readDirectly, payloads.count)
    }
}
