import Foundation
import SigilASN1
import SigilApplePKI
import SigilJOSE
import SigilTestPKI
import SigilX509
import XCTest

@testable import SigilAppStore

/// The chain cache is looked up by the x5c text before any certificate is decoded: a header whose
/// text differs from a cached one — only in base64 padding or line breaks, or in the
/// intermediate under the same leaf — is never served the cached chain.
final class ChainCacheKeyTests: XCTestCase {
    let now: Int64 = 1_790_000_000
    let bundle = "com.example.app"

    func payload() -> [UInt8] {
        Array(#"{"transactionId":"1","bundleId":"com.example.app","environment":"Sandbox","signedDate":\#(now * 1000)}"#.utf8)
    }

    /// A JWS signed by the PKI's leaf whose x5c is `texts`, exactly as given.
    func signed(_ pki: AppleShapedTestPKI, x5c texts: [String]) throws -> String {
        try JWS.sign(
            header: .object([("alg", .string("ES256")), ("x5c", .array(texts.map { .string($0) }))]), payload: payload(),
            key: pki.leafKey)
    }

    func verifier(_ pki: AppleShapedTestPKI, _ cache: ChainCache) throws -> SignedDataVerifier {
        let now = self.now
        return try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, cache: cache, clock: { now })
    }

    /// Another valid issue of the PKI's intermediate: same name and key, Apple's marker kept,
    /// another serial number.
    func reissuedIntermediate(_ pki: AppleShapedTestPKI, serial: [UInt8]) throws -> Certificate {
        try CertificateBuilder(
            serialNumber: serial, issuer: pki.root.subject.derBytes, subject: pki.intermediate.subject.derBytes,
            notBefore: now - 86_400, notAfter: now + 86_400, subjectPublicKeyInfo: pki.intermediateKey.publicKey.spkiDER,
            extensions: [
                .basicConstraints(ca: true, pathLength: 0),
                .authorityKeyIdentifier(CertificateBuilder.keyIdentifier(pki.rootKey.publicKey)),
                .subjectKeyIdentifier(CertificateBuilder.keyIdentifier(pki.intermediateKey.publicKey)), .keyUsage([5, 6]),
                .marker(AppleOIDs.wwdrIntermediate),
            ]
        ).sign(with: pki.rootKey)
    }

    /// Padding and line-break variants of a cached leaf's or intermediate's text are refused as
    /// certificates (strict base64: each byte string has one accepted text), never served the
    /// cached chain; the cache keeps only the chain of the exact text.
    func testTextVariantsOfACachedChainAreNeverServedIt() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let cache = ChainCache()
        let verifier = try verifier(pki, cache)
        let texts = [pki.leaf, pki.intermediate, pki.root].map { Base64.encode($0.derBytes) }
        let original = try signed(pki, x5c: texts)
        let first = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
        XCTAssertFalse(first.chainFromCache)
        let second = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
        XCTAssertTrue(second.chainFromCache)
        XCTAssertEqual(cache.count, 1)

