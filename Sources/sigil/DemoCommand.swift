import ArgumentParser
import Foundation
import SigilASN1
import SigilAppAttest
import SigilAppStore
import SigilApplePKI
import SigilCore
import SigilHTTP
import SigilJOSE
import SigilKeys
import SigilOCSP
import SigilPKCS7
import SigilReceipts
import SigilTestPKI
import SigilTokens
import SigilX509

#if canImport(Glibc)
import Glibc
#endif

/// `sigil demo`: the whole job on data it makes itself, no network, in seconds. Every step says
/// what it did and its verdict; the exit code is non-zero if any step fails.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Build an Apple-shaped PKI in memory, sign and verify App Store data, mint every token, read a receipt, check OCSP, measure.",
        discussion: """
            Needs nothing but this binary (the OCSP step also uses the openssl CLI as a loopback \
            responder when it is installed, and says so when it is not). No network access.
            """)

    @Option(help: "Seconds per throughput figure in the closing table.") var seconds: Double = 0.3

    /// Prints each line as it happens (unbuffered, so a pipe sees progress) and counts failures.
    final class Report {
        var failures = 0
        static func emit(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
        func step(_ title: String) { Self.emit("\n== \(title)") }
        func line(_ text: String) { Self.emit("   \(text)") }
        func check(_ ok: Bool, _ what: String) {
            Self.emit("   [\(ok ? "PASS" : "FAIL")] \(what)")
            if !ok { failures += 1 }
        }
        func fail(_ what: String, _ error: Error) {
            Self.emit("   [FAIL] \(what): \(error)")
            failures += 1
        }
    }

    func run() async {
        let report = Report()
        let started = ContinuousClock.now
        do {
            try await demo(report)
        } catch {
            report.fail("demo stopped", error)
        }
        let elapsed = started.duration(to: .now)
        Report.emit(
            "\n\(report.failures == 0 ? "ALL STEPS PASSED" : "\(report.failures) STEP(S) FAILED") in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds])))"
        )
        if report.failures > 0 { Foundation.exit(1) }
    }

    /// The demo's app: bundle id and App Apple id of every payload, token and receipt it makes.
    static let bundle = "com.example.sigil.demo"
    static let appAppleId: Int64 = 1_234_567_890

    /// The eight steps in order; each is its own function below and reports through `r`.
    func demo(_ r: Report) async throws {
        let now = Int64(Date().timeIntervalSince1970)
        let (pki, port) = try pkiStep(r, now: now)
        let signedTransaction = try await signedDataStep(r, pki: pki, now: now)
        try tokensStep(r, now: now)
        externalPurchaseStep(r)
        let receiptDER = try receiptStep(r, pki: pki, now: now)
        try appAttestStep(r, now: now)
        try await ocspRequestStep(r, pki: pki, port: port, now: now)
        try throughputStep(r, pki: pki, signedTransaction: signedTransaction, receiptDER: receiptDER, now: now)
    }

    /// 1. An Apple-shaped PKI with its markers, and the chain validated under Apple's policy.
    func pkiStep(_ r: Report, now: Int64) throws -> (AppleShapedTestPKI, UInt16?) {
        r.step("1. An Apple-shaped PKI, generated in memory")
        let port = try? Self.freePort()
        let ocspURL = port.map { "http://127.0.0.1:\($0)/" }
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 30 * 86_400, ocspResponder: ocspURL)
        for (role, cert) in [("root", pki.root), ("intermediate", pki.intermediate), ("leaf", pki.leaf)] {
            r.line(
                "\(role): \(cert.subject) — \(cert.publicKey) — valid \(Time.rfc3339(cert.validity.notBefore)) … \(Time.rfc3339(cert.validity.notAfter))"
            )
        }
        r.check(
            pki.intermediate.extension(AppleOIDs.wwdrIntermediate) != nil,
            "intermediate carries \(AppleOIDs.wwdrIntermediate.dotted) (WWDR marker)"
        )
        r.check(
            pki.leaf.extension(AppleOIDs.appStoreReceiptSigning) != nil,
            "leaf carries \(AppleOIDs.appStoreReceiptSigning.dotted) (receipt-signing marker)")
        let chainCheck = CertificateVerifier(trustedRoots: [pki.root], policies: [RFC5280Policy(), MarkerExtensionPolicy.appleSignedData])
            .verify(leaf: pki.leaf, intermediates: [pki.intermediate], at: now)
        if case .valid(let chain) = chainCheck {
            r.check(chain.count == 3, "chain leaf → intermediate → root validates under RFC 5280 + Apple's signed-data policy")
        } else {
            r.check(false, "chain validates: \(chainCheck)")
        }
        return (pki, port)
    }

    /// 2. Signed transaction, renewal info and notification: verified, tampered, wrong bundle
    /// id, and one `--explain` trace. Returns the signed transaction for the throughput step.
    func signedDataStep(_ r: Report, pki: AppleShapedTestPKI, now: Int64) async throws -> String {
        r.step("2. App Store signed data: sign, then verify (SignedDataVerifier, trusted root = the demo root)")
        let bundle = Self.bundle
        let appAppleId = Self.appAppleId
        let nowMillis = now * 1000
        let transaction = """
            {"transactionId":"2000000900000001","originalTransactionId":"2000000900000000","webOrderLineItemId":"2000000090000001",\
            "bundleId":"\(bundle)","productId":"\(bundle).monthly","subscriptionGroupIdentifier":"21000001","purchaseDate":\(nowMillis - 60_000),\
            "originalPurchaseDate":\(nowMillis - 2_592_000_000),"expiresDate":\(nowMillis + 2_592_000_000),"quantity":1,"type":"Auto-Renewable Subscription",\
            "inAppOwnershipType":"PURCHASED","signedDate":\(nowMillis),"environment":"Sandbox","transactionReason":"RENEWAL","storefront":"USA",\
            "storefrontId":"143441","price":4990,"currency":"USD","appTransactionId":"704000000000000001"}
            """
        let renewal = """
            {"originalTransactionId":"2000000900000000","autoRenewProductId":"\(bundle).monthly","productId":"\(bundle).monthly","autoRenewStatus":1,\
            "signedDate":\(nowMillis),"environment":"Sandbox","recentSubscriptionStartDate":\(nowMillis - 2_592_000_000),\
            "renewalDate":\(nowMillis + 2_592_000_000),"currency":"USD","renewalPrice":4990}
            """
        let signedTransaction = try pki.signedData(payload: Array(transaction.utf8))
        let signedRenewal = try pki.signedData(payload: Array(renewal.utf8))
        let notification = """
            {"notificationType":"DID_RENEW","notificationUUID":"\(UUID().uuidString.lowercased())","version":"2.0","signedDate":\(nowMillis),\
            "data":{"appAppleId":\(appAppleId),"bundleId":"\(bundle)","bundleVersion":"42","environment":"Sandbox",\
            "signedTransactionInfo":"\(signedTransaction)","signedRenewalInfo":"\(signedRenewal)","status":1}}
            """
        let signedNotification = try pki.signedData(payload: Array(notification.utf8))
        r.line(
            "transaction JWS: \(signedTransaction.count) bytes, notification JWS: \(signedNotification.count) bytes (x5c: leaf, intermediate, root)"
        )
        let verifier = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environment: .sandbox)
        let t = try await verifier.verifyTransaction(signedTransaction)
        r.check(
            t.payload.transactionId == "2000000900000001",
            "transaction verifies: id \(t.payload.transactionId ?? "?"), product \(t.payload.productId ?? "?")")
        let renewalInfo = try await verifier.verifyRenewalInfo(signedRenewal)
        r.check(
            renewalInfo.payload.autoRenewStatus == .on,
            "renewal info verifies: autoRenewStatus \(renewalInfo.payload.autoRenewStatus?.description ?? "?")")
        let nested = try await verifier.verifyNotificationAndNested(signedNotification)
        r.check(
            nested.notification.payload.notificationType == .didRenew && nested.transaction?.payload.transactionId == "2000000900000001",
            "notification DID_RENEW verifies, with its nested transaction and renewal info")
        // Tampering: one payload byte changed.
        var parts = signedTransaction.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(transaction.replacingOccurrences(of: "4990", with: "0").utf8))
        do {
            _ = try await verifier.verifyTransaction(parts.joined(separator: "."))
            r.check(false, "a tampered payload must not verify")
        } catch {
            r.check(
                error.code == .invalidJWTFormat || error.code == .verificationFailure,
                "tampered payload (price 4990 → 0) refused: \(error.code)")
        }
        let wrongBundle = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: "com.other.app", appAppleId: appAppleId, environment: .sandbox)
        do {
            _ = try await wrongBundle.verifyTransaction(signedTransaction)
            r.check(false, "a wrong bundle id must be refused")
        } catch {
            r.check(error.code == .invalidAppIdentifier, "verifier configured for another bundle id refuses it: \(error.code)")
        }
        r.line("--explain for the transaction, chain validated afresh (each step and the clause it implements):")
        let trace = VerificationTrace()
        let fresh = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environment: .sandbox,
            cache: ChainCache(timeToLive: 0))
        _ = try await fresh.verify(signedTransaction, as: JWSTransactionDecodedPayload.self, at: nil, trace: trace)
        for line in Output.stepLines(trace.steps) { r.line("  " + line) }
        return signedTransaction
    }

    /// 3. Every token kind minted from a generated key and verified back; the lifetime limit.
    func tokensStep(_ r: Report, now: Int64) throws {
        let bundle = Self.bundle
        let nowMillis = now * 1000
        r.step("3. Every Apple token kind, minted from a .p8-style key and verified back")
        let p8 = try AppleSigningKey(privateKey: .generate(curve: .p256), keyID: "DEMOKEY123")
        let publicKey = JWSVerificationKey.ecdsa(p8.privateKey.publicKey)
        let tokens: [(String, String)] = [
            (
                "App Store Server API",
                try AppleTokens.appStoreServerAPI(
                    key: p8, issuerID: "57246542-96fe-1a63-e053-0824d011072a", bundleID: bundle, issuedAt: now)
            ),
            (
                "External Purchase Server API",
                try AppleTokens.externalPurchaseServerAPI(
                    key: p8, issuerID: "57246542-96fe-1a63-e053-0824d011072a",
                    bundleID: bundle, issuedAt: now)
            ),
            (
                "Sign in with Apple client_secret",
                try AppleTokens.signInWithAppleClientSecret(
                    key: p8, teamID: "TEAM123456", clientID: "\(bundle).web",
                    issuedAt: now)
            ),
            (
                "ProximityReader reader token",
                try AppleTokens.proximityReaderToken(key: p8, brandID: "brand-1", readerID: "reader-1", issuedAt: now)
            ),
            (
                "promotional offer v2",
                try AppleTokens.promotionalOfferV2(
                    key: p8, issuerID: "57246542", bundleID: bundle, productID: "\(bundle).monthly",
                    offerIdentifier: "WINBACK", transactionID: "2000000900000000", issuedAt: now)
            ),
            (
                "introductory-offer eligibility",
                try AppleTokens.introductoryOfferEligibility(
                    key: p8, issuerID: "57246542", bundleID: bundle,
                    productID: "\(bundle).monthly", allowIntroductoryOffer: false,
                    transactionID: "2000000900000000", issuedAt: now)
            ),
            (
                "Advanced Commerce in-app request",
                try AppleTokens.advancedCommerceInAppRequest(
                    key: p8, issuerID: "57246542", bundleID: bundle,
                    requestJSON: Array(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#.utf8),
                    issuedAt: now)
            ),
        ]
        for (name, token) in tokens {
            do {
                let jws = try JWS(compact: token)
                try jws.verify(with: publicKey)
                let claims = try jws.payloadJSON()
                r.check(
                    jws.algorithm == "ES256" && jws.keyID == "DEMOKEY123",
                    "\(name): ES256, kid DEMOKEY123, aud \(claims["aud"]?.serialized ?? "-"), signature verifies")
            } catch {
                r.fail(name, error)
            }
        }
        do {
            _ = try AppleTokens.appStoreServerAPI(key: p8, issuerID: "i", bundleID: bundle, issuedAt: now, lifetime: 3601)
            r.check(false, "a 61-minute App Store Server API token must be refused")
        } catch {
            r.check(true, "a 61-minute App Store Server API token is refused before signing (\(error.code))")
        }
        let nonce = UUID().uuidString.lowercased()
        let v1 = AppleTokens.promotionalOfferV1(
            key: p8, bundleID: bundle, productID: "\(bundle).monthly", offerID: "WINBACK", nonce: nonce, timestamp: nowMillis)
        let message = AppleTokens.promotionalOfferV1Message(
            keyID: p8.keyID, bundleID: bundle, productID: "\(bundle).monthly", offerID: "WINBACK",
            appAccountToken: "", nonce: nonce, timestamp: nowMillis)
        let v1OK =
            (Data(base64Encoded: v1).map(Array.init)).flatMap { try? ECDSASignature(derEncoded: $0, curve: .p256) }
            .map { p8.privateKey.publicKey.isValidSignatureVartime($0, for: message, hash: .sha256) } ?? false
        r.check(v1OK, "promotional offer v1: U+2063-joined message, DER ECDSA signature verifies (\(v1.count) base64 chars)")
    }

    /// 4. Apple's example external purchase tokens decoded.
    func externalPurchaseStep(_ r: Report) {
        r.step("4. External purchase tokens (the example tokens of Apple's article)")
        for token in Self.externalPurchaseTokens {
            do {
                let decoded = try ExternalPurchaseToken(token: token, allowPaddingAndNewline: true)
                r.check(
                    true,
                    "\(decoded.externalPurchaseId): appAppleId \(decoded.appAppleId), \(decoded.environment)"
                        + (decoded.tokenType.map { ", tokenType \($0)" } ?? ""))
            } catch {
                r.fail("external purchase token", error)
            }
        }
    }

    /// 5. An app receipt built and verified by `AppReceiptVerifier`. Returns its DER.
    func receiptStep(_ r: Report, pki: AppleShapedTestPKI, now: Int64) throws -> [UInt8] {
        let bundle = Self.bundle
        let appAppleId = Self.appAppleId
        r.step("5. An app receipt made here: CMS SignedData (RFC 5652) with Apple's payload layout")
        let guid = Array(UUID().uuidString.utf8.prefix(16))
        let receiptBuilder = AppReceiptBuilder(
            appItemID: appAppleId, bundleID: bundle, appVersion: "42", originalApplicationVersion: "1",
            creationDate: now, opaqueValue: Array((0..<16).map { UInt8($0 * 7) }), deviceGUID: guid,
            inAppPurchases: [
                .init(
                    productID: "\(bundle).coins", transactionID: "1000000900000001",
                    originalTransactionID: "1000000900000001", purchaseDate: now - 600,
                    originalPurchaseDate: now - 600)
            ])
        let receiptDER = try AppReceiptBuilder.signedData(
            content: try receiptBuilder.payload(), signer: pki.leaf, signerKey: pki.leafKey,
            certificates: [pki.leaf, pki.intermediate])
        // AppReceiptVerifier owns the job: parse once, time from the creation date, Apple's receipt
        // profile, signer chain, environment, bundle id, device hash (with the expected bundle id).
        let verifiedReceipt = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: bundle, environments: [.sandbox])
            .verify(receiptDER, deviceGUID: guid)
        let receipt = verifiedReceipt.receipt
        r.line(
            "\(receiptDER.count) bytes; bundle \(receipt.bundleID ?? "?"), version \(receipt.appVersion ?? "?"), \(receipt.inAppPurchases.count) in-app record(s)"
        )
        r.check(verifiedReceipt.chain.count == 3, "signature and signer chain verify (leaf → intermediate → root, Apple receipt policy)")
        r.check(receipt.transactionID() == "1000000900000001", "transaction id \(receipt.transactionID() ?? "?")")
        r.check(verifiedReceipt.deviceMatches == true, "SHA-1(GUID ‖ opaque ‖ bundle id) matches the device")
        // The same receipt, from the same device, presented for another app: refused.
        var refusal = "accepted"
        do {
            _ = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: bundle + ".other", environments: [.sandbox])
                .verify(receiptDER, deviceGUID: guid)
        } catch { refusal = error.code.rawValue }
        r.check(refusal == "invalidAppIdentifier", "the same receipt and device for another bundle id: \(refusal)")
        return receiptDER
    }

    /// 6. App Attest on an in-memory attestation PKI shaped like Apple's: an attestation (CBOR)
    /// verified through Apple's steps, its fraud receipt, an assertion, and a replay refused.
    func appAttestStep(_ r: Report, now: Int64) throws {
        r.step("6. App Attest: attestation, fraud receipt and assertions on an Apple-shaped attestation PKI")
        let pki = try AppleShapedAttestationPKI.generate(notBefore: now - 3600, notAfter: now + 30 * 86_400)
        let appID = AppAttestAppID(teamID: "DEMO123456", bundleID: Self.bundle)
        let key = ECDSAPrivateKey.generate(curve: .p256)
        var random = SystemRandomNumberGenerator()
        let challenge = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let clientDataHash = SHA256.hash(challenge)
        let credential = try pki.credentialCertificate(
            for: key.publicKey, nonce: clientDataHash, notBefore: now - 3600, notAfter: now + 86_400)
        let receipt = try pki.receipt(fields: [
            (2, Array(appID.description.utf8)), (3, credential.derBytes), (4, clientDataHash), (6, Array("ATTEST".utf8)),
            (7, Array("production".utf8)), (12, Array(Time.rfc3339(now).utf8)),
        ])
        let attestation = try pki.attestation(
            credentialKey: key.publicKey, appID: appID.description, clientDataHash: clientDataHash, notBefore: now - 3600,
            notAfter: now + 86_400, extensions: AppleShapedAttestationPKI.appleExtensions(category: 4, bundleVersion: "42"),
            receipt: receipt)
        r.line("attestation object: \(attestation.count) bytes of CBOR (x5c of 2, receipt \(receipt.count) bytes)")
        let trace = VerificationTrace()
        let verified = try AttestationVerifier(testRoot: pki.root, appID: appID, environment: .production)
            .verify(
                attestation, clientDataHash: clientDataHash, expectedKeyID: SHA256.hash(key.publicKey.uncompressedRepresentation), at: now,
                trace: trace)
        let passed = trace.steps.filter { $0.clause.hasPrefix("Apple App Attest, attestation step") && $0.verdict == .pass }.count
        r.check(passed == 7, "Apple's steps 1 and 4–9 (chain, nonce, key id, RP ID, counter 0, AAGUID, credential id): \(passed) passed")
        r.check(verified.environment == .production && verified.counter == 0, "environment production, counter 0")
        r.check(
            verified.extensions?.validationCategory == .appStore && verified.extensions?.bundleVersion == "42",
            "authenticator-data extensions: category \(verified.extensions?.validationCategory?.description ?? "-"), bundle version 42")
        let fraud = try AttestationReceiptVerifier(trustedRoots: [pki.receiptRoot], appID: appID).verify(
            verified.receipt, attestedPublicKey: verified.publicKey, now: now, maximumAge: 300)
        r.check(fraud.receipt.receiptType == "ATTEST", "fraud receipt: CMS signature, chain, App ID, attested key, fresh (type ATTEST)")
        let assertions = AssertionVerifier(appID: appID)
        let clientData = Array(#"{"challenge":"demo","action":"buy"}"#.utf8)
        let assertion = AppleShapedAttestationPKI.assertion(
            key: key, appID: appID.description, counter: 1, clientDataHash: SHA256.hash(clientData))
        let counter = try assertions.verify(assertion, clientData: clientData, publicKey: verified.publicKey, previousCounter: 0).counter
        r.check(counter == 1, "assertion: signature, RP ID, counter 0 → \(counter)")
        do {
            _ = try assertions.verify(assertion, clientData: clientData, publicKey: verified.publicKey, previousCounter: counter)
            r.check(false, "the same assertion again is refused")
        } catch {
            r.check(error.code == .counterNotIncreasing, "the same assertion again is refused: \(error.qualifiedCode)")
        }
    }

    /// 7. An OCSP request for the leaf, answered by a loopback `openssl ocsp` when available.
    func ocspRequestStep(_ r: Report, pki: AppleShapedTestPKI, port: UInt16?, now: Int64) async throws {
        r.step("7. OCSP (RFC 6960): request for the leaf, checked against a loopback responder")
        var random = SystemRandomNumberGenerator()
        let request = OCSPRequest.forCertificate(pki.leaf, issuer: pki.intermediate, using: &random)
        r.line("request: \(request.derRepresentation.count) bytes DER, SHA-1 CertID, nonce (RFC 8954)")
        if let port, let openssl = Self.which("openssl") {
            try await ocspStep(r, pki: pki, port: port, openssl: openssl, now: now)
        } else {
            r.line(
                "skipped the responder: \(port == nil ? "no loopback port" : "the openssl CLI is not installed") (the request above is still built)"
            )
        }
    }

    /// 8. A few throughput figures.
    func throughputStep(_ r: Report, pki: AppleShapedTestPKI, signedTransaction: String, receiptDER: [UInt8], now: Int64) throws {
        let bundle = Self.bundle
        let appAppleId = Self.appAppleId
        r.step("8. Throughput (\(seconds) s per figure; `sigil bench` for more)")
        let msg = Array(repeating: UInt8(0x5A), count: 100)
        let k256 = ECDSAPrivateKey.generate(curve: .p256)
        let sig256 = k256.signature(for: msg, hash: .sha256)
        let cachedVerifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environment: .sandbox)
        let uncachedVerifier = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: appAppleId, environment: .sandbox,
            cache: ChainCache(timeToLive: 0))
        let receiptVerifier = try AppReceiptVerifier(trustedRoots: [pki.root], bundleId: bundle, environments: [.sandbox])
        let rows: [(String, Double)] = [
            ("P-256 sign", BenchCommand.rate(seconds) { Int(k256.signature(for: msg, hash: .sha256).r[0]) }.0),
            (
                "P-256 verify",
                BenchCommand.rate(seconds) { k256.publicKey.isValidSignatureVartime(sig256, for: msg, hash: .sha256) ? 1 : 0 }.0
            ),
            (
                "App Store JWS verify (chain cached)",
                BenchCommand.rate(seconds) { (try? cachedVerifier.verifyTransactionOffline(signedTransaction)) == nil ? 0 : 1 }.0
            ),
            (
                "App Store JWS verify (chain validated each time)",
                BenchCommand.rate(seconds) {
                    (try? uncachedVerifier.verifyTransactionOffline(signedTransaction)) == nil ? 0 : 1
                }.0
            ),
            (
                "receipt parse + verify",
                BenchCommand.rate(seconds) {
                    (try? receiptVerifier.verify(receiptDER, at: now)) == nil ? 0 : 1
                }.0
            ),
        ]
        for (name, rate) in rows {
            r.line("\(name.padding(toLength: 50, withPad: " ", startingAt: 0)) \(String(format: "%10.0f", rate)) ops/s")
        }
    }

    func ocspStep(_ r: Report, pki: AppleShapedTestPKI, port: UInt16, openssl: String, now: Int64) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try Data(pki.intermediate.pemRepresentation.utf8).write(to: URL(fileURLWithPath: path("ca.pem")))
        try Data(pki.intermediateKey.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: path("ca.key")))
        let serial = pki.leaf.serialNumber.map { String(format: "%02X", $0) }.joined()
        try Data("V\t351231235959Z\t\t\(serial)\tunknown\t/CN=Sigil Test StoreKit Signing\n".utf8).write(
            to: URL(fileURLWithPath: path("index.txt")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "ocsp", "-index", path("index.txt"), "-port", "\(port)", "-CA", path("ca.pem"), "-rsigner", path("ca.pem"),
            "-rkey", path("ca.key"), "-ndays", "1",
        ]
        _ = FileManager.default.createFile(atPath: path("log"), contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: path("log")))
        try process.run()
        defer {
            // Stopped with plain signals and waitpid: Process.waitUntilExit spins a run loop that
            // never turns on a concurrency thread.
            let pid = process.processIdentifier
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        let deadline = Date().addingTimeInterval(10)
        while !((try? String(contentsOfFile: path("log"), encoding: .utf8))?.contains("waiting for OCSP client connections") ?? false) {
            guard Date() < deadline, process.isRunning else {
                r.check(false, "the openssl OCSP responder did not start")
                return
            }
            usleep(20_000)
        }
        r.line("responder: openssl ocsp on 127.0.0.1:\(port), signing as the intermediate")
        let checker = OCSPRevocationChecker(transport: URLSessionOCSPTransport(), timeout: 5)
        let status = try await checker.status(of: pki.leaf, issuer: pki.intermediate, at: now)
        r.check(status.status == .good, "leaf status \(status.status): response signed by \(status.signer.subject), nonce echoed, fresh")
    }

    // MARK: - Helpers

    static let externalPurchaseTokens = [
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3NTA4OTYwMDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMCIsInRva2VuVHlwZSI6IlNFUlZJQ0VTIiwidG9rZW5FeHBpcmF0aW9uRGF0ZSI6MTc4MjQzMjAwMDAwMH0K",
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MDYxNjk2MDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzA2MTczMjAwMDAwfQo=",
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MzA0NDg3MjAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzMwNDUyMzIwMDAwfQ==",
    ]

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A free TCP port on 127.0.0.1 (bound, read, released).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIFailure(code: "demo.socket", message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw CLIFailure(code: "demo.socket", message: "bind on 127.0.0.1 failed") }
        return UInt16(bigEndian: address.sin_port)
    }
}
