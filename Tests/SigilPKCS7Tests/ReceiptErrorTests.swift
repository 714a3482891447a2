import Foundation
import SigilPKCS7
import SigilReceipts
import SigilTestSupport
import SigilX509
import XCTest

/// Issue 47: receipts throw an error of their own, `ReceiptError`, and every name a caller or a
/// door compares stays what it was (`pkcs7.code`): the CMS layer's refusals keep their code,
/// reason and typed chain failures.
final class ReceiptErrorTests: XCTestCase {
    /// The qualified codes the CLI, the C ABI, Python, the HTTP service and Conformance/cases.json
    /// answer for receipts: unchanged.
    func testQualifiedCodesAreTheOnesTheDoorsAnswer() {
        XCTAssertEqual(ReceiptError.domain, "pkcs7")
        let codes: [(ReceiptError.Code, String)] = [
            (.malformed, "pkcs7.malformed"), (.unexpectedContentType, "pkcs7.unexpectedContentType"),
            (.signerNotFound, "pkcs7.signerNotFound"), (.contentDigestMismatch, "pkcs7.contentDigestMismatch"),
            (.contentTypeAttributeMismatch, "pkcs7.contentTypeAttributeMismatch"), (.invalidSignature, "pkcs7.invalidSignature"),
            (.untrustedSigner, "pkcs7.untrustedSigner"), (.signerNotValidAtTime, "pkcs7.signerNotValidAtTime"),
            (.unsupportedAlgorithm, "pkcs7.unsupportedAlgorithm"), (.notAReceipt, "pkcs7.notAReceipt"),
            (.deviceMismatch, "pkcs7.deviceMismatch"), (.invalidAppIdentifier, "pkcs7.invalidAppIdentifier"),
            (.invalidEnvironment, "pkcs7.invalidEnvironment"), (.invalidConfiguration, "pkcs7.invalidConfiguration"),
        ]
        for (code, qualified) in codes {
            XCTAssertEqual(ReceiptError(code, "r").qualifiedCode, qualified)
        }
        // Each CMS code is the receipt code of the same name.
        let cms: [PKCS7Error.Code] = [
            .malformed, .unexpectedContentType, .signerNotFound, .contentDigestMismatch, .contentTypeAttributeMismatch,
            .invalidSignature, .untrustedSigner, .signerNotValidAtTime, .unsupportedAlgorithm,
        ]
        for code in cms {
            XCTAssertEqual(ReceiptError(PKCS7Error(code, "r")).qualifiedCode, PKCS7Error(code, "r").qualifiedCode)
        }
    }

    /// A CMS refusal becomes a receipt's with its code, reason and typed chain failures.
    func testCMSRefusalKeepsWhatItSaid() {
        let failure = ValidationFailure.noPathToTrustedRoot("no issuer of CN=leaf among the trusted roots")
        let cms = PKCS7Error(.untrustedSigner, "the signer does not chain", failures: [failure])
        let receipt = ReceiptError(cms)
        XCTAssertEqual(receipt.code, .untrustedSigner)
        XCTAssertEqual(receipt.reason, cms.reason)
        XCTAssertEqual(receipt.failures.map(\.description), [failure.description])
        XCTAssertEqual(receipt.description, cms.description)
        XCTAssertEqual(ReceiptError(.deviceMismatch, "a"), ReceiptError(.deviceMismatch, "b"), "equal by code")
        let wrapped = ReceiptError(wrapping: PKCS7Error(.malformed, "truncated"), as: .notAReceipt, context: "payload")
        XCTAssertEqual(wrapped.code, .notAReceipt)
        XCTAssertEqual(wrapped.reason, "payload: pkcs7.malformed: truncated")
    }

    /// A real App Store receipt under a root that is not its own: a `ReceiptError` with the CMS
    /// layer's code and the chain's typed failures, as the CMS verifier says them.
    func testRealReceiptUnderAnotherRootIsATypedReceiptRefusal() throws {
        let apple = try TestPaths.requireAppleVectors()
        let base = apple.appendingPathComponent("real/receipts/tikhop-TPInAppReceipt")
        let g3 = try Certificate(derEncoded: Array(try Data(contentsOf: apple.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))))
        let receipt = Array(try Data(contentsOf: base.appendingPathComponent("receipt-production")))
        let verifier = try AppReceiptVerifier(trustedRoots: [g3], identity: .reportOnly, environments: [.production, .sandbox])
        do {
            _ = try verifier.verify(receipt)
            XCTFail("a receipt verified under Apple Root CA - G3")
        } catch {
            XCTAssertEqual(error.code, .untrustedSigner)
            XCTAssertEqual(error.qualifiedCode, "pkcs7.untrustedSigner")
            XCTAssertFalse(error.failures.isEmpty, error.reason)
        }
    }
}
