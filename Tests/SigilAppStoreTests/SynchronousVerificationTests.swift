import Foundation
import SigilAppStore
import SigilBase
import SigilCRL
import SigilJOSE
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// The synchronous entry points are the complete ones (issue 47): every kind, the classifying
/// entry point and a notification with its nested data verify without suspension, with every
/// check but online revocation, and agree with the asynchronous API — here run with an online
/// checker, so that it takes its own path — on Apple's real data, Apple's library test data and
/// tampered copies of each: the same results and the same refusals (code and typed failures).
final class SynchronousVerificationTests: XCTestCase {
    let now: Int64 = 1_790_000_000

    /// An online checker that finds nothing revoked: the asynchronous API takes its online path.
    struct NothingRevoked: RevocationChecker {
        func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] { [] }
    }

    /// What a verified result says, every member compared.
    struct Summary: Equatable {
        let kind: SignedDataKind
        let payload: String
        let chain: [[UInt8]]
        let validationTime: Int64
        let trust: SignedDataTrust
        let identity: AppIdentityReport
        let environment: AppStoreEnvironment
        let facts: [SignedDataFact]

        init(_ verified: VerifiedAnySignedData) {
            kind = verified.kind
            payload = verified.payloadJSON.serialized
            chain = verified.chain.map { $0.derBytes }
            validationTime = verified.validationTime
            trust = verified.trust
            identity = verified.identity
            environment = verified.environment
            facts = verified.facts
        }
    }

    /// A verification's outcome: its summary, or its error's code and typed failures.
    enum Outcome: Equatable {
        case verified(Summary)
        case refused(String, [ValidationFailure])
        case nested([Summary])
    }

    static func outcome(_ body: () throws(AppStoreError) -> VerifiedAnySignedData) -> Outcome {
        do { return .verified(Summary(try body())) } catch { return .refused(error.qualifiedCode, error.failures) }
    }

    static func asyncOutcome(_ body: () async throws(AppStoreError) -> VerifiedAnySignedData) async -> Outcome {
        do { return .verified(Summary(try await body())) } catch { return .refused(error.qualifiedCode, error.failures) }
    }

    static func nestedOutcome(_ body: () throws(AppStoreError) -> VerifiedNotification) -> Outcome {
        do {
            let verified = try body()
            return .nested([Summary(.notification(verified.notification))] + verified.nested.map(Summary.init))
        } catch { return .refused(error.qualifiedCode, error.failures) }
    }

    static func asyncNestedOutcome(_ body: () async throws(AppStoreError) -> VerifiedNotification) async -> Outcome {
        do {
            let verified = try await body()
            return .nested([Summary(.notification(verified.notification))] + verified.nested.map(Summary.init))
        } catch { return .refused(error.qualifiedCode, error.failures) }
    }

    /// `text` with one character of part `part` (0 header, 1 payload, 2 signature) changed.
    static func tampered(_ text: String, part: Int) -> String {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[part].isEmpty else { return text + "x" }
        var bytes = Array(parts[part].utf8)
        let index = bytes.count / 2
        bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        parts[part] = String(decoding: bytes, as: UTF8.self)
        return parts.joined(separator: ".")
    }

    /// Runs `text` through every synchronous entry point that applies and its asynchronous twin
    /// (on a verifier with an online checker, otherwise configured alike) and requires the same
    /// outcome; returns it.
    @discardableResult
    func assertAgree(
        _ text: String, kind: SignedDataKind, offline: SignedDataVerifier, online: SignedDataVerifier, at time: Int64? = nil,
        _ name: String, file: StaticString = #filePath, line: UInt = #line
    ) async -> Outcome {
        let sync = Self.outcome { () throws(AppStoreError) in try offline.verifyOffline(text, kind: kind, at: time) }
        let async = await Self.asyncOutcome { () async throws(AppStoreError) in try await online.verify(text, kind: kind, at: time) }
        XCTAssertEqual(sync, async, "\(name): verifyOffline(_:kind:) and verify(_:kind:)", file: file, line: line)
        // Classified (kind nil): the same outcome as the kind given, on both sides.
        let classified = Self.outcome { () throws(AppStoreError) in try offline.verifyOffline(text, kind: nil, at: time) }
        let classifiedAsync = await Self.asyncOutcome { () async throws(AppStoreError) in try await online.verify(text, kind: nil, at: time)
        }
        XCTAssertEqual(classified, classifiedAsync, "\(name): classified", file: file, line: line)
        // The entry point of the kind, on both sides.
        let perKind: Outcome
        let perKindAsync: Outcome
        switch kind {
        case .transaction:
            perKind = Self.outcome { () throws(AppStoreError) in .transaction(try offline.verifyTransactionOffline(text, at: time)) }
            perKindAsync = await Self.asyncOutcome { () async throws(AppStoreError) in
                .transaction(try await online.verifyTransaction(text, at: time))
            }
        case .renewalInfo:
            perKind = Self.outcome { () throws(AppStoreError) in .renewalInfo(try offline.verifyRenewalInfoOffline(text, at: time)) }
            perKindAsync = await Self.asyncOutcome { () async throws(AppStoreError) in
                .renewalInfo(try await online.verifyRenewalInfo(text, at: time))
            }
        case .notification:
            perKind = Self.outcome { () throws(AppStoreError) in .notification(try offline.verifyNotificationOffline(text, at: time)) }
            perKindAsync = await Self.asyncOutcome { () async throws(AppStoreError) in
                .notification(try await online.verifyNotification(text, at: time))
            }
            // And with the data it carries.
            let nested = Self.nestedOutcome { () throws(AppStoreError) in try offline.verifyNotificationAndNestedOffline(text, at: time) }
            let nestedAsync = await Self.asyncNestedOutcome { () async throws(AppStoreError) in
                try await online.verifyNotificationAndNested(text, at: time)
            }
            XCTAssertEqual(nested, nestedAsync, "\(name): with its nested data", file: file, line: line)
        case .appTransaction:
            perKind = Self.outcome { () throws(AppStoreError) in .appTransaction(try offline.verifyAppTransactionOffline(text, at: time)) }
            perKindAsync = await Self.asyncOutcome { () async throws(AppStoreError) in
                .appTransaction(try await online.verifyAppTransaction(text, at: time))
            }
        case .realtimeRequest:
            perKind = Self.outcome { () throws(AppStoreError) in .realtimeRequest(try offline.verifyRealtimeRequestOffline(text, at: time))
            }
            perKindAsync = await Self.asyncOutcome { () async throws(AppStoreError) in
                .realtimeRequest(try await online.verifyRealtimeRequest(text, at: time))
            }
        }
        XCTAssertEqual(perKind, sync, "\(name): the kind's synchronous entry point", file: file, line: line)
        XCTAssertEqual(perKindAsync, sync, "\(name): the kind's asynchronous entry point", file: file, line: line)
        return sync
    }

    func testRealDataSynchronousAndAsynchronousAgree() async throws {
        let shared = try TestPaths.requireAppleVectors()
        let root = try XCTUnwrap(
            Certificate.load(Array(try Data(contentsOf: shared.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer")))).first)
        var verifiedCount = 0
        for c in SignedDataVerifierTests.realCases {
            let text = try String(contentsOf: shared.appendingPathComponent("real/jws/" + c.file), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            func verifier(online: Bool) throws -> SignedDataVerifier {
                try SignedDataVerifier(
                    trustedRoots: [root], identity: c.bundle == "-" ? .reportOnly : .enforce(bundleId: c.bundle, appAppleId: nil),
                    environment: .sandbox, revocation: online ? NothingRevoked() : nil, clock: { [now] in now })
            }
            let offline = try verifier(online: false)
            let online = try verifier(online: true)
            let outcome = await assertAgree(text, kind: c.kind, offline: offline, online: online, c.file)
            guard case .verified(let summary) = outcome else {
                XCTFail("\(c.file): \(outcome)")
                continue
            }
            verifiedCount += 1
            XCTAssertEqual(summary.trust, .appleChain, c.file)
            XCTAssertEqual(summary.chain.count, 3, c.file)
            // Again, the chain from each verifier's cache: the same outcome.
            await assertAgree(text, kind: c.kind, offline: offline, online: online, c.file + " (cached)")
            // Tampered header, payload and signature: the same refusal on both sides.
            for part in 0..<3 {
                let outcome = await assertAgree(
                    Self.tampered(text, part: part), kind: c.kind, offline: try verifier(online: false),
                    online: try verifier(online: true), "\(c.file) tampered in part \(part)")
                guard case .refused = outcome else { return XCTFail("\(c.file) tampered in part \(part) verified") }
            }
            // Another environment: refused alike.
            let production = try SignedDataVerifier(
                trustedRoots: [root], identity: .reportOnly, environment: .production, clock: { [now] in now })
            let productionOnline = try SignedDataVerifier(
                trustedRoots: [root], identity: .reportOnly, environment: .production, revocation: NothingRevoked(),
                clock: { [now] in now })
            let refused = await assertAgree(text, kind: c.kind, offline: production, online: productionOnline, c.file + " as Production")
            XCTAssertEqual(refused, .refused("appstore.INVALID_ENVIRONMENT", []), c.file)
        }
        XCTAssertEqual(verifiedCount, SignedDataVerifierTests.realCases.count)
    }

    /// Apple's library test data (its own test PKI, through the two named relaxations): the mock
    /// signed data and its refusals, the same on both sides.
    func testAppleLibraryDataSynchronousAndAsynchronousAgree() async throws {
        let resources = try TestPaths.requireAppleVectors()
            .appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources")
        let testCA = try Certificate(derEncoded: Array(try Data(contentsOf: resources.appendingPathComponent("certs/testCA.der"))))
        func verifier(online: Bool) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                trustedRoots: [testCA], bundleId: "com.example", appAppleId: 1234, environment: .sandbox,
                revocation: online ? NothingRevoked() : nil, clock: { 1_761_962_975 },
                rfc5280Relaxations: [.missingKeyIdentifiers, .nonCriticalBasicConstraints])
        }
        let cases: [(String, SignedDataKind, String?)] = [
            ("renewalInfo", .renewalInfo, nil), ("testNotification", .notification, nil), ("transactionInfo", .transaction, nil),
            ("wrongBundleId", .notification, "appstore.INVALID_APP_IDENTIFIER"),
            ("missingX5CHeaderClaim", .notification, "appstore.INVALID_JWT_FORMAT"),
        ]
        for (file, kind, refusal) in cases {
            let text = try String(contentsOf: resources.appendingPathComponent("mock_signed_data/" + file), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let outcome = await assertAgree(
                text, kind: kind, offline: try verifier(online: false), online: try verifier(online: true), file)
            if let refusal {
                XCTAssertEqual(outcome, .refused(refusal, []), file)
            } else if case .refused(let code, _) = outcome {
                XCTFail("\(file): \(code)")
            }
        }
    }

    /// A notification with nested data from the test PKI: the nested members verified without
    /// suspension, and a failing member named alike on both sides.
    func testNestedDataSynchronousAndAsynchronousAgree() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let other = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let signed = NestedVerificationTests.Signed(pki: pki, bundle: "com.example.app", ms: now * 1000)
        let foreign = NestedVerificationTests.Signed(pki: other, bundle: "com.example.app", ms: now * 1000)
        func verifier(online: Bool) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                trustedRoots: [pki.root], bundleId: "com.example.app", appAppleId: 1_234_567_890, environments: .productionAndSandbox,
                revocation: online ? NothingRevoked() : nil, clock: { [now] in now })
        }
        let good = try signed.notification(
            "Sandbox",
            data: ["signedTransactionInfo": try signed.transaction("Sandbox"), "signedRenewalInfo": try signed.renewalInfo("Sandbox")],
            appData: ["signedAppTransactionInfo": try signed.appTransaction("Sandbox")])
        let offline = try verifier(online: false)
        let nested = Self.nestedOutcome { () throws(AppStoreError) in try offline.verifyNotificationAndNestedOffline(good) }
        guard case .nested(let members) = nested else { return XCTFail("\(nested)") }
        XCTAssertEqual(members.map(\.kind), [.notification, .transaction, .renewalInfo, .appTransaction])
        await assertAgree(good, kind: .notification, offline: offline, online: try verifier(online: true), "good notification")

        // verifyNestedOffline on a notification verified on its own: the same members.
        let notification = try offline.verifyNotificationOffline(good)
        let again = Self.nestedOutcome { () throws(AppStoreError) in try offline.verifyNestedOffline(in: notification) }
        XCTAssertEqual(again, nested)

        // A renewal info signed by another PKI, and a transaction from another environment.
        for (name, data) in [
            ("foreign renewal info", ["signedRenewalInfo": try foreign.renewalInfo("Sandbox")]),
            ("Production transaction", ["signedTransactionInfo": try signed.transaction("Production")]),
        ] {
            let text = try signed.notification("Sandbox", data: data)
            let sync = Self.nestedOutcome { () throws(AppStoreError) in try offline.verifyNotificationAndNestedOffline(text) }
            let online = try verifier(online: true)
            let async = await Self.asyncNestedOutcome { () async throws(AppStoreError) in try await online.verifyNotificationAndNested(text)
            }
            XCTAssertEqual(sync, async, name)
            guard case .refused(let code, _) = sync else { return XCTFail("\(name) verified") }
            XCTAssertEqual(code, name.hasPrefix("foreign") ? "appstore.VERIFICATION_FAILURE" : "appstore.INVALID_ENVIRONMENT", name)
            do {
                _ = try offline.verifyNotificationAndNestedOffline(text)
            } catch {
                XCTAssertTrue(error.reason.hasPrefix("the notification's nested "), error.reason)
            }
        }
    }

    /// A verifier with an online checker: every synchronous entry point refuses it rather than
    /// skip the check.
    func testSynchronousEntryPointsRefuseAnOnlineChecker() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let signed = NestedVerificationTests.Signed(pki: pki, bundle: "com.example.app", ms: now * 1000)
        let verifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: "com.example.app", appAppleId: nil, environment: .sandbox,
            revocation: NothingRevoked(), clock: { [now] in now })
        let text = try signed.transaction("Sandbox")
        let entryPoints: [(String, () throws -> Void)] = [
            ("verifyOffline(_:as:)", { _ = try verifier.verifyOffline(text, as: JWSTransactionDecodedPayload.self) }),
            ("verifyOffline(_:kind:)", { _ = try verifier.verifyOffline(text, kind: nil) }),
            ("verifyTransactionOffline", { _ = try verifier.verifyTransactionOffline(text) }),
            ("verifyRenewalInfoOffline", { _ = try verifier.verifyRenewalInfoOffline(text) }),
            ("verifyNotificationOffline", { _ = try verifier.verifyNotificationOffline(text) }),
            ("verifyAppTransactionOffline", { _ = try verifier.verifyAppTransactionOffline(text) }),
            ("verifyRealtimeRequestOffline", { _ = try verifier.verifyRealtimeRequestOffline(text) }),
            ("verifyNotificationAndNestedOffline", { _ = try verifier.verifyNotificationAndNestedOffline(text) }),
        ]
        for (name, call) in entryPoints {
            XCTAssertThrowsError(try call(), name) { error in
                XCTAssertEqual((error as? AppStoreError)?.code, .invalidConfiguration, name)
            }
        }
    }

    /// Offline revocation (CRLs or OCSP responses the caller supplies): an offline checker given to
    /// the verifier runs on the synchronous path after the chain validates, at the revocation time
    /// (now, or the caller's time), and a revoked certificate refuses the data with its typed
    /// failure; a chain it passed is cached as checked.
    func testOfflineRevocationRunsOnTheSynchronousPath() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let signed = NestedVerificationTests.Signed(pki: pki, bundle: "com.example.app", ms: (now - 3600) * 1000)
        let text = try signed.transaction("Sandbox")
        let seen = Locked<[(Int, Int64)]>([])
        func verifier(revoking: Bool, cache: ChainCache = ChainCache()) throws -> SignedDataVerifier {
            let check = AnyOfflineRevocationChecker(name: "test CRLs") { chain, time in
                seen.withValue { $0.append((chain.count, time)) }
                guard revoking else { return [] }
                return [.revoked(certificate: PathCertificate(chain[0], position: 0), time: time - 60, reason: 1)]
            }
            return try SignedDataVerifier(
                trustedRoots: [pki.root], identity: .enforce(bundleId: "com.example.app", appAppleId: nil), environments: .sandbox,
                revocation: check, cache: cache, clock: { [now] in now })
        }
        // Nothing revoked: verified, the check run once on the three-certificate chain at now (the
        // chain itself at the signedDate), and recorded in the trace.
        let trace = VerificationTrace()
        let shared = ChainCache()
        let verified = try verifier(revoking: false, cache: shared).verifyOffline(text, as: JWSTransactionDecodedPayload.self, trace: trace)
        XCTAssertEqual(verified.validationTime, now - 3600)
        XCTAssertEqual(seen.withValue { $0.map(\.0) }, [3])
        XCTAssertEqual(seen.withValue { $0.map(\.1) }, [now])
        XCTAssertTrue(
            trace.steps.contains { $0.verdict == .pass && $0.check == "revocation status at \(now)" && $0.detail.contains("test CRLs") },
            "\(trace.steps)")
        // Another checking verifier on the same cache: the chain comes from the cache, checked when
        // it was stored (as an online checker's verdict, for the cache's lifetime).
        XCTAssertTrue(try verifier(revoking: false, cache: shared).verifyTransactionOffline(text).chainFromCache)
        XCTAssertEqual(seen.withValue { $0.count }, 1)
        // Revoked: refused with the typed failure, on every synchronous entry point.
        seen.withValue { $0 = [] }
        let revoking = try verifier(revoking: true)
        for byKind in [false, true] {
            do {
                _ = byKind ? try revoking.verifyOffline(text, kind: nil) : .transaction(try revoking.verifyTransactionOffline(text))
                XCTFail("a revoked leaf verified")
            } catch {
                XCTAssertEqual(error.code, .verificationFailure)
                guard case .revoked(let certificate, _, let reason)? = error.failures.first else {
                    return XCTFail("\(error.failures)")
                }
                XCTAssertEqual(certificate.position, 0)
                XCTAssertEqual(reason, 1)
            }
        }
        XCTAssertEqual(seen.withValue { $0.count }, 2, "a refused chain is never cached")
        // The caller's time is the revocation time too.
        seen.withValue { $0 = [] }
        _ = try verifier(revoking: false).verifyTransactionOffline(text, at: now - 7200)
        XCTAssertEqual(seen.withValue { $0.map(\.1) }, [now - 7200])
    }

    /// A real offline checker — SigilCRL's `CRLRevocationPolicy` over CRLs the caller holds —
    /// given as the verifier's `revocation`: every synchronous entry point runs it (it is not
    /// refused as an online check), with the same verdicts as the asynchronous API; a leaf revoked
    /// after signing is refused, a good one verifies with the leaf's expiry reported.
    func testCRLsTheCallerSuppliesRunSynchronously() async throws {
        let day: Int64 = 86_400
        let base = try AppleShapedTestPKI.generate(notBefore: now - 400 * day, notAfter: now + 400 * day)
        let pki = try base.withLeaf(notBefore: now - 100 * day, notAfter: now - 10 * day)
        let signed = NestedVerificationTests.Signed(pki: pki, bundle: "com.example.app", ms: (now - 30 * day) * 1000)
        let text = try signed.transaction("Sandbox")
        func policy(revokingLeafAt revocationDate: Int64?) throws -> CRLRevocationPolicy {
            CRLRevocationPolicy(crls: try pki.crls(at: now, revokingLeafAt: revocationDate))
        }
        for (label, revokedAt) in [("leaf good", nil), ("leaf revoked after signing", now - 5 * day)] as [(String, Int64?)] {
            let verifier = try SignedDataVerifier(
                trustedRoots: [pki.root], bundleId: "com.example.app", appAppleId: nil, environment: .sandbox,
                revocation: try policy(revokingLeafAt: revokedAt), cache: ChainCache(timeToLive: 0), clock: { [now] in now })
            XCTAssertNotNil(verifier.revocation as? AnyOfflineRevocationChecker, label)
            let trace = VerificationTrace()
            let sync = Self.outcome { () throws(AppStoreError) in
                .transaction(try verifier.verifyOffline(text, as: JWSTransactionDecodedPayload.self, trace: trace))
            }
            let async = await Self.asyncOutcome { () async throws(AppStoreError) in .transaction(try await verifier.verifyTransaction(text))
            }
            XCTAssertEqual(sync, async, label)
            await assertAgree(text, kind: .transaction, offline: verifier, online: verifier, label)
            XCTAssertTrue(trace.steps.contains { $0.check == "revocation status at \(now)" }, "\(label): \(trace.steps)")
            switch sync {
            case .verified(let summary):
                XCTAssertNil(revokedAt, label)
                XCTAssertEqual(summary.validationTime, now - 30 * day, label)
                XCTAssertEqual(summary.facts, [.leafExpiredSinceSigning(notAfter: now - 10 * day)], label)
            case .refused(let code, let failures):
                XCTAssertNotNil(revokedAt, "\(label): \(code)")
                XCTAssertEqual(code, "appstore.VERIFICATION_FAILURE", label)
                XCTAssertTrue(failures.contains { if case .revoked = $0 { true } else { false } }, "\(label): \(failures)")
            case .nested: XCTFail(label)
            }
        }
    }
}
