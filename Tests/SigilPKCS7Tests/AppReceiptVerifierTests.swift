import Foundation
import SigilASN1
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilPKCS7
import SigilReceipts
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// AppReceiptVerifier owns the receipt job; Apple's receipt profile is the default; the
/// verifyReceipt drop-in answers as Apple's endpoint would for what the receipt proves.
final class AppReceiptVerifierTests: XCTestCase {
    func base() throws -> URL {
        try TestPaths.requireAppleVectors().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
    }

    func certificate(_ url: URL) throws -> Certificate { try Certificate(derEncoded: Array(try Data(contentsOf: url))) }

    /// The real receipts verify under Apple's profile at their creation dates, base64 as apps send
    /// them; each tampering the CMS tests refuse is refused here too, with its code.
    func testRealReceiptsAndTampering() throws {
        let base = try base()
        let verifier = try AppReceiptVerifier(
            trustedRoots: [try certificate(base.appendingPathComponent("AppleIncRootCertificate.cer"))], identity: .reportOnly,
            environments: [.production, .sandbox])
        for (name, type) in [("receipt-production", "Production"), ("receipt-sandbox-g5", "ProductionSandbox")] {
            let text = Array(try Data(contentsOf: base.appendingPathComponent(name)))
            let trace = VerificationTrace()
            let verified = try verifier.verify(text, trace: trace)
            XCTAssertEqual(verified.receipt.receiptType, type)
            XCTAssertEqual(verified.chain.count, 3)
            XCTAssertEqual(verified.validationTime, verified.receipt.creationDate)
            XCTAssertNil(verified.deviceMatches)
            XCTAssertEqual(trace.steps.first?.clause, "RFC 5652 §5.1")
            XCTAssertEqual(trace.steps.filter { $0.verdict == .fail }, [])

            let der = try Base64.decode(text.filter { ![0x0A, 0x0D].contains($0) }, alphabet: .standard, padding: .optional)
            XCTAssertEqual(try verifier.verify(der).receipt.bundleID, verified.receipt.bundleID, "DER and base64 agree")
            // One letter of the signed bundle id changed (the structure intact): the signature fails.
            let bundle = Array(try XCTUnwrap(verified.receipt.bundleID).utf8)
            guard let at = findSubsequence(der, bundle) else { return XCTFail("bundle id not found in \(name)") }
            var flipped = der
            flipped[at] ^= 0x20
            XCTAssertEqual(code { try verifier.verify(flipped) }, .invalidSignature, name)
            // A later time than the signer's validity; a wrong root; a wrong device; garbage.
            XCTAssertEqual(code { try verifier.verify(der, at: 2_000_000_000) }, .signerNotValidAtTime, name)
            let g3 = try certificate(try TestPaths.requireAppleVectors().appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))
            XCTAssertEqual(
                code {
                    try AppReceiptVerifier(trustedRoots: [g3], identity: .reportOnly, environments: [.production, .sandbox]).verify(der)
                },
                .untrustedSigner, name)
            XCTAssertEqual(code { try verifier.verify(der, deviceGUID: [1, 2, 3]) }, .deviceMismatch, name)
            XCTAssertEqual(code { try verifier.verify(Array("not a receipt".utf8)) }, .malformed, name)
        }
    }

    /// A receipt signed by a certificate under the trusted root that lacks Apple's receipt-signing
    /// OID — or under an intermediate without the WWDR marker — is refused by default, with the
    /// typed failure and its rule; the relaxation is named.
    func testAppleReceiptProfileIsTheDefault() throws {
        let now: Int64 = 1_790_000_000
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let (fake, fakeKey) = try pki.unmarkedLeaf(commonName: "Fake Receipt Signing", notBefore: now - 86_400, notAfter: now + 86_400)
        let builder = AppReceiptBuilder(
            appItemID: 1, bundleID: "com.example", appVersion: "1", originalApplicationVersion: "1", creationDate: now,
            opaqueValue: [1, 2, 3], deviceGUID: [4, 5, 6], inAppPurchases: [])
        let payload = try builder.payload()
        let genuine = try AppReceiptBuilder.signedData(
            content: payload, signer: pki.leaf, signerKey: pki.leafKey, certificates: [pki.leaf, pki.intermediate])
        let forged = try AppReceiptBuilder.signedData(
            content: payload, signer: fake, signerKey: fakeKey, certificates: [fake, pki.intermediate])

        let strict = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example", environments: [.sandbox])
        XCTAssertEqual(try strict.verify(genuine, deviceGUID: [4, 5, 6]).deviceMatches, true)
        do {
            _ = try strict.verify(forged)
            XCTFail("a receipt signed without Apple's receipt-signing OID verified")
        } catch {
            XCTAssertEqual(error.code, .untrustedSigner)
            let marker = error.failures.first { if case .missingMarkerExtension = $0 { true } else { false } }
            guard case .missingMarkerExtension(_, let role, let oid, _)? = marker else { return XCTFail("\(error.failures)") }
            XCTAssertEqual(oid, [1, 2, 840, 113_635, 100, 6, 11, 1])
            XCTAssertEqual(role, "the receipt signer")
            XCTAssertEqual(marker?.rule, "Apple receipt")
        }
        let relaxed = try AppReceiptVerifier(
            trustedRoots: [pki.root], bundleId: "com.example", environments: [.sandbox], signerRequirement: .anyCertificateUnderTrustedRoots
        )
        XCTAssertEqual(try relaxed.verify(forged).chain.count, 3)

        // An intermediate without the WWDR marker (same key and name), signer genuine.
        let bare = try pki.intermediateWithoutMarker(notBefore: now - 86_400, notAfter: now + 86_400)
        let underBare = try AppReceiptBuilder.signedData(
            content: payload, signer: pki.leaf, signerKey: pki.leafKey, certificates: [pki.leaf, bare])
        do {
            _ = try strict.verify(underBare)
            XCTFail("a receipt under an intermediate without the WWDR marker verified")
        } catch {
            XCTAssertTrue(
                error.failures.contains {
                    if case .missingMarkerExtension(_, _, let oid, "Apple receipt") = $0 {
                        oid == AppleOIDs.wwdrIntermediate
                    } else {
                        false
                    }
                }, "\(error.failures)")
        }
    }

    /// The verifyReceipt drop-in over the real receipts: status 0 in their own environment,
    /// 21007/21008 in the other, 21003 for a flipped byte, 21002 for garbage; Apple's formats.
    func testVerifyReceiptDropIn() throws {
        let base = try base()
        // The drop-in's configuration: report-only, as Apple's endpoint checks no bundle id.
        let verifier = try AppReceiptVerifier(
            trustedRoots: [try certificate(base.appendingPathComponent("AppleIncRootCertificate.cer"))], identity: .reportOnly,
            environments: [.production, .sandbox])
        let request: Int64 = 1_790_000_000
        for (name, endpoint) in [("receipt-production", VerifyReceiptEndpoint.production), ("receipt-sandbox-g5", .sandbox)] {
            let text = Array(try Data(contentsOf: base.appendingPathComponent(name)))
            let body = verifier.verifyReceiptResponse(text, sentTo: endpoint, requestTime: request)
            XCTAssertEqual(body.status, 0, name)
            XCTAssertEqual(body.environment, endpoint == .production ? "Production" : "Sandbox")
            let receipt = try XCTUnwrap(body.receipt)
            let fields = try verifier.verify(text).receipt
            XCTAssertEqual(receipt.bundle_id, fields.bundleID)
            XCTAssertEqual(receipt.in_app.map(\.transaction_id), fields.inAppPurchases.map(\.transactionID))
            XCTAssertEqual(receipt.receipt_creation_date_ms, fields.creationDate.map { String($0 * 1000) })
            XCTAssertEqual(receipt.request_date_ms, "1790000000000")
            let other: VerifyReceiptEndpoint = endpoint == .production ? .sandbox : .production
            XCTAssertEqual(
                verifier.verifyReceiptResponse(text, sentTo: other, requestTime: request).status, endpoint == .production ? 21008 : 21007)
            var der = try Base64.decode(text.filter { ![0x0A, 0x0D].contains($0) }, alphabet: .standard, padding: .optional)
            der[der.count / 2] ^= 0x01
            XCTAssertTrue([21002, 21003].contains(verifier.verifyReceiptResponse(der, sentTo: endpoint, requestTime: request).status))
        }
        // A flipped byte inside the signed content is not authentic (21003); garbage is malformed (21002).
        let text = Array(try Data(contentsOf: base.appendingPathComponent("receipt-production")))
        var der = try Base64.decode(text.filter { ![0x0A, 0x0D].contains($0) }, alphabet: .standard, padding: .optional)
        let content = try XCTUnwrap(try CMSSignedData(berEncoded: der).content)
        let at = try XCTUnwrap(findSubsequence(der, content))
        der[at + 40] ^= 0x01
        XCTAssertEqual(verifier.verifyReceiptResponse(der, sentTo: .production, requestTime: request).status, 21003)
        XCTAssertEqual(verifier.verifyReceiptResponse(Array("garbage".utf8), sentTo: .production, requestTime: request).status, 21002)
        // Apple's date formats, including Pacific daylight and standard time.
        let production = try XCTUnwrap(verifier.verifyReceiptResponse(text, sentTo: .production, requestTime: request).receipt)
        XCTAssertEqual(production.receipt_creation_date, "2024-02-23 17:27:16 Etc/GMT")
        XCTAssertEqual(production.receipt_creation_date_pst, "2024-02-23 09:27:16 America/Los_Angeles")
        XCTAssertEqual(production.request_date_pst, "2026-09-21 07:13:20 America/Los_Angeles")  // PDT, UTC−7
        let encoded = String(decoding: try JSONEncoder().encode(production), as: UTF8.self)
        XCTAssertTrue(encoded.contains("\"in_app\""), encoded)
    }

    func code(_ body: () throws -> VerifiedAppReceipt) -> ReceiptError.Code? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? ReceiptError)?.code }
    }

    func findSubsequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
