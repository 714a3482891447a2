import Foundation
import SigilAppStore
import SigilTestPKI
import SigilX509
import XCTest

/// The signed data nested in a notification, verified by the library for a caller that verified
/// the notification on its own (``SignedDataVerifier/verifyNested(in:at:)``) and handed back as
/// ``VerifiedAnySignedData`` members in the notification's order.
final class NestedVerificationTests: XCTestCase {
    let now: Int64 = 1_790_000_000
    let bundle = "com.example.app"
    let appAppleId: Int64 = 1_234_567_890

    struct Signed {
        let pki: AppleShapedTestPKI
        let bundle: String
        let ms: Int64

        func transaction(_ environment: String) throws -> String {
            try pki.signedData(payload: members(["transactionId": "1", "bundleId": bundle, "environment": environment, "signedDate": ms]))
        }
        func renewalInfo(_ environment: String) throws -> String {
            try pki.signedData(payload: members(["originalTransactionId": "1", "environment": environment, "signedDate": ms]))
        }
        func appTransaction(_ environment: String) throws -> String {
            try pki.signedData(payload: members(["bundleId": bundle, "receiptType": environment, "receiptCreationDate": ms]))
        }
        func notification(_ environment: String, data: [String: Any] = [:], appData: [String: Any]? = nil) throws -> String {
            var body: [String: Any] = [
                "notificationType": "TEST", "notificationUUID": "u", "signedDate": ms,
                "data": data.merging(["bundleId": bundle, "environment": environment]) { given, _ in given },
            ]
            if let appData { body["appData"] = appData.merging(["bundleId": bundle, "environment": environment]) { given, _ in given } }
            return try pki.signedData(payload: members(body))
        }
        func members(_ members: [String: Any]) -> [UInt8] {
            Array(try! JSONSerialization.data(withJSONObject: members, options: [.sortedKeys]))
        }
    }

    func testNestedMembersAreVerifiedAndHandedBackInOrder() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let signed = Signed(pki: pki, bundle: bundle, ms: now * 1000)
        let verifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environments: .productionAndSandbox,
            clock: { [now] in now })
        let text = try signed.notification(
            "Sandbox",
            data: ["signedTransactionInfo": try signed.transaction("Sandbox"), "signedRenewalInfo": try signed.renewalInfo("Sandbox")],
            appData: ["signedAppTransactionInfo": try signed.appTransaction("Sandbox")])
        // Classified by the verifier, then its nested data verified by the library.
        guard case .notification(let notification) = try await verifier.verify(text, kind: nil) else {
            return XCTFail("not classified as a notification")
        }
        let verified = try await verifier.verifyNested(in: notification)
        XCTAssertEqual(verified.nested.map(\.kind), [.transaction, .renewalInfo, .appTransaction])
        for member in verified.nested {
            XCTAssertEqual(member.environment, .sandbox, "\(member.kind)")
            XCTAssertEqual(member.trust, .appleChain, "\(member.kind)")
            XCTAssertEqual(member.chain.count, 3, "\(member.kind)")
        }
        XCTAssertEqual(verified.transaction?.payload.transactionId, "1")
        XCTAssertEqual(verified.appTransaction?.payload.bundleId, bundle)
        // The one-call entry point hands back the same members.
        let oneCall = try await verifier.verifyNotificationAndNested(text)
        XCTAssertEqual(oneCall.nested.map(\.kind), verified.nested.map(\.kind))
        XCTAssertEqual(oneCall.nested.map(\.payloadJSON), verified.nested.map(\.payloadJSON))

        // A notification carrying nothing nested: no members, nothing refused.
        let bare = try await verifier.verifyNotificationAndNested(try signed.notification("Sandbox"))
        XCTAssertTrue(bare.nested.isEmpty)
        XCTAssertNil(bare.transaction)
    }

    /// A member that fails is named in the reason; its code and typed chain failures are kept.
    func testFailingMemberIsNamedWithItsCodeAndFailures() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let other = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let signed = Signed(pki: pki, bundle: bundle, ms: now * 1000)
        let forger = Signed(pki: other, bundle: bundle, ms: now * 1000)
        let verifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environments: .productionAndSandbox,
            clock: { [now] in now })

        // Renewal info from the other environment than its Sandbox notification's.
        let mixed = try signed.notification("Sandbox", data: ["signedRenewalInfo": try signed.renewalInfo("Production")])
        do {
            _ = try await verifier.verifyNotificationAndNested(mixed)
            XCTFail("a Sandbox notification carrying Production renewal info verified")
        } catch {
            XCTAssertEqual(error.code, .invalidEnvironment)
            XCTAssertTrue(error.reason.hasPrefix("the notification's nested renewal info: "), error.reason)
        }

        // An app transaction signed under another root: the chain's typed failures reach the caller.
        let forged = try signed.notification("Sandbox", appData: ["signedAppTransactionInfo": try forger.appTransaction("Sandbox")])
        guard case .notification(let notification) = try await verifier.verify(forged, kind: .notification) else {
            return XCTFail("not a notification")
        }
        do {
            _ = try await verifier.verifyNested(in: notification)
            XCTFail("a forged nested app transaction verified")
        } catch {
            XCTAssertEqual(error.code, .verificationFailure)
            XCTAssertTrue(error.reason.hasPrefix("the notification's nested app transaction: "), error.reason)
            XCTAssertFalse(error.failures.isEmpty, "\(error)")
        }
    }
}
