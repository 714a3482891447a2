/// What the decoder accepts beyond the strict subset, and its limits. The defaults are the strict
/// subset Apple's App Attest objects use: definite lengths, no tags, no floats, unique map keys in
/// any order, shortest-form heads always.
public struct CBORDecodingOptions: Sendable, Hashable {
    /// The decoder recurses once per nesting level; no depth above this is honoured, so a caller
    /// cannot configure a stack overflow.
    public static let depthCeiling = 256

    /// Accept indefinite-length strings, arrays and maps (RFC 8949 §3.2). Off by default.
    public var allowIndefiniteLengths: Bool
    /// Accept tags (major type 6), decoded as ``CBORValue/tagged(_:_:)`` without interpretation. Off by default.
    public var allowTags: Bool
    /// Accept half, single and double floats (major type 7, 25–27), in any width (their preferred
    /// serialization is not checked). Off by default. A NaN never equals another, so two NaN map
    /// keys are not reported as duplicates.
    public var allowFloats: Bool
    /// Require every map's keys in the core deterministic order of RFC 8949 §4.2.1 (bytewise
    /// lexicographic order of their encodings). Off by default; duplicate keys are refused always.
    public var requireSortedMapKeys: Bool
    /// Deepest nesting accepted (the top-level item is depth 1), at most ``depthCeiling``.
    public var maximumDepth: Int
    /// Most data items accepted in one decode (every key, value, element and chunk counts).
    public var maximumItems: Int
    /// Largest input accepted, in bytes.
    public var maximumInputBytes: Int

    /// Options with the given switches and limits (defaults: strict, depth 16, 65,536 items, 1 MiB).
    public init(
        allowIndefiniteLengths: Bool = false, allowTags: Bool = false, allowFloats: Bool = false,
        requireSortedMapKeys: Bool = false, maximumDepth: Int = 16, maximumItems: Int = 1 << 16,
        maximumInputBytes: Int = 1 << 20
    ) {
        self.allowIndefiniteLengths = allowIndefiniteLengths
        self.allowTags = allowTags
        self.allowFloats = allowFloats
        self.requireSortedMapKeys = requireSortedMapKeys
        self.maximumDepth = maximumDepth
        self.maximumItems = maximumItems
        self.maximumInputBytes = maximumInputBytes
    }

    /// The strict defaults.
    public static let strict = CBORDecodingOptions()
}

/// The entry points: decode one data item, strictly (RFC 8949 §3, §4.2.1, §5.3), and encode one.
public enum CBOR {
    /// Decodes `bytes` as exactly one data item: bytes after it are refused (`trailingBytes`).
    /// Offsets in errors count from the start of `bytes`.
    public static func decode(_ bytes: [UInt8], options: CBORDecodingOptions = .strict) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0, options: options)
        guard end == bytes.count else {
            throw CBORError(.trailingBytes, "\(bytes.count - end) byte(s) after the data item", offset: end)
        }
        return value
    }

    /// Decodes the one data item that starts at `start` in `bytes` and returns it with the offset
    /// just past it; what follows is left to the caller (authenticator data carries a COSE key and
    /// then an extensions map, back to back). Offsets in errors count from the start of `bytes`.
    public static func decodePrefix(
        _ bytes: [UInt8], from start: Int = 0, options: CBORDecodingOptions = .strict
    ) throws(CBORError) -> (value: CBORValue, end: Int) {
        guard bytes.count <= options.maximumInputBytes else {
            throw CBORError(.tooLarge, "\(bytes.count) bytes exceed the limit of \(options.maximumInputBytes)", offset: 0)
        }
        guard start >= 0, start <= bytes.count else {
            throw CBORError(.truncated, "no data item at offset \(start)", offset: max(0, min(start, bytes.count)))
        }
        var decoder = CBORDecoder(bytes: bytes, position: start, options: options)
        let value = try decoder.item(depth: 1)
        return (value, decoder.position)
    }
}

/// One walk over the input: heads checked for shortest form, every length checked against what
/// remains before anything is allocated, depth and item count bounded.
struct CBORDecoder {
    let bytes: [UInt8]
    var position: Int
    let options: CBORDecodingOptions
    var items = 0

