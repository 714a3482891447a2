/// One parsed element, as a flat record. Children follow their parent in the records array
/// (pre-order); `subtreeEnd` is the index just past the last descendant, so siblings are found by
/// jumping, not by walking descendants.
struct ASN1Record: Sendable {
    var identifier: ASN1Identifier
    var isConstructed: Bool
    var isIndefinite: Bool
    /// Offset of the first identifier octet.
    var start: Int
    /// Offset of the first content octet.
    var contentStart: Int
    /// Offset just past the last content octet (before the end-of-contents octets, if any).
    var contentEnd: Int
    /// Offset just past the whole element (after the end-of-contents octets, if any).
    var end: Int
    var depth: Int
    var subtreeEnd: Int
}

/// The shared, immutable result of one parse: the caller's bytes and the flat record list.
final class ASN1Document: Sendable {
    let bytes: [UInt8]
    let records: [ASN1Record]
    let rules: ASN1EncodingRules

    init(bytes: [UInt8], records: [ASN1Record], rules: ASN1EncodingRules) {
        self.bytes = bytes
        self.records = records
        self.rules = rules
    }
}

/// The single-pass parser behind ``DER/parse(_:limits:)`` and ``BER/parse(_:limits:)``.
///
/// It checks the framing of every element (identifier, length, nesting, construction of universal
/// types) and builds a flat record list; the contents of each type (INTEGER minimality, BOOLEAN
/// canonical form, OID arcs, …) are checked when a node is decoded as that type. Allocation is
/// bounded by the input: each record stands for at least two input bytes.
struct ASN1Parser {
    let bytes: [UInt8]
    let rules: ASN1EncodingRules
    let limits: ASN1ParseLimits
    var records: [ASN1Record] = []

    /// The depth limit in force: the caller's, never above the ceiling (computed once per parse).
    let maximumDepth: Int

    init(bytes: [UInt8], rules: ASN1EncodingRules, limits: ASN1ParseLimits) {
        self.bytes = bytes
        self.rules = rules
        self.limits = limits
        self.maximumDepth = min(limits.maximumDepth, ASN1ParseLimits.depthCeiling)
    }

    /// The most records reserved up front (64 bytes each: 16 KiB).
    static let reservedRecordsCeiling = 256

    /// Parses exactly one element spanning all of `bytes`.
    static func parse(_ bytes: [UInt8], rules: ASN1EncodingRules, limits: ASN1ParseLimits) throws(ASN1Error)
        -> ASN1Document
    {
        guard bytes.count <= limits.maximumInputBytes else {
            throw ASN1Error(.tooLarge, "input is \(bytes.count) bytes, limit is \(limits.maximumInputBytes)")
        }
        guard !bytes.isEmpty else { throw ASN1Error(.truncated, "input is empty", offset: 0) }
        var parser = ASN1Parser(bytes: bytes, rules: rules, limits: limits)
        // One allocation for the records of a typical document: DER certificates average about
        // 14 octets per element, so a sixth of the input plus a few covers them without the
        // array growing (each growth copies every record); capped so a large blob of few
        // elements does not reserve much. Larger documents grow as before.
        parser.records.reserveCapacity(min(bytes.count / 6 + 4, ASN1Parser.reservedRecordsCeiling))
        var position = 0
        try parser.parseElement(at: &position, limit: bytes.count, depth: 1)
        // X.690 8.1.1: the encoding is exactly one element; anything after it is not ours to ignore.
        guard position == bytes.count else {
            throw ASN1Error(.trailingBytes, "\(bytes.count - position) bytes follow the element", offset: position)
        }
        return ASN1Document(bytes: bytes, records: parser.records, rules: rules)
    }

    mutating func parseElement(at position: inout Int, limit: Int, depth: Int) throws(ASN1Error) {
        let start = position
        guard depth <= maximumDepth else {
            throw ASN1Error(.tooDeep, "nesting exceeds \(maximumDepth) levels", offset: start)
        }
        guard records.count < limits.maximumElements else {
            throw ASN1Error(.tooLarge, "more than \(limits.maximumElements) elements", offset: start)
        }
        let (identifier, isConstructed) = try readIdentifier(at: &position, limit: limit)
        let length = try readLength(at: &position, limit: limit)

        if identifier.tagClass == .universal && identifier.tagNumber == 0 {
            // X.690 8.1.5: end-of-contents appears only to close an indefinite-length value.
            throw ASN1Error(
                .invalidIdentifier, "universal tag 0 (end-of-contents) outside an indefinite-length value",
                offset: start)
        }
        try checkConstruction(identifier, isConstructed: isConstructed, offset: start)

        let index = records.count
        if let length {
            guard length <= limit - position else {
                throw ASN1Error(
                    .truncated, "\(identifier) declares \(length) content bytes, \(limit - position) remain",
                    offset: start)
            }
            // A definite length gives every offset now: the record is written once, and only a
            // constructed element's subtreeEnd is set after its children.
            let contentEnd = position + length
            records.append(
                ASN1Record(
                    identifier: identifier, isConstructed: isConstructed, isIndefinite: false,
                    start: start, contentStart: position, contentEnd: contentEnd, end: contentEnd,
                    depth: depth, subtreeEnd: index + 1))
            if isConstructed {
                var child = position
                while child < contentEnd {
                    try parseElement(at: &child, limit: contentEnd, depth: depth + 1)
                }
                records[index].subtreeEnd = records.count
            }
            position = contentEnd
            return
        }
        // X.690 8.1.3.6: indefinite length, constructed only, closed by end-of-contents 00 00.
        guard isConstructed else {
            throw ASN1Error(.indefiniteLength, "indefinite length on primitive \(identifier)", offset: start)
        }
        records.append(
            ASN1Record(
                identifier: identifier, isConstructed: isConstructed, isIndefinite: true,
                start: start, contentStart: position, contentEnd: position, end: position,
                depth: depth, subtreeEnd: index + 1))
        var child = position
        while true {
            guard child < limit else {
                throw ASN1Error(
                    .missingEndOfContents, "indefinite-length \(identifier) has no end-of-contents",
                    offset: start)
            }
            if bytes[child] == 0x00 {
                guard child + 1 < limit else {
                    throw ASN1Error(.truncated, "end-of-contents is cut short", offset: child)
                }
                guard bytes[child + 1] == 0x00 else {
                    throw ASN1Error(.missingEndOfContents, "end-of-contents must be 00 00", offset: child)
                }
                records[index].contentEnd = child
                position = child + 2
                break
            }
            try parseElement(at: &child, limit: limit, depth: depth + 1)
        }
        records[index].end = position
        records[index].subtreeEnd = records.count
    }

