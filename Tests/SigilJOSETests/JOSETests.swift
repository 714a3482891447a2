import Foundation
import SigilASN1
import SigilCore
import SigilKeys
import SigilTestSupport
import XCTest

@testable import SigilJOSE

final class Base64URLTests: XCTestCase {
    func testRoundTripAndNoPadding() throws {
        var rng = SeededGenerator(seed: 7)
        for length in 0..<100 {
            let bytes = rng.bytes(length)
            let text = Base64URL.encode(bytes)
            XCTAssertFalse(text.contains("=") || text.contains("+") || text.contains("/"))
            XCTAssertEqual(try Base64URL.decode(text), bytes)
        }
    }

    func testStrictByDefaultLenientOnRequest() throws {
        XCTAssertThrowsError(try Base64URL.decode("eyJ9fQ=="))  // padding
        XCTAssertThrowsError(try Base64URL.decode("eyJ9fQ\n"))  // newline
        XCTAssertThrowsError(try Base64URL.decode("ey+9"))  // standard alphabet
        XCTAssertThrowsError(try Base64URL.decode("e"))  // impossible length
        XCTAssertThrowsError(try Base64URL.decode("eR"))  // non-canonical final bits
        XCTAssertEqual(try Base64URL.decode("eyJ9fQ==", lenient: true), Array("{\"}}".utf8))
        XCTAssertEqual(try Base64URL.decode("eyJ9fQ==\n", lenient: true), Array("{\"}}".utf8))
        XCTAssertThrowsError(try Base64URL.decode("ey J9", lenient: true))  // inner whitespace never
    }
}

final class JSONValueTests: XCTestCase {
    func testParsesAndKeepsNumbersExactly() throws {
        let value = try JSONValue(
            parsing: Array(#" {"a": 1697680122257.447, "b": [true, false, null, -0, 1e5], "c": "\u00e9\ud83d\ude00\n"} "#.utf8))
        XCTAssertEqual(value["a"], .number("1697680122257.447"))
        XCTAssertEqual(value["b"], .array([.bool(true), .bool(false), .null, .number("-0"), .number("1e5")]))
        XCTAssertEqual(value["c"]?.stringValue, "é😀\n")
        XCTAssertEqual(try JSONValue(parsing: Array(value.serialized.utf8)), value)
    }

    func testRejections() {
        let bad = [
            #"{"a":1,"a":2}"#, #"{"a":1,}"#, "[1,]", "01", "1.", "-", "+1", #""\x""#, "\"\u{01}\"", #""\ud800""#,
            #""\udc00x""#, "tru", "{} {}", "{", #"{"a" 1}"#, "[1 2]", "NaN", "'a'", "", "  ", #"{"a":1}x"#,
        ]
        for text in bad {
            XCTAssertThrowsError(try JSONValue(parsing: Array(text.utf8)), text)
        }
        XCTAssertThrowsError(try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]), "invalid UTF-8")
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        XCTAssertThrowsError(try JSONValue(parsing: Array(deep.utf8)))
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        XCTAssertNoThrow(try JSONValue(parsing: Array(ok.utf8)))
    }

