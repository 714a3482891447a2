#if !hasFeature(Embedded)
/// `Decodable` types read from a parsed `JSONValue`, so JOSE payloads are decoded from the same
/// strict parse that checked them (duplicate member names refused, depth bounded, numbers kept as
/// their exact text) instead of a second, more lenient parse by Foundation's JSONDecoder.
///
/// Semantics follow JSONDecoder's defaults where a caller could notice: unknown members are
/// ignored; a missing member is `DecodingError.keyNotFound`; `null` is `nil` for optionals and a
/// `valueNotFound` otherwise; integers must be written as integers that fit the type (no
/// fraction, no exponent); `Double`/`Float` accept any JSON number. Errors are `DecodingError`
/// with the coding path.
///
/// Regular build only (`Decodable` is not in Embedded Swift): the verifiers read their models
/// with direct readers; this decoder stays for callers' own `Decodable` types.
public struct JSONValueDecoder: Sendable {
    /// A decoder (stateless; share one freely).
    public init() {}

    /// Decodes `type` from an already parsed value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try Scalars.decode(type, value, parent: nil, key: nil)
    }

    /// Parses `bytes` strictly (`JSONValue(parsing:)`) and decodes `type` from the result.
    public func decode<T: Decodable, Bytes: Collection>(_ type: T.Type, fromJSON bytes: Bytes) throws -> T where Bytes.Element == UInt8 {
        try decode(type, from: try JSONValue(parsing: bytes))
    }
}

/// A coding key for array positions and for `superDecoder`.
private struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

/// A value being decoded and where it is: the coding path as a linked list, materialised as an
/// array only when asked for (errors, custom `init(from:)` bodies). Decoding a scalar member
/// allocates nothing; any other member allocates this node alone — the decoder and single-value
/// container handed to its `init(from:)` hold just the reference, so they fit an existential's
/// inline buffer instead of a heap box each.
private final class PathNode: Sendable {
    let parent: PathNode?
    /// Nil for a value that adds no step to the path (the root, or a value re-decoded in place).
    let key: (any CodingKey & Sendable)?
    let value: JSONValue

    init(parent: PathNode?, key: (any CodingKey & Sendable)?, value: JSONValue) {
        self.parent = parent
        self.key = key
        self.value = value
    }

    static func path(_ node: PathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = node
        while let n = current {
            if let key = n.key { keys.append(key) }
            current = n.parent
        }
        return keys.reversed()
    }
}

/// A coding key captured for the path (the caller's key types need not be Sendable).
private struct CapturedKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?
    init(_ key: any CodingKey) {
        stringValue = key.stringValue
        intValue = key.intValue
    }
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let node: PathNode
    var value: JSONValue { node.value }
    var codingPath: [any CodingKey] { PathNode.path(node) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.kindName)"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(value.kindName)"))
        }
        return UnkeyedContainer(elements: elements, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(node: node)
    }
}

/// Scalar conversions shared by the three container kinds. `parent` and `key` locate the value;
/// the path is built only for an error or a nested decoder.
private enum Scalars {
    static func path(_ parent: PathNode?, _ key: (any CodingKey)?) -> [any CodingKey] {
        PathNode.path(parent) + (key.map { [$0] } ?? [])
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ parent: PathNode?, _ key: (any CodingKey)?) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: path(parent, key), debugDescription: "expected \(type), found null"))
        }
        return .typeMismatch(type, .init(codingPath: path(parent, key), debugDescription: "expected \(type), found \(value.kindName)"))
    }

    static func bool(_ value: JSONValue, _ parent: PathNode?, _ key: (any CodingKey)?) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(Bool.self, value, parent, key) }
        return b
    }

    static func string(_ value: JSONValue, _ parent: PathNode?, _ key: (any CodingKey)?) throws -> String {
        guard case .string(let s) = value else { throw mismatch(String.self, value, parent, key) }
        return s
    }

    static func double(_ value: JSONValue, _ parent: PathNode?, _ key: (any CodingKey)?) throws -> Double {
        guard case .number(let text) = value else { throw mismatch(Double.self, value, parent, key) }
        guard let d = Double(text), d.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(parent, key), debugDescription: "the number \(text) does not fit a Double"))
        }
        return d
    }

    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ parent: PathNode?, _ key: (any CodingKey)?) throws -> T
    {
        guard case .number(let text) = value else { throw mismatch(T.self, value, parent, key) }
        guard let n = T(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(parent, key), debugDescription: "the number \(text) is not a \(T.self)"))
        }
        return n
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, parent: PathNode?, key: (any CodingKey)?) throws -> T {
        // Fast paths for the scalar types (the generic path would reach the same code through a
        // single-value container, with a path node allocated).
        if T.self == String.self, let s = try string(value, parent, key) as? T { return s }
        if T.self == Bool.self, let b = try bool(value, parent, key) as? T { return b }
        if T.self == Int64.self, let n = try integer(Int64.self, value, parent, key) as? T { return n }
        if T.self == Int.self, let n = try integer(Int.self, value, parent, key) as? T { return n }
        if T.self == Double.self, let d = try double(value, parent, key) as? T { return d }
        return try T(from: ValueDecoder(node: PathNode(parent: parent, key: key.map { CapturedKey($0) }, value: value)))
    }
}