    init(bytes: [UInt8], position: Int, options: CBORDecodingOptions) {
        self.bytes = bytes
        self.position = position
        self.options = options
    }

    /// A head: major type, additional information, argument (nil for additional information 31)
    /// and the offset it started at.
    struct Head {
        let major: UInt8
        let info: UInt8
        let argument: UInt64?
        let start: Int
    }

    var remaining: Int { bytes.count - position }

    mutating func head() throws(CBORError) -> Head {
        let start = position
        guard position < bytes.count else { throw CBORError(.truncated, "the input ends where a data item should start", offset: start) }
        let initial = bytes[position]
        position += 1
        let major = initial >> 5
        let info = initial & 0x1F
        let argument: UInt64?
        switch info {
        case 0..<24: argument = UInt64(info)
        case 24, 25, 26, 27:
            let width = 1 << Int(info - 24)
            guard remaining >= width else {
                throw CBORError(.truncated, "the input ends inside a \(width)-byte argument", offset: start)
            }
            var value: UInt64 = 0
            for i in 0..<width { value = value << 8 | UInt64(bytes[position + i]) }
            position += width
            if major != 7 {
                // RFC 8949 §4.2.1: the argument in the fewest bytes.
                let smallest: UInt64 = width == 1 ? 24 : 1 << (4 * UInt64(width))
                guard value >= smallest else {
                    throw CBORError(
                        .nonMinimalArgument, "argument \(value) written in \(width) byte(s) where fewer suffice (RFC 8949 §4.2.1)",
                        offset: start)
                }
            }
            argument = value
        case 31: argument = nil
        default:
            throw CBORError(.reservedAdditionalInfo, "additional information \(info) is reserved (RFC 8949 §3)", offset: start)
        }
        return Head(major: major, info: info, argument: argument, start: start)
    }

