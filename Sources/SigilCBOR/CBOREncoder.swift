extension CBOR {
    /// Encodes `value` with definite lengths and shortest-form heads (RFC 8949 §4.2.1). Map
    /// entries keep their order unless `sortingMapKeys` asks for the core deterministic order
    /// (bytewise lexicographic order of the encoded keys). A float is written as a single when
    /// that preserves it, as a double otherwise (never as a half).
    public static func encode(_ value: CBORValue, sortingMapKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out, sorting: sortingMapKeys)
        return out
    }

    /// The head of an item of major type `major` with `argument`, in its shortest form.
    public static func head(major: UInt8, argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25] + bigEndian(argument, width: 2)
        case 0x1_0000...0xFFFF_FFFF: return [type | 26] + bigEndian(argument, width: 4)
        default: return [type | 27] + bigEndian(argument, width: 8)
        }
    }

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }

    static func write(_ value: CBORValue, into out: inout [UInt8], sorting: Bool) {
        switch value {
        case .unsigned(let n): out += head(major: 0, argument: n)
        case .negative(let n): out += head(major: 1, argument: n)
        case .bytes(let b):
            out += head(major: 2, argument: UInt64(b.count))
            out += b
        case .text(let t):
            let utf8 = Array(t.utf8)
            out += head(major: 3, argument: UInt64(utf8.count))
            out += utf8
        case .array(let items):
            out += head(major: 4, argument: UInt64(items.count))
            for item in items { write(item, into: &out, sorting: sorting) }
        case .map(let entries):
            out += head(major: 5, argument: UInt64(entries.count))
            var encoded = entries.map { entry -> ([UInt8], [UInt8]) in
                var key: [UInt8] = []
                var value: [UInt8] = []
                write(entry.key, into: &key, sorting: sorting)
                write(entry.value, into: &value, sorting: sorting)
                return (key, value)
            }
            if sorting { encoded.sort { $0.0.lexicographicallyPrecedes($1.0) } }
            for (key, value) in encoded { out += key + value }
        case .tagged(let tag, let item):
            out += head(major: 6, argument: tag)
            write(item, into: &out, sorting: sorting)
        case .bool(let b): out.append(b ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .float(let d):
            let single = Float(d)
            if Double(single) == d || d.isNaN {
                out.append(0xFA)
                out += bigEndian(UInt64(single.bitPattern), width: 4)
            } else {
                out.append(0xFB)
                out += bigEndian(d.bitPattern, width: 8)
            }
        }
    }
}