/// Cursor for member lookup: synthesized `init(from:)` asks for members in declaration order, and
/// documents usually list them in a similar order, so the search starts after the last hit.
private final class Cursor {
    var next = 0
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSONValue)]
    let node: PathNode?
    private let cursor = Cursor()
    /// Bit i set: the name of member i (of the first 64) is all ASCII.
    private let asciiNames: UInt64

    init(members: [(String, JSONValue)], node: PathNode?) {
        self.members = members
        self.node = node
        var mask: UInt64 = 0
        for (i, member) in members.prefix(64).enumerated() where Self.isASCII(member.0) { mask |= 1 << UInt64(i) }
        asciiNames = mask
    }

    private static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var seen: UInt8 = 0
            for byte in bytes { seen |= byte }
            return seen < 0x80
        } ?? false
    }

    var codingPath: [any CodingKey] { PathNode.path(node) }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    /// Member names are unique (the parser refuses duplicates), so the first match is the only one.
    private func find(_ key: Key) -> JSONValue? {
        let name = key.stringValue
        let count = members.count
        guard count > 0 else { return nil }
        // Two ASCII names are equal exactly when their bytes are (String's == is canonical
        // equivalence, which for ASCII is byte equality), so a length difference settles it
        // without the full comparison; any other name is compared as a String.
        let nameLength = name.utf8.count
        let asciiName = Self.isASCII(name)
        var i = cursor.next < count ? cursor.next : 0
        for _ in 0..<count {
            let settled = asciiName && i < 64 && asciiNames & (1 << UInt64(i)) != 0 && members[i].0.utf8.count != nameLength
            if !settled && members[i].0 == name {
                cursor.next = i + 1
                return members[i].1
            }
            i += 1
            if i == count { i = 0 }
        }
        return nil
    }

    private func require(_ key: Key) throws -> JSONValue {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try require(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalars.bool(require(key), node, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Scalars.string(require(key), node, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Scalars.double(require(key), node, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try Scalars.double(require(key), node, key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Scalars.integer(Int.self, require(key), node, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Scalars.integer(Int8.self, require(key), node, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Scalars.integer(Int16.self, require(key), node, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Scalars.integer(Int32.self, require(key), node, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Scalars.integer(Int64.self, require(key), node, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Scalars.integer(UInt.self, require(key), node, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Scalars.integer(UInt8.self, require(key), node, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Scalars.integer(UInt16.self, require(key), node, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Scalars.integer(UInt32.self, require(key), node, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Scalars.integer(UInt64.self, require(key), node, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Scalars.decode(type, require(key), parent: node, key: key)
    }

    /// Absent or null is nil, as JSONDecoder does.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = find(key) else { return nil }
        if case .null = value { return nil }
        return try Scalars.decode(type, value, parent: node, key: key)
    }

    // The scalar optionals synthesized Codable asks for: one lookup each (the protocol's
    // defaults would look the member up three times).
    private func present(_ key: Key) -> JSONValue? {
        guard let value = find(key) else { return nil }
        if case .null = value { return nil }
        return value
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try Scalars.bool($0, node, key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try Scalars.string($0, node, key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try Scalars.double($0, node, key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { try Scalars.integer(Int.self, $0, node, key) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try present(key).map { try Scalars.integer(Int32.self, $0, node, key) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key).map { try Scalars.integer(Int64.self, $0, node, key) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try present(key).map { try Scalars.integer(UInt64.self, $0, node, key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(node: PathNode(parent: node, key: CapturedKey(key), value: require(key))).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(node: PathNode(parent: node, key: CapturedKey(key), value: require(key))).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(
            node: PathNode(parent: node, key: CapturedKey(stringValue: "super"), value: Key(stringValue: "super").flatMap(find) ?? .null))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(node: PathNode(parent: node, key: CapturedKey(key), value: find(key) ?? .null))
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let node: PathNode?
    private(set) var currentIndex = 0

    init(elements: [JSONValue], node: PathNode?) {
        self.elements = elements
        self.node = node
    }

    var codingPath: [any CodingKey] { PathNode.path(node) }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, IndexKey) {
        let key = IndexKey(intValue: currentIndex)
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [key], debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], key)
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(Any?.self, .init(codingPath: codingPath, debugDescription: "the array is at its end"))
        }
        if case .null = elements[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, key) = try next(type)
        return try Scalars.decode(type, value, parent: node, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, key) = try next([String: Any].self)
        return try ValueDecoder(node: PathNode(parent: node, key: CapturedKey(key), value: value)).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, key) = try next([Any].self)
        return try ValueDecoder(node: PathNode(parent: node, key: CapturedKey(key), value: value)).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, key) = try next(Any.self)
        return ValueDecoder(node: PathNode(parent: node, key: CapturedKey(key), value: value))
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let node: PathNode
    var value: JSONValue { node.value }
    var codingPath: [any CodingKey] { PathNode.path(node) }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try Scalars.bool(value, node, nil) }
    func decode(_ type: String.Type) throws -> String { try Scalars.string(value, node, nil) }
    func decode(_ type: Double.Type) throws -> Double { try Scalars.double(value, node, nil) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalars.double(value, node, nil)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalars.integer(Int.self, value, node, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalars.integer(Int8.self, value, node, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalars.integer(Int16.self, value, node, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalars.integer(Int32.self, value, node, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalars.integer(Int64.self, value, node, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalars.integer(UInt.self, value, node, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalars.integer(UInt8.self, value, node, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalars.integer(UInt16.self, value, node, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalars.integer(UInt32.self, value, node, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalars.integer(UInt64.self, value, node, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try Scalars.decode(type, value, parent: node, key: nil) }
}
#endif
