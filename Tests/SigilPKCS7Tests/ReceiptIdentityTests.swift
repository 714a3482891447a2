import Foundation
import SigilASN1
import SigilApplePKI
import SigilCore
import SigilPKCS7
import SigilReceipts
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// Issue 34, items 3 and 4: Xcode's StoreKit-testing receipts through the named Xcode path (real
/// receipts and Xcode's real certificate), test PKIs without key identifiers through the named
/// relaxation, and the identity a receipt verifier enforces: environments always, the bundle id
/// unless report-only by name, the device hash with the expected bundle id.
final class ReceiptIdentityTests: XCTestCase {
    let now: Int64 = 1_790_000_000

    func apple() throws -> URL { try TestPaths.requireAppleVectors() }

    func certificate(_ url: URL) throws -> Certificate { try Certificate(derEncoded: Array(try Data(contentsOf: url))) }

    /// Xcode's StoreKit certificate as Xcode saves it (Editor ▸ Save Public Certificate).
    func storeKitCertificate() throws -> Certificate {
        try certificate(try apple().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt/xcode-local/StoreKitTestCertificate.cer"))
    }

    /// The real Xcode receipts: Apple's library's two and tikhop's, base64 as apps send them, with
    /// the bundle id each names.
    func xcodeReceipts() throws -> [(name: String, bytes: [UInt8], bundle: String)] {
        let library = try apple().appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/xcode")
        let tikhop = try apple().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt/xcode-local/receipt-xcode")
        return [
            (
                "xcode-app-receipt-with-transaction",
                Array(try Data(contentsOf: library.appendingPathComponent("xcode-app-receipt-with-transaction"))),
                "com.example.naturelab.backyardbirds.example"
            ),
            (
                "xcode-app-receipt-empty", Array(try Data(contentsOf: library.appendingPathComponent("xcode-app-receipt-empty"))),
                "com.example.naturelab.backyardbirds.example"
            ),
            ("receipt-xcode", Array(try Data(contentsOf: tikhop)), "net.zachariadis.cyclemaps"),
        ]
    }

    func code(_ body: () throws -> VerifiedAppReceipt) -> ReceiptError.Code? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? ReceiptError)?.code }
    }

    /// The real Xcode receipts verify through the Xcode path with Xcode's certificate given (and,
    /// by name, with the one they carry); the same receipts are refused by an App Store verifier,
    /// by the certificate trusted as a plain root without the relaxation, and outside the Xcode
    /// environment; another bundle id is a typed identity error.
    func testRealXcodeReceiptsVerifyOnlyThroughTheXcodePath() throws {
        let storeKit = try storeKitCertificate()
        let incRoot = try certificate(try apple().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt/AppleIncRootCertificate.cer"))
        for (name, bytes, bundle) in try xcodeReceipts() {
            let trace = VerificationTrace()
            let verified = try AppReceiptVerifier(xcode: .given(storeKit), identity: .enforce(bundleId: bundle)).verify(bytes, trace: trace)
            XCTAssertEqual(verified.chain, [storeKit], name)
            XCTAssertEqual(verified.identity, ReceiptIdentityReport(bundleId: bundle, environment: .xcode, enforced: true), name)
            XCTAssertEqual(verified.receipt.receiptType, "Xcode", name)
            XCTAssertFalse(trace.steps.contains { $0.verdict == .fail }, name)
            XCTAssertTrue(trace.steps.contains { $0.clause == "Xcode StoreKit testing" }, name)
            let carried = try AppReceiptVerifier(xcode: .carriedByTheData, identity: .reportOnly).verify(bytes)
            XCTAssertEqual(carried.chain, [storeKit], name)
            XCTAssertFalse(carried.identity.enforced, name)

            // Without the Xcode path: Apple's receipt profile to Apple Inc. Root refuses the signer.
            let appStore = try AppReceiptVerifier(trustedRoots: [incRoot], bundleId: bundle, environments: [.production, .sandbox])
            XCTAssertEqual(code { try appStore.verify(bytes) }, .untrustedSigner, name)
            // Xcode's certificate as a plain root, any signer, no relaxation: its missing
            // subjectKeyIdentifier (RFC 5280 §4.2.1.2) refuses it, with the rule named.
            let plain = try AppReceiptVerifier(
                trustedRoots: [storeKit], bundleId: bundle, environments: [.xcode], signerRequirement: .anyCertificateUnderTrustedRoots)
            do {
                _ = try plain.verify(bytes)
                XCTFail("\(name): verified without the missingKeyIdentifiers relaxation")
            } catch {
                XCTAssertEqual(error.code, .untrustedSigner, name)
                XCTAssertTrue(error.failures.contains { $0.description.contains("subjectKeyIdentifier") }, "\(error.failures)")
            }
            // Relaxed, but in the App Store's environments: an Xcode receipt is not accepted there.
            let elsewhere = try AppReceiptVerifier(
                trustedRoots: [storeKit], bundleId: bundle, environments: [.production, .sandbox],
                signerRequirement: .anyCertificateUnderTrustedRoots, rfc5280Relaxations: [.missingKeyIdentifiers])
            XCTAssertEqual(code { try elsewhere.verify(bytes) }, .invalidEnvironment, name)
            // Another app's bundle id: a typed identity error.
            XCTAssertEqual(
                code { try AppReceiptVerifier(xcode: .given(storeKit), identity: .enforce(bundleId: "com.example.other")).verify(bytes) },
                .invalidAppIdentifier, name)
            // Another certificate given: not Xcode's.
            let other = try XcodeShapedTestCertificate.generate(commonName: "StoreKit", notBefore: now - 86_400, notAfter: now)
            XCTAssertEqual(
                code { try AppReceiptVerifier(xcode: .given(other.certificate), identity: .enforce(bundleId: bundle)).verify(bytes) },
                .untrustedSigner, name)
        }
    }

    /// The Xcode path never authenticates an App Store receipt: Apple's signer is not Xcode's
    /// certificate, and it is not self-signed.
    func testXcodePathRefusesAppStoreReceipts() throws {
        let production = Array(
            try Data(contentsOf: try apple().appendingPathComponent("real/receipts/tikhop-TPInAppReceipt/receipt-production")))
        for xcode in [XcodeCertificate.given(try storeKitCertificate()), .carriedByTheData] {
            XCTAssertEqual(code { try AppReceiptVerifier(xcode: xcode, identity: .reportOnly).verify(production) }, .untrustedSigner)
        }
        // A receipt of an App Store type signed the way Xcode signs: refused by environment.
        let xcode = try XcodeShapedTestCertificate.generate(commonName: "StoreKit", notBefore: now - 86_400, notAfter: now + 86_400)
        let forged = try xcode.receipt(builder(type: "Production", bundle: "com.example"))
        XCTAssertEqual(code { try AppReceiptVerifier(xcode: .carriedByTheData, identity: .reportOnly).verify(forged) }, .invalidEnvironment)
        XCTAssertEqual(
            try AppReceiptVerifier(xcode: .given(xcode.certificate), identity: .enforce(bundleId: "com.example"))
                .verify(try xcode.receipt(builder(type: "Xcode", bundle: "com.example"))).chain,
            [xcode.certificate])
    }

    func builder(type: String = "ProductionSandbox", bundle: String, guid: [UInt8] = [0xD0, 0x0D]) -> AppReceiptBuilder {
        AppReceiptBuilder(
            receiptType: type, appItemID: 0, bundleID: bundle, appVersion: "1", originalApplicationVersion: "1", creationDate: now,
            opaqueValue: [0x0A, 0x0B, 0x0C], deviceGUID: guid,
            inAppPurchases: [
                .init(
                    productID: "\(bundle).coins", transactionID: "1", originalTransactionID: "1", purchaseDate: now,
                    originalPurchaseDate: now)
            ])
    }

    /// App A's receipt from device D, presented for app B with D's GUID: refused as another app's
    /// (its device hash matches D only with A's bundle id, which an enforcing verifier never uses);
    /// for A it verifies and the device matches; report-only is the named choice that lets it
    /// through and says nothing was enforced.
    func testAnotherAppsReceiptFromTheSameDevice() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let guid: [UInt8] = Array("device-D-guid-16".utf8)
        let payload = try builder(bundle: "com.example.a", guid: guid).payload()
        let receipt = try AppReceiptBuilder.signedData(
            content: payload, signer: pki.leaf, signerKey: pki.leafKey, certificates: [pki.leaf, pki.intermediate])
        let fields = try AppReceipt(payload: payload)
        // The device hash bound to the app: A's receipt matches D for A, not for B.
        XCTAssertTrue(fields.matchesDevice(guid: guid))
        XCTAssertTrue(fields.matchesDevice(guid: guid, bundleID: "com.example.a"))
        XCTAssertFalse(fields.matchesDevice(guid: guid, bundleID: "com.example.b"))

        let forB = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example.b", environments: [.sandbox])
        let trace = VerificationTrace()
        do {
            _ = try forB.verify(receipt, deviceGUID: guid, trace: trace)
            XCTFail("app A's receipt verified for app B")
        } catch {
            XCTAssertEqual(error.code, .invalidAppIdentifier)
            XCTAssertTrue(error.reason.contains("com.example.a") && error.reason.contains("com.example.b"), error.reason)
            XCTAssertEqual(trace.steps.last { $0.verdict == .fail }?.clause, "Apple: bundle id (field 2)")
        }
        let forA = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example.a", environments: [.sandbox])
        let trustedA = VerificationTrace()
        let verified = try forA.verify(receipt, deviceGUID: guid, trace: trustedA)
        XCTAssertEqual(verified.deviceMatches, true)
        XCTAssertEqual(verified.identity, ReceiptIdentityReport(bundleId: "com.example.a", environment: .sandbox, enforced: true))
        XCTAssertTrue(trustedA.steps.contains { $0.check.contains("the expected bundle id \"com.example.a\"") && $0.verdict == .pass })
        XCTAssertEqual(code { try forA.verify(receipt, deviceGUID: Array("device-E-guid-16".utf8)) }, .deviceMismatch)

        let reportOnly = try AppReceiptVerifier(trustedRoots: [pki.root], identity: .reportOnly, environments: [.sandbox])
        let reported = try reportOnly.verify(receipt, deviceGUID: guid)
        XCTAssertEqual(reported.identity, ReceiptIdentityReport(bundleId: "com.example.a", environment: .sandbox, enforced: false))
        XCTAssertEqual(reported.deviceMatches, true)
    }

    /// Environments are explicit and always enforced; an unknown receipt type names none; a
    /// verifier accepting none, or enforcing an empty bundle id, cannot be built.
    func testEnvironmentsAreEnforced() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        func receipt(_ type: String) throws -> [UInt8] {
            try AppReceiptBuilder.signedData(
                content: try builder(type: type, bundle: "com.example").payload(), signer: pki.leaf, signerKey: pki.leafKey,
                certificates: [pki.leaf, pki.intermediate])
        }
        let production = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example", environments: [.production])
        XCTAssertEqual(try production.verify(try receipt("Production")).identity.environment, .production)
        XCTAssertEqual(try production.verify(try receipt("ProductionVPP")).identity.environment, .production)
        XCTAssertEqual(code { try production.verify(try receipt("ProductionSandbox")) }, .invalidEnvironment)
        XCTAssertEqual(code { try production.verify(try receipt("Xcode")) }, .invalidEnvironment)
        let every = try AppReceiptVerifier(
            trustedRoots: [pki.root], bundleId: "com.example", environments: Set(ReceiptEnvironment.allCases))
        XCTAssertEqual(try every.verify(try receipt("ProductionVPPSandbox")).identity.environment, .sandbox)
        XCTAssertEqual(code { try every.verify(try receipt("Staging")) }, .invalidEnvironment)
        XCTAssertThrowsError(try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example", environments: [])) {
            XCTAssertEqual(($0 as? ReceiptError)?.code, .invalidConfiguration)
        }
        XCTAssertThrowsError(try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "", environments: [.production])) {
            XCTAssertEqual(($0 as? ReceiptError)?.code, .invalidConfiguration)
        }
    }

    /// A test PKI whose certificates carry no key identifiers: refused under RFC 5280 (§4.2.1.1–2,
    /// the rule named), accepted with the named relaxation — under Apple's receipt profile still.
    func testTestPKIWithoutKeyIdentifiersNeedsTheNamedRelaxation() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400, keyIdentifiers: false)
        XCTAssertNil(pki.intermediate.subjectKeyIdentifier)
        XCTAssertNil(pki.leaf.authorityKeyIdentifier)
        let receipt = try AppReceiptBuilder.signedData(
            content: try builder(bundle: "com.example").payload(), signer: pki.leaf, signerKey: pki.leafKey,
            certificates: [pki.leaf, pki.intermediate])
        let strict = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example", environments: [.sandbox])
        do {
            _ = try strict.verify(receipt)
            XCTFail("a chain without key identifiers verified without the relaxation")
        } catch {
            XCTAssertEqual(error.code, .untrustedSigner)
            XCTAssertTrue(error.failures.contains { $0.rule.contains("4.2.1") }, "\(error.failures.map(\.rule))")
        }
        let relaxed = try AppReceiptVerifier(
            trustedRoots: [pki.root], bundleId: "com.example", environments: [.sandbox], rfc5280Relaxations: [.missingKeyIdentifiers])
        XCTAssertEqual(relaxed.policies.map(\.name), ["RFC 5280", "Apple receipt"])
        // The policies as the verifier applies them (one concrete type), and as given.
        XCTAssertEqual(relaxed.erasedPolicies.map(\.name), ["RFC 5280", "Apple receipt"])
        XCTAssertEqual((relaxed.policies.first as? RFC5280Policy)?.relaxations, [.missingKeyIdentifiers])
        XCTAssertEqual(
            AppReceiptVerifier(xcode: .carriedByTheData, identity: .reportOnly).erasedPolicies.map(\.name), ["RFC 5280"])
        XCTAssertEqual(try relaxed.verify(receipt, deviceGUID: [0xD0, 0x0D]).chain.count, 3)
        // The relaxation admits nothing else: another bundle id still fails.
        let otherApp = try AppReceiptVerifier(
            trustedRoots: [pki.root], bundleId: "com.example.other", environments: [.sandbox], rfc5280Relaxations: [.missingKeyIdentifiers])
        XCTAssertEqual(code { try otherApp.verify(receipt) }, .invalidAppIdentifier)
    }

    /// The verifyReceipt drop-in: report-only answers as Apple's endpoint (another app's receipt
    /// is status 0 with its bundle_id); an enforcing verifier answers 21003 for it.
    func testVerifyReceiptDropInIdentity() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let receipt = try AppReceiptBuilder.signedData(
            content: try builder(bundle: "com.example.a").payload(), signer: pki.leaf, signerKey: pki.leafKey,
            certificates: [pki.leaf, pki.intermediate])
        let dropIn = try AppReceiptVerifier(trustedRoots: [pki.root], identity: .reportOnly, environments: [.production, .sandbox])
        let body = dropIn.verifyReceiptResponse(receipt, sentTo: .sandbox, requestTime: now)
        XCTAssertEqual(body.status, 0)
        XCTAssertEqual(body.receipt?.bundle_id, "com.example.a")
        XCTAssertEqual(dropIn.verifyReceiptResponse(receipt, sentTo: .production, requestTime: now).status, 21007)
        let forB = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example.b", environments: [.production, .sandbox])
        XCTAssertEqual(forB.verifyReceiptResponse(receipt, sentTo: .sandbox, requestTime: now).status, 21003)
        let forA = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: "com.example.a", environments: [.production, .sandbox])
        XCTAssertEqual(forA.verifyReceiptResponse(receipt, sentTo: .sandbox, requestTime: now), body)
    }
}
