import Foundation
import SigilAppStore
import SigilApplePay
import SigilCBOR
import SigilCRL
import SigilCipher
import SigilCore
import SigilJOSE
import SigilKeys
import SigilMdoc
import SigilOCSP
import SigilPKCS7
import SigilReceipts
import SigilTestPKI
import SigilTestSupport
import SigilTokens
import SigilX509
import XCTest

/// Runs the code blocks of the DocC articles (ArticleSnippets.swift, generated from the articles by
/// Scripts/extract-article-snippets) on data made by AppleShapedTestPKI, each with the inputs its
/// article says the reader has. A block that no longer compiles fails the build of this target; one
/// that no longer works against the library fails here.
final class ArticleSnippetTests: XCTestCase {
    let now = Int64(Date().timeIntervalSince1970)
    let bundle = "com.example.app"

    func makePKI() throws -> AppleShapedTestPKI {
        try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
    }

    func json(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    func transaction(_ pki: AppleShapedTestPKI, environment: String) throws -> String {
        try pki.signedData(
            payload: json([
                "transactionId": "2000000000000042", "originalTransactionId": "2000000000000001", "productId": "com.example.monthly",
                "bundleId": bundle, "environment": environment, "signedDate": now * 1000,
            ]))
    }

    // MARK: SigilMdoc

    func annexD(_ name: String) throws -> [UInt8] { try AnnexD.bytes(name) }

    /// The in-person snippet on ISO/IEC 18013-5 Annex D (a deviceMac): it verifies at 2021-01-01
    /// with the reader's key, and is refused without one, as the article says.
    func testVerifyInPerson() async throws {
        let d = try AnnexD.key("ephemeral-reader-key").d
        let roots = [try Certificate(derEncoded: annexD("iaca-root.der"))]
        let response = try annexD("device-response.cbor")
        let transcript = try annexD("session-transcript-bytes.cbor")
        try await verifyInPerson(
            iacaRoots: roots, responseData: response, sessionTranscript: transcript, ephemeralReaderKey: d, now: 1_609_459_200)
        do {
            try await verifyInPerson(
                iacaRoots: roots, responseData: response, sessionTranscript: transcript, ephemeralReaderKey: nil, now: 1_609_459_200)
            XCTFail("a deviceMac was accepted without the reader's key")
        } catch let error as MdocError {
            XCTAssertEqual(error.code, .deviceMACNotVerifiable)
        }
    }

    /// The web snippets: the request is built; a response sealed to it opens and reaches the
    /// verifier (Annex D's document carries a deviceMac, which no web session can have made — its
    /// transcript holds no reader key —: that is the one refusal left once the response opened).
    func testRequestAndOpenOnTheWeb() async throws {
        let serverKey = ECDSAPrivateKey.generate(curve: .p256)
        try await requestOnTheWeb(
            serverKey: serverKey, readerKey: ECDSAPrivateKey.generate(curve: .p256),
            readerCertificate: Certificate(derEncoded: annexD("reader-cert.der")))
        let request = try DigitalCredentialsRequest(
            documents: [.init(docType: "org.iso.18013.5.1.mDL", elements: ["org.iso.18013.5.1": ["family_name": false]])],
            origin: "https://example.com", recipientKey: serverKey.publicKey, nonce: Array(repeating: 9, count: 32),
            readerAuthentication: nil)
        let sealed = try HPKE.seal(
            try annexD("device-response.cbor"), recipientKey: serverKey.publicKey, info: request.sessionTranscript.bytes, mode: .base)
        let encrypted = CBOR.encode(
            .array([
                .text("dcapi"),
                .map(pairs: [(.text("enc"), .bytes(sealed.encapsulatedKey)), (.text("cipherText"), .bytes(sealed.ciphertext))]),
            ]))
        do {
            try await openOnTheWeb(
                request: request, response: Base64URL.encode(encrypted), serverKey: serverKey,
                iacaRoots: [try Certificate(derEncoded: annexD("iaca-root.der"))], now: 1_609_459_200)
            XCTFail("a deviceMac was accepted on the web")
        } catch let error as MdocError {
            XCTAssertEqual(error.code, .invalidDeviceMAC)
        }
    }

    // MARK: SigilAppStore

    func testGettingStarted() async throws {
        let pki = try makePKI()
        try await gettingStarted(rootDER: pki.root.derBytes, signedTransaction: try transaction(pki, environment: "Production"))
        // The same call with a transaction from the other environment must fail, as the article says.
        do {
            try await gettingStarted(rootDER: pki.root.derBytes, signedTransaction: try transaction(pki, environment: "Sandbox"))
            XCTFail("a Sandbox transaction verified against a Production verifier")
        } catch let error as AppStoreError {
            XCTAssertEqual(error.code, .invalidEnvironment)
        }
    }

    func testReceiveNotification() async throws {
        let pki = try makePKI()
        let signedTransaction = try transaction(pki, environment: "Production")
        let notification = try pki.signedData(
            payload: json([
                "notificationType": "ONE_TIME_CHARGE", "notificationUUID": "0b0c6d3a-4f1e-4c55-9d3c-8e2f3b1a7c01", "signedDate": now * 1000,
                "data": [
                    "appAppleId": 1_234_567_890, "bundleId": bundle, "environment": "Production",
                    "signedTransactionInfo": signedTransaction,
                ],
            ]))
        try await receiveNotification(
            appleRootG3: pki.root, requestBody: Data(try json(["signedPayload": notification])))
    }

    func testEmbeddedVerifier() async throws {
        let pki = try makePKI()
        try await embeddedVerifier(rootFile: pki.root.derBytes, signedTransaction: try transaction(pki, environment: "Sandbox"))
    }

    func testMeasureThroughput() async throws {
        let pki = try makePKI()
        let verifier = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox)
        try await measureThroughput(verifier: verifier, signedTransaction: try transaction(pki, environment: "Sandbox"))
        XCTAssertEqual(verifier.cache.count, 1)
    }

