import Foundation
import SigilASN1
import SigilAppStore
import SigilCore
import SigilJOSE
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// Real App Store signed data (apple/real/jws in the third-party data) and Apple's library test data
/// (apple/library in the third-party data) through SignedDataVerifier, with the outcomes their
/// PROVENANCE.md files list.
final class SignedDataVerifierTests: XCTestCase {
    struct RealCase {
        let file: String
        let kind: SignedDataKind
        let bundle: String
        let id: String  // transactionId, originalTransactionId or notificationType
    }

    static let realCases = [
        RealCase(file: "awa-go-iap/sandbox-renewalinfo-2023-05-23.jws", kind: .renewalInfo, bundle: "-", id: "2000000335310644"),
        RealCase(
            file: "mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws", kind: .transaction,
            bundle: "com.goodheartapp", id: "2000000847061981"),
        RealCase(
            file: "mysupplyme-MedicalSupplierzApp/sandbox-transaction-autorenew-2025-10-25.jws", kind: .transaction,
            bundle: "com.ms.medicalsupplierzlite", id: "2000001042162856"),
        RealCase(
            file: "Doy-lee-session-pro-backend/notification-TEST-20250905T012432.jws", kind: .notification,
            bundle: "com.loki-project.loki-messenger", id: "TEST"),
        RealCase(
            file: "Doy-lee-session-pro-backend/notification-DID_RENEW-20251001T070838.jws", kind: .notification,
            bundle: "com.loki-project.loki-messenger", id: "DID_RENEW"),
        RealCase(
            file: "Doy-lee-session-pro-backend/transaction-2000001024998954-20251001T070838.jws", kind: .transaction,
            bundle: "com.loki-project.loki-messenger", id: "2000001024998954"),
        RealCase(
            file: "Doy-lee-session-pro-backend/renewalinfo-2000001024993299-20251001T070838.jws", kind: .renewalInfo,
            bundle: "-", id: "2000001024993299"),
    ]

    func shared() throws -> URL { try TestPaths.requireAppleVectors() }

