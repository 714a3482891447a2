/// One CBOR data item (RFC 8949 §3) as the decoder returns it and the encoder writes it.
///
/// Integers keep their sign apart from their magnitude, as the wire does: `.negative(n)` is the
/// integer −1 − n, so the whole range −2⁶⁴ … 2⁶⁴ − 1 is representable. Maps keep their entries in
/// the order they were read (keys are unique: the decoder refuses duplicates).
public indirect enum CBORValue: Hashable, Sendable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer −1 − n.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a text string (valid UTF-8).
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, entries in wire order.
    case map([CBORMapEntry])
    /// Major type 6: a tagged item (only when the decoder's options allow tags).
    case tagged(UInt64, CBORValue)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null
    /// Major type 7, additional information 25–27 (only when the decoder's options allow floats).
    case float(Double)

    /// An integer as a CBOR item: `.unsigned` when non-negative, `.negative` otherwise.
    public static func integer(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// A map from `(key, value)` pairs, in the given order.
    public static func map(pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }

    /// The value for `key` when this is a map that has it.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value for the text key `key` when this is a map that has it.
    public subscript(key: String) -> CBORValue? { self[.text(key)] }

    /// The integer when it fits Int64.
    public var int64Value: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The bytes of a byte string.
    public var bytesValue: [UInt8]? { if case .bytes(let b) = self { b } else { nil } }
    /// The text of a text string.
    public var textValue: String? { if case .text(let t) = self { t } else { nil } }
    /// The items of an array.
    public var arrayValue: [CBORValue]? { if case .array(let a) = self { a } else { nil } }
    /// The entries of a map, in wire order.
    public var mapValue: [CBORMapEntry]? { if case .map(let m) = self { m } else { nil } }

    /// Hashes the item's kind and contents, items of arrays and maps in order: the same hash for
    /// values the synthesized `==` finds equal. Written out (not synthesized) so the recursion
    /// through arrays, maps and tags is one call per level, not the standard library's array
    /// hashing specialized and inlined level into level (32 KB of sigil.wasm).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let n):
            hasher.combine(0 as UInt8)
            hasher.combine(n)
        case .negative(let n):
            hasher.combine(1 as UInt8)
            hasher.combine(n)
        case .bytes(let b):
            hasher.combine(2 as UInt8)
            hasher.combine(b.count)
            for byte in b { hasher.combine(byte) }
        case .text(let t):
            hasher.combine(3 as UInt8)
            hasher.combine(t)
        case .array(let items):
            hasher.combine(4 as UInt8)
            hasher.combine(items.count)
            for item in items { item.hash(into: &hasher) }
        case .map(let entries):
            hasher.combine(5 as UInt8)
            hasher.combine(entries.count)
            for entry in entries { entry.hash(into: &hasher) }
        case .tagged(let tag, let item):
            hasher.combine(6 as UInt8)
            hasher.combine(tag)
            item.hash(into: &hasher)
        case .bool(let b):
            hasher.combine(7 as UInt8)
            hasher.combine(b)
        case .null:
            hasher.combine(8 as UInt8)
        case .float(let f):
            hasher.combine(9 as UInt8)
            hasher.combine(f)
        }
    }

    /// What kind of item this is, for error messages ("map", "byte string").
    public var kindName: String {
        switch self {
        case .unsigned: "unsigned integer"
        case .negative: "negative integer"
        case .bytes: "byte string"
        case .text: "text string"
        case .array: "array"
        case .map: "map"
        case .tagged: "tagged item"
        case .bool: "boolean"
        case .null: "null"
        case .float: "float"
        }
    }
}

/// One entry of a CBOR map.
public struct CBORMapEntry: Hashable, Sendable {
    /// The key.
    public let key: CBORValue
    /// The value.
    public let value: CBORValue

    /// An entry mapping `key` to `value`.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }

    /// Hashes the key, then the value (``CBORValue/hash(into:)``).
    public func hash(into hasher: inout Hasher) {
        key.hash(into: &hasher)
        value.hash(into: &hasher)
    }
}