    // MARK: SigilTokens

    func testMintTokens() async throws {
        try await mintTokens(p8: Array(ECDSAPrivateKey.generate(curve: .p256).pkcs8PEM.utf8))
    }

    /// The identity-token block runs up to the algorithm check: an ES256 token (Sigil cannot sign
    /// RS256) is refused before any key is looked at, as the article says.
    func testVerifyIdentityTokenRefusesAnotherAlgorithm() async throws {
        let key = try AppleSigningKey(p8: Array(ECDSAPrivateKey.generate(curve: .p256).pkcs8PEM.utf8), keyID: "K1")
        let token = try AppleTokens.signInWithAppleClientSecret(key: key, teamID: "T", clientID: bundle, issuedAt: now)
        do {
            try await verifyIdentityToken(idToken: token, jwksJSON: Array(#"{"keys":[]}"#.utf8))
            XCTFail("an ES256 token verified as a Sign in with Apple identity token")
        } catch let error as JOSEError {
            XCTAssertEqual(error.code, .algorithmMismatch)
        }
    }

    // MARK: SigilPKCS7

    func receipt(_ pki: AppleShapedTestPKI) throws -> [UInt8] {
        let builder = AppReceiptBuilder(
            bundleID: bundle, appVersion: "2.1", originalApplicationVersion: "1.0", creationDate: now, opaqueValue: [1, 2, 3],
            deviceGUID: [4, 5, 6],
            inAppPurchases: [
                .init(
                    quantity: 1, productID: "com.example.monthly", transactionID: "42", originalTransactionID: "42", purchaseDate: now - 60,
                    originalPurchaseDate: now - 60)
            ])
        return try AppReceiptBuilder.signedData(
            content: try builder.payload(), signer: pki.leaf, signerKey: pki.leafKey, certificates: [pki.leaf, pki.intermediate])
    }

    // MARK: SigilApplePay

    func testDecryptApplePayToken() async throws {
        var generator = SystemRandomNumberGenerator()
        let pki = try AppleShapedPaymentPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400, using: &generator)
        let merchant = ECDSAPrivateKey.generate(curve: .p256)
        let certificate = try pki.merchantCertificate(
            subjectPublicKeyInfo: merchant.publicKey.spkiDER, merchantIdentifier: "merchant.com.example",
            notBefore: now - 86_400, notAfter: now + 86_400)
        let payment = try json([
            "applicationPrimaryAccountNumber": "4111111111111111", "applicationExpirationDate": "291231", "currencyCode": "840",
            "transactionAmount": 100, "deviceManufacturerIdentifier": "040010030273", "paymentDataType": "3DSecure",
            "paymentData": ["onlinePaymentCryptogram": "QUJD"],
        ])
        let token = try pki.ecToken(
            payment: payment, merchant: merchant.publicKey, merchantIdentifier: "merchant.com.example",
            ephemeral: ECDSAPrivateKey.generate(curve: .p256), transactionId: Array(repeating: 7, count: 32), signingTime: now)
        try await decryptApplePayToken(
            tokenJSON: token, merchantKeyPEM: Array(merchant.pkcs8PEM.utf8),
            merchantCertificatePEM: Array(certificate.pemRepresentation.utf8),
            now: now, roots: [pki.root])
        do {
            try await decryptApplePayToken(
                tokenJSON: token, merchantKeyPEM: Array(merchant.pkcs8PEM.utf8),
                merchantCertificatePEM: Array(certificate.pemRepresentation.utf8), now: now + 3600, roots: [pki.root])
            XCTFail("a token an hour old was accepted")
        } catch let error as ApplePayError {
            XCTAssertEqual(error.code, .signingTimeOutsideWindow)
        }
    }

    func testVerifyAppReceipt() async throws {
        let pki = try makePKI()
        let bytes = try receipt(pki)
        try await verifyAppReceipt(appleIncRoot: pki.root, receiptBytes: bytes, deviceGUID: [4, 5, 6])
        do {
            try await verifyAppReceipt(appleIncRoot: pki.root, receiptBytes: bytes, deviceGUID: [7, 7, 7])
            XCTFail("a receipt verified for another device")
        } catch let error as ReceiptError {
            XCTAssertEqual(error.code, .deviceMismatch)
        }
    }

    func testAnswerVerifyReceipt() async throws {
        let pki = try makePKI()
        try await answerVerifyReceipt(appleIncRoot: pki.root, receiptData: try receipt(pki))
    }

    /// The Xcode block on a receipt signed the way Xcode signs (a self-signed CA without key
    /// identifiers): it verifies with that certificate given, and an App Store receipt type does not.
    func testVerifyXcodeReceipt() async throws {
        let xcode = try XcodeShapedTestCertificate.generate(commonName: "StoreKit", notBefore: now - 86_400, notAfter: now + 86_400)
        func receipt(type: String) throws -> [UInt8] {
            try xcode.receipt(
                AppReceiptBuilder(
                    receiptType: type, bundleID: bundle, appVersion: "1", originalApplicationVersion: "1", creationDate: now,
                    opaqueValue: [1], deviceGUID: [2]))
        }
        try await verifyXcodeReceipt(storeKitCertificate: xcode.certificate, receiptBytes: try receipt(type: "Xcode"))
        do {
            try await verifyXcodeReceipt(storeKitCertificate: xcode.certificate, receiptBytes: try receipt(type: "Production"))
            XCTFail("an App Store receipt type verified with Xcode's certificate")
        } catch let error as ReceiptError {
            XCTAssertEqual(error.code, .invalidEnvironment)
        }
    }

    // MARK: SigilX509 (revocation)

    func testCheckWithCRLs() async throws {
        let pki = try makePKI()
        let rootCRL = try CRLBuilder(issuer: pki.root, thisUpdate: now - 3600, nextUpdate: now + 86_400).sign(with: pki.rootKey)
        let intermediateCRL = try CRLBuilder(
            issuer: pki.intermediate, thisUpdate: now - 3600, nextUpdate: now + 86_400,
            entries: [.init(serialNumber: pki.leaf.serialNumber, revocationDate: now - 1800)]
        ).sign(with: pki.intermediateKey)
        try await checkWithCRLs(leaf: pki.leaf, intermediate: pki.intermediate, root: pki.root, crls: [rootCRL, intermediateCRL])
    }

    /// The offline block: the same CRLs, checked synchronously.
    func testCheckOffline() async throws {
        let pki = try makePKI()
        let rootCRL = try CRLBuilder(issuer: pki.root, thisUpdate: now - 3600, nextUpdate: now + 86_400).sign(with: pki.rootKey)
        let intermediateCRL = try CRLBuilder(
            issuer: pki.intermediate, thisUpdate: now - 3600, nextUpdate: now + 86_400,
            entries: [.init(serialNumber: pki.leaf.serialNumber, revocationDate: now - 1800)]
        ).sign(with: pki.intermediateKey)
        try await checkOffline(leaf: pki.leaf, intermediate: pki.intermediate, root: pki.root, crls: [rootCRL, intermediateCRL])
    }

    /// The OCSP block runs up to the network: the test PKI's leaf names no responder, so the checker
    /// refuses before sending anything (tests never reach the internet).
    func testCheckWithOCSPNeedsAResponder() async throws {
        let pki = try makePKI()
        do {
            try await checkWithOCSP(leaf: pki.leaf, intermediate: pki.intermediate)
            XCTFail("an OCSP status without a responder")
        } catch let error as OCSPError {
            XCTAssertEqual(error.code, .invalidArgument)
        }
    }

    // MARK: SigilCore

    func testTraceVerification() async throws {
        let pki = try makePKI()
        let verifier = try SignedDataVerifier(trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox)
        try await traceVerification(verifier: verifier, signedTransaction: try transaction(pki, environment: "Sandbox"))
    }

    func testShowDigestPaths() async throws {
        try await showDigestPaths()
    }
}
