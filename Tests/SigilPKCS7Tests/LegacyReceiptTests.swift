import Foundation
import SigilReceipts
import SigilTestSupport
import XCTest

@testable import SigilPKCS7

/// iOS 6-era transaction receipts: the real 2012 sandbox receipt and Apple's library fixture.
final class LegacyReceiptTests: XCTestCase {
    func testRealSandboxReceipt() throws {
        let url = try TestPaths.requireAppleVectors()
            .appendingPathComponent("real/receipts/voltrue2-in-app-purchase/legacy-transaction-receipt-sandbox-2012-mindmob.b64")
        let receipt = try LegacyTransactionReceipt(base64: Array(try Data(contentsOf: url)))
        XCTAssertEqual(receipt.transactionID, "1000000046178817")
        XCTAssertEqual(receipt.bundleID, "com.mindmobapp.MindMob")
        XCTAssertEqual(receipt.productID, "com.mindmobapp.download")
        XCTAssertEqual(receipt.environment, "Sandbox")
        XCTAssertNotNil(receipt.purchaseDateMilliseconds)
        let blob = try XCTUnwrap(receipt.signature)
        XCTAssertTrue([2, 3].contains(blob.version))
        XCTAssertEqual(blob.signature.count, blob.version == 2 ? 128 : 256)
        XCTAssertNil(blob.certificateError)
        XCTAssertTrue(
            blob.certificate?.subject.rfc4514String.contains("iTunes Store") ?? false, "\(String(describing: blob.certificate?.subject))")
    }

    func testAppleLibraryFixture() throws {
        let url = try TestPaths.requireAppleVectors()
            .appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/mock_signed_data/legacyTransaction")
        let receipt = try LegacyTransactionReceipt(base64: Array(try Data(contentsOf: url)))
        XCTAssertEqual(receipt.transactionID, "33993399")
        XCTAssertNil(receipt.signature)
    }

    func testMalformedInputsAreTypedErrors() {
        func refused(_ text: String) {
            XCTAssertThrowsError(try LegacyTransactionReceipt(base64: Array(Data(text.utf8).base64EncodedString().utf8)), text) {
                XCTAssertEqual(($0 as? ReceiptError)?.code, .malformed)
            }
        }
        refused("")
        refused("{")
        refused("{ \"a\" = \"b\" }")
        refused("{ \"a\" = \"b\"; \"a\" = \"c\"; }")
        refused("{ \"purchase-info\" = \"!!\"; }")
        refused("{ \"purchase-info\" = \"e30=\"; \"signature\" = \"AQ==\"; }")
        XCTAssertThrowsError(try LegacyTransactionReceipt(base64: Array("not base64 ***".utf8)))
        // Escapes and bare strings.
        let text =
            "{ \"purchase-info\" = \"\(Data("{ \"transaction-id\" = 12345; \"note\" = \"a\\\"b\\\\c\\u0041\"; }".utf8).base64EncodedString())\"; environment = Sandbox; }"
        let receipt = try? LegacyTransactionReceipt(base64: Array(Data(text.utf8).base64EncodedString().utf8))
        XCTAssertEqual(receipt?.transactionID, "12345")
        XCTAssertEqual(receipt?.purchaseValue("note"), "a\"b\\cA")
        XCTAssertEqual(receipt?.environment, "Sandbox")
    }
}
