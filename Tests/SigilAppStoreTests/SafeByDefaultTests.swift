import Foundation
import SigilASN1
import SigilAppStore
import SigilApplePKI
import SigilCRL
import SigilCore
import SigilJOSE
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// The App Store verifier is safe by default: the identity check is a requirement of every
/// payload type and runs in every entry point; chain failures reach the caller typed; any
/// revocation checker (here CRLs) can be plugged in.
final class SafeByDefaultTests: XCTestCase {
    let now: Int64 = 1_790_000_000
    let bundle = "com.example.app"
    let appAppleId: Int64 = 1_234_567_890

    /// A payload kind a user might add: its identity rule is its own.
    struct GiftCardPayload: AppStoreSignedPayload {
        static let kind = SignedDataKind.transaction
        var bundleId: String?
        var environment: AppStoreEnvironment?
        var signedDate: AppStoreDate?
        var validationDate: AppStoreDate? { signedDate }

        func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
            try expected.bundleId(bundleId)
            try expected.environment(environment)
            return AppIdentityReport(bundleId: bundleId, appAppleId: nil, environment: environment, enforced: expected.isEnforced)
        }
    }

    func json(_ members: [String: Any]) -> [UInt8] { Array(try! JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])) }

    /// A new conformance is verified with its own identity check through the generic entry
    /// points; and a conformance without one does not compile (swiftc run on such a file).
    func testNewPayloadTypeCannotSkipItsIdentityCheck() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let good = try pki.signedData(payload: json(["bundleId": bundle, "environment": "Sandbox", "signedDate": now * 1000]))
        let wrong = try pki.signedData(payload: json(["bundleId": "com.other", "environment": "Sandbox", "signedDate": now * 1000]))
        let verifier = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox)
        let verified = try verifier.verifyOffline(good, as: GiftCardPayload.self)
        XCTAssertEqual(verified.identity, AppIdentityReport(bundleId: bundle, appAppleId: nil, environment: .sandbox, enforced: true))
        for entry in ["sync", "async"] {
            do {
                if entry == "sync" {
                    _ = try verifier.verifyOffline(wrong, as: GiftCardPayload.self)
                } else {
                    _ = try await verifier.verify(wrong, as: GiftCardPayload.self)
                }
                XCTFail("\(entry): a wrong bundle id verified")
            } catch { XCTAssertEqual(error.code, .invalidAppIdentifier, entry) }
        }

        // The type system: a conformance that does not state its identity rule is refused by the compiler.
        let modules = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "Modules")
        let swiftc = try XCTUnwrap(Subprocess.which("swiftc"), "swiftc is on PATH wherever swift test runs")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = TestPaths.repositoryRoot
        func typecheck(_ body: String) throws -> Subprocess.Result {
            let file = dir.appendingPathComponent("\(UUID().uuidString).swift")
            try Data(body.utf8).write(to: file)
            return try Subprocess.run(
                swiftc,
                [
                    "-typecheck", "-I", modules.path, "-I", root.appendingPathComponent("Sources/CGMP").path, "-I",
                    root.appendingPathComponent("Sources/CSigilIntrinsics/include").path, file.path,
                ])
        }
        let declaration = """
            import SigilAppStore
            struct NewPayload: AppStoreSignedPayload {
                static let kind = SignedDataKind.transaction
                var signedDate: AppStoreDate?
                var validationDate: AppStoreDate? { signedDate }
            """
        let without = try typecheck(declaration + "\n}\n")
        let message = String(decoding: without.stderr, as: UTF8.self)
        XCTAssertNotEqual(without.status, 0, "a conformance without checkIdentity compiled")
        XCTAssertTrue(message.contains("does not conform to protocol 'AppStoreSignedPayload'"), message)
        let with = try typecheck(
            declaration + """

                    func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
                        AppIdentityReport(bundleId: nil, appAppleId: nil, environment: nil, enforced: expected.isEnforced)
                    }
                }
                """)
        XCTAssertEqual(with.status, 0, String(decoding: with.stderr, as: UTF8.self))
    }

    /// A wrong bundle id, app Apple id or environment fails through every entry point, sync and
    /// async, for every payload kind that carries the field.
    func testEveryEntryPointEnforcesTheIdentity() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let ms = now * 1000
        let verifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environment: .production)
        func transaction(bundle: String, environment: String) throws -> String {
            try pki.signedData(
                payload: json([
                    "transactionId": "1", "originalTransactionId": "1", "bundleId": bundle, "environment": environment, "signedDate": ms,
                ]))
        }
        func renewal(environment: String) throws -> String {
            try pki.signedData(
                payload: json(["originalTransactionId": "1", "autoRenewStatus": 1, "environment": environment, "signedDate": ms]))
        }
        func notification(bundle: String, appAppleId: Int64, environment: String, nested: String? = nil) throws -> String {
            var data: [String: Any] = ["bundleId": bundle, "appAppleId": appAppleId, "environment": environment]
            if let nested { data["signedTransactionInfo"] = nested }
            return try pki.signedData(
                payload: json(["notificationType": "TEST", "notificationUUID": "u", "signedDate": ms, "data": data]))
        }
        func appTransaction(bundle: String, appAppleId: Int64, receiptType: String) throws -> String {
            try pki.signedData(
                payload: json([
                    "bundleId": bundle, "appAppleId": appAppleId, "receiptType": receiptType, "receiptCreationDate": ms,
                    "applicationVersion": "1",
                ]))
        }
        func realtime(appAppleId: Int64, environment: String) throws -> String {
            try pki.signedData(
                payload: json([
                    "originalTransactionId": "1", "appAppleId": appAppleId, "productId": "p", "userLocale": "en_US",
                    "requestIdentifier": "r", "environment": environment, "signedDate": ms,
                ]))
        }

        // Each (entry point, input, expected status); the good inputs verify through the same entry points.
        typealias Call = @Sendable (String) async throws -> Void
        let entries: [(String, Call)] = [
            ("verifyTransaction", { _ = try await verifier.verifyTransaction($0) }),
            ("verifyTransactionOffline", { _ = try verifier.verifyTransactionOffline($0) }),
            ("verify(as: transaction)", { _ = try await verifier.verify($0, as: JWSTransactionDecodedPayload.self) }),
            ("verifyOffline(as: transaction)", { _ = try verifier.verifyOffline($0, as: JWSTransactionDecodedPayload.self) }),
            ("verify(kind: .transaction)", { _ = try await verifier.verify($0, kind: .transaction) }),
            ("verify(kind: nil)", { _ = try await verifier.verify($0, kind: nil) }),
        ]
        let cases: [(String, String, AppStoreError.Code?)] = [
            ("transaction", try transaction(bundle: bundle, environment: "Production"), nil),
            ("transaction, wrong bundle", try transaction(bundle: "com.other", environment: "Production"), .invalidAppIdentifier),
            ("transaction, wrong environment", try transaction(bundle: bundle, environment: "Sandbox"), .invalidEnvironment),
        ]
        for (entry, call) in entries {
            for (label, input, expected) in cases {
                do {
                    try await call(input)
                    XCTAssertNil(expected, "\(entry): \(label) verified")
                } catch { XCTAssertEqual((error as? AppStoreError)?.code, expected, "\(entry): \(label): \(error)") }
            }
        }

        // Every kind's typed entry point, its generic sync and async forms and the kind-dispatching one.
        func each<P: AppStoreSignedPayload>(
            _ type: P.Type, typed: @escaping @Sendable (String) async throws -> Void, _ cases: [(String, String, AppStoreError.Code?)]
        ) async {
            let calls: [(String, Call)] = [
                ("typed", typed), ("verify(as:)", { _ = try await verifier.verify($0, as: P.self) }),
                ("verifyOffline(as:)", { _ = try verifier.verifyOffline($0, as: P.self) }),
                ("verify(kind:)", { _ = try await verifier.verify($0, kind: P.kind) }),
            ]
            for (entry, call) in calls {
                for (label, input, expected) in cases {
                    do {
                        try await call(input)
                        XCTAssertNil(expected, "\(P.kind) \(entry): \(label) verified")
                    } catch { XCTAssertEqual((error as? AppStoreError)?.code, expected, "\(P.kind) \(entry): \(label): \(error)") }
                }
            }
        }
        await each(
            JWSRenewalInfoDecodedPayload.self, typed: { _ = try await verifier.verifyRenewalInfo($0) },
            [
                ("renewal", try renewal(environment: "Production"), nil),
                ("wrong environment", try renewal(environment: "Sandbox"), .invalidEnvironment),
            ])
        await each(
            ResponseBodyV2DecodedPayload.self, typed: { _ = try await verifier.verifyNotification($0) },
            [
                ("notification", try notification(bundle: bundle, appAppleId: appAppleId, environment: "Production"), nil),
                (
                    "wrong bundle", try notification(bundle: "com.other", appAppleId: appAppleId, environment: "Production"),
                    .invalidAppIdentifier
                ),
                ("wrong app Apple id", try notification(bundle: bundle, appAppleId: 1, environment: "Production"), .invalidAppIdentifier),
                (
                    "wrong environment", try notification(bundle: bundle, appAppleId: appAppleId, environment: "Sandbox"),
                    .invalidEnvironment
                ),
            ])
        await each(
            AppTransaction.self, typed: { _ = try await verifier.verifyAppTransaction($0) },
            [
                ("app transaction", try appTransaction(bundle: bundle, appAppleId: appAppleId, receiptType: "Production"), nil),
                (
                    "wrong bundle", try appTransaction(bundle: "com.other", appAppleId: appAppleId, receiptType: "Production"),
                    .invalidAppIdentifier
                ),
                ("wrong app Apple id", try appTransaction(bundle: bundle, appAppleId: 1, receiptType: "Production"), .invalidAppIdentifier),
                (
                    "wrong receipt type", try appTransaction(bundle: bundle, appAppleId: appAppleId, receiptType: "Sandbox"),
                    .invalidEnvironment
                ),
            ])
        await each(
            DecodedRealtimeRequestBody.self, typed: { _ = try await verifier.verifyRealtimeRequest($0) },
            [
                ("realtime", try realtime(appAppleId: appAppleId, environment: "Production"), nil),
                ("wrong app Apple id", try realtime(appAppleId: 1, environment: "Production"), .invalidAppIdentifier),
                ("wrong environment", try realtime(appAppleId: appAppleId, environment: "Sandbox"), .invalidEnvironment),
            ])
        // The nested transaction of a notification is held to the same identity.
        let nestedWrong = try notification(
            bundle: bundle, appAppleId: appAppleId, environment: "Production",
            nested: try transaction(bundle: "com.other", environment: "Production"))
        do {
            _ = try await verifier.verifyNotificationAndNested(nestedWrong)
            XCTFail("a notification with a foreign nested transaction verified")
        } catch { XCTAssertEqual(error.code, .invalidAppIdentifier) }
    }

    /// Not enforcing is a named choice: report-only verifies a foreign bundle id and says it did
    /// not enforce it; the environment is still enforced; Production with enforcement needs the app Apple id.
    func testReportOnlyIsNamedAndReported() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let jws = try pki.signedData(
            payload: json(["transactionId": "1", "bundleId": "com.any", "environment": "Sandbox", "signedDate": now * 1000]))
        let reporting = try SignedDataVerifier(trustedRoots: [pki.root], identity: .reportOnly, environment: .sandbox)
        let verified = try await reporting.verifyTransaction(jws)
        XCTAssertEqual(verified.identity, AppIdentityReport(bundleId: "com.any", appAppleId: nil, environment: .sandbox, enforced: false))
        XCTAssertNil(reporting.bundleId)
        let production = try SignedDataVerifier(trustedRoots: [pki.root], identity: .reportOnly, environment: .production)
        do {
            _ = try await production.verifyTransaction(jws)
            XCTFail("a Sandbox payload verified in Production")
        } catch { XCTAssertEqual(error.code, .invalidEnvironment) }
        XCTAssertThrowsError(
            try SignedDataVerifier(
                trustedRoots: [pki.root], identity: .enforce(bundleId: bundle, appAppleId: nil), environment: .production))
    }

    /// Chain failures are typed: an expired leaf and an intermediate without Apple's marker are
    /// told apart by their cases, with the certificate each concerns.
    func testTypedChainFailures() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let verifier = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox)
        let late = now + 10 * 86_400
        let expired = try pki.signedData(
            payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": late * 1000]))
        // The same intermediate key and name re-issued without the WWDR marker; the leaf it signed still verifies under it.
        let bare = try pki.intermediateWithoutMarker(notBefore: now - 86_400, notAfter: now + 86_400)
        let chain = [pki.leaf, bare, pki.root].map { JSONValue.string(Base64.encode($0.derBytes)) }
        let unmarked = try JWS.sign(
            header: .object([("alg", .string("ES256")), ("x5c", .array(chain))]),
            payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": now * 1000]), key: pki.leafKey)

        func failures(_ jws: String) async -> [ValidationFailure] {
            do {
                _ = try await verifier.verifyTransaction(jws)
                XCTFail("verified")
                return []
            } catch {
                XCTAssertEqual(error.code, .verificationFailure)
                return error.failures
            }
        }
        let expiredFailures = await failures(expired)
        XCTAssertTrue(
            expiredFailures.contains {
                if case .expired(let subject, _, let time) = $0 {
                    subject.description.contains("StoreKit Signing") && time == late
                } else {
                    false
                }
            }, "\(expiredFailures)")
        XCTAssertFalse(expiredFailures.contains { if case .missingMarkerExtension = $0 { true } else { false } })
        let markerFailures = await failures(unmarked)
        XCTAssertTrue(
            markerFailures.contains {
                if case .missingMarkerExtension(_, let role, let oid, _) = $0 {
                    oid == AppleOIDs.wwdrIntermediate && role.contains("intermediate")
                } else {
                    false
                }
            }, "\(markerFailures)")
        XCTAssertFalse(markerFailures.contains { if case .expired = $0 { true } else { false } })
        XCTAssertEqual(markerFailures.first { if case .missingMarkerExtension = $0 { true } else { false } }?.rule, "Apple signed data")
    }

    /// One cache shared by verifiers trusting different roots: a chain to the first root, cached
    /// by the first verifier, is refused by the second (no path to its root), not served from
    /// the cache; each verifier hits only its own entries.
    func testSharedChainCacheNeverCrossesTrustedRoots() async throws {
        let first = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let second = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let cache = ChainCache()
        let now = self.now
        func verifier(_ root: Certificate) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                trustedRoots: [root], bundleId: bundle, appAppleId: nil, environment: .sandbox, cache: cache, clock: { now })
        }
        let jws = try first.signedData(
            payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": now * 1000]))
        let firstTime = try await verifier(first.root).verifyTransaction(jws)
        XCTAssertFalse(firstTime.chainFromCache)
        let again = try await verifier(first.root).verifyTransaction(jws)
        XCTAssertTrue(again.chainFromCache)
        do {
            _ = try await verifier(second.root).verifyTransaction(jws)
            XCTFail("a chain cached under another root was accepted")
        } catch {
            XCTAssertEqual((error as? AppStoreError)?.code, .verificationFailure, "\(error)")
        }
        // The same roots in another order are the same trust configuration.
        let both = try SignedDataVerifier(
            trustedRoots: [second.root, first.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, cache: cache,
            clock: { now })
        let reordered = try SignedDataVerifier(
            trustedRoots: [first.root, second.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, cache: cache,
            clock: { now })
        let underBoth = try await both.verifyTransaction(jws)
        XCTAssertFalse(underBoth.chainFromCache)
        let underReordered = try await reordered.verifyTransaction(jws)
        XCTAssertTrue(underReordered.chainFromCache)
        XCTAssertEqual(cache.count, 2)
    }

    /// Failures with an obvious next step say it: the environment a payload needs, the app Apple id
    /// Production requires, and why online checks refuse data signed before a certificate expired.
    func testErrorsSayTheNextStep() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let jws = try pki.signedData(
            payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": now * 1000]))
        do {
            _ = try await SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environment: .production)
                .verifyTransaction(jws)
            XCTFail("Sandbox data verified by a Production verifier")
        } catch {
            XCTAssertEqual(error.code, .invalidEnvironment)
            XCTAssertTrue(error.reason.contains("verify Sandbox data with a Sandbox verifier"), error.reason)
        }
        XCTAssertThrowsError(try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .production))
        {
            XCTAssertTrue(($0 as? AppStoreError)?.reason.contains("pass appAppleId") == true, "\($0)")
        }
        struct NothingRevoked: RevocationChecker {
            func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] { [] }
        }
        // With a revocation checker the chain is still validated at the payload's signedDate (revocation
        // now): two days after the chain expired, the data signed while it was valid verifies, and the
        // result says the leaf has expired since.
        let online = try SignedDataVerifier(
            trustedRoots: [pki.root], identity: .enforce(bundleId: bundle, appAppleId: nil), environment: .sandbox,
            revocation: NothingRevoked(), clock: { [later = now + 2 * 86_400] in later })
        let verified = try await online.verifyTransaction(jws)
        XCTAssertEqual(verified.validationTime, now)
        XCTAssertEqual(verified.facts, [.leafExpiredSinceSigning(notAfter: now + 86_400)])
    }

    /// One verifier for Production and Sandbox (the App Review setup): each payload verifies in
    /// full and reports its environment; Production is still held to the app Apple id, which the
    /// verifier cannot be built without; the test environments never join the set.
    func testOneVerifierAcceptsProductionAndSandbox() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let ms = now * 1000
        func transaction(_ environment: String) throws -> String {
            try pki.signedData(
                payload: json(["transactionId": "1", "bundleId": bundle, "environment": environment, "signedDate": ms]))
        }
        func notification(_ environment: String, appAppleId: Int64, nested: String? = nil) throws -> String {
            var data: [String: Any] = ["bundleId": bundle, "appAppleId": appAppleId, "environment": environment]
            if let nested { data["signedTransactionInfo"] = nested }
            return try pki.signedData(payload: json(["notificationType": "TEST", "notificationUUID": "u", "signedDate": ms, "data": data]))
        }
        let verifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environments: .productionAndSandbox,
            clock: { [now] in now })
        XCTAssertEqual(verifier.environments.environments, [.production, .sandbox])
        for environment in [AppStoreEnvironment.sandbox, .production] {
            let verified = try await verifier.verifyTransaction(try transaction(environment.rawValue))
            XCTAssertEqual(verified.environment, environment)
            XCTAssertEqual(verified.trust, .appleChain)
            XCTAssertEqual(verified.chain.count, 3)
            let any = try await verifier.verify(try transaction(environment.rawValue), kind: .transaction)
            XCTAssertEqual(any.environment, environment)
            let offline = try verifier.verifyTransactionOffline(try transaction(environment.rawValue))
            XCTAssertEqual(offline.environment, environment)
            let withNested = try await verifier.verifyNotificationAndNested(
                try notification(environment.rawValue, appAppleId: appAppleId, nested: try transaction(environment.rawValue)))
            XCTAssertEqual(withNested.notification.environment, environment)
            XCTAssertEqual(withNested.transaction?.environment, environment)
        }
        // Production data is held to the app Apple id; Sandbox data is not (Apple's rule).
        let otherApp = try notification("Production", appAppleId: 42)
        do {
            _ = try await verifier.verifyNotification(otherApp)
            XCTFail("a Production notification of another app Apple id verified")
        } catch { XCTAssertEqual(error.code, .invalidAppIdentifier, "\(error)") }
        let sandboxOther = try await verifier.verifyNotification(try notification("Sandbox", appAppleId: 42))
        XCTAssertEqual(sandboxOther.environment, .sandbox)
        // Neither environment, or nested data from the other one: refused.
        for (label, signed) in [
            ("Xcode data", try transaction("Xcode")), ("LocalTesting data", try transaction("LocalTesting")),
            ("no environment", try pki.signedData(payload: json(["transactionId": "1", "bundleId": bundle, "signedDate": ms]))),
        ] {
            do {
                _ = try await verifier.verifyTransaction(signed)
                XCTFail("\(label) verified")
            } catch {
                XCTAssertEqual(error.code, .invalidEnvironment, label)
                XCTAssertTrue(error.reason.contains("expected Production or Sandbox"), error.reason)
            }
        }
        let mixed = try notification("Production", appAppleId: appAppleId, nested: try transaction("Sandbox"))
        do {
            _ = try await verifier.verifyNotificationAndNested(mixed)
            XCTFail("a Production notification carrying a Sandbox transaction verified")
        } catch { XCTAssertEqual(error.code, .invalidEnvironment, "\(error)") }

        // Production without the app Apple id is refused at construction, in a set as alone; without
        // it, a Sandbox-only verifier refuses Production data.
        for environments in [AcceptedEnvironments.productionAndSandbox, .production] {
            XCTAssertThrowsError(
                try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environments: environments)
            ) { XCTAssertEqual(($0 as? AppStoreError)?.code, .appAppleIdRequired, "\($0)") }
        }
        let sandboxOnly = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environments: .sandbox)
        let production = try transaction("Production")
        do {
            _ = try await sandboxOnly.verifyTransaction(production)
            XCTFail("Production data verified by a Sandbox verifier")
        } catch { XCTAssertEqual(error.code, .invalidEnvironment) }
        // A report-only verifier (an inspection tool) needs no app Apple id.
        let inspector = try SignedDataVerifier(trustedRoots: [pki.root], identity: .reportOnly, environments: .productionAndSandbox)
        let inspected = try await inspector.verifyNotification(try notification("Production", appAppleId: 42))
        XCTAssertEqual(inspected.environment, .production)
        XCTAssertFalse(inspected.identity.enforced)

        // The sets: Production and Sandbox combine; Xcode only alone; LocalTesting only by name.
        XCTAssertEqual(try AcceptedEnvironments([.production, .sandbox]), .productionAndSandbox)
        XCTAssertEqual(try AcceptedEnvironments([.xcode]), .xcode)
        XCTAssertEqual(AcceptedEnvironments.localTestingUnsigned.trust, .unverified)
        for refused: Set<AppStoreEnvironment> in [[], [.production, .xcode], [.sandbox, .localTesting], [.localTesting]] {
            XCTAssertThrowsError(try AcceptedEnvironments(refused), "\(refused)") {
                XCTAssertEqual(($0 as? AppStoreError)?.code, .invalidConfiguration, "\($0)")
            }
        }
        XCTAssertThrowsError(
            try SignedDataVerifier(trustedRoots: [], bundleId: bundle, appAppleId: nil, environment: .localTesting),
            "LocalTesting accepted without its name"
        ) { XCTAssertTrue(($0 as? AppStoreError)?.reason.contains("localTestingUnsigned") == true, "\($0)") }
    }

    /// A transaction signed before its leaf expired, verified with a CRL revocation checker: the
    /// chain is validated at the signedDate, revocation now, and the result reports
    /// `leafExpiredSinceSigning`; a leaf revoked after signing, or data signed after the leaf
    /// expired, is refused.
    func testLeafExpiredSinceSigningWithCRLRevocation() async throws {
        let day: Int64 = 86_400
        let base = try AppleShapedTestPKI.generate(notBefore: now - 400 * day, notAfter: now + 400 * day)
        let pki = try base.withLeaf(notBefore: now - 100 * day, notAfter: now - 10 * day)
        let signedDate = now - 30 * day
        func transaction(signedAt seconds: Int64) throws -> String {
            try pki.signedData(
                payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": seconds * 1000]))
        }
        func checker(revokingLeafAt revocationDate: Int64?) throws -> CRLRevocationChecker {
            CRLRevocationChecker(source: OfflineCRLSource(try pki.crls(at: now, revokingLeafAt: revocationDate)))
        }
        func verifier(_ revocation: (any RevocationChecker)?, cache: ChainCache = ChainCache()) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environments: .productionAndSandbox,
                revocation: revocation, cache: cache, clock: { [now] in now })
        }
        let good = try verifier(try checker(revokingLeafAt: nil))
        let trace = VerificationTrace()
        let verified = try await good.verify(try transaction(signedAt: signedDate), as: JWSTransactionDecodedPayload.self, trace: trace)
        XCTAssertEqual(verified.validationTime, signedDate, "the chain is validated at the signedDate")
        XCTAssertEqual(verified.facts, [.leafExpiredSinceSigning(notAfter: now - 10 * day)])
        XCTAssertTrue(verified.leafExpiredSinceSigning)
        XCTAssertEqual(verified.environment, .sandbox)
        XCTAssertTrue(
            trace.steps.contains { $0.verdict == .pass && $0.check == "revocation status at \(now)" },
            "revocation checked now: \(trace.steps)")
        // The cached chain reports the same fact.
        let again = try await good.verifyTransaction(try transaction(signedAt: signedDate))
        XCTAssertTrue(again.chainFromCache)
        XCTAssertEqual(again.facts, verified.facts)
        // Without revocation checking the same holds (validated at the signedDate, as Apple's libraries offline).
        let offline = try verifier(nil).verifyTransactionOffline(try transaction(signedAt: signedDate))
        XCTAssertTrue(offline.leafExpiredSinceSigning)

        // Revoked after signing but before now: refused, the failure typed.
        let revoked = try verifier(try checker(revokingLeafAt: now - 5 * day))
        let old = try transaction(signedAt: signedDate)
        do {
            _ = try await revoked.verifyTransaction(old)
            XCTFail("a leaf revoked before now verified")
        } catch {
            XCTAssertEqual(error.code, .verificationFailure)
            XCTAssertTrue(error.failures.contains { if case .revoked = $0 { true } else { false } }, "\(error)")
        }
        // Signed after the leaf expired: refused as expired.
        let late = try transaction(signedAt: now - 5 * day)
        do {
            _ = try await good.verifyTransaction(late)
            XCTFail("data signed after the leaf expired verified")
        } catch {
            XCTAssertEqual(error.code, .verificationFailure)
            XCTAssertTrue(error.failures.contains { if case .expired = $0 { true } else { false } }, "\(error)")
        }
        // The same data signed by a leaf still valid (the one first issued): no fact.
        let valid = try await verifier(try checker(revokingLeafAt: nil)).verifyTransaction(
            try base.signedData(
                payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": signedDate * 1000])))
        XCTAssertEqual(valid.facts, [])
        XCTAssertFalse(valid.leafExpiredSinceSigning)
    }

    /// One trace for the whole job: the App Store verifier hands its trace to the certificate
    /// verifier, whose steps (signatures, basics, each policy, the path) sit between the
    /// certificates' decoding and the JWS signature, in the order they ran.
    func testTraceCarriesTheCertificateVerifiersSteps() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let verifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, cache: ChainCache(timeToLive: 0))
        let jws = try pki.signedData(
            payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": now * 1000]))
        let trace = VerificationTrace()
        _ = try await verifier.verify(jws, as: JWSTransactionDecodedPayload.self, trace: trace)
        let checks = trace.steps.map { $0.check.isEmpty ? $0.clause : $0.check }
        func index(_ prefix: String) -> Int? { checks.firstIndex { $0.hasPrefix(prefix) } }
        let order = try [
            "decode the payload", "RFC 5280 §4.1", "signature on", "basics:", "policy RFC 5280",
            "policy \(MarkerExtensionPolicy.appleSignedData.name)", "a certification path to a trusted root", "validate the chain",
            "ES256 signature", "bundle id / app Apple id / environment",
        ].map { name in try XCTUnwrap(index(name), "\(name) not in \(checks)") }
        XCTAssertEqual(order, order.sorted(), "\(checks)")
        XCTAssertEqual(checks.filter { $0.hasPrefix("signature on") }.count, 2)
        XCTAssertTrue(trace.steps.allSatisfy { $0.verdict != .fail })
    }

    /// App Store signed data with CRL revocation checking: a CRL-based checker (SigilCRL) plugged
    /// into the verifier, alone and composed with another checker; a revoked leaf is refused.
    func testCRLRevocationChecker() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let clockNow = now
        let jws = try pki.signedData(
            payload: json(["transactionId": "1", "bundleId": bundle, "environment": "Sandbox", "signedDate": now * 1000]))
        func crls(revokingLeaf: Bool) throws -> [CRL] {
            let rootCRL = try CRLBuilder(issuer: pki.root, thisUpdate: now - 3600, nextUpdate: now + 86_400).sign(with: pki.rootKey)
            let intermediateCRL = try CRLBuilder(
                issuer: pki.intermediate, thisUpdate: now - 3600, nextUpdate: now + 86_400,
                entries: revokingLeaf ? [.init(serialNumber: pki.leaf.serialNumber, revocationDate: now - 1800)] : []
            ).sign(with: pki.intermediateKey)
            return [try CRL(derEncoded: rootCRL), try CRL(derEncoded: intermediateCRL)]
        }
        let good = CRLRevocationChecker(source: OfflineCRLSource(try crls(revokingLeaf: false)))
        let revoked = CRLRevocationChecker(source: OfflineCRLSource(try crls(revokingLeaf: true)))
        for (label, checker, valid) in [
            ("CRLs, leaf good", good as any RevocationChecker, true), ("CRLs, leaf revoked", revoked, false),
            ("allOf(CRLs good)", RevocationPolicy.allOf([good]), true),
            ("anyOf(good, revoked): a revocation is never outvoted", RevocationPolicy.anyOf([good, revoked]), false),
        ] {
            let verifier = try SignedDataVerifier(
                trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, revocation: checker,
                cache: ChainCache(timeToLive: 0), clock: { clockNow })
            do {
                let verified = try await verifier.verifyTransaction(jws)
                XCTAssertTrue(valid, "\(label) verified")
                XCTAssertEqual(verified.chain.count, 3)
            } catch {
                XCTAssertFalse(valid, "\(label): \(error)")
                XCTAssertTrue(error.failures.contains { if case .revoked = $0 { true } else { false } }, "\(label): \(error)")
            }
        }
    }
}

extension AppleShapedTestPKI {
    /// A CRL from the root and one from the intermediate, issued an hour before `now` and due a
    /// day after, the intermediate's listing the leaf as revoked at `revocationDate` (none for nil).
    func crls(at now: Int64, revokingLeafAt revocationDate: Int64?) throws -> [CRL] {
        let rootCRL = try CRLBuilder(issuer: root, thisUpdate: now - 3600, nextUpdate: now + 86_400).sign(with: rootKey)
        let intermediateCRL = try CRLBuilder(
            issuer: intermediate, thisUpdate: now - 3600, nextUpdate: now + 86_400,
            entries: revocationDate.map { [.init(serialNumber: leaf.serialNumber, revocationDate: $0)] } ?? []
        ).sign(with: intermediateKey)
        return [try CRL(derEncoded: rootCRL), try CRL(derEncoded: intermediateCRL)]
    }
}
