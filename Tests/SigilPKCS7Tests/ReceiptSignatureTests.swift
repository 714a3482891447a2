import Foundation
import SigilASN1
import SigilApplePKI
import SigilCore
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilPKCS7

/// The real receipts from the Apple third-party data: CMS parsed through the BER entry point and the signature
/// chain verified at the creation date (production and sandbox against Apple Root CA (Inc.); the
/// Xcode receipt, BER with indefinite lengths, only against its StoreKit test certificate).
final class ReceiptSignatureTests: XCTestCase {
    private func base64File(_ url: URL) throws -> [UInt8] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return Array(try XCTUnwrap(Data(base64Encoded: text, options: .ignoreUnknownCharacters)))
    }

    private func certificate(_ url: URL) throws -> Certificate {
        try Certificate(derEncoded: Array(try Data(contentsOf: url)))
    }

    func testRealReceiptsVerify() throws {
        let base = try TestPaths.requireAppleVectors().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let incRoot = try certificate(base.appendingPathComponent("AppleIncRootCertificate.cer"))
        let g3Root = try certificate(
            base.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("apple-pki/AppleRootCA-G3.cer"))
        for (file, created) in [("receipt-production", "2024-02-23T17:27:16Z"), ("receipt-sandbox-g5", "2025-12-26T18:39:47Z")] {
            let signed = try CMSSignedData(berEncoded: try base64File(base.appendingPathComponent(file)))
            XCTAssertEqual(signed.contentType, CMSOIDs.data, file)
            XCTAssertNotNil(signed.content, file)
            let time = try XCTUnwrap(rfc3339(created))
            let verifier = CMSSignedDataVerifier(trustedRoots: [incRoot], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleReceipt])
            let verified = try verifier.verify(signed, at: time)
            XCTAssertEqual(verified.chain.count, 3, file)
            XCTAssertEqual(verified.chain.last, incRoot)
            XCTAssertTrue(verified.signer.subject.rfc4514String.contains("Receipt Signing"), "\(file): \(verified.signer.subject)")
            // Another root, or a time after the signer's notAfter: not trusted.
            XCTAssertThrowsError(try CMSSignedDataVerifier(trustedRoots: [g3Root]).verify(signed, at: time)) {
                XCTAssertEqual(($0 as? PKCS7Error)?.code, .untrustedSigner)
            }
            XCTAssertThrowsError(try verifier.verify(signed, at: verified.signer.validity.notAfter + 1)) {
                XCTAssertEqual(($0 as? PKCS7Error)?.code, .signerNotValidAtTime)
            }
        }
    }

    func testXcodeReceiptIsBERAndVerifiesOnlyAgainstItsTestCertificate() throws {
        let base = try TestPaths.requireAppleVectors().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let bytes = try base64File(base.appendingPathComponent("xcode-local/receipt-xcode"))
        XCTAssertThrowsError(try DER.parse(bytes), "indefinite lengths are not DER")
        let signed = try CMSSignedData(berEncoded: bytes)
        let storeKit = try certificate(base.appendingPathComponent("xcode-local/StoreKitTestCertificate.cer"))
        let incRoot = try certificate(base.appendingPathComponent("AppleIncRootCertificate.cer"))
        let signer = try XCTUnwrap(signed.certificates.first)
        let time = signer.validity.notBefore + 86_400
        // Xcode's StoreKit test certificate is a CA without subjectKeyIdentifier: the named relaxation.
        XCTAssertThrowsError(try CMSSignedDataVerifier(trustedRoots: [storeKit]).verify(signed, at: time))
        let relaxed = [RFC5280Policy(relaxations: [.missingKeyIdentifiers])]
        let verified = try CMSSignedDataVerifier(trustedRoots: [storeKit], policies: relaxed).verify(signed, at: time)
        XCTAssertEqual(verified.chain.last, storeKit)
        XCTAssertThrowsError(try CMSSignedDataVerifier(trustedRoots: [incRoot]).verify(signed, at: time)) {
            XCTAssertEqual(($0 as? PKCS7Error)?.code, .untrustedSigner)
        }
    }

    private func rfc3339(_ text: String) -> Int64? {
        let digits = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        guard digits.count == 6 else { return nil }
        return try? ASN1TimeComponents(
            year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5]
        ).secondsSinceEpoch
    }
}