    /// X.690 8.1.2: identifier octets.
    @inline(__always)
    func readIdentifier(at position: inout Int, limit: Int) throws(ASN1Error) -> (ASN1Identifier, Bool) {
        let start = position
        guard position < limit else { throw ASN1Error(.truncated, "missing identifier", offset: position) }
        let first = bytes[position]
        position += 1
        let tagClass = ASN1Identifier.TagClass(rawValue: first >> 6) ?? .universal
        let isConstructed = first & 0x20 != 0
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // 8.1.2.4: high-tag-number form, base 128, most significant group first.
            number = 0
            var groups = 0
            while true {
                guard position < limit else {
                    throw ASN1Error(.truncated, "high tag number is cut short", offset: position)
                }
                let byte = bytes[position]
                position += 1
                // 8.1.2.4.2 c): bits 7–1 of the first subsequent octet shall not all be zero.
                if groups == 0 && byte == 0x80 {
                    throw ASN1Error(.invalidIdentifier, "high tag number has a leading zero group", offset: start)
                }
                groups += 1
                guard groups <= 5, number <= (UInt32.max >> 7) else {
                    throw ASN1Error(.invalidIdentifier, "tag number overflows 32 bits", offset: start)
                }
                number = (number << 7) | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            // 8.1.2.2/8.1.2.4: numbers 0–30 must use the single-octet form.
            guard number >= 31 else {
                throw ASN1Error(
                    .invalidIdentifier, "tag number \(number) must use the low-tag-number form",
                    offset: start)
            }
        }
        return (ASN1Identifier(tagClass: tagClass, tagNumber: number), isConstructed)
    }

    /// X.690 8.1.3 (and 10.1 for DER): length octets. Returns nil for the indefinite form.
    @inline(__always)
    func readLength(at position: inout Int, limit: Int) throws(ASN1Error) -> Int? {
        let start = position
        guard position < limit else { throw ASN1Error(.truncated, "missing length", offset: position) }
        let first = bytes[position]
        position += 1
        if first < 0x80 { return Int(first) }
        if first == 0x80 {
            guard rules.allowsIndefiniteLength else {
                throw ASN1Error(.indefiniteLength, "indefinite length is not allowed in DER", offset: start)
            }
            return nil
        }
        // 8.1.3.5 c): 0xFF is reserved.
        guard first != 0xFF else { throw ASN1Error(.invalidLength, "length octet 0xFF is reserved", offset: start) }
        let count = Int(first & 0x7F)
        guard count <= limit - position else {
            throw ASN1Error(.truncated, "length needs \(count) octets", offset: start)
        }
        guard count <= 8 else {
            throw ASN1Error(.invalidLength, "\(count) length octets exceed any input this parser accepts", offset: start)
        }
        var value: UInt64 = 0
        for i in 0..<count { value = (value << 8) | UInt64(bytes[position + i]) }
        if !rules.allowsNonMinimalLength {
            // 10.1: the definite form with the minimum number of octets.
            if bytes[position] == 0 {
                throw ASN1Error(.invalidLength, "long-form length has a leading zero octet", offset: start)
            }
            if value < 0x80 {
                throw ASN1Error(.invalidLength, "length \(value) must use the short form", offset: start)
            }
        }
        position += count
        guard value <= UInt64(Int.max) else {
            throw ASN1Error(.invalidLength, "length \(value) is too large", offset: start)
        }
        return Int(value)
    }

    @inline(__always)
    func checkConstruction(_ identifier: ASN1Identifier, isConstructed: Bool, offset: Int) throws(ASN1Error) {
        switch identifier.universalConstruction {
        case .either:
            return
        case .primitiveOnly where isConstructed:
            throw ASN1Error(.invalidConstruction, "\(identifier) must be primitive", offset: offset)
        case .constructedOnly where !isConstructed:
            throw ASN1Error(.invalidConstruction, "\(identifier) must be constructed", offset: offset)
        case .primitiveInDER where isConstructed && !rules.allowsConstructedStrings:
            throw ASN1Error(.invalidConstruction, "\(identifier) must be primitive in DER", offset: offset)
        default:
            return
        }
    }
}
