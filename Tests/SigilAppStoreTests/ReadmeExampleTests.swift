import Foundation
import SigilAppStore
import SigilCore
import SigilJOSE
import SigilTestPKI
import SigilTokens
import SigilX509
import XCTest

/// The README's "Use it as a library" App Store examples, compiled and run here on data made by
/// AppleShapedTestPKI (so a README change that no longer compiles or works fails this test).
final class ReadmeExampleTests: XCTestCase {
    func testMintTokenAndVerifyNotification() async throws {
        // Mint an App Store Server API token from a .p8 key.
        let p8 = Array(ECDSAPrivateKey.generate(curve: .p256).pkcs8PEM.utf8)
        let key = try AppleSigningKey(p8: p8, keyID: "ABC123")
        let token = try AppleTokens.appStoreServerAPI(
            key: key, issuerID: "57246542-96fe-1a63-e053-0824d011072a",
            bundleID: "com.example.app", issuedAt: Int64(Date().timeIntervalSince1970))
        XCTAssertEqual(try JWS(compact: token).keyID, "ABC123")

        // Verify a notification and the transaction inside it.
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 3600, notAfter: now + 3600)
        let transaction = try pki.signedData(
            payload: Array(
                #"{"transactionId":"42","bundleId":"com.example.app","environment":"Production","signedDate":\#(now * 1000)}"#.utf8))
        let notification = try pki.signedData(
            payload: Array(
                #"{"notificationType":"ONE_TIME_CHARGE","notificationUUID":"u","signedDate":\#(now * 1000),"data":{"appAppleId":1234567890,"bundleId":"com.example.app","environment":"Production","signedTransactionInfo":"\#(transaction)"}}"#
                    .utf8))
        let requestBody = Data(#"{"signedPayload":"\#(notification)"}"#.utf8)
        let appleRootG3 = pki.root
        let verifier = try SignedDataVerifier(
            trustedRoots: [appleRootG3], bundleId: "com.example.app",
            appAppleId: 1234567890, environments: .productionAndSandbox)
        let body = try JSONDecoder().decode(ResponseBodyV2.self, from: requestBody)
        let verified = try await verifier.verifyNotificationAndNested(body.signedPayload ?? "")
        XCTAssertEqual(verified.notification.environment, .production)
        XCTAssertEqual(verified.notification.payload.notificationType?.rawValue ?? "?", "ONE_TIME_CHARGE")
        XCTAssertEqual(verified.transaction?.payload.transactionId ?? "-", "42")
    }
}
