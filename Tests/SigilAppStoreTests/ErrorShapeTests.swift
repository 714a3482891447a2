import SigilASN1
import SigilAppStore
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilOCSP
import SigilPKCS7
import SigilX509
import XCTest

/// One error shape: every module's error is a `ModuleError` with a domain of its own, compares by
/// code, and wraps what a lower layer threw without losing it.
final class ErrorShapeTests: XCTestCase {
    func testEveryModuleErrorHasTheSharedShape() {
        let errors: [any ModuleError] = [
            ASN1Error(.truncated, "a"), SigilCoreError(.invalidPoint, "b"), SigilKeysError(.malformed, "c"),
            X509Error(.malformed, "d"), OCSPError(.malformed, "e"), PKCS7Error(.malformed, "f"), JOSEError(.malformed, "g"),
            AppStoreError(.invalidJWTFormat, "h"),
        ]
        let domains = errors.map { type(of: $0).domain }
        XCTAssertEqual(domains, ["asn1", "core", "keys", "x509", "ocsp", "pkcs7", "jose", "appstore"])
        XCTAssertEqual(errors.map(\.qualifiedCode)[3], "x509.malformed")
        XCTAssertEqual(X509Error(.malformed, "one reason"), X509Error(.malformed, "another"), "equal by code")
        XCTAssertNotEqual(X509Error(.malformed, "x"), X509Error(.unsupportedAlgorithm, "x"))
        XCTAssertEqual(Set([PKCS7Error(.malformed, "1"), PKCS7Error(.malformed, "2")]).count, 1, "hashed by code")
        XCTAssertEqual(X509Error(.malformed, "bad length").description, "malformed: bad length")
        // Wrapping keeps what the lower layer said, with its domain.code; an error of the same type passes through.
        let wrapped = PKCS7Error(wrapping: ASN1Error(.truncated, "length past the end", offset: 7), as: .malformed, context: "receipt")
        XCTAssertEqual(wrapped.code, .malformed)
        XCTAssertTrue(wrapped.reason.hasPrefix("receipt: asn1.truncated:"), wrapped.reason)
        let same = PKCS7Error(.invalidSignature, "kept")
        XCTAssertEqual(PKCS7Error(wrapping: same, as: .malformed, context: "ignored").reason, "kept")
        // AppStoreError keeps its typed failures in the description.
        let chain = AppStoreError(.verificationFailure, "chain", failures: [.noPathToTrustedRoot("none")])
        XCTAssertTrue(chain.description.contains("no path to a trusted root"), chain.description)
    }
}
