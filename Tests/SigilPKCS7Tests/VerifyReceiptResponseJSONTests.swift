import Foundation
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilReceipts

/// `VerifyReceiptResponse.jsonText` (written directly, no `Encoder`: what Embedded Swift has)
/// against JSONEncoder with `.sortedKeys` and `.withoutEscapingSlashes` (what the CLI and the
/// notification receiver write): the same bytes for the real receipts' answers, every status,
/// every control character, and 2,000 seeded random bodies.
final class VerifyReceiptResponseJSONTests: XCTestCase {
    private func assertSameBytes(_ body: VerifyReceiptResponse, _ context: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(body), as: UTF8.self)
        XCTAssertEqual(body.jsonText, expected, context, file: file, line: line)
        // And it reads back as the same body.
        XCTAssertEqual(
            try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(body.jsonText.utf8)), body, context, file: file, line: line)
    }

    func testTheRealReceiptsAnswers() throws {
        let base = try TestPaths.requireAppleVectors().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let root = try Certificate(derEncoded: Array(try Data(contentsOf: base.appendingPathComponent("AppleIncRootCertificate.cer"))))
        let verifier = try AppReceiptVerifier(trustedRoots: [root], identity: .reportOnly, environments: [.production, .sandbox])
        var statuses: Set<Int> = []
        for name in ["receipt-production", "receipt-sandbox-g5"] {
            let receipt = Array(try Data(contentsOf: base.appendingPathComponent(name)))
            for endpoint in VerifyReceiptEndpoint.allCases {
                for time: Int64 in [1_790_000_000, 1_700_000_000, 0] {
                    let body = verifier.verifyReceiptResponse(receipt, sentTo: endpoint, requestTime: time)
                    statuses.insert(body.status)
                    try assertSameBytes(body, "\(name) sent to \(endpoint) at \(time)")
                }
            }
        }
        try assertSameBytes(verifier.verifyReceiptResponse(Array("garbage".utf8), sentTo: .production, requestTime: 0), "garbage")
        XCTAssertEqual(statuses, [0, 21007, 21008])
    }

    func testEveryCharacterAndShape() throws {
        var text = "quote \" backslash \\ slash / é 漢 😀 del \u{7F}"
        for value in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        var purchase = VerifyReceiptResponse.InApp()
        purchase.product_id = text
        purchase.quantity = "1"
        purchase.is_trial_period = "false"
        var receipt = VerifyReceiptResponse.Receipt(
            request_date: text, request_date_ms: "0", request_date_pst: "", in_app: [purchase, .init()])
        receipt.adam_id = -9_223_372_036_854_775_808
        receipt.app_item_id = 0
        receipt.bundle_id = ""
        try assertSameBytes(VerifyReceiptResponse(status: 0, environment: text, receipt: receipt), "every control character")
        receipt.in_app = []
        try assertSameBytes(VerifyReceiptResponse(status: -1, environment: nil, receipt: receipt), "no in_app")
        try assertSameBytes(VerifyReceiptResponse(status: 21002), "status only")
    }

    func testRandomBodies() throws {
        var rng = SeededGenerator(seed: 0x5652_5220)
        let alphabet = Array("aZ09 _-/\\\"\u{0}\u{1F}\u{7F}é😀\n\t".unicodeScalars)
        func text() -> String? {
            guard Bool.random(using: &rng) else { return nil }
            var out = ""
            for _ in 0..<Int.random(in: 0..<12, using: &rng) { out.unicodeScalars.append(alphabet.randomElement(using: &rng) ?? "a") }
            return out
        }
        for round in 0..<2_000 {
            var receipt = VerifyReceiptResponse.Receipt(
                request_date: text() ?? "", request_date_ms: text() ?? "", request_date_pst: text() ?? "", in_app: [])
            receipt.receipt_type = text()
            receipt.adam_id = Bool.random(using: &rng) ? Int64.random(in: .min ... .max, using: &rng) : nil
            receipt.bundle_id = text()
            receipt.expiration_date_ms = text()
            for _ in 0..<Int.random(in: 0..<3, using: &rng) {
                var purchase = VerifyReceiptResponse.InApp()
                purchase.transaction_id = text()
                purchase.cancellation_reason = text()
                purchase.promotional_offer_id = text()
                receipt.in_app.append(purchase)
            }
            let body = VerifyReceiptResponse(
                status: Int.random(in: -5...21010, using: &rng), environment: text(), receipt: Bool.random(using: &rng) ? receipt : nil)
            try assertSameBytes(body, "round \(round)")
        }
    }
}