    func read(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func root(_ name: String) throws -> Certificate {
        try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: try shared().appendingPathComponent("real/apple-pki/\(name)")))).first)
    }

    func verifier(
        bundle: String, environment: AppStoreEnvironment = .sandbox, appAppleId: Int64? = nil,
        roots: [Certificate]? = nil, cache: ChainCache = ChainCache()
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            trustedRoots: roots ?? [try root("AppleRootCA-G3.cer")], bundleId: bundle, appAppleId: appAppleId,
            environment: environment, cache: cache, clock: { 1_790_000_000 })
    }

    /// Verifies `text` as `kind` and returns the identifying value.
    func verify(_ text: String, kind: SignedDataKind, with v: SignedDataVerifier, at time: Int64? = nil) async throws -> (String?, Bool) {
        switch kind {
        case .transaction:
            let r = try await v.verifyTransaction(text, at: time)
            return (r.payload.transactionId, r.chainFromCache)
        case .renewalInfo:
            let r = try await v.verifyRenewalInfo(text, at: time)
            return (r.payload.originalTransactionId, r.chainFromCache)
        case .notification:
            let r = try await v.verifyNotification(text, at: time)
            return (r.payload.notificationType?.rawValue, r.chainFromCache)
        default:
            XCTFail("unused kind")
            return (nil, false)
        }
    }

    func status(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as AppStoreError {
            return error.code.rawValue
        } catch {
            return "unexpected \(error)"
        }
    }

    func testEveryRealJWSVerifiesAndDecodes() async throws {
        let base = try shared().appendingPathComponent("real/jws")
        for c in Self.realCases {
            let text = try read(base.appendingPathComponent(c.file))
            let v = try verifier(bundle: c.bundle)
            let (id, cached) = try await verify(text, kind: c.kind, with: v)
            XCTAssertEqual(id, c.id, c.file)
            XCTAssertFalse(cached)
            // Again: the chain now comes from the cache, and the answer is the same.
            let (again, cachedAgain) = try await verify(text, kind: c.kind, with: v)
            XCTAssertEqual(again, c.id)
            XCTAssertTrue(cachedAgain, c.file)
        }
    }

    func testWrongIdentityEnvironmentAndRoot() async throws {
        let base = try shared().appendingPathComponent("real/jws")
        let g2 = try root("AppleRootCA-G2.cer")
        for c in Self.realCases {
            let text = try read(base.appendingPathComponent(c.file))
            // Wrong environment (Sandbox data, Production verifier whose identity matches where checked).
            let production = try verifier(bundle: c.bundle, environment: .production, appAppleId: 1_470_168_868)
            let envStatus = await status { _ = try await self.verify(text, kind: c.kind, with: production) }
            if c.file.contains("TEST") {
                // The TEST notification has no appAppleId: in Production that is an identity failure first.
                XCTAssertEqual(envStatus, "INVALID_APP_IDENTIFIER", c.file)
            } else {
                XCTAssertEqual(envStatus, "INVALID_ENVIRONMENT", c.file)
            }
            // Wrong bundle id (renewal info carries none, as Apple's libraries do not check it).
            if c.kind != .renewalInfo {
                let wrong = try verifier(bundle: c.bundle + ".x")
                let s = await status { _ = try await self.verify(text, kind: c.kind, with: wrong) }
                XCTAssertEqual(s, "INVALID_APP_IDENTIFIER", c.file)
            }
            // Apple Root CA - G2 as the only trusted root.
            let g2Only = try verifier(bundle: c.bundle, roots: [g2])
            let s = await status { _ = try await self.verify(text, kind: c.kind, with: g2Only) }
            XCTAssertEqual(s, "VERIFICATION_FAILURE", c.file)
        }
        // Wrong app Apple id on the notification that carries one.
        let renew = try read(base.appendingPathComponent("Doy-lee-session-pro-backend/notification-DID_RENEW-20251001T070838.jws"))
        let wrongApp = try verifier(bundle: "com.loki-project.loki-messenger", environment: .production, appAppleId: 1_470_168_869)
        let s = await status { _ = try await wrongApp.verifyNotification(renew) }
        XCTAssertEqual(s, "INVALID_APP_IDENTIFIER")
    }

    func testExpiredLeavesVerifyAtSignedDateOnly() async throws {
        let base = try shared().appendingPathComponent("real/jws")
        let text = try read(base.appendingPathComponent("mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws"))
        let v = try verifier(bundle: "com.goodheartapp")
        _ = try await v.verifyTransaction(text)
        // The cached chain must not be reused at a time outside its validity: 2026 is after the
        // leaf's notAfter (2025-10-11).
        let s = await status { _ = try await v.verifyTransaction(text, at: 1_790_000_000) }
        XCTAssertEqual(s, "VERIFICATION_FAILURE")
    }

    func testTamperedPayloadSignatureHeaderAndChainLength() async throws {
        let base = try shared().appendingPathComponent("real/jws")
        let text = try read(base.appendingPathComponent("Doy-lee-session-pro-backend/transaction-2000001024998954-20251001T070838.jws"))
        let parts = text.split(separator: ".").map(String.init)
        let v = try verifier(bundle: "com.loki-project.loki-messenger")
        // One payload byte changed, the JSON still valid (a digit of the transaction id).
        var payload = try Base64URL.decode(parts[1])
        let digit = try XCTUnwrap(payload.firstIndex(of: UInt8(ascii: "9")))
        payload[digit] = UInt8(ascii: "8")
        let changedPayload = [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
        var s = await status { _ = try await v.verifyTransaction(changedPayload) }
        XCTAssertEqual(s, "VERIFICATION_FAILURE")
        // One signature byte changed (each of the 64).
        let signature = try Base64URL.decode(parts[2])
        for index in [0, 13, 31, 32, 50, 63] {
            var changed = signature
            changed[index] ^= 0x01
            let token = [parts[0], parts[1], Base64URL.encode(changed)].joined(separator: ".")
            s = await status { _ = try await v.verifyTransaction(token) }
            XCTAssertEqual(s, "VERIFICATION_FAILURE", "signature byte \(index)")
        }
        // x5c with 2 and 4 entries, and alg other than ES256.
        let header = try JSONValue(parsing: try Base64URL.decode(parts[0]))
        let x5c = try XCTUnwrap(header["x5c"]?.arrayValue)
        func withHeader(_ members: [(String, JSONValue)]) -> String {
            [Base64URL.encode(Array(JSONValue.object(members).serialized.utf8)), parts[1], parts[2]].joined(separator: ".")
        }
        for list in [Array(x5c.prefix(2)), x5c + [x5c[2]]] {
            s = await status { _ = try await v.verifyTransaction(withHeader([("alg", .string("ES256")), ("x5c", .array(list))])) }
            XCTAssertEqual(s, "INVALID_CHAIN_LENGTH")
        }
        for alg in ["ES384", "none", "HS256", "RS256"] {
            s = await status { _ = try await v.verifyTransaction(withHeader([("alg", .string(alg)), ("x5c", .array(x5c))])) }
            XCTAssertEqual(s, "INVALID_JWT_FORMAT", alg)
        }
        s = await status { _ = try await v.verifyTransaction(withHeader([("alg", .string("ES256"))])) }
        XCTAssertEqual(s, "INVALID_JWT_FORMAT")
        // A corrupted leaf certificate.
        var leafBytes = try Base64.decode(Array(try XCTUnwrap(x5c[0].stringValue).utf8), alphabet: .standard, padding: .required)
        leafBytes[10] ^= 0xFF
        s = await status {
            _ = try await v.verifyTransaction(
                withHeader([
                    ("alg", .string("ES256")),
                    ("x5c", .array([.string(Base64.encode(leafBytes)), x5c[1], x5c[2]])),
                ]))
        }
        XCTAssertEqual(s, "INVALID_CERTIFICATE")
        // Not a JWS at all.
        for junk in ["", "a.b", "a.b.c.d", "!!.!!.!!", parts[0] + "." + parts[1] + "=." + parts[2]] {
            s = await status { _ = try await v.verifyTransaction(junk) }
            XCTAssertEqual(s, "INVALID_JWT_FORMAT", junk)
        }
        // An empty signature is well-formed and wrong.
        s = await status { _ = try await v.verifyTransaction(parts[0] + "." + parts[1] + ".") }
        XCTAssertEqual(s, "VERIFICATION_FAILURE")
    }

    func testNestedSignedDataInANotification() async throws {
        let base = try shared().appendingPathComponent("real/jws")
        let text = try read(base.appendingPathComponent("Doy-lee-session-pro-backend/notification-DID_RENEW-20251001T070838.jws"))
        let v = try verifier(bundle: "com.loki-project.loki-messenger")
        let result = try await v.verifyNotificationAndNested(text)
        XCTAssertEqual(result.notification.payload.data?.appAppleId, 1_470_168_868)
        XCTAssertEqual(result.transaction?.payload.transactionId, "2000001024998954")
        XCTAssertEqual(result.renewalInfo?.payload.originalTransactionId, "2000001024993299")
        XCTAssertTrue(result.transaction?.chainFromCache ?? false, "the nested data shares the notification's chain")
    }

    func testExplainTraceNamesEveryStep() async throws {
        let base = try shared().appendingPathComponent("real/jws")
        let text = try read(base.appendingPathComponent("mysupplyme-MedicalSupplierzApp/sandbox-transaction-autorenew-2025-10-25.jws"))
        let v = try verifier(bundle: "com.ms.medicalsupplierzlite")
        let trace = VerificationTrace()
        _ = try await v.verify(text, as: JWSTransactionDecodedPayload.self, trace: trace)
        let text2 = trace.steps.map { "\($0.clause) \($0.check) \($0.detail)" }.joined(separator: "\n")
        XCTAssertTrue(text2.contains("Apple Root CA - G3"))
        XCTAssertTrue(text2.contains("1.2.840.113635.100.6.11.1"))
        XCTAssertTrue(text2.contains("SHA-256 of the"))
        XCTAssertFalse(trace.steps.contains { $0.verdict == .fail })
    }

    // MARK: - Apple's library test data

    func library(_ path: String) throws -> URL {
        try shared().appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/" + path)
    }

    func testCA() throws -> Certificate { try Certificate(derEncoded: Array(try Data(contentsOf: try library("certs/testCA.der")))) }

    /// Apple's library test PKI has no key identifiers and a non-critical root basicConstraints:
    /// it is verified through those two named RFC 5280 relaxations (`strict`: through none).
    func libraryVerifier(
        environment: AppStoreEnvironment = .sandbox, bundle: String = "com.example", appAppleId: Int64? = 1234, strict: Bool = false
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            trustedRoots: [try testCA()], bundleId: bundle, appAppleId: appAppleId, environment: environment,
            clock: { 1_761_962_975 }, rfc5280Relaxations: strict ? [] : [.missingKeyIdentifiers, .nonCriticalBasicConstraints])
    }

    func testAppleLibraryMockSignedData() async throws {
        let renewal = try read(try library("mock_signed_data/renewalInfo"))
        let r = try await libraryVerifier().verifyRenewalInfo(renewal)
        XCTAssertEqual(r.payload.environment, .sandbox)
        // Without the relaxations the test PKI is refused (no silent acceptance).
        let strict = await status { _ = try await self.libraryVerifier(strict: true).verifyRenewalInfo(renewal) }
        XCTAssertNotNil(strict)

        let notification = try read(try library("mock_signed_data/testNotification"))
        let n = try await libraryVerifier().verifyNotification(notification)
        XCTAssertEqual(n.payload.notificationType, .test)
        var s = await status { _ = try await self.libraryVerifier(environment: .production).verifyNotification(notification) }
        XCTAssertEqual(s, "INVALID_ENVIRONMENT")
        s = await status { _ = try await self.libraryVerifier(environment: .production, appAppleId: 1235).verifyNotification(notification) }
        XCTAssertEqual(s, "INVALID_APP_IDENTIFIER")
        s = await status { _ = try await self.libraryVerifier().verifyTransaction(notification) }
        XCTAssertEqual(s, "INVALID_APP_IDENTIFIER")

        let transaction = try read(try library("mock_signed_data/transactionInfo"))
        let t = try await libraryVerifier().verifyTransaction(transaction)
        XCTAssertEqual(t.payload.environment, .sandbox)
        s = await status { _ = try await self.libraryVerifier(bundle: "com.example.x").verifyTransaction(transaction) }
        XCTAssertEqual(s, "INVALID_APP_IDENTIFIER")

        let wrongBundle = try read(try library("mock_signed_data/wrongBundleId"))
        s = await status { _ = try await self.libraryVerifier().verifyNotification(wrongBundle) }
        XCTAssertEqual(s, "INVALID_APP_IDENTIFIER")

        let missingX5C = try read(try library("mock_signed_data/missingX5CHeaderClaim"))
        s = await status { _ = try await self.libraryVerifier().verifyNotification(missingX5C) }
        XCTAssertEqual(s, "INVALID_JWT_FORMAT")
    }

    /// One cache shared by a relaxed and a strict verifier: the chain the relaxed one validated
    /// and cached is not a hit for the strict one, which validates it itself and refuses it.
    func testSharedChainCacheKeepsStrictVerifiersStrict() async throws {
        let renewal = try read(try library("mock_signed_data/renewalInfo"))
        let cache = ChainCache()
        func verifier(strict: Bool) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                trustedRoots: [try testCA()], bundleId: "com.example", appAppleId: 1234, environment: .sandbox, cache: cache,
                clock: { 1_761_962_975 }, rfc5280Relaxations: strict ? [] : [.missingKeyIdentifiers, .nonCriticalBasicConstraints])
        }
        let relaxed = try await verifier(strict: false).verifyRenewalInfo(renewal)
        XCTAssertFalse(relaxed.chainFromCache)
        XCTAssertEqual(cache.count, 1)
        let again = try await verifier(strict: false).verifyRenewalInfo(renewal)
        XCTAssertTrue(again.chainFromCache)
        let strict = await status { _ = try await verifier(strict: true).verifyRenewalInfo(renewal) }
        XCTAssertEqual(strict, "VERIFICATION_FAILURE")
        XCTAssertEqual(cache.count, 1)
    }

    func testAppleLibraryXcodeSignedData() async throws {
        let bundle = "com.example.naturelab.backyardbirds.example"
        let xcode = try SignedDataVerifier(trustedRoots: [], bundleId: bundle, appAppleId: nil, environment: .xcode)
        let app = try await xcode.verifyAppTransaction(try read(try library("xcode/xcode-signed-app-transaction")))
        XCTAssertEqual(app.trust, .xcodeSelfSigned)
        XCTAssertNil(app.payload.appAppleId)
        XCTAssertEqual(app.payload.applicationVersion, "1")
        XCTAssertEqual(app.payload.deviceVerification, "cYUsXc53EbYc0pOeXG5d6/31LGHeVGf84sqSN0OrJi5u/j2H89WWKgS8N0hMsMlf")
        XCTAssertEqual(app.payload.deviceVerificationNonce, "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92")
        XCTAssertEqual(app.payload.receiptCreationDate?.millisecondsSince1970, 1_697_680_122_257.447)
        XCTAssertEqual(app.payload.originalPurchaseDate?.millisecondsSince1970, -62_135_769_600_000)
        XCTAssertEqual(app.payload.receiptType, .xcode)

        let renewal = try await xcode.verifyRenewalInfo(try read(try library("xcode/xcode-signed-renewal-info")))
        XCTAssertEqual(renewal.payload.originalTransactionId, "0")
        XCTAssertEqual(renewal.payload.autoRenewProductId, "pass.premium")
        XCTAssertEqual(renewal.payload.autoRenewStatus, .on)
        XCTAssertEqual(renewal.payload.renewalDate?.millisecondsSince1970.rounded(.towardZero), 1_700_358_336_049)

        let transaction = try await xcode.verifyTransaction(try read(try library("xcode/xcode-signed-transaction")))
        XCTAssertEqual(transaction.payload.productId, "pass.premium")
        XCTAssertEqual(transaction.payload.subscriptionGroupIdentifier, "6F3A93AB")
        XCTAssertEqual(transaction.payload.type, .autoRenewableSubscription)
        XCTAssertEqual(transaction.payload.offerType, .introductoryOffer)
        XCTAssertEqual(transaction.payload.storefrontId, "143441")

        // The same Xcode data in Production: x5c holds one certificate.
        let production = try SignedDataVerifier(trustedRoots: [try testCA()], bundleId: bundle, appAppleId: 1, environment: .production)
        let s = await status {
            _ = try await production.verifyAppTransaction(try self.read(try self.library("xcode/xcode-signed-app-transaction")))
        }
        XCTAssertEqual(s, "INVALID_CHAIN_LENGTH")
    }

    /// The documented Xcode path: Xcode's certificate given (here the one Apple's library's Xcode
    /// data carries, as a developer saves it) verifies the real Xcode JWS; another certificate
    /// given refuses them; the certificate the data carries is a named choice.
    func testXcodeSignedDataWithXcodesCertificateGiven() async throws {
        let bundle = "com.example.naturelab.backyardbirds.example"
        let appTransaction = try read(try library("xcode/xcode-signed-app-transaction"))
        let header = try JWS(compact: appTransaction).header
        let der = try JWS.certificateDER(try XCTUnwrap(header["x5c"]?.arrayValue?.first?.stringValue))
        let xcodeCertificate = try Certificate(derEncoded: der)
        let given = try SignedDataVerifier(xcode: .given(xcodeCertificate), identity: .enforce(bundleId: bundle, appAppleId: nil))
        XCTAssertEqual(given.environments, .xcode)
        XCTAssertEqual(given.xcodeCertificate, .given(xcodeCertificate))
        let app = try await given.verifyAppTransaction(appTransaction)
        XCTAssertEqual(app.trust, .xcodeSelfSigned)
        XCTAssertEqual(app.chain, [xcodeCertificate])
        XCTAssertEqual(app.identity.environment, .xcode)
        let transaction = try await given.verifyTransaction(try read(try library("xcode/xcode-signed-transaction")))
        XCTAssertEqual(transaction.payload.productId, "pass.premium")
        let renewal = try await given.verifyRenewalInfo(try read(try library("xcode/xcode-signed-renewal-info")))
        XCTAssertEqual(renewal.payload.originalTransactionId, "0")
        // Another certificate given: refused, whatever the data carries.
        let other = try XcodeShapedTestCertificate.generate(notBefore: 1_697_000_000, notAfter: 1_730_000_000)
        let wrong = try SignedDataVerifier(xcode: .given(other.certificate), identity: .enforce(bundleId: bundle, appAppleId: nil))
        let refused = await status { _ = try await wrong.verifyAppTransaction(appTransaction) }
        XCTAssertEqual(refused, "VERIFICATION_FAILURE")
        // Data Xcode did not sign, carrying its own certificate: only the carried choice accepts it.
        let forged = try other.signedData(
            payload: Array(#"{"bundleId":"\#(bundle)","receiptType":"Xcode","receiptCreationDate":1697680122257}"#.utf8))
        let forgedRefused = await status { _ = try await given.verifyAppTransaction(forged) }
        XCTAssertEqual(forgedRefused, "VERIFICATION_FAILURE")
        let carried = try SignedDataVerifier(xcode: .carriedByTheData, identity: .enforce(bundleId: bundle, appAppleId: nil))
        let carriedVerified = try await carried.verifyAppTransaction(forged)
        XCTAssertEqual(carriedVerified.chain, [other.certificate])
        // A verifier built with environment .xcode is the carried choice, and says so.
        XCTAssertEqual(
            try SignedDataVerifier(trustedRoots: [], bundleId: bundle, appAppleId: nil, environment: .xcode).xcodeCertificate,
            .carriedByTheData)
        XCTAssertNil(
            try SignedDataVerifier(trustedRoots: [try testCA()], bundleId: bundle, appAppleId: 1, environment: .production).xcodeCertificate
        )
    }

    /// Xcode writes app transactions without receiptType (Apple's Python library fails on them,
    /// python#112): in the Xcode environment one verifies, reported as Xcode; the same payload
    /// signed by an App Store-shaped chain is refused in Sandbox.
    func testXcodeAppTransactionWithoutReceiptType() async throws {
        let now: Int64 = 1_790_000_000
        let bundle = "com.example.app"
        let payload = Array(
            #"{"bundleId":"com.example.app","applicationVersion":"1","originalApplicationVersion":"1","receiptCreationDate":1790000000000,"requestDate":1790000000000,"originalPurchaseDate":1790000000000}"#
                .utf8)
        let xcode = try XcodeShapedTestCertificate.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let verifier = try SignedDataVerifier(
            xcode: .given(xcode.certificate), identity: .enforce(bundleId: bundle, appAppleId: nil), clock: { now })
        let verified = try await verifier.verifyAppTransaction(try xcode.signedData(payload: payload))
        XCTAssertNil(verified.payload.receiptType)
        XCTAssertEqual(verified.identity.environment, .xcode)
        XCTAssertTrue(verified.identity.enforced)
        // Another bundle id still fails in Xcode.
        let other = try SignedDataVerifier(
            xcode: .given(xcode.certificate), identity: .enforce(bundleId: "com.example.other", appAppleId: nil), clock: { now })
        let refused = await status { _ = try await other.verifyAppTransaction(try xcode.signedData(payload: payload)) }
        XCTAssertEqual(refused, "INVALID_APP_IDENTIFIER")
        // Outside the Xcode environment an absent receiptType is no environment.
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let sandbox = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, clock: { now })
        let outside = await status { _ = try await sandbox.verifyAppTransaction(try pki.signedData(payload: payload)) }
        XCTAssertEqual(outside, "INVALID_ENVIRONMENT")
    }

    func testProductionNeedsAppAppleId() throws {
        // Its own code, so a caller tells it from other configuration errors without reading the reason.
        XCTAssertThrowsError(try SignedDataVerifier(trustedRoots: [try testCA()], bundleId: "b", appAppleId: nil, environment: .production))
        {
            XCTAssertEqual(($0 as? AppStoreError)?.code, .appAppleIdRequired, "\($0)")
        }
        XCTAssertThrowsError(try SignedDataVerifier(trustedRoots: [], bundleId: "b", appAppleId: nil, environment: .sandbox)) {
            XCTAssertEqual(($0 as? AppStoreError)?.code, .invalidConfiguration, "\($0)")
        }
    }
}