    /// Duplicate member names are refused wherever they are: among the first 32 names (compared
    /// by hash, then by name), after them (a set), spelled with escapes, or nested; names that
    /// differ, including in one byte or in length only, are all kept.
    func testDuplicateNamesAtEveryPosition() throws {
        func object(_ names: [String]) -> [UInt8] {
            Array(("{" + names.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}").utf8)
        }
        let distinct = (0..<70).map { "member\($0)" } + ["m", "mm", "member", "membeR"]
        guard case .object(let members) = try JSONValue(parsing: object(distinct)) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.0), distinct)
        for count in [2, 16, 31, 32, 33, 40, 70] {
            for (first, second) in [(0, count - 1), (count / 2, count - 1), (count - 2, count - 1)] where first < second {
                var names = (0..<count).map { "member\($0)" }
                names[second] = names[first]
                XCTAssertThrowsError(try JSONValue(parsing: object(names)), "\(count) members, \(first) = \(second)")
            }
        }
        // The same name through an escape (decoded names are compared), and inside a nested object.
        var escaped = (0..<40).map { "member\($0)" }
        escaped[35] = #"m\u0065mber3"#
        XCTAssertThrowsError(try JSONValue(parsing: object(escaped)))
        escaped[35] = #"m\u0065mber35"#
        XCTAssertNoThrow(try JSONValue(parsing: object(escaped)))
        escaped[20] = #"m\u0065mber3"#
        XCTAssertThrowsError(try JSONValue(parsing: object(escaped)))
        XCTAssertThrowsError(try JSONValue(parsing: Array(#"{"a":{"b":1,"c":2,"b":3}}"#.utf8)))
    }

    /// The member-name table finds every listed name, and nothing else (names one byte or one
    /// character apart, prefixes, the empty name, non-ASCII).
    func testMemberNameTable() {
        let names = (0..<40).map { "name\($0)" } + ["", "é", "transactionId", "originalTransactionId"]
        let table = MemberNameTable(pairs: [("name0", 0)])
        XCTAssertEqual(table["name0"], 0)
        XCTAssertNil(table["name1"])
        var built: [(String, Int)] = []
        for (index, name) in names.enumerated() { built.append((name, index)) }
        let big = MemberNameTable(pairs: built)
        for (index, name) in names.enumerated() { XCTAssertEqual(big[name], index, name) }
        for other in ["name", "name40", "Name0", "e", "transactionID", "originalTransactionId ", "\u{301}"] {
            XCTAssertNil(big[other], other)
        }
    }

    /// The string scanner reads eight bytes at a time: a quote, backslash, control character,
    /// non-ASCII or invalid UTF-8 byte at every offset of strings of every length around the word
    /// size is found and judged as the byte loop judges it (the same refusal, at the same offset).
    func testStringScanAtEveryOffset() throws {
        func parse(_ body: [UInt8]) throws -> JSONValue { try JSONValue(parsing: [0x22] + body + [0x22]) }
        func reason(_ body: [UInt8]) -> String? {
            do {
                _ = try parse(body)
                return nil
            } catch { return (error as? JOSEError)?.reason }
        }
        for length in 1..<40 {
            let plain = Array(repeating: UInt8(ascii: "a"), count: length)
            XCTAssertEqual(try parse(plain), .string(String(repeating: "a", count: length)))
            for position in 0..<length {
                var control = plain
                control[position] = 0x1F
                XCTAssertEqual(reason(control), "JSON at byte \(position + 1): control character in a string", "\(length)/\(position)")
                var lone = plain
                lone[position] = 0x80
                XCTAssertEqual(reason(lone), "JSON at byte \(length + 1): invalid UTF-8 in a string", "\(length)/\(position)")
                var quoteInside = plain
                quoteInside[position] = 0x22
                XCTAssertNotNil(reason(quoteInside), "a quote ends the string: the rest is trailing bytes")
                var escaped = plain
                escaped.replaceSubrange(position..<position + 1, with: Array(#"\n"#.utf8))
                var expected = String(repeating: "a", count: length)
                expected.replaceSubrange(
                    expected.index(expected.startIndex, offsetBy: position)..<expected.index(expected.startIndex, offsetBy: position + 1),
                    with: "\n")
                XCTAssertEqual(try parse(escaped), .string(expected), "\(length)/\(position)")
                var accented = plain
                accented.replaceSubrange(position..<position + 1, with: [0xC3, 0xA9])
                expected = String(repeating: "a", count: length)
                expected.replaceSubrange(
                    expected.index(expected.startIndex, offsetBy: position)..<expected.index(expected.startIndex, offsetBy: position + 1),
                    with: "é")
                XCTAssertEqual(try parse(accented), .string(expected), "\(length)/\(position)")
                var truncated = plain
                truncated[position] = 0xC3
                if position + 1 < length { XCTAssertNotNil(reason(truncated), "a lead byte before an ASCII byte") }
                XCTAssertThrowsError(try JSONValue(parsing: [0x22] + plain[..<position]), "unterminated at \(position)")
                XCTAssertThrowsError(try parse(Array(plain[..<position]) + Array(#"\ud800"#.utf8)), "lone surrogate after \(position)")
            }
        }
    }

    func testRandomInputNeverCrashesAndAgreesWithFoundationOnValidity() throws {
        var rng = SeededGenerator(seed: 11)
        let alphabet = Array(#"{}[],:"\ 0123456789.eE+-truefalsnl\u"#.utf8)
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 24)
            let bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let ours = try? JSONValue(parsing: bytes)
            let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            // Foundation accepts duplicates and some non-RFC forms; ours must never accept what
            // Foundation refuses.
            if ours != nil { XCTAssertNotNil(theirs, String(decoding: bytes, as: UTF8.self)) }
        }
    }
}

/// JSONValueDecoder reads what JSONDecoder reads, refuses what the strict parser refuses, and
/// reports errors with their coding path.
final class JSONValueDecoderTests: XCTestCase {
    struct Inner: Codable, Equatable {
        let name: String
        let flags: [Bool]
    }

    struct Sample: Codable, Equatable {
        let id: Int64
        let ratio: Double
        let small: UInt8?
        let text: String
        let missingOptional: String?
        let nullOptional: Int?
        let inner: Inner
        let matrix: [[Int]]
        let map: [String: Int]
    }

    let json =
        #"{"id":-9007199254740993,"ratio":1697680122257.447,"small":255,"text":"caf\u00e9 \ud83d\ude00","nullOptional":null,"#
        + #""inner":{"name":"n","flags":[true,false]},"matrix":[[1,2],[],[3]],"map":{"a":1,"b":2},"extra":{"ignored":[1,2,3]}}"#

    func testAgreesWithFoundation() throws {
        let ours = try JSONValueDecoder().decode(Sample.self, fromJSON: Array(json.utf8))
        let foundation = try JSONDecoder().decode(Sample.self, from: Data(json.utf8))
        XCTAssertEqual(ours, foundation)
        XCTAssertEqual(ours.id, -9007199254740993, "integers beyond 2^53 are exact")
        XCTAssertNil(ours.missingOptional)
        XCTAssertNil(ours.nullOptional)
        XCTAssertEqual(ours.text, "café 😀")
    }

    /// Member lookup compares names as Strings do (canonical equivalence): the shortcut that
    /// settles two ASCII names of different lengths never hides a name that is equal as a String
    /// (a decomposed é, a Kelvin sign for K), and names past the 64th are found too.
    func testMemberNamesMatchAsStrings() throws {
        struct Keys: Decodable, Equatable {
            let accented: Int
            let kelvin: Int
            let last: Int?
            enum CodingKeys: String, CodingKey {
                case accented = "caf\u{E9}"
                case kelvin = "Key"
                case last
            }
        }
        let decomposed = Array(#"{"a":0,"cafe\u0301":1,"\u212Aey":2}"#.utf8)
        XCTAssertEqual(try JSONValueDecoder().decode(Keys.self, fromJSON: decomposed), Keys(accented: 1, kelvin: 2, last: nil))
        let many = "{" + (0..<70).map { "\"m\($0)\":\($0)," }.joined() + #""caf\u00e9":1,"Key":2,"last":3}"#
        XCTAssertEqual(try JSONValueDecoder().decode(Keys.self, fromJSON: Array(many.utf8)), Keys(accented: 1, kelvin: 2, last: 3))
    }

    func testRefusalsCarryThePath() {
        func failure(_ text: String) -> DecodingError? {
            do {
                _ = try JSONValueDecoder().decode(Sample.self, fromJSON: Array(text.utf8))
                return nil
            } catch let error as DecodingError {
                return error
            } catch {
                return nil
            }
        }
        func replacing(_ a: String, _ b: String) -> String { json.replacingOccurrences(of: a, with: b) }
        // Integers must be integers that fit.
        guard case .dataCorrupted(let c1)? = failure(replacing(#""small":255"#, #""small":256"#)) else { return XCTFail("256 in UInt8") }
        XCTAssertEqual(c1.codingPath.map(\.stringValue), ["small"])
        guard case .dataCorrupted? = failure(replacing(#""id":-9007199254740993"#, #""id":1.5"#)) else { return XCTFail("1.5 as Int64") }
        guard case .dataCorrupted? = failure(replacing(#""id":-9007199254740993"#, #""id":1e3"#)) else { return XCTFail("1e3 as Int64") }
        // Missing and null non-optionals, wrong types deep inside.
        guard case .keyNotFound(let key, _)? = failure(replacing(#""text":"#, #""txt":"#)) else { return XCTFail("missing text") }
        XCTAssertEqual(key.stringValue, "text")
        guard case .valueNotFound? = failure(replacing(#""ratio":1697680122257.447"#, #""ratio":null"#)) else {
            return XCTFail("null ratio")
        }
        guard case .typeMismatch(_, let c2)? = failure(replacing("[true,false]", "[true,0]")) else { return XCTFail("0 as Bool") }
        XCTAssertEqual(c2.codingPath.map(\.stringValue), ["inner", "flags", "Index 1"])
        guard case .typeMismatch? = failure(replacing(#""map":{"a":1,"b":2}"#, #""map":[1]"#)) else { return XCTFail("array as map") }
        // The strict parser's refusals surface as errors too: duplicate names, trailing data.
        XCTAssertThrowsError(
            try JSONValueDecoder().decode(Sample.self, fromJSON: Array(replacing(#""text":"#, #""text":"x","text":"#).utf8)))
        XCTAssertThrowsError(try JSONValueDecoder().decode(Sample.self, fromJSON: Array((json + "x").utf8)))
    }
}

final class JWSTests: XCTestCase {
    let p256 = ECDSAPrivateKey.generate(curve: .p256)
    let p384 = ECDSAPrivateKey.generate(curve: .p384)

    func token(_ header: String, _ payload: String, key: ECDSAPrivateKey) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let sig = key.signature(for: Array(input.utf8), hash: key.curve.defaultHash)
        return input + "." + Base64URL.encode(sig.rawRepresentation)
    }

    func testSignVerifyBothCurves() throws {
        for key in [p256, p384] {
            let compact = try JWS.sign(header: .object([("typ", .string("JWT"))]), payload: Array(#"{"x":1}"#.utf8), key: key)
            let jws = try JWS(compact: compact)
            XCTAssertEqual(jws.algorithm, key.curve == .p256 ? "ES256" : "ES384")
            XCTAssertNoThrow(try jws.verify(with: .ecdsa(key.publicKey)))
            // The other curve's key: algorithm mismatch before any cryptography.
            let other = key.curve == .p256 ? p384 : p256
            XCTAssertEqual(try? expectError { try jws.verify(with: .ecdsa(other.publicKey)) }, .algorithmMismatch)
        }
    }

    /// A header taken from a memo (`knownHeader`) brings the SHA-256 state of its header part:
    /// ES256 then hashes only the rest of the signing input, with the same verdicts. Every
    /// payload length around the block size, a changed payload or signature byte, and ES384
    /// (which does not use the state) are checked.
    func testKnownHeaderDigestGivesTheSameVerdicts() throws {
        for key in [p256, p384] {
            let header = #"{"alg":"\#(key.curve == .p256 ? "ES256" : "ES384")","x5c":["\#(String(repeating: "A", count: 300))"]}"#
            for length in [0, 1, 40, 41, 42, 43, 44, 63, 64, 65, 200] {
                let compact = token(header, "{\"p\":\"" + String(repeating: "x", count: length) + "\"}", key: key)
                let parsed = try JWS(compact: compact).parsedHeader
                let viaMemo = try JWS(compact: compact, knownHeader: { _ in parsed })
                XCTAssertNoThrow(try viaMemo.verify(with: .ecdsa(key.publicKey)), "payload of \(length)")
                // One payload character changed, then one signature character: refused both ways.
                let parts = compact.split(separator: ".").map(String.init)
                var payload = Array(parts[1])
                payload[payload.count / 2] = payload[payload.count / 2] == "A" ? "B" : "A"
                var signature = Array(parts[2])
                signature[signature.count / 2] = signature[signature.count / 2] == "A" ? "B" : "A"
                for tampered in [parts[0] + "." + String(payload) + "." + parts[2], parts[0] + "." + parts[1] + "." + String(signature)] {
                    guard let plain = try? JWS(compact: tampered) else { continue }
                    let memo = try JWS(compact: tampered, knownHeader: { _ in parsed })
                    XCTAssertThrowsError(try plain.verify(with: .ecdsa(key.publicKey)))
                    XCTAssertThrowsError(try memo.verify(with: .ecdsa(key.publicKey)), "payload of \(length), tampered")
                }
            }
        }
    }

    func testAlgorithmBindingRefusesNoneHMACAndMismatch() throws {
        let payload = #"{"sub":"x"}"#
        for alg in ["none", "HS256", "HS384", "HS512", "ES384", "RS256", "PS256", "es256", "ES256 "] {
            let compact = token(#"{"alg":"\#(alg)"}"#, payload, key: p256)
            let jws = try JWS(compact: compact)
            XCTAssertEqual(try expectError { try jws.verify(with: .ecdsa(p256.publicKey)) }, .algorithmMismatch, alg)
        }
        // alg missing or not a string.
        for header in [#"{}"#, #"{"alg":256}"#, #"{"alg":null}"#] {
            let jws = try JWS(compact: token(header, payload, key: p256))
            XCTAssertEqual(try expectError { try jws.verify(with: .ecdsa(p256.publicKey)) }, .algorithmMismatch)
        }
        // An unsigned token ("none" with an empty signature).
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
        XCTAssertEqual(try expectError { try JWS(compact: none).verify(with: .ecdsa(p256.publicKey)) }, .algorithmMismatch)
        // crit is refused.
        let crit = try JWS(compact: token(#"{"alg":"ES256","crit":["exp"],"exp":1}"#, payload, key: p256))
        XCTAssertEqual(try expectError { try crit.verify(with: .ecdsa(p256.publicKey)) }, .unsupportedHeader)
    }

    func testEveryTamperingIsRefused() throws {
        let compact = token(#"{"alg":"ES256","kid":"k"}"#, #"{"iss":"me","n":12345}"#, key: p256)
        XCTAssertNoThrow(try JWS(compact: compact).verify(with: .ecdsa(p256.publicKey)))
        let bytes = Array(compact.utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var refused = 0
        for index in bytes.indices where bytes[index] != UInt8(ascii: ".") {
            var mutated = bytes
            mutated[index] = alphabet.first { $0 != bytes[index] }!
            let text = String(decoding: mutated, as: UTF8.self)
            do {
                try JWS(compact: text).verify(with: .ecdsa(p256.publicKey))
                XCTFail("accepted a token changed at byte \(index)")
            } catch { refused += 1 }
        }
        XCTAssertEqual(refused, bytes.count - 2)
    }

    func testStructureRejections() throws {
        let good = token(#"{"alg":"ES256"}"#, "{}", key: p256)
        let parts = good.split(separator: ".").map(String.init)
        let cases = [
            parts[0] + "." + parts[1], good + ".", good + ".x", "." + parts[1] + "." + parts[2],
            parts[0] + "=." + parts[1] + "." + parts[2], Base64URL.encode(Array("[1]".utf8)) + "." + parts[1] + "." + parts[2],
            Base64URL.encode(Array(#"{"alg":"ES256","alg":"none"}"#.utf8)) + "." + parts[1] + "." + parts[2], "",
        ]
        for text in cases {
            XCTAssertEqual(try expectError { _ = try JWS(compact: text) }, .malformed, text)
        }
        // A DER signature where R ‖ S is required.
        let jws = try JWS(compact: good)
        let der = Base64URL.encode(try ECDSASignature(rawRepresentation: jws.signature, curve: .p256).derRepresentation)
        let derToken = parts[0] + "." + parts[1] + "." + der
        XCTAssertEqual(try expectError { try JWS(compact: derToken).verify(with: .ecdsa(p256.publicKey)) }, .invalidSignature)
        // Oversized input is refused before decoding.
        XCTAssertEqual(try expectError { _ = try JWS(compact: String(repeating: "a", count: JWS.maximumSize + 1)) }, .malformed)
    }

    func testSigningInputKeptAsReceived() throws {
        // The header's JSON has spaces and member order of its own: the signature covers it exactly.
        let compact = token(#"{ "kid" : "a",  "alg" : "ES256" }"#, "{\n \"b\": 1 }", key: p256)
        let jws = try JWS(compact: compact)
        XCTAssertEqual(String(decoding: jws.signingInput, as: UTF8.self), compact.split(separator: ".")[0...1].joined(separator: "."))
        XCTAssertNoThrow(try jws.verify(with: .ecdsa(p256.publicKey)))
        XCTAssertEqual(jws.keyID, "a")
    }

    func testX5CStrictStandardBase64() throws {
        let header = #"{"alg":"ES256","x5c":["AAEC","AAE-"]}"#
        let jws = try JWS(compact: token(header, "{}", key: p256))
        XCTAssertThrowsError(try jws.x5c())
        let ok = try JWS(compact: token(#"{"alg":"ES256","x5c":["AAEC"]}"#, "{}", key: p256))
        XCTAssertEqual(try ok.x5c(), [[0, 1, 2]])
    }
}

final class JWTClaimsTests: XCTestCase {
    func claims(_ json: String) throws -> JWTClaims { try JWTClaims(payload: Array(json.utf8)) }

    func testClaimTypesAndAudienceForms() throws {
        let one = try claims(#"{"iss":"a","sub":"b","aud":"c","exp":100,"nbf":10,"iat":10.5}"#)
        XCTAssertEqual(one.audience, ["c"])
        XCTAssertEqual(one.issuedAt, 10.5)
        XCTAssertEqual(try claims(#"{"aud":["x","y"]}"#).audience, ["x", "y"])
        for bad in [#"{"aud":1}"#, #"{"aud":["x",1]}"#, #"{"exp":"1"}"#, #"{"iss":1}"#, #"{"nbf":true}"#, "[]"] {
            XCTAssertThrowsError(try claims(bad), bad)
        }
    }

    func testValidationErrorsAreDistinct() throws {
        let c = try claims(#"{"iss":"https://appleid.apple.com","aud":["com.example"],"exp":1000,"nbf":500,"iat":500}"#)
        let rules = JWTValidation(issuer: "https://appleid.apple.com", audience: "com.example", leeway: 5)
        XCTAssertNoThrow(try rules.validate(c, now: 600))
        XCTAssertNoThrow(try rules.validate(c, now: 1004))  // inside the leeway
        XCTAssertEqual(try expectError { try rules.validate(c, now: 1005) }, .expired)
        XCTAssertEqual(try expectError { try rules.validate(c, now: 494) }, .notYetValid)
        var other = rules
        other.issuer = "x"
        XCTAssertEqual(try expectError { try other.validate(c, now: 600) }, .issuerMismatch)
        other = rules
        other.audience = "com.other"
        XCTAssertEqual(try expectError { try other.validate(c, now: 600) }, .audienceMismatch)
        let noExp = try claims(#"{"iss":"https://appleid.apple.com","aud":"com.example"}"#)
        XCTAssertEqual(try expectError { try rules.validate(noExp, now: 600) }, .invalidClaim)
        let futureIat = try claims(#"{"exp":5000,"iat":4000}"#)
        XCTAssertEqual(try expectError { try JWTValidation().validate(futureIat, now: 100) }, .notYetValid)
    }
}

final class JWKTests: XCTestCase {
    func testECRoundTripAndBinding() throws {
        for curve in ECCurve.allCases {
            let key = ECDSAPrivateKey.generate(curve: curve)
            let jwk = JWK(ecdsa: key.publicKey, keyID: "k1")
            let parsed = try JWK(parsing: Array(jwk.json.serialized.utf8))
            XCTAssertEqual(try parsed.verificationKey(), .ecdsa(key.publicKey))
        }
        let p256 = ECDSAPrivateKey.generate(curve: .p256).publicKey
        func member(_ jwk: JWK, replacing name: String, with value: JSONValue?) throws -> JWK {
            guard case .object(var members) = jwk.json else { throw JOSEError(.invalidKey, "") }
            members.removeAll { $0.0 == name }
            if let value { members.append((name, value)) }
            return try JWK(json: .object(members))
        }
        let base = JWK(ecdsa: p256)
        let broken: [(String, JSONValue?)] = [
            ("alg", .string("ES384")), ("crv", .string("P-521")), ("x", nil),
            ("x", .string(Base64URL.encode([0] + p256.x))), ("y", .string(Base64URL.encode(p256.x))),
            ("use", .string("enc")), ("key_ops", .array([.string("sign")])),
        ]
        for (name, value) in broken {
            XCTAssertThrowsError(try member(base, replacing: name, with: value).verificationKey(), "\(name)")
        }
        XCTAssertThrowsError(try member(base, replacing: "d", with: .string("AAAA")))
        // A point off the curve: refused by SigilCore, wrapped (typed) as invalidKey with the
        // lower error's domain.code kept in the reason.
        var off = p256.y
        off[off.count - 1] ^= 1
        let offCurve = try member(base, replacing: "y", with: .string(Base64URL.encode(off)))
        do {
            _ = try offCurve.verificationKey()
            XCTFail("a point off the curve was accepted")
        } catch {
            XCTAssertEqual(error.qualifiedCode, "jose.invalidKey")
            XCTAssertTrue(error.reason.hasPrefix("EC key: core."), error.reason)
        }
    }

    func testRSAJWKFromOpenSSLAndSignatures() throws {
        let openssl = try Subprocess.require("openssl")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-jwk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let keyPath = dir.appendingPathComponent("k.pem").path
        XCTAssertEqual(
            try Subprocess.run(openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyPath]).status, 0)
        let pub = try Subprocess.run(openssl, ["pkey", "-in", keyPath, "-pubout"])
        let rsa = try RSAPublicKey(loading: Array(pub.stdout))
        let input = Base64URL.encode(Array(#"{"alg":"RS256","kid":"r1"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"1"}"#.utf8))
        let inputPath = dir.appendingPathComponent("in").path
        try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath))
        let rsSig = try Subprocess.run(openssl, ["dgst", "-sha256", "-sign", keyPath, inputPath]).stdout
        let jwks = try JWKS(
            parsing: Array(
                #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(ECDSAPrivateKey.generate(curve: .p256).publicKey.x))","y":"x","kid":"other"},"#
                    .utf8)
                + Array(JWK(rsa: rsa, algorithm: .rs256, keyID: "r1").json.serialized.utf8) + Array("]}".utf8))
        let rsToken = try JWS(compact: input + "." + Base64URL.encode(Array(rsSig)))
        XCTAssertEqual(try jwks.verify(rsToken).keyID, "r1")
        // The same key used as PS256 is refused: the key is bound to RS256.
        let psInput = Base64URL.encode(Array(#"{"alg":"PS256","kid":"r1"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"1"}"#.utf8))
        try Data(psInput.utf8).write(to: URL(fileURLWithPath: inputPath))
        let psSig = try Subprocess.run(
            openssl,
            [
                "dgst", "-sha256", "-sign", keyPath, "-sigopt", "rsa_padding_mode:pss",
                "-sigopt", "rsa_pss_saltlen:32", "-sigopt", "rsa_mgf1_md:sha256", inputPath,
            ]
        ).stdout
        let psToken = try JWS(compact: psInput + "." + Base64URL.encode(Array(psSig)))
        XCTAssertEqual(try expectError { _ = try jwks.verify(psToken) }, .algorithmMismatch)
        XCTAssertNoThrow(try psToken.verify(with: .rsa(rsa, .ps256)))
        // Unknown kid, missing kid.
        let unknown = try JWS(
            compact: Base64URL.encode(Array(#"{"alg":"RS256","kid":"zz"}"#.utf8)) + ".e30." + Base64URL.encode(Array(rsSig)))
        XCTAssertEqual(try expectError { _ = try jwks.verify(unknown) }, .unknownKeyID)
        let noKid = try JWS(compact: Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)) + ".e30." + Base64URL.encode(Array(rsSig)))
        XCTAssertEqual(try expectError { _ = try jwks.verify(noKid) }, .unknownKeyID)
    }
}

func expectError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws -> JOSEError.Code {
    do {
        try body()
    } catch let error as JOSEError {
        return error.code
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
    XCTFail("expected an error", file: file, line: line)
    return JOSEError.Code("none")
}