    mutating func count(_ start: Int) throws(CBORError) {
        items += 1
        guard items <= options.maximumItems else {
            throw CBORError(.tooManyItems, "more than \(options.maximumItems) data items", offset: start)
        }
    }

    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = position
        guard depth <= min(options.maximumDepth, CBORDecodingOptions.depthCeiling) else {
            throw CBORError(.tooDeep, "nesting deeper than \(options.maximumDepth)", offset: start)
        }
        try count(start)
        let head = try head()
        guard let argument = head.argument else { return try indefinite(head, depth: depth) }
        switch head.major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try content(argument, head))
        case 3: return .text(try text(try content(argument, head), at: head.start))
        case 4:
            // Every element takes at least one byte: a count above what remains is refused before
            // anything is reserved.
            guard argument <= UInt64(remaining) else {
                throw CBORError(.truncated, "an array of \(argument) items in \(remaining) remaining byte(s)", offset: head.start)
            }
            var elements: [CBORValue] = []
            elements.reserveCapacity(Int(argument))
            for _ in 0..<Int(argument) { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            guard argument <= UInt64(remaining / 2) else {
                throw CBORError(.truncated, "a map of \(argument) pairs in \(remaining) remaining byte(s)", offset: head.start)
            }
            var map = MapBuilder(options: options)
            for _ in 0..<Int(argument) { try map.add(&self, depth: depth) }
            return .map(map.entries)
        case 6:
            guard options.allowTags else {
                throw CBORError(.tagNotAllowed, "tag \(argument) (tags are not accepted here)", offset: head.start)
            }
            return .tagged(argument, try item(depth: depth + 1))
        default:
            return try simple(head)
        }
    }

    /// The `length` content bytes of a definite string.
    mutating func content(_ length: UInt64, _ head: Head) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(remaining) else {
            throw CBORError(.truncated, "a string of \(length) bytes with \(remaining) remaining", offset: head.start)
        }
        let end = position + Int(length)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    func text(_ bytes: [UInt8], at offset: Int) throws(CBORError) -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw CBORError(.invalidUTF8, "a text string that is not valid UTF-8", offset: offset)
        }
        return string
    }

    /// Major type 7: false, true, null and (when allowed) floats.
    func simple(_ head: Head) throws(CBORError) -> CBORValue {
        switch head.info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 25, 26, 27:
            guard options.allowFloats, let bits = head.argument else {
                throw CBORError(.floatNotAllowed, "a floating-point value (floats are not accepted here)", offset: head.start)
            }
            switch head.info {
            case 25: return .float(CBORDecoder.half(UInt16(truncatingIfNeeded: bits)))
            case 26: return .float(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))
            default: return .float(Double(bitPattern: bits))
            }
        default:
            throw CBORError(
                .unsupportedSimpleValue, "simple value \(head.argument ?? 0) (only false, true and null are accepted)", offset: head.start)
        }
    }

    /// IEEE 754 binary16 to Double (RFC 8949 Appendix D).
    static func half(_ bits: UInt16) -> Double {
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = mantissa * 0x1p-24
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }

    /// An indefinite-length item (additional information 31), only when the caller opted in.
    mutating func indefinite(_ head: Head, depth: Int) throws(CBORError) -> CBORValue {
        switch head.major {
        case 2, 3, 4, 5:
            guard options.allowIndefiniteLengths else {
                throw CBORError(.indefiniteLength, "an indefinite length (not accepted here)", offset: head.start)
            }
        case 7:
            throw CBORError(.invalidIndefiniteItem, "a break stop code outside an indefinite-length item", offset: head.start)
        default:
            throw CBORError(
                .invalidIndefiniteItem, "major type \(head.major) cannot have an indefinite length (RFC 8949 §3.2.4)", offset: head.start)
        }
        switch head.major {
        case 2, 3:
            var joined: [UInt8] = []
            var text = ""
            while try !atBreak() {
                let chunkStart = position
                try count(chunkStart)
                let chunk = try self.head()
                guard chunk.major == head.major, let length = chunk.argument else {
                    throw CBORError(
                        .invalidIndefiniteItem, "a chunk of an indefinite-length string must be a definite string of the same type",
                        offset: chunkStart)
                }
                let bytes = try content(length, chunk)
                if head.major == 3 { text += try self.text(bytes, at: chunkStart) } else { joined += bytes }
            }
            return head.major == 2 ? .bytes(joined) : .text(text)
        case 4:
            var elements: [CBORValue] = []
            while try !atBreak() { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        default:
            var map = MapBuilder(options: options)
            while try !atBreak() { try map.add(&self, depth: depth) }
            return .map(map.entries)
        }
    }

    /// Whether the next byte is the break stop code (consumed when it is).
    mutating func atBreak() throws(CBORError) -> Bool {
        guard position < bytes.count else {
            throw CBORError(.truncated, "the input ends inside an indefinite-length item (no break)", offset: position)
        }
        if bytes[position] == 0xFF {
            position += 1
            return true
        }
        return false
    }

    /// A map's entries as they are read: keys unique, and in the deterministic order when asked.
    struct MapBuilder {
        let options: CBORDecodingOptions
        var entries: [CBORMapEntry] = []
        var keys: Set<CBORValue> = []
        var previousKey: ArraySlice<UInt8>?

        init(options: CBORDecodingOptions) { self.options = options }

        mutating func add(_ decoder: inout CBORDecoder, depth: Int) throws(CBORError) {
            let keyStart = decoder.position
            let key = try decoder.item(depth: depth + 1)
            let encodedKey = decoder.bytes[keyStart..<decoder.position]
            guard keys.insert(key).inserted else {
                // The key's kind only: a key may be data the caller must not see in a log.
                throw CBORError(.duplicateMapKey, "a \(key.kindName) key appears twice in one map (RFC 8949 §5.6)", offset: keyStart)
            }
            if options.requireSortedMapKeys {
                // The input's heads are in shortest form, so its bytes are the key's deterministic encoding.
                if let previousKey, !previousKey.lexicographicallyPrecedes(encodedKey) {
                    throw CBORError(
                        .unsortedMapKeys, "a \(key.kindName) key is out of the deterministic order (RFC 8949 §4.2.1)", offset: keyStart)
                }
                previousKey = encodedKey
            }
            let value = try decoder.item(depth: depth + 1)
            entries.append(CBORMapEntry(key: key, value: value))
        }
    }
}
