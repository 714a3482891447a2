import Foundation
import SigilJOSE
import SigilTestSupport
import XCTest

@testable import SigilAppStore

/// Every model's direct reader and writer (`init(member:)`, `memberJSON`: no `Decoder`, what the
/// verifier and Embedded Swift use) against the models' `Codable` conformances through
/// `JSONValueDecoder` and `JSONEncoder` (what the verifier used before): on every App Store
/// payload in the shared vectors — real signed transactions, renewal info and notifications and
/// the JWS they carry, Xcode's and Apple's library's signed data and model fixtures — and on
/// seeded mutations of each: members removed, values of every wrong kind, nulls, huge and
/// fractional and negative numbers, unknown members and enum values, several at once.
///
/// The same value (field by field, and the same JSON written: JSONEncoder's with sorted keys
/// parsed back equals the direct writer's, member for member and number text for number text),
/// or the same refusal (the verifier's reason, word for word: the same member, path and words).
/// 34 payloads, 20,400 fuzzed variants and every value of every payload swapped for 38 others:
/// seconds.
final class DirectReaderDifferentialTests: XCTestCase {
    /// A payload to compare on: its name, its JSON, and the model it is read as.
    struct Payload {
        let name: String
        let json: JSONValue
        let read: (JSONValue, String) -> Outcome
    }

    /// What one comparison found.
    enum Outcome {
        case sameValue
        case sameRefusal
    }

    // MARK: - The comparison

    /// Reads `json` as `T` both ways and asserts they agree (see the class comment).
    @discardableResult
    static func compare<T: ModelValue & Codable & Equatable>(
        _ type: T.Type, _ json: JSONValue, _ context: String, file: StaticString = #filePath, line: UInt = #line
    ) -> Outcome {
        let generic = Result { try JSONValueDecoder().decode(T.self, from: json) }
        let direct = Result { () throws(ModelReadFailure) -> T in try T(member: json) }
        switch (generic, direct) {
        case (.success(let expected), .success(let found)):
            XCTAssertEqual(found, expected, "\(context): another value", file: file, line: line)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let bytes = try? encoder.encode(expected), let written = try? JSONValue(parsing: Array(bytes)) else {
                XCTFail("\(context): JSONEncoder refused the value", file: file, line: line)
                return .sameValue
            }
            XCTAssertEqual(sorted(found.memberJSON), written, "\(context): another JSON written", file: file, line: line)
            XCTAssertEqual(sorted(found.memberJSON).serialized, written.serialized, context, file: file, line: line)
            return .sameValue
        case (.failure(let expected), .failure(let found)):
            XCTAssertEqual(found.description, SignedDataVerifier.describe(expected), "\(context): another refusal", file: file, line: line)
            return .sameRefusal
        case (.success(let expected), .failure(let found)):
            XCTFail("\(context): the direct reader refuses (\(found.description)), the decoder reads \(expected)", file: file, line: line)
            return .sameRefusal
        case (.failure(let expected), .success):
            XCTFail(
                "\(context): the direct reader reads it, the decoder refuses (\(SignedDataVerifier.describe(expected)))", file: file,
                line: line)
            return .sameValue
        }
    }

