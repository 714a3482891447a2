import Foundation
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// The generated Apple-shaped PKI: its chain passes Apple's signed-data policy in Sigil and
/// `openssl verify` alike, and what it signs verifies through SignedDataVerifier.
final class AppleShapedTestPKITests: XCTestCase {
    let now: Int64 = 1_790_000_000

    func testChainAndSignedData() async throws {
        let pki = try AppleShapedTestPKI.generate(
            notBefore: now - 86_400, notAfter: now + 365 * 86_400, ocspResponder: "http://127.0.0.1:1/ocsp")
        XCTAssertNotNil(pki.intermediate.extension(AppleOIDs.wwdrIntermediate))
        XCTAssertNotNil(pki.leaf.extension(AppleOIDs.appStoreReceiptSigning))
        XCTAssertEqual(pki.leaf.ocspURLs, ["http://127.0.0.1:1/ocsp"])
        XCTAssertEqual(pki.intermediate.basicConstraints?.isCA, true)
        XCTAssertEqual(pki.leaf.basicConstraints?.isCA, false)
        let verifier = CertificateVerifier(trustedRoots: [pki.root], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleSignedData])
        guard case .valid(let chain) = verifier.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: now) else {
            return XCTFail("the generated chain does not validate")
        }
        XCTAssertEqual(chain.count, 3)
        if case .valid = verifier.verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: now + 400 * 86_400) {
            XCTFail("validated after notAfter")
        }

        // openssl agrees on the chain (an independent X.509 implementation).
        let openssl = try Subprocess.require("openssl")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, cert) in [("root", pki.root), ("intermediate", pki.intermediate), ("leaf", pki.leaf)] {
            try Data(cert.pemRepresentation.utf8).write(to: dir.appendingPathComponent("\(name).pem"))
        }
        let checked = try Subprocess.run(
            openssl,
            [
                "verify", "-attime", String(now), "-CAfile", dir.appendingPathComponent("root.pem").path,
                "-untrusted", dir.appendingPathComponent("intermediate.pem").path,
                dir.appendingPathComponent("leaf.pem").path,
            ])
        XCTAssertEqual(checked.status, 0, checked.stdoutString + String(decoding: checked.stderr, as: UTF8.self))

        // A transaction signed by the leaf verifies against the generated root.
        let payload =
            #"{"transactionId":"2000000000000001","originalTransactionId":"2000000000000001","bundleId":"com.example.demo","productId":"com.example.demo.monthly","purchaseDate":1789990000000,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":1789999000000,"environment":"Sandbox","storefront":"USA"}"#
        let jws = try pki.signedData(payload: Array(payload.utf8))
        let appStore = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: "com.example.demo", appAppleId: nil, environment: .sandbox)
        let verified = try await appStore.verifyTransaction(jws)
        XCTAssertEqual(verified.payload.transactionId, "2000000000000001")
        let other = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let foreign = try SignedDataVerifier(
            trustedRoots: [other.root], bundleId: "com.example.demo", appAppleId: nil, environment: .sandbox)
        do {
            _ = try await foreign.verifyTransaction(jws)
            XCTFail("verified against another PKI's root")
        } catch {
            XCTAssertEqual(error.code, .verificationFailure)
        }
    }
}
