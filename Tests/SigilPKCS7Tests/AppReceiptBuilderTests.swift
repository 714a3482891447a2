import Foundation
import SigilASN1
import SigilCore
import SigilReceipts
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilPKCS7

/// Receipts written by AppReceiptBuilder read back field for field, verify in Sigil and in
/// `openssl cms -verify`, and bind to their device GUID.
final class AppReceiptBuilderTests: XCTestCase {
    func testBuiltReceiptRoundTripsAndVerifies() throws {
        let now: Int64 = 1_790_000_000
        let caKey = ECDSAPrivateKey.generate(curve: .p256)
        let signerKey = ECDSAPrivateKey.generate(curve: .p256)
        let caName = CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Receipt Test CA")])
        let ca = try CertificateBuilder(
            serialNumber: [1], issuer: caName, subject: caName, notBefore: now - 1000, notAfter: now + 100_000,
            subjectPublicKeyInfo: caKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: true), .keyUsage([5, 6]), .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(caKey.publicKey)),
            ]
        ).sign(with: caKey)
        let signer = try CertificateBuilder(
            serialNumber: [0x0F, 0xAB], issuer: caName,
            subject: CertificateBuilder.name([(AttributeTypeAndValue.commonName, "Receipt Signer")]),
            notBefore: now - 1000, notAfter: now + 100_000, subjectPublicKeyInfo: signerKey.publicKey.spkiDER,
            extensions: [.keyUsage([0]), .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(caKey.publicKey))]
        ).sign(with: caKey)
        let guid: [UInt8] = Array(0..<16)
        let builder = AppReceiptBuilder(
            appItemID: 1_234_567_890, bundleID: "com.example.demo", appVersion: "2.1", originalApplicationVersion: "1.0",
            creationDate: now, opaqueValue: [9, 8, 7, 6], deviceGUID: guid,
            inAppPurchases: [
                .init(
                    productID: "com.example.demo.coins", transactionID: "1000000000000001",
                    originalTransactionID: "1000000000000001", purchaseDate: now - 60, originalPurchaseDate: now - 60),
                .init(
                    productID: "com.example.demo.monthly", transactionID: "1000000000000002",
                    originalTransactionID: "1000000000000000", purchaseDate: now - 30, originalPurchaseDate: now - 90_000,
                    subscriptionExpirationDate: now + 2_592_000, webOrderLineItemID: 42),
            ])
        let der = try AppReceiptBuilder.signedData(
            content: try builder.payload(), signer: signer, signerKey: signerKey, certificates: [signer])
        let signed = try CMSSignedData(berEncoded: der)
        let receipt = try AppReceipt(payload: try XCTUnwrap(signed.payload))
        XCTAssertEqual(receipt.bundleID, "com.example.demo")
        XCTAssertEqual(receipt.appItemID, 1_234_567_890)
        XCTAssertEqual(receipt.appVersion, "2.1")
        XCTAssertEqual(receipt.originalApplicationVersion, "1.0")
        XCTAssertEqual(receipt.creationDate, now)
        XCTAssertEqual(receipt.receiptType, "ProductionSandbox")
        XCTAssertEqual(receipt.inAppPurchases.map(\.transactionID), ["1000000000000001", "1000000000000002"])
        XCTAssertEqual(receipt.inAppPurchases[1].subscriptionExpirationDate, now + 2_592_000)
        XCTAssertEqual(receipt.inAppPurchases[1].webOrderLineItemID, 42)
        XCTAssertEqual(receipt.transactionID(.last), "1000000000000002")
        XCTAssertTrue(receipt.matchesDevice(guid: guid))
        XCTAssertFalse(receipt.matchesDevice(guid: Array(1...16)))

        let verified = try CMSSignedDataVerifier(trustedRoots: [ca]).verify(signed, at: now)
        XCTAssertEqual(verified.signer, signer)
        XCTAssertThrowsError(try CMSSignedDataVerifier(trustedRoots: [signer]).verify(signed, at: now + 200_000), "after expiry")
        // One changed byte of the product id inside the signed content: parses, does not verify.
        var tampered = der
        let range = try XCTUnwrap(der.firstRange(of: Array("com.example.demo.coins".utf8)))
        tampered[range.lowerBound] ^= 0x20
        let bad = try CMSSignedData(berEncoded: tampered)
        XCTAssertThrowsError(try CMSSignedDataVerifier(trustedRoots: [ca]).verify(bad, at: now))

        // openssl checks the CMS signature and hands back the same payload.
        let openssl = try Subprocess.require("openssl")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-receipt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(der).write(to: dir.appendingPathComponent("receipt.der"))
        try Data(ca.pemRepresentation.utf8).write(to: dir.appendingPathComponent("ca.pem"))
        let out = dir.appendingPathComponent("payload.bin").path
        let cms = try Subprocess.run(
            openssl,
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", dir.appendingPathComponent("receipt.der").path,
                "-CAfile", dir.appendingPathComponent("ca.pem").path, "-purpose", "any", "-attime", String(now),
                "-out", out,
            ])
        XCTAssertEqual(cms.status, 0, String(decoding: cms.stderr, as: UTF8.self))
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: out))), try builder.payload())
    }
}