        func lineBroken(_ text: String) -> String {
            var out = ""
            for (i, c) in text.enumerated() {
                if i > 0 && i % 64 == 0 { out += "\n" }
                out.append(c)
            }
            return out
        }
        func unpadded(_ text: String) -> String { String(text.reversed().drop { $0 == "=" }.reversed()) }
        func overpadded(_ text: String) -> String { text.hasSuffix("=") ? text + "=" : text + "====" }
        func crlf(_ text: String) -> String { text + "\r\n" }
        for position in 0..<2 {
            for (name, variant) in [
                ("line breaks", lineBroken), ("padding removed", unpadded), ("padding added", overpadded), ("trailing CRLF", crlf),
            ] {
                var changed = texts
                changed[position] = variant(texts[position])
                guard changed[position] != texts[position] else { continue }
                let jws = try signed(pki, x5c: changed)
                for entry in ["sync", "async"] {
                    do {
                        let result =
                            entry == "sync"
                            ? try verifier.verifyOffline(jws, as: JWSTransactionDecodedPayload.self)
                            : try await verifier.verify(jws, as: JWSTransactionDecodedPayload.self)
                        XCTFail("x5c[\(position)] with \(name) verified (from the cache: \(result.chainFromCache))")
                    } catch {
                        XCTAssertEqual(error.code, .invalidCertificate, "x5c[\(position)] with \(name) (\(entry)): \(error)")
                    }
                }
            }
        }
        XCTAssertEqual(cache.count, 1, "no variant stored an entry")
        let third = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
        XCTAssertTrue(third.chainFromCache, "the exact text still hits")
    }

    /// The same leaf text under another intermediate is a miss: the chain is validated for that
    /// intermediate — refused when it lacks Apple's marker, accepted (and stored as a second
    /// entry) when it is another valid issue of the intermediate.
    func testSameLeafUnderADifferentIntermediateIsValidatedAgain() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let cache = ChainCache()
        let verifier = try verifier(pki, cache)
        let leafText = Base64.encode(pki.leaf.derBytes)
        let rootText = Base64.encode(pki.root.derBytes)
        let original = try signed(pki, x5c: [leafText, Base64.encode(pki.intermediate.derBytes), rootText])
        _ = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
        XCTAssertTrue(try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self).chainFromCache)

        // Same name and key, no WWDR marker: the leaf's signature still checks under it.
        let unmarked = try pki.intermediateWithoutMarker(notBefore: now - 86_400, notAfter: now + 86_400)
        let underUnmarked = try signed(pki, x5c: [leafText, Base64.encode(unmarked.derBytes), rootText])
        for entry in ["sync", "async"] {
            do {
                _ =
                    entry == "sync"
                    ? try verifier.verifyOffline(underUnmarked, as: JWSTransactionDecodedPayload.self)
                    : try await verifier.verify(underUnmarked, as: JWSTransactionDecodedPayload.self)
                XCTFail("the cached leaf was accepted under an intermediate without Apple's marker (\(entry))")
            } catch {
                XCTAssertEqual(error.code, .verificationFailure, "\(entry): \(error)")
            }
        }
        XCTAssertEqual(cache.count, 1)

        // Another valid issue of the intermediate (other serial number, marker kept): validated,
        // not served from the first entry.
        let reissued = try reissuedIntermediate(pki, serial: [0x7A, 0x02])
        let underReissued = try signed(pki, x5c: [leafText, Base64.encode(reissued.derBytes), rootText])
        let fresh = try verifier.verifyOffline(underReissued, as: JWSTransactionDecodedPayload.self)
        XCTAssertFalse(fresh.chainFromCache)
        XCTAssertEqual(fresh.chain[1].derBytes, reissued.derBytes, "the chain returned is the one the header carries")
        XCTAssertEqual(cache.count, 2)
        let cachedReissued = try verifier.verifyOffline(underReissued, as: JWSTransactionDecodedPayload.self)
        XCTAssertTrue(cachedReissued.chainFromCache)
        XCTAssertEqual(cachedReissued.chain[1].derBytes, reissued.derBytes)
        let cachedOriginal = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
        XCTAssertTrue(cachedOriginal.chainFromCache)
        XCTAssertEqual(cachedOriginal.chain[1].derBytes, pki.intermediate.derBytes)
    }

    /// The memo of intermediates parsed before (by exact x5c text; used when the chain is not
    /// cached) never stands for another text: with no chain cache, a text variant of the
    /// remembered intermediate is refused as a certificate, an unmarked intermediate with the same
    /// name and key is refused by the chain, other valid intermediates past the memo's bound are
    /// each returned as their own header carries them, and the original still verifies.
    func testIntermediateParseMemoNeverStandsForAnotherText() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let verifier = try verifier(pki, ChainCache(timeToLive: 0))
        let leafText = Base64.encode(pki.leaf.derBytes)
        let rootText = Base64.encode(pki.root.derBytes)
        let intermediateText = Base64.encode(pki.intermediate.derBytes)
        let original = try signed(pki, x5c: [leafText, intermediateText, rootText])
        for _ in 0..<2 {
            let result = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
            XCTAssertFalse(result.chainFromCache)
            XCTAssertEqual(result.chain[1].derBytes, pki.intermediate.derBytes)
        }
        for variant in [intermediateText + "\n", String(intermediateText.dropLast()), intermediateText + "===="] {
            XCTAssertThrowsError(
                try verifier.verifyOffline(signed(pki, x5c: [leafText, variant, rootText]), as: JWSTransactionDecodedPayload.self)
            ) { XCTAssertEqual(($0 as? AppStoreError)?.code, .invalidCertificate, "\($0)") }
        }
        let unmarked = try pki.intermediateWithoutMarker(notBefore: now - 86_400, notAfter: now + 86_400)
        XCTAssertThrowsError(
            try verifier.verifyOffline(
                signed(pki, x5c: [leafText, Base64.encode(unmarked.derBytes), rootText]), as: JWSTransactionDecodedPayload.self)
        ) { XCTAssertEqual(($0 as? AppStoreError)?.code, .verificationFailure, "\($0)") }
        // Ten more valid issues of the intermediate (the memo keeps eight), each verified twice.
        for serial in UInt8(1)...10 {
            let reissued = try reissuedIntermediate(pki, serial: [0x7B, serial])
            let jws = try signed(pki, x5c: [leafText, Base64.encode(reissued.derBytes), rootText])
            for _ in 0..<2 {
                XCTAssertEqual(try verifier.verifyOffline(jws, as: JWSTransactionDecodedPayload.self).chain[1].derBytes, reissued.derBytes)
            }
        }
        XCTAssertEqual(
            try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self).chain[1].derBytes, pki.intermediate.derBytes)
    }

    /// The memo itself: a text is parsed once, a failed parse is not kept (and is tried again),
    /// and filling it past its bound keeps `capacity` entries.
    func testIntermediateParseMemoBound() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let memo = IntermediateParseMemo(capacity: 3)
        var parses = 0
        func parse(_ text: String) throws -> Certificate {
            parses += 1
            guard text != "bad" else { throw AppStoreError(.invalidCertificate, "bad") }
            return text == "leaf" ? pki.leaf : pki.intermediate
        }
        XCTAssertEqual(try memo.certificate(for: "leaf", parse: parse).derBytes, pki.leaf.derBytes)
        XCTAssertEqual(try memo.certificate(for: "leaf", parse: parse).derBytes, pki.leaf.derBytes)
        XCTAssertEqual(parses, 1)
        XCTAssertThrowsError(try memo.certificate(for: "bad", parse: parse))
        XCTAssertThrowsError(try memo.certificate(for: "bad", parse: parse))
        XCTAssertEqual(parses, 3)
        for text in ["a", "b", "c", "d", "e"] { _ = try memo.certificate(for: text, parse: parse) }
        XCTAssertEqual(memo.count, 3)
        XCTAssertEqual(try memo.certificate(for: "e", parse: parse).derBytes, pki.intermediate.derBytes)
        XCTAssertEqual(parses, 8)
    }

    /// The memo of headers verified before (by the header part's exact text) skips only decoding
    /// and parsing: a JWS with the same header part and another payload is still refused on its
    /// signature; a header part differing only in a non-canonical final character or padding is
    /// refused as malformed; a cache that keeps nothing keeps no header.
    func testHeaderMemoNeverStandsForAnotherText() async throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let cache = ChainCache()
        let verifier = try verifier(pki, cache)
        let texts = [pki.leaf, pki.intermediate, pki.root].map { Base64.encode($0.derBytes) }
        let original = try signed(pki, x5c: texts)
        _ = try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self)
        XCTAssertTrue(try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self).chainFromCache)
        let parts = original.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(parts.count, 3)

        // The same header part, another payload under the original signature.
        let otherPayload = Base64URL.encode(Array(#"{"transactionId":"2","bundleId":"com.example.app","environment":"Sandbox"}"#.utf8))
        do {
            _ = try verifier.verifyOffline(
                [parts[0], otherPayload, parts[2]].joined(separator: "."), as: JWSTransactionDecodedPayload.self)
            XCTFail("a payload the signature does not cover was accepted under a remembered header")
        } catch {
            XCTAssertEqual(error.code, .verificationFailure, "\(error)")
        }

        // The header part with its final character's spare bits set, or padded: refused.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var variants = [parts[0] + "="]
        if parts[0].count % 4 != 0, let last = parts[0].last, let value = alphabet.firstIndex(of: last) {
            variants.append(String(parts[0].dropLast()) + String(alphabet[value ^ 1]))
        }
        for variant in variants {
            do {
                _ = try verifier.verifyOffline([variant, parts[1], parts[2]].joined(separator: "."), as: JWSTransactionDecodedPayload.self)
                XCTFail("header part \(variant.suffix(4)) accepted")
            } catch {
                XCTAssertEqual(error.code, .invalidJWTFormat, "\(error)")
            }
        }
        XCTAssertTrue(try verifier.verifyOffline(original, as: JWSTransactionDecodedPayload.self).chainFromCache)

        // A cache that keeps nothing verifies every time, from the text, and stores nothing.
        let keepsNothing = ChainCache(timeToLive: 0)
        let none = try SignedDataVerifier(
            trustedRoots: [pki.root], bundleId: bundle, appAppleId: nil, environment: .sandbox, cache: keepsNothing,
            clock: { [now] in now })
        for _ in 0..<2 { XCTAssertFalse(try none.verifyOffline(original, as: JWSTransactionDecodedPayload.self).chainFromCache) }
        XCTAssertEqual(keepsNothing.count, 0)
    }
}
