import Foundation
import SigilASN1
import SigilAppStore
import SigilCore
import SigilJOSE
import SigilKeys
import SigilTestSupport
import SigilTokens
import XCTest

/// Apple's model fixtures decode into the models with every field and re-encode to the same JSON;
/// they also pass through the verifier's LocalTesting path inside a JWS, as Apple's tests do.
final class ModelTests: XCTestCase {
    func fixture(_ name: String) throws -> Data {
        try Data(
            contentsOf: try TestPaths.requireAppleVectors()
                .appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources/models/\(name).json"))
    }

    func assertRoundTrip<T: Codable & Equatable>(_ type: T.Type, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> T
    {
        let data = try fixture(name)
        let decoded = try JSONDecoder().decode(T.self, from: data)
        // The verifier decodes through the strict parser: it must read exactly what Foundation reads.
        XCTAssertEqual(
            try JSONValueDecoder().decode(T.self, fromJSON: data), decoded, "\(name) through JSONValueDecoder", file: file, line: line)
        let encoded = try JSONEncoder().encode(decoded)
        let original = try JSONSerialization.jsonObject(with: data) as? NSDictionary
        let again = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        XCTAssertEqual(original, again, "\(name) does not round-trip: a field is missing from the model", file: file, line: line)
        return decoded
    }

    func testEveryPayloadFixtureRoundTrips() throws {
        let t = try assertRoundTrip(JWSTransactionDecodedPayload.self, "signedTransaction")
        XCTAssertEqual(t.transactionId, "23456")
        XCTAssertEqual(t.revocationReason, .refundedDueToIssue)
        XCTAssertEqual(t.advancedCommerceInfo?.items?.first?.sku, "com.example.sku.premium")
        XCTAssertEqual(t.advancedCommerceInfo?.items?.first?.refunds?.first?.refundType, .prorated)
        XCTAssertEqual(t.commitmentInfo?.totalBillingPeriods, 12)
        XCTAssertEqual(t.environment, .localTesting)
        _ = try assertRoundTrip(JWSTransactionDecodedPayload.self, "signedTransactionWithRevocation")
        let r = try assertRoundTrip(JWSRenewalInfoDecodedPayload.self, "signedRenewalInfo")
        XCTAssertEqual(r.eligibleWinBackOfferIds, ["eligible1", "eligible2"])
        XCTAssertEqual(r.advancedCommerceInfo?.items?.first?.priceIncreaseInfo?.status, .pending)
        for name in [
            "signedNotification", "signedSummaryNotification", "signedExternalPurchaseTokenNotification",
            "signedExternalPurchaseTokenSandboxNotification", "signedRescindConsentNotification",
            "signedConsumptionRequestNotification",
        ] {
            _ = try assertRoundTrip(ResponseBodyV2DecodedPayload.self, name)
        }
        let a = try assertRoundTrip(AppTransaction.self, "appTransaction")
        XCTAssertEqual(a.originalPlatform, .iOS)
        let rt = try assertRoundTrip(DecodedRealtimeRequestBody.self, "decodedRealtimeRequest")
        XCTAssertEqual(rt.userLocale, "en-US")
        _ = try assertRoundTrip(NotificationAppData.self, "appData")
    }

    func testUnknownEnumValuesAreKeptRaw() throws {
        let json = #"{"environment":"LocalTestingxxx","type":"Super-Consumable","offerType":9,"signedDate":1.5}"#
        let t = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(json.utf8))
        XCTAssertEqual(try JSONValueDecoder().decode(JWSTransactionDecodedPayload.self, fromJSON: Array(json.utf8)), t)
        XCTAssertEqual(t.environment?.rawValue, "LocalTestingxxx")
        XCTAssertFalse(t.environment?.isDocumented ?? true)
        XCTAssertEqual(t.offerType?.rawValue, 9)
        XCTAssertEqual(t.signedDate?.millisecondsSince1970, 1.5)
        let again = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(t)) as? NSDictionary
        XCTAssertEqual(again, try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
        // Wrong types are errors, not silently dropped.
        XCTAssertThrowsError(try JSONDecoder().decode(NotificationData.self, from: Data(#"{"appAppleId":"blue"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(DecodedRealtimeRequestBody.self, from: Data(#"{"appAppleId":1}"#.utf8)))
        XCTAssertThrowsError(try JSONValueDecoder().decode(NotificationData.self, fromJSON: Array(#"{"appAppleId":"blue"}"#.utf8)))
        XCTAssertThrowsError(try JSONValueDecoder().decode(DecodedRealtimeRequestBody.self, fromJSON: Array(#"{"appAppleId":1}"#.utf8)))
        // Duplicate member names, which Foundation would accept silently, are refused.
        XCTAssertThrowsError(
            try JSONValueDecoder().decode(
                JWSTransactionDecodedPayload.self,
                fromJSON: Array(#"{"transactionId":"1","transactionId":"2"}"#.utf8)))
    }

    func testNotificationIdentitySources() throws {
        func identity(_ name: String) throws -> (String?, Int64?, AppStoreEnvironment?) {
            let p = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: try fixture(name))
            return p.identity
        }
        XCTAssertEqual(try identity("signedExternalPurchaseTokenNotification").2, .production)
        XCTAssertEqual(try identity("signedExternalPurchaseTokenSandboxNotification").2, .sandbox)
        XCTAssertEqual(try identity("signedRescindConsentNotification").1, 41234)
        XCTAssertEqual(try identity("signedSummaryNotification").0, "com.example")
    }

    func testLocalTestingDecodesWithoutVerification() async throws {
        let key = try AppleSigningKey(privateKey: ECDSAPrivateKey.generate(curve: .p256), keyID: "k")
        let payload = Array(try fixture("signedNotification"))
        let token = try JWS.sign(header: .object([]), payload: payload, key: key.privateKey)
        let v = try SignedDataVerifier(trustedRoots: [], bundleId: "com.example", appAppleId: 41234, environments: .localTestingUnsigned)
        let n = try await v.verifyNotification(token)
        XCTAssertEqual(n.trust, .unverified)
        XCTAssertEqual(n.payload.data?.signedTransactionInfo, "signed_transaction_info_value")
        XCTAssertEqual(n.payloadBytes, payload)
    }
}

/// The four example tokens of Apple's article "Receiving and decoding external purchase tokens"
/// decode to exactly what their bytes hold (the article's printed JSON for the two sandbox
/// examples differs from their bytes; the bytes win).
final class ExternalPurchaseTokenTests: XCTestCase {
    static let plain =
        "ewoJImFwcEFwcGxlSWQiOjEyMzQ1Njc4OTAsCgkiYnVuZGxlSWQiOiJjb20uZXhhbXBsZSIsCgkidG9rZW5DcmVhdGlvbkRhdGUiOjE3MDYxNjk2MDAwMDAsCgkiZXh0ZXJuYWxQdXJjaGFzZUlkIjoiMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIgp9"
    static let services =
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3NTA4OTYwMDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMCIsInRva2VuVHlwZSI6IlNFUlZJQ0VTIiwidG9rZW5FeHBpcmF0aW9uRGF0ZSI6MTc4MjQzMjAwMDAwMH0K"
    static let sandbox =
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MDYxNjk2MDAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzA2MTczMjAwMDAwfQo="
    static let sandboxServices =
        "eyJhcHBBcHBsZUlkIjoxMjM0NTY3ODkwLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlIiwidG9rZW5DcmVhdGlvbkRhdGUiOjE3MzA0NDg3MjAwMDAsImV4dGVybmFsUHVyY2hhc2VJZCI6IlNBTkRCT1hfMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIiwidG9rZW5UeXBlIjoiU0VSVklDRVMiLCJ0b2tlbkV4cGlyYXRpb25EYXRlIjoxNzMwNDUyMzIwMDAwfQ=="

    func testApplesFourExamples() throws {
        let a = try ExternalPurchaseToken(token: Self.plain)
        XCTAssertEqual(a.appAppleId, 1_234_567_890)
        XCTAssertEqual(a.bundleId, "com.example")
        XCTAssertEqual(a.tokenCreationDate.millisecondsSince1970, 1_706_169_600_000)
        XCTAssertEqual(a.externalPurchaseId, "00000000-0000-0000-0000-000000000000")
        XCTAssertNil(a.tokenType)
        XCTAssertNil(a.tokenExpirationDate)
        XCTAssertEqual(a.environment, .production)
        XCTAssertTrue(String(decoding: a.bytes, as: UTF8.self).contains("\n\t\"appAppleId\""), "pretty-printed with tabs")

        let b = try ExternalPurchaseToken(token: Self.services)
        XCTAssertEqual(b.tokenCreationDate.millisecondsSince1970, 1_750_896_000_000)
        XCTAssertEqual(b.tokenType, .services)
        XCTAssertEqual(b.tokenExpirationDate?.millisecondsSince1970, 1_782_432_000_000)
        XCTAssertEqual(b.environment, .production)
        XCTAssertEqual(b.bytes.last, 0x0A)

        // The third is padded: strict decoding refuses it, the opt-in accepts it.
        XCTAssertThrowsError(try ExternalPurchaseToken(token: Self.sandbox))
        let c = try ExternalPurchaseToken(token: Self.sandbox, allowPaddingAndNewline: true)
        XCTAssertEqual(c.externalPurchaseId, "SANDBOX_00000000-0000-0000-0000-000000000000")
        XCTAssertEqual(c.environment, .sandbox)
        XCTAssertEqual(c.tokenCreationDate.millisecondsSince1970, 1_706_169_600_000)
        XCTAssertEqual(c.tokenType, .services, "the bytes carry tokenType although the article's JSON omits it")
        XCTAssertEqual(c.tokenExpirationDate?.millisecondsSince1970, 1_706_173_200_000)

        let d = try ExternalPurchaseToken(token: Self.sandboxServices, allowPaddingAndNewline: true)
        XCTAssertEqual(d.tokenCreationDate.millisecondsSince1970, 1_730_448_720_000, "the bytes' date, not the article's 1706169600000")
        XCTAssertEqual(d.tokenExpirationDate?.millisecondsSince1970, 1_730_452_320_000)
        XCTAssertEqual(d.tokenType, .services)
        XCTAssertEqual(d.environment, .sandbox)
        XCTAssertEqual(d.appAppleId, 1_234_567_890)
        // A trailing newline after the token is tolerated only on request.
        XCTAssertThrowsError(try ExternalPurchaseToken(token: Self.plain + "\n"))
        XCTAssertNoThrow(try ExternalPurchaseToken(token: Self.plain + "\n", allowPaddingAndNewline: true))
    }

    func testMalformedTokensNameTheField() {
        func reason(_ json: String) -> String {
            do {
                _ = try ExternalPurchaseToken(token: Base64URL.encode(Array(json.utf8)))
                return "accepted"
            } catch { return error.reason }
        }
        let full = #""appAppleId":1,"bundleId":"b","tokenCreationDate":5,"externalPurchaseId":"x""#
        XCTAssertEqual(reason("{\(full)}"), "accepted")
        XCTAssertTrue(reason(#"{"bundleId":"b","tokenCreationDate":5,"externalPurchaseId":"x"}"#).contains("appAppleId"))
        XCTAssertTrue(reason(#"{"appAppleId":"1","bundleId":"b","tokenCreationDate":5,"externalPurchaseId":"x"}"#).contains("appAppleId"))
        XCTAssertTrue(reason(#"{"appAppleId":1,"bundleId":2,"tokenCreationDate":5,"externalPurchaseId":"x"}"#).contains("bundleId"))
        XCTAssertTrue(
            reason(#"{"appAppleId":1,"bundleId":"b","tokenCreationDate":5.5,"externalPurchaseId":"x"}"#).contains("tokenCreationDate"))
        XCTAssertTrue(reason(#"{"appAppleId":1,"bundleId":"b","tokenCreationDate":5}"#).contains("externalPurchaseId"))
        XCTAssertTrue(reason("{\(full),\"tokenType\":\"SERVICES\"}").contains("tokenExpirationDate"))
        XCTAssertTrue(reason("{\(full),\"tokenExpirationDate\":9}").contains("tokenType"))
        XCTAssertTrue(reason("{\(full),\"tokenType\":\"SERVICES\",\"tokenExpirationDate\":1}").contains("tokenExpirationDate"))
        XCTAssertTrue(reason("{\(full),\"appAppleId\":2}").contains("duplicate"))
        XCTAssertTrue(reason("[1]").contains("object"))
        XCTAssertThrowsError(try ExternalPurchaseToken(token: "!!!"))
        XCTAssertThrowsError(try ExternalPurchaseToken(token: String(repeating: "e", count: 20_000)))
    }
}

/// Tokens Sigil mints, checked by independent implementations: PyJWT with pyca/cryptography and
/// `openssl dgst -verify` on the signing input, with exactly the header and claims Apple documents.
final class TokenTests: XCTestCase {
    static let p8 = PrivateKeyFixture.pem

    func key() throws -> AppleSigningKey { try AppleSigningKey(p8: Array(Self.p8.utf8), keyID: "ABC123DEFG") }

    func decode(_ token: String) throws -> (JSONValue, JSONValue) {
        let jws = try JWS(compact: token)
        return (jws.header, try jws.payloadJSON())
    }

    func testHeadersClaimsAndLimits() throws {
        let k = try key()
        let iat: Int64 = 1_760_000_000
        let api = try AppleTokens.appStoreServerAPI(
            key: k, issuerID: "57246542-96fe-1a63-e053-0824d011072a", bundleID: "com.example", issuedAt: iat, lifetime: 3600)
        var (header, claims) = try decode(api)
        XCTAssertEqual(header.serialized, #"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#)
        XCTAssertEqual(
            claims.serialized,
            #"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":1760000000,"exp":1760003600,"aud":"appstoreconnect-v1","bid":"com.example"}"#
        )
        XCTAssertThrowsError(try AppleTokens.appStoreServerAPI(key: k, issuerID: "i", bundleID: "b", issuedAt: iat, lifetime: 3601))
        XCTAssertThrowsError(try AppleTokens.appStoreServerAPI(key: k, issuerID: "i", bundleID: "b", issuedAt: iat, lifetime: 0))
        XCTAssertThrowsError(try AppleTokens.externalPurchaseServerAPI(key: k, issuerID: "i", bundleID: "b", issuedAt: iat, lifetime: 7200))

        let siwa = try AppleTokens.signInWithAppleClientSecret(
            key: k, teamID: "TEAM123456", clientID: "com.example.web", issuedAt: iat, lifetime: 15_777_000)
        (_, claims) = try decode(siwa)
        XCTAssertEqual(
            claims.serialized,
            #"{"iss":"TEAM123456","iat":1760000000,"exp":1775777000,"aud":"https://appleid.apple.com","sub":"com.example.web"}"#)
        XCTAssertThrowsError(
            try AppleTokens.signInWithAppleClientSecret(key: k, teamID: "t", clientID: "c", issuedAt: iat, lifetime: 15_777_001))

        let reader = try AppleTokens.proximityReaderToken(key: k, brandID: "brand", readerID: "reader-1", issuedAt: iat, lifetime: 300)
        (_, claims) = try decode(reader)
        XCTAssertEqual(
            claims.serialized, #"{"iss":"brand","sub":"reader-1","aud":"apple-identityservices-v1","iat":1760000000,"exp":1760000300}"#)
        XCTAssertThrowsError(try AppleTokens.proximityReaderToken(key: k, brandID: "b", readerID: "r", issuedAt: iat, lifetime: 301))
        XCTAssertThrowsError(try AppleTokens.proximityReaderToken(key: k, brandID: "b", readerID: "r", issuedAt: iat, lifetime: -1))

        let promo = try AppleTokens.promotionalOfferV2(
            key: k, issuerID: "iss", bundleID: "com.example", productID: "p", offerIdentifier: "o",
            nonce: "n1", issuedAt: iat)
        (_, claims) = try decode(promo)
        XCTAssertEqual(
            claims.serialized,
            #"{"nonce":"n1","iss":"iss","bid":"com.example","aud":"promotional-offer","iat":1760000000,"productId":"p","offerIdentifier":"o"}"#
        )
        let intro = try AppleTokens.introductoryOfferEligibility(
            key: k, issuerID: "iss", bundleID: "com.example", productID: "p",
            allowIntroductoryOffer: false, transactionID: "t", nonce: "n2", issuedAt: iat)
        (_, claims) = try decode(intro)
        XCTAssertEqual(
            claims.serialized,
            #"{"nonce":"n2","iss":"iss","bid":"com.example","aud":"introductory-offer-eligibility","iat":1760000000,"productId":"p","allowIntroductoryOffer":false,"transactionId":"t"}"#
        )
        let request = Array(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#.utf8)
        let commerce = try AppleTokens.advancedCommerceInAppRequest(
            key: k, issuerID: "iss", bundleID: "com.example", requestJSON: request,
            nonce: "n3", issuedAt: iat)
        (_, claims) = try decode(commerce)
        XCTAssertEqual(claims["aud"], .string("advanced-commerce-api"))
        XCTAssertEqual(claims["request"], .string(Base64.encode(request)))
        XCTAssertNil(claims["exp"])
    }

    /// A nonce the caller leaves out is a fresh random UUID (version 4, RFC 9562) in lowercase, as
    /// Apple's libraries write one — made without Foundation, so read back here with Foundation's
    /// `UUID` — and a different one in every token.
    func testDefaultNonceIsARandomLowercaseUUID() throws {
        let k = try key()
        var nonces: Set<String> = []
        for _ in 0..<64 {
            let token = try AppleTokens.promotionalOfferV2(
                key: k, issuerID: "iss", bundleID: "com.example", productID: "p", offerIdentifier: "o", issuedAt: 1_760_000_000)
            let nonce = try XCTUnwrap(try decode(token).1["nonce"]?.stringValue)
            let uuid = try XCTUnwrap(UUID(uuidString: nonce), nonce)
            XCTAssertEqual(uuid.uuidString.lowercased(), nonce)
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            XCTAssertEqual(bytes[6] >> 4, 4, "version 4: \(nonce)")
            XCTAssertEqual(bytes[8] >> 6, 2, "variant 10: \(nonce)")
            nonces.insert(nonce)
        }
        XCTAssertEqual(nonces.count, 64)
        let intro = try AppleTokens.introductoryOfferEligibility(
            key: k, issuerID: "iss", bundleID: "com.example", productID: "p", allowIntroductoryOffer: true, transactionID: "t",
            issuedAt: 1_760_000_000)
        XCTAssertNotNil(UUID(uuidString: try XCTUnwrap(try decode(intro).1["nonce"]?.stringValue)))
    }

    func testPromotionalOfferV1MessageAndSignature() throws {
        let k = try key()
        let message = AppleTokens.promotionalOfferV1Message(
            keyID: k.keyID, bundleID: "com.example", productID: "p", offerID: "o",
            appAccountToken: "AAAA-BB", nonce: "C1D2", timestamp: 1_700_000_000_000)
        XCTAssertEqual(
            message, Array("com.example\u{2063}ABC123DEFG\u{2063}p\u{2063}o\u{2063}aaaa-bb\u{2063}c1d2\u{2063}1700000000000".utf8))
        let signature = AppleTokens.promotionalOfferV1(
            key: k, bundleID: "com.example", productID: "p", offerID: "o", appAccountToken: "AAAA-BB",
            nonce: "C1D2", timestamp: 1_700_000_000_000)
        let der = try Base64.decode(Array(signature.utf8))
        try OpenSSLCheck.verify(message: message, derSignature: der, publicKey: k.privateKey.publicKey)
    }

    func testPyJWTVerifiesEveryToken() throws {
        // PyJWT and pyca/cryptography from pip or from Debian's packages (the README's set-up line).
        guard let python = Subprocess.python(importing: ["jwt", "cryptography"]) else {
            XCTFail(
                "no python3 with PyJWT and cryptography; the README's set-up line installs python3-jwt and python3-cryptography"
            )
            return
        }
        let k = try key()
        let now = Int64(Date().timeIntervalSince1970)
        let tokens: [(String, String)] = [
            (try AppleTokens.appStoreServerAPI(key: k, issuerID: "issuer", bundleID: "com.example", issuedAt: now), "appstoreconnect-v1"),
            (
                try AppleTokens.externalPurchaseServerAPI(
                    key: k, issuerID: "issuer", bundleID: "com.example", issuedAt: now, lifetime: 3600), "appstoreconnect-v1"
            ),
            (
                try AppleTokens.signInWithAppleClientSecret(key: k, teamID: "TEAM", clientID: "com.example.web", issuedAt: now),
                "https://appleid.apple.com"
            ),
            (
                try AppleTokens.proximityReaderToken(key: k, brandID: "brand", readerID: "reader", issuedAt: now),
                "apple-identityservices-v1"
            ),
            (
                try AppleTokens.promotionalOfferV2(
                    key: k, issuerID: "issuer", bundleID: "com.example", productID: "p", offerIdentifier: "o",
                    transactionID: "1", issuedAt: now), "promotional-offer"
            ),
            (
                try AppleTokens.introductoryOfferEligibility(
                    key: k, issuerID: "issuer", bundleID: "com.example", productID: "p",
                    allowIntroductoryOffer: true, transactionID: "1", issuedAt: now), "introductory-offer-eligibility"
            ),
        ]
        let script = """
            import jwt, sys, json
            pem = sys.argv[1]
            for line in sys.stdin.read().split():
                token, aud = line.split(',')
                header = jwt.get_unverified_header(token)
                assert header == {"alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"}, header
                claims = jwt.decode(token, pem, algorithms=["ES256"], audience=aud, options={"require": ["iat", "aud"]})
                print(json.dumps(claims, sort_keys=True))
            """
        let pem = k.privateKey.publicKey.pemRepresentation
        let input = tokens.map { "\($0.0),\($0.1)" }.joined(separator: "\n")
        let result = try Subprocess.run(python, ["-c", script, pem], stdin: Data(input.utf8))
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        XCTAssertEqual(result.stdoutString.split(separator: "\n").count, tokens.count)
        // A tampered token is refused by PyJWT too (the check can fail).
        let bad = tokens[0].0.dropLast(2) + (tokens[0].0.hasSuffix("AA") ? "BA" : "AA")
        let refused = try Subprocess.run(python, ["-c", script, pem], stdin: Data("\(bad),appstoreconnect-v1".utf8))
        XCTAssertNotEqual(refused.status, 0)
    }

    func testOpenSSLVerifiesTheSigningInput() throws {
        let k = try key()
        let token = try AppleTokens.appStoreServerAPI(key: k, issuerID: "issuer", bundleID: "com.example", issuedAt: 1_760_000_000)
        let jws = try JWS(compact: token)
        let signature = try ECDSASignature(rawRepresentation: jws.signature, curve: .p256)
        try OpenSSLCheck.verify(message: jws.signingInput, derSignature: signature.derRepresentation, publicKey: k.privateKey.publicKey)
    }
}

/// A fixed P-256 key for the token tests, as a PKCS#8 PEM like App Store Connect's .p8 files
/// (from a seeded generator: reproducible, signs nothing real).
enum PrivateKeyFixture {
    static let pem: String = {
        var generator = SeededGenerator(seed: 0x5151)
        return ECDSAPrivateKey.generate(curve: .p256, using: &generator).pkcs8PEM
    }()
}

enum OpenSSLCheck {
    static func verify(message: [UInt8], derSignature: [UInt8], publicKey: ECDSAPublicKey) throws {
        let openssl = try Subprocess.require("openssl")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let msg = dir.appendingPathComponent("m")
        let sig = dir.appendingPathComponent("s")
        let pub = dir.appendingPathComponent("p.pem")
        try Data(message).write(to: msg)
        try Data(derSignature).write(to: sig)
        try Data(publicKey.pemRepresentation.utf8).write(to: pub)
        let result = try Subprocess.run(openssl, ["dgst", "-sha256", "-verify", pub.path, "-signature", sig.path, msg.path])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        var tampered = message
        tampered[0] ^= 1
        try Data(tampered).write(to: msg)
        XCTAssertNotEqual(
            try Subprocess.run(openssl, ["dgst", "-sha256", "-verify", pub.path, "-signature", sig.path, msg.path]).status, 0)
    }
}
