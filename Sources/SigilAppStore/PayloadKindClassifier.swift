import SigilJOSE

/// Which kind of signed data a payload is, read from its members, for callers that are not told
/// (`sigil verify --type auto`). It never guesses: a payload is classified only when exactly one
/// kind's model names every member it carries; otherwise the answer is the list of kinds that
/// fit, and the caller must choose.
public enum PayloadKindClassification: Sendable, Hashable {
    /// Exactly one kind's model has every member of the payload.
    case kind(SignedDataKind)
    /// Several kinds fit (for example `{"environment","signedDate"}`, which a transaction, renewal
    /// info and a realtime request could all carry), or none: the kinds that fit, in
    /// `SignedDataKind.allCases` order, and the members that no model names.
    case ambiguous(fitting: [SignedDataKind], unknownMembers: [String])
}

extension SignedDataKind {
    /// The top-level member names of this kind's payload model (read once from the model's own
    /// `Decodable` conformance, so it follows the models).
    public var memberNames: Set<String> {
        switch self {
        case .transaction: MemberNames.transaction
        case .renewalInfo: MemberNames.renewalInfo
        case .notification: MemberNames.notification
        case .appTransaction: MemberNames.appTransaction
        case .realtimeRequest: MemberNames.realtime
        }
    }

    /// Classifies a payload (a JSON object) by its members; see ``PayloadKindClassification``.
    public static func classify(payload: JSONValue) -> PayloadKindClassification {
        guard case .object(let members) = payload else { return .ambiguous(fitting: [], unknownMembers: []) }
        let present = Set(members.map(\.0))
        let fitting = allCases.filter { present.isSubset(of: $0.memberNames) }
        if fitting.count == 1 { return .kind(fitting[0]) }
        let known = allCases.reduce(into: Set<String>()) { $0.formUnion($1.memberNames) }
        return .ambiguous(fitting: fitting, unknownMembers: present.subtracting(known).sorted())
    }
}

/// Member names read from each model's `init(from:)` with a decoder that records the keys asked
/// for at the top level and answers with placeholder values (nothing is parsed).
private enum MemberNames {
    static let transaction = collect(JWSTransactionDecodedPayload.self)
    static let renewalInfo = collect(JWSRenewalInfoDecodedPayload.self)
    static let notification = collect(ResponseBodyV2DecodedPayload.self)
    static let appTransaction = collect(AppTransaction.self)
    static let realtime = collect(DecodedRealtimeRequestBody.self)

    static func collect<T: Decodable>(_ type: T.Type) -> Set<String> {
        let recorder = KeyRecorder()
        _ = try? T(from: CollectingDecoder(recorder: recorder, depth: 0))
        return recorder.keys
    }
}

private final class KeyRecorder {
    var keys: Set<String> = []
}

/// A decoder over no data: at depth 0 it records every key a keyed container is asked about;
/// required values are placeholders (empty string, zero, false, empty arrays, nested objects of
/// placeholders), optional ones absent.
private struct CollectingDecoder: Decoder {
    let recorder: KeyRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(recorder: recorder, depth: depth))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(recorder: recorder, depth: depth) }

    /// A placeholder value of `T`, decoded one level down (bounded: models nest a few levels).
    static func placeholder<T: Decodable>(_ type: T.Type, recorder: KeyRecorder, depth: Int) throws -> T {
        guard depth < 8 else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "too deep")) }
        return try T(from: CollectingDecoder(recorder: recorder, depth: depth + 1))
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: KeyRecorder
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
            return try CollectingDecoder.placeholder(type, recorder: recorder, depth: depth)
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
            return Unkeyed()
        }
        func superDecoder() throws -> any Decoder { CollectingDecoder(recorder: recorder, depth: depth + 1) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            record(key)
            return CollectingDecoder(recorder: recorder, depth: depth + 1)
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        func end() -> DecodingError { .valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty")) }
        mutating func decodeNil() throws -> Bool { throw end() }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw end() }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
        mutating func superDecoder() throws -> any Decoder { throw end() }
    }

    struct Single: SingleValueDecodingContainer {
        let recorder: KeyRecorder
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
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try CollectingDecoder.placeholder(type, recorder: recorder, depth: depth) }
    }
}