    /// `value` with every object's members in name order (byte order, as `.sortedKeys` writes them).
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.map { ($0.0, sorted($0.1)) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
        case .array(let elements): return .array(elements.map(sorted))
        default: return value
        }
    }

    static func reader<T: ModelValue & Codable & Equatable>(_ type: T.Type) -> (JSONValue, String) -> Outcome {
        { json, context in compare(T.self, json, context) }
    }

    static func reader(for kind: SignedDataKind) -> (JSONValue, String) -> Outcome {
        switch kind {
        case .transaction: reader(JWSTransactionDecodedPayload.self)
        case .renewalInfo: reader(JWSRenewalInfoDecodedPayload.self)
        case .notification: reader(ResponseBodyV2DecodedPayload.self)
        case .appTransaction: reader(AppTransaction.self)
        case .realtimeRequest: reader(DecodedRealtimeRequestBody.self)
        }
    }

    // MARK: - The payloads

    /// Every App Store payload the shared vectors hold, each with the model it is.
    static func payloads() throws -> [Payload] {
        let apple = try TestPaths.requireAppleVectors()
        var found: [Payload] = []
        func addJWS(_ text: String, _ name: String, kind: SignedDataKind? = nil) {
            guard let jws = try? JWS(compact: text), let json = try? jws.payloadJSON(), case .object = json else { return }
            let chosen: SignedDataKind
            if let kind {
                chosen = kind
            } else if case .kind(let classified, _) = SignedDataKind.classify(payload: json) {
                chosen = classified
            } else {
                return
            }
            found.append(Payload(name: name, json: json, read: reader(for: chosen)))
            // A notification's signed members are payloads too.
            for (path, nestedKind) in [
                (["data", "signedTransactionInfo"], SignedDataKind.transaction), (["data", "signedRenewalInfo"], .renewalInfo),
                (["appData", "signedAppTransactionInfo"], .appTransaction),
            ] {
                if let nested = json[path[0]]?[path[1]]?.stringValue {
                    addJWS(nested, name + " " + path.joined(separator: "."), kind: nestedKind)
                }
            }
        }
        let real = apple.appendingPathComponent("real/jws")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: real, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "jws" {
            addJWS(try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), url.lastPathComponent)
        }
        let resources = apple.appendingPathComponent("library/swift/Tests/AppStoreServerLibraryTests/resources")
        for directory in ["xcode", "mock_signed_data"] {
            let folder = resources.appendingPathComponent(directory)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                addJWS(text.trimmingCharacters(in: .whitespacesAndNewlines), directory + "/" + name)
            }
        }
        let models: [(String, (JSONValue, String) -> Outcome)] = [
            ("signedTransaction", reader(JWSTransactionDecodedPayload.self)),
            ("signedTransactionWithRevocation", reader(JWSTransactionDecodedPayload.self)),
            ("signedRenewalInfo", reader(JWSRenewalInfoDecodedPayload.self)),
            ("signedNotification", reader(ResponseBodyV2DecodedPayload.self)),
            ("signedSummaryNotification", reader(ResponseBodyV2DecodedPayload.self)),
            ("signedExternalPurchaseTokenNotification", reader(ResponseBodyV2DecodedPayload.self)),
            ("signedExternalPurchaseTokenSandboxNotification", reader(ResponseBodyV2DecodedPayload.self)),
            ("signedRescindConsentNotification", reader(ResponseBodyV2DecodedPayload.self)),
            ("signedConsumptionRequestNotification", reader(ResponseBodyV2DecodedPayload.self)),
            ("appTransaction", reader(AppTransaction.self)), ("decodedRealtimeRequest", reader(DecodedRealtimeRequestBody.self)),
            ("appData", reader(NotificationAppData.self)),
        ]
        for (name, read) in models {
            let url = resources.appendingPathComponent("models/\(name).json")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            found.append(Payload(name: name + ".json", json: try JSONValue(parsing: Array(try Data(contentsOf: url))), read: read))
        }
        // The bodies Sigil builds or receives around the signed data (no real ones in the vectors).
        let bodies: [(String, String, (JSONValue, String) -> Outcome)] = [
            ("ResponseBodyV2", #"{"signedPayload":"a.b.c"}"#, reader(ResponseBodyV2.self)),
            ("RealtimeRequestBody", #"{"signedPayload":"a.b.c"}"#, reader(RealtimeRequestBody.self)),
            ("RealtimeResponseBody message", #"{"message":{"messageIdentifier":"m"}}"#, reader(RealtimeResponseBody.self)),
            (
                "RealtimeResponseBody alternateProduct",
                #"{"alternateProduct":{"messageIdentifier":"m","productId":"p","billingPlanType":"MONTHLY"}}"#,
                reader(RealtimeResponseBody.self)
            ),
            (
                "RealtimeResponseBody promotionalOffer",
                #"{"promotionalOffer":{"messageIdentifier":"m","promotionalOfferSignatureV2":"x.y.z","promotionalOfferSignatureV1":"#
                    + #"{"encodedSignature":"c2ln","productId":"p","nonce":"9f5d4a3e-0c1b-4a7e-8d2f-6b5c4a3e2d1f","timestamp":1698148900000,"#
                    + #""keyId":"k","offerIdentifier":"o","appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}}}"#,
                reader(RealtimeResponseBody.self)
            ),
            (
                "RealtimeResponseBody advancedCommerceInfo",
                #"{"advancedCommerceInfo":{"messageIdentifier":"m","advancedCommerceData":"d"}}"#,
                reader(RealtimeResponseBody.self)
            ),
        ]
        for (name, text, read) in bodies { found.append(Payload(name: name, json: try JSONValue(parsing: Array(text.utf8)), read: read)) }
        return found
    }

    // MARK: - The mutations

    /// Values of every kind and edge form a member may be replaced with.
    static let replacements: [JSONValue] = [
        .null, .bool(true), .bool(false), .string(""), .string("x"), .string("Sandbox"), .string("é\u{0}\""), .string("1698148900000"),
        .number("0"), .number("-0"), .number("1"), .number("-1"), .number("1.5"), .number("1e3"), .number("1E+2"), .number("-1.25e-3"),
        .number("2147483647"), .number("2147483648"), .number("-2147483649"), .number("9223372036854775807"),
        .number("9223372036854775808"), .number("-9223372036854775809"), .number("99999999999999999"), .number("1e17"),
        .number("-99999999999999999"), .number("1e400"), .number("-1e400"), .number("1e-400"), .number("1697680122257.447"),
        .number("-1697680122257"), .number("1698148900000.000000001"), .number("0.1e-310"), .array([]), .array([.number("1")]),
        .array([.string("a"), .null]), .array([.object([])]), .object([]), .object([("a", .number("1"))]),
    ]

    /// Unknown enum values and other strings Apple might send next year.
    static let strings = ["FUTURE_VALUE", "Sandboxx", "", "auto-renewable subscription", "LocalTesting", "\u{1F600}"]

    /// Every path to a value in `json` (members by name, elements by index), the root included.
    static func paths(_ json: JSONValue, _ prefix: [Step] = []) -> [[Step]] {
        var all = [prefix]
        switch json {
        case .object(let members): for (name, value) in members { all += paths(value, prefix + [.member(name)]) }
        case .array(let elements): for (index, value) in elements.enumerated() { all += paths(value, prefix + [.index(index)]) }
        default: break
        }
        return all
    }

    enum Step {
        case member(String)
        case index(Int)
    }

    /// `json` with the value at `path` replaced by `change`'s result (nil: removed).
    static func edit(_ json: JSONValue, _ path: ArraySlice<Step>, _ change: (JSONValue) -> JSONValue?) -> JSONValue? {
        guard let step = path.first else { return change(json) }
        switch (json, step) {
        case (.object(var members), .member(let name)):
            guard let i = members.firstIndex(where: { $0.0 == name }) else { return json }
            if let new = edit(members[i].1, path.dropFirst(), change) { members[i].1 = new } else { members.remove(at: i) }
            return .object(members)
        case (.array(var elements), .index(let index)):
            guard index < elements.count else { return json }
            if let new = edit(elements[index], path.dropFirst(), change) { elements[index] = new } else { elements.remove(at: index) }
            return .array(elements)
        default: return json
        }
    }

    /// One seeded mutation of `json`.
    static func mutate(_ json: JSONValue, using rng: inout SeededGenerator) -> JSONValue {
        let all = paths(json)
        let path = all[Int.random(in: 0..<all.count, using: &rng)]
        let slice = path[...]
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            // Remove the member or element (the root stays).
            return path.isEmpty ? json : edit(json, slice) { _ in nil } ?? json
        case 1, 2:
            let replacement = replacements[Int.random(in: 0..<replacements.count, using: &rng)]
            return edit(json, slice) { _ in replacement } ?? json
        case 3:
            // An unknown member, where the value is an object.
            let name = "futureMember\(Int.random(in: 0..<1000, using: &rng))"
            let value = replacements[Int.random(in: 0..<replacements.count, using: &rng)]
            return edit(json, slice) { old in
                guard case .object(var members) = old, !members.contains(where: { $0.0 == name }) else { return old }
                members.insert((name, value), at: Int.random(in: 0...members.count, using: &rng))
                return .object(members)
            } ?? json
        case 4:
            // Another string (an unknown enum value) or integer (an unknown integer enum value).
            let text = strings[Int.random(in: 0..<strings.count, using: &rng)]
            let number = Int.random(in: -3...99, using: &rng)
            return edit(json, slice) { old in
                switch old {
                case .string: .string(text)
                case .number: .number(String(number))
                default: old
                }
            } ?? json
        default:
            // A time (or any number) in another form: a fraction, negative, an exponent, beyond range.
            let forms = ["1698148900000.5", "-1698148900000", "1.6981489e12", "1e17", "99999999999999998", "-0.0", "0.000001"]
            let form = forms[Int.random(in: 0..<forms.count, using: &rng)]
            return edit(json, slice) { old in
                if case .number = old { return .number(form) }
                return old
            } ?? json
        }
    }

    // MARK: - The tests

    func testEveryRealPayloadReadsTheSameBothWays() throws {
        let payloads = try Self.payloads()
        // The real and library data: 7 real JWS and the 5 they carry, Xcode's 3, Apple's mocks, the fixtures.
        XCTAssertGreaterThanOrEqual(payloads.count, 30, "the shared vectors' App Store payloads")
        for payload in payloads {
            XCTAssertEqual(
                payload.read(payload.json, payload.name) == .sameValue, true, "\(payload.name) is a valid payload of its kind")
        }
    }

    func testFuzzedVariantsReadTheSameBothWays() throws {
        var rng = SeededGenerator(seed: 0x4D4F_4445_4C53)
        var values = 0
        var refusals = 0
        for payload in try Self.payloads() {
            for round in 0..<600 {
                var json = payload.json
                // One mutation, sometimes two or three (which refusal wins is then tested too).
                for _ in 0..<(round % 5 == 0 ? Int.random(in: 2...3, using: &rng) : 1) { json = Self.mutate(json, using: &rng) }
                switch payload.read(json, "\(payload.name), variant \(round): \(json.serialized.prefix(300))") {
                case .sameValue: values += 1
                case .sameRefusal: refusals += 1
                }
            }
        }
        // Both outcomes are exercised, many times.
        XCTAssertGreaterThan(values, 3_000)
        XCTAssertGreaterThan(refusals, 3_000)
    }

    func testEveryMemberOfEveryModelSwappedForEveryKindOfValue() throws {
        for payload in try Self.payloads() {
            for path in Self.paths(payload.json) where !path.isEmpty {
                for replacement in Self.replacements {
                    let json = Self.edit(payload.json, path[...]) { _ in replacement } ?? payload.json
                    _ = payload.read(json, "\(payload.name) \(path) = \(replacement.serialized)")
                }
            }
        }
    }

    func testRefusalsNameTheFirstMemberInDeclarationOrder() throws {
        // Two bad members, the later one first in the JSON: the earlier one in declaration order is reported.
        let json = try JSONValue(parsing: Array(#"{"price":"ten","bundleId":7,"purchaseDate":"now"}"#.utf8))
        Self.compare(JWSTransactionDecodedPayload.self, json, "two bad members")
        XCTAssertThrowsError(try JWSTransactionDecodedPayload(json: json)) { error in
            XCTAssertEqual((error as? AppStoreError)?.reason, "bundleId: expected String, found a number")
        }
        // A required member missing before a bad one, and after it.
        for text in [#"{"appAppleId":"x"}"#, #"{"originalTransactionId":"1","appAppleId":"x"}"#, #"{"originalTransactionId":null}"#] {
            Self.compare(DecodedRealtimeRequestBody.self, try JSONValue(parsing: Array(text.utf8)), text)
        }
        XCTAssertThrowsError(try DecodedRealtimeRequestBody(json: try JSONValue(parsing: Array(#"{"appAppleId":"x"}"#.utf8)))) {
            XCTAssertEqual(($0 as? AppStoreError)?.reason, "missing originalTransactionId")
        }
        // A nested refusal carries its path.
        let nested = try JSONValue(parsing: Array(#"{"advancedCommerceInfo":{"items":[{"SKU":"a"},{"price":1.5}]}}"#.utf8))
        Self.compare(JWSTransactionDecodedPayload.self, nested, "nested")
        XCTAssertThrowsError(try JWSTransactionDecodedPayload(json: nested)) {
            XCTAssertEqual(($0 as? AppStoreError)?.reason, "advancedCommerceInfo.items.Index 1.price: the number 1.5 is not a Int64")
        }
    }

    func testDuplicateMembersAreRefusedBeforeEitherReader() {
        // The strict parser refuses them; neither reader ever sees a document with a name twice.
        for text in [#"{"transactionId":"1","transactionId":"2"}"#, #"{"data":{"bundleId":"a","bundleId":"b"}}"#] {
            XCTAssertThrowsError(try JSONValue(parsing: Array(text.utf8)), text)
        }
    }

    func testTheVerifierWordsARefusalAsBefore() throws {
        // Through the verifier's decode step (LocalTesting: decoded, nothing verified).
        let verifier = try SignedDataVerifier(
            trustedRoots: [], bundleId: "com.example", appAppleId: 1, environments: .localTestingUnsigned)
        let payload = Array(#"{"transactionId":"1","environment":"LocalTesting","quantity":1.5}"#.utf8)
        let jws = try JWS(compact: Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(payload) + ".AA")
        let json = try JSONValue(parsing: payload)
        XCTAssertThrowsError(try verifier.decode(jws, payloadJSON: json, as: JWSTransactionDecodedPayload.self, trace: nil)) { error in
            XCTAssertEqual((error as? AppStoreError)?.code, .invalidJWTFormat)
            XCTAssertEqual(
                (error as? AppStoreError)?.reason, "the payload is not a valid transaction: quantity: the number 1.5 is not a Int32")
        }
    }

    func testTheVerifierReadsWithTheDirectReader() throws {
        // The one input on which the two readers differ tells which one the verifier's generic
        // decode step ran: a hand-built value with a name twice (the strict parser never yields
        // one) — the decoder finds the first, the direct reader reads both, the last one kept.
        let verifier = try SignedDataVerifier(
            trustedRoots: [], bundleId: "com.example", appAppleId: 1, environments: .localTestingUnsigned)
        let jws = try JWS(compact: Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + ".AA")
        let twice = JSONValue.object([("transactionId", .string("1")), ("transactionId", .string("2"))])
        XCTAssertEqual(try JSONValueDecoder().decode(JWSTransactionDecodedPayload.self, from: twice).transactionId, "1")
        for kind in SignedDataKind.allCases where kind != .realtimeRequest {
            let name = kind == .notification ? "notificationUUID" : kind == .renewalInfo ? "productId" : "appTransactionId"
            let json = JSONValue.object([(name, .string("1")), (name, .string("2"))])
            let read: String?
            switch kind {
            case .transaction:
                read = try verifier.decode(jws, payloadJSON: json, as: JWSTransactionDecodedPayload.self, trace: nil).appTransactionId
            case .renewalInfo:
                read = try verifier.decode(jws, payloadJSON: json, as: JWSRenewalInfoDecodedPayload.self, trace: nil).productId
            case .notification:
                read = try verifier.decode(jws, payloadJSON: json, as: ResponseBodyV2DecodedPayload.self, trace: nil).notificationUUID
            case .appTransaction: read = try verifier.decode(jws, payloadJSON: json, as: AppTransaction.self, trace: nil).appTransactionId
            case .realtimeRequest: read = nil
            }
            XCTAssertEqual(read, "2", "\(kind): the direct reader ran")
        }
    }

    func testMemberNamesAreTheDecodableConformancesKeys() {
        XCTAssertEqual(SignedDataKind.transaction.memberNames, DecodableKeys.of(JWSTransactionDecodedPayload.self))
        XCTAssertEqual(SignedDataKind.renewalInfo.memberNames, DecodableKeys.of(JWSRenewalInfoDecodedPayload.self))
        XCTAssertEqual(SignedDataKind.notification.memberNames, DecodableKeys.of(ResponseBodyV2DecodedPayload.self))
        XCTAssertEqual(SignedDataKind.appTransaction.memberNames, DecodableKeys.of(AppTransaction.self))
        XCTAssertEqual(SignedDataKind.realtimeRequest.memberNames, DecodableKeys.of(DecodedRealtimeRequestBody.self))
    }

    /// One list of members per model serves the direct reader and the `Codable` conformance (its
    /// `CodingKeys`): a stored property missing from it would be silently dropped by both, so every
    /// stored property must be a member, in declaration order, and every member a stored property.
    func testEveryStoredPropertyOfEveryModelIsAMemberInDeclarationOrder() {
        func check<Model: DirectModel>(_ type: Model.Type, line: UInt = #line) {
            // Apple's JSON names, which are the property names but for Advanced Commerce's "SKU".
            let properties = Mirror(reflecting: Model()).children.compactMap(\.label).map { $0 == "sku" ? "SKU" : $0 }
            let members = Model.members.all.map(\.rawValue)
            XCTAssertEqual(properties, members, "\(Model.self)", line: line)
        }
        check(JWSTransactionDecodedPayload.self)
        check(AdvancedCommerceTransactionInfo.self)
        check(AdvancedCommerceDescriptors.self)
        check(AdvancedCommerceTransactionItem.self)
        check(AdvancedCommerceOffer.self)
        check(AdvancedCommerceRefund.self)
        check(TransactionCommitmentInfo.self)
        check(JWSRenewalInfoDecodedPayload.self)
        check(AdvancedCommerceRenewalInfo.self)
        check(AdvancedCommerceRenewalItem.self)
        check(AdvancedCommercePriceIncreaseInfo.self)
        check(RenewalCommitmentInfo.self)
        check(ResponseBodyV2.self)
        check(ResponseBodyV2DecodedPayload.self)
        check(NotificationData.self)
        check(NotificationSummary.self)
        check(ExternalPurchaseTokenPayload.self)
        check(NotificationAppData.self)
        check(AppTransaction.self)
        check(DecodedRealtimeRequestBody.Partial.self)
        check(RealtimeRequestBody.self)
        check(RealtimeResponseBody.self)
        check(RealtimeMessage.self)
        check(AlternateProduct.self)
        check(RealtimePromotionalOffer.self)
        check(PromotionalOfferSignatureV1.Partial.self)
        check(AdvancedCommerceInfo.self)
    }
}

/// The top-level keys a `Decodable` conformance asks for, recorded by a decoder over no data
/// (optional members absent, required ones placeholders).
private enum DecodableKeys {
    static func of<T: Decodable>(_ type: T.Type) -> Set<String> {
        let recorder = Recorder()
        _ = try? T(from: Recording(recorder: recorder, depth: 0))
        return recorder.keys
    }

    final class Recorder {
        var keys: Set<String> = []
    }

    struct Recording: Decoder {
        let recorder: Recorder
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(recorder: recorder, depth: depth))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: ""))
        }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(recorder: recorder, depth: depth) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func record(_ key: Key) { if depth == 0 { recorder.keys.insert(key.stringValue) } }
        func contains(_ key: Key) -> Bool {
            record(key)
            return false
        }
        func decodeNil(forKey key: Key) throws -> Bool {
            record(key)
            return true
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            record(key)
            guard depth < 8 else { throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "")) }
            return try T(from: Recording(recorder: recorder, depth: depth + 1))
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            record(key)
            return nil
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            record(key)
            return KeyedDecodingContainer(Keyed<NestedKey>(recorder: recorder, depth: depth + 1))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            record(key)
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: ""))
        }
        func superDecoder() throws -> any Decoder { Recording(recorder: recorder, depth: depth + 1) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            record(key)
            return Recording(recorder: recorder, depth: depth + 1)
        }
    }

    struct Single: SingleValueDecodingContainer {
        let recorder: Recorder
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: Recording(recorder: recorder, depth: depth + 1)) }
    }
}
