import Foundation
import SigilASN1
import SigilApplePKI
import SigilCore
import SigilReceipts
import SigilTestSupport
import XCTest

@testable import SigilPKCS7

/// The payloads of the real receipts and of Apple's library test receipts, every field the
/// PROVENANCE files list.
final class AppReceiptTests: XCTestCase {
    private func receipt(_ url: URL) throws -> (CMSSignedData, AppReceipt) {
        let text = try String(contentsOf: url, encoding: .utf8)
        let bytes = Array(try XCTUnwrap(Data(base64Encoded: text, options: .ignoreUnknownCharacters)))
        let signed = try CMSSignedData(berEncoded: bytes)
        return (signed, try AppReceipt(payload: try XCTUnwrap(signed.payload)))
    }

    private func date(_ text: String) -> Int64? { ReceiptAttribute.parseDate(text) }

    func testProductionAndSandboxReceipts() throws {
        let base = try TestPaths.requireAppleVectors().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let (_, production) = try receipt(base.appendingPathComponent("receipt-production"))
        XCTAssertEqual(production.receiptType, "Production")
        XCTAssertEqual(production.bundleID, "org.getpure.pure-iphone")
        XCTAssertEqual(production.appVersion, "15741")
        XCTAssertEqual(production.creationDate, date("2024-02-23T17:27:16Z"))
        XCTAssertEqual(production.inAppPurchases.count, 4)
        XCTAssertEqual(
            production.inAppPurchases.map(\.transactionID),
            ["340001196262039", "340001237736590", "340001264290434", "340001311555626"])
        XCTAssertEqual(production.transactionID(), "340001196262039", "Apple's Python/Java/Node libraries")
        XCTAssertEqual(production.transactionID(.last), "340001311555626")
        XCTAssertEqual(production.sha1Hash?.count, 20)
        XCTAssertNotNil(production.opaqueValue)
        XCTAssertNotNil(production.bundleIDBytes)
        XCTAssertTrue(production.inAppPurchases.allSatisfy { $0.productID != nil && $0.purchaseDate != nil && $0.quantity == 1 })

        let (_, sandbox) = try receipt(base.appendingPathComponent("receipt-sandbox-g5"))
        XCTAssertEqual(sandbox.receiptType, "ProductionSandbox")
        XCTAssertEqual(sandbox.bundleID, "dev.bonzer.weeka.app")
        XCTAssertEqual(sandbox.creationDate, date("2025-12-26T18:39:47Z"))
        XCTAssertEqual(sandbox.inAppPurchases.map(\.transactionID), ["2000001092134138", "2000001092148094"])
        XCTAssertEqual(sandbox.transactionID(), "2000001092134138")
        // The device check needs the device's GUID, which these receipts' owners kept: a wrong one fails.
        XCTAssertFalse(sandbox.matchesDevice(guid: [UInt8](repeating: 0, count: 16)))
    }

    func testXcodeReceipt() throws {
        let base = try TestPaths.requireAppleVectors().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let (_, xcode) = try receipt(base.appendingPathComponent("xcode-local/receipt-xcode"))
        XCTAssertEqual(xcode.bundleID, "net.zachariadis.cyclemaps")
        XCTAssertEqual(xcode.inAppPurchases.count, 1)
        XCTAssertEqual(xcode.transactionID(), "0")
        // "2020-07-22T18:33:15+0100" style dates.
        XCTAssertNotNil(xcode.inAppPurchases.first?.purchaseDate)
    }

    /// Apple's library test receipts: one with a purchase gives "0"; the empty one has no
    /// transaction id, which is not an error.
    func testAppleLibraryXcodeReceipts() throws {
        let base = try TestPaths.requireAppleVectors().appendingPathComponent(
            "library/swift/Tests/AppStoreServerLibraryTests/resources/xcode")
        let (_, withTransaction) = try receipt(base.appendingPathComponent("xcode-app-receipt-with-transaction"))
        XCTAssertEqual(withTransaction.transactionID(), "0")
        XCTAssertEqual(withTransaction.transactionID(.last), "0")
        let (_, empty) = try receipt(base.appendingPathComponent("xcode-app-receipt-empty"))
        XCTAssertTrue(empty.inAppPurchases.isEmpty)
        XCTAssertNil(empty.transactionID())
    }

    func testDateForms() {
        XCTAssertEqual(ReceiptAttribute.parseDate("2020-07-22T18:33:15+0100"), ReceiptAttribute.parseDate("2020-07-22T17:33:15Z"))
        XCTAssertEqual(ReceiptAttribute.parseDate("2020-07-22T18:33:15+01:00"), ReceiptAttribute.parseDate("2020-07-22T17:33:15Z"))
        XCTAssertEqual(ReceiptAttribute.parseDate("2020-07-22T18:33:15.123Z"), ReceiptAttribute.parseDate("2020-07-22T18:33:15Z"))
        XCTAssertNil(ReceiptAttribute.parseDate("2020-07-22 18:33:15Z"))
        XCTAssertNil(ReceiptAttribute.parseDate("2020-13-22T18:33:15Z"))
        XCTAssertNil(ReceiptAttribute.parseDate(""))
    }
}
