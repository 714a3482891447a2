/// Distinguished Encoding Rules (X.690 clauses 10–11): the strict entry point every Sigil format
/// except app receipts goes through.
public enum DER {
    /// Parses exactly one DER element spanning all of `bytes`: strict framing (minimal lengths,
    /// no indefinite length, universal types in their required form, no trailing bytes), depth
    /// and size limits. Type-level rules are enforced when nodes are decoded.
    public static func parse(_ bytes: [UInt8], limits: ASN1ParseLimits = .default) throws(ASN1Error) -> ASN1Node {
        let document = try ASN1Parser.parse(bytes, rules: .distinguished, limits: limits)
        return ASN1Node(document: document, index: 0)
    }

    /// Parses exactly one DER element spanning all of `bytes`, as the `[UInt8]` form does.
    public static func parse<Bytes: Collection>(_ bytes: Bytes, limits: ASN1ParseLimits = .default)
        throws(ASN1Error) -> ASN1Node where Bytes.Element == UInt8
    {
        try parse(Array(bytes), limits: limits)
    }

    /// Encodes one value.
    public static func encode<T: DEREncodable>(_ value: T) -> [UInt8] {
        var writer = DERWriter()
        value.encode(into: &writer)
        return writer.bytes
    }
}

/// Basic Encoding Rules (X.690 clause 8): reachable only here, for PKCS#7 app receipts that Xcode
/// and older Apple tooling write with indefinite lengths and segmented OCTET STRINGs.
///
/// Relaxations over DER, and nothing else: indefinite lengths (constructed only), non-minimal
/// length octets, constructed (segmented) strings whose segments are concatenated on decode,
/// any non-zero BOOLEAN as TRUE, non-zero unused BIT STRING bits, unsorted SET OF. Everything X.690
/// requires of BER itself is still enforced (minimal INTEGERs, OID sub-identifiers, tag forms).
public enum BER {
    /// Parses exactly one BER element spanning all of `bytes`, with the relaxations listed above and the same limits as DER.
    public static func parse(_ bytes: [UInt8], limits: ASN1ParseLimits = .default) throws(ASN1Error) -> ASN1Node {
        let document = try ASN1Parser.parse(bytes, rules: .basic, limits: limits)
        return ASN1Node(document: document, index: 0)
    }

    /// Parses exactly one BER element spanning all of `bytes`, as the `[UInt8]` form does.
    public static func parse<Bytes: Collection>(_ bytes: Bytes, limits: ASN1ParseLimits = .default)
        throws(ASN1Error) -> ASN1Node where Bytes.Element == UInt8
    {
        try parse(Array(bytes), limits: limits)
    }
}

/// A type that can be read from a parsed node.
public protocol ASN1Decodable {
    /// Decodes the value from `node`, refusing anything its type does not allow.
    init(node: ASN1Node) throws(ASN1Error)
}

/// A type that can write its DER encoding.
public protocol DEREncodable {
    /// Appends the value's DER to `writer`.
    func encode(into writer: inout DERWriter)
}

/// A type whose tag can be replaced (`[n] IMPLICIT`, X.680 31.2.7).
public protocol ASN1ImplicitlyTaggable: ASN1Decodable, DEREncodable {
    /// The universal tag the type is encoded with when no other is given.
    static var defaultIdentifier: ASN1Identifier { get }
    /// Decodes the value from `node`, which must carry `identifier` instead of the default tag.
    init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error)
    /// Appends the value's DER to `writer` under `identifier` instead of the default tag.
    func encode(into writer: inout DERWriter, identifier: ASN1Identifier)
}

extension ASN1ImplicitlyTaggable {
    /// Decodes the value from `node` under its default tag.
    public init(node: ASN1Node) throws(ASN1Error) {
        try self.init(node: node, identifier: Self.defaultIdentifier)
    }

    /// Appends the value's DER under its default tag.
    public func encode(into writer: inout DERWriter) {
        encode(into: &writer, identifier: Self.defaultIdentifier)
    }
}

/// Schema helpers shared by every decoder.
public enum ASN1 {
    // The four schema helpers are generic over the caller's result type and called from every
    // other module; they are @inlinable thin wrappers around public non-generic checks, so callers
    // specialise them (no generic metadata lookups or reabstraction thunks per element).

    /// Reads a SEQUENCE (or an implicitly tagged one): checks the tag and that it is constructed,
    /// hands its children to `body`, then requires that `body` consumed all of them.
    @inlinable
    public static func sequence<T>(
        _ node: ASN1Node, identifier: ASN1Identifier = .sequence,
        _ body: (inout ASN1SequenceReader) throws -> T
    ) throws -> T {
        var reader = try ASN1SequenceReader(checking: node, identifier: identifier)
        let result = try body(&reader)
        try reader.finish()
        return result
    }

    /// Reads a SEQUENCE OF: every child decoded by `element`.
    @inlinable
    public static func sequenceOf<T>(
        _ node: ASN1Node, identifier: ASN1Identifier = .sequence, _ element: (ASN1Node) throws -> T
    ) throws -> [T] {
        try expect(node, identifier, constructed: true)
        var result: [T] = []
        for child in node.children { result.append(try element(child)) }
        return result
    }

    /// Reads a SET OF: every child decoded by `element`; under DER the elements must be in
    /// ascending order of their encodings (X.690 11.6), which is checked.
    @inlinable
    public static func setOf<T>(
        _ node: ASN1Node, identifier: ASN1Identifier = .set, _ element: (ASN1Node) throws -> T
    ) throws -> [T] {
        try checkSetOf(node, identifier: identifier)
        var result: [T] = []
        for child in node.children { result.append(try element(child)) }
        return result
    }

    /// The non-generic part of `setOf`: tag, form, and DER order.
    public static func checkSetOf(_ node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try expect(node, identifier, constructed: true)
        if node.rules.requiresSortedSetOf {
            var previous: ASN1Node?
            for child in node.children {
                if let previous, !encodingPrecedesOrEquals(previous.encodedBytes, child.encodedBytes) {
                    throw child.error(.unsortedSet, "SET OF elements are not in DER order")
                }
                previous = child
            }
        }
    }

    /// Reads `[tag] EXPLICIT Inner`: a constructed wrapper with exactly one child.
    @inlinable
    public static func explicit<T>(
        _ node: ASN1Node, tag: ASN1Identifier, _ body: (ASN1Node) throws -> T
    ) throws -> T {
        try body(explicitInner(node, tag: tag))
    }

    /// The non-generic part of `explicit`: the one element inside `[tag] EXPLICIT`.
    public static func explicitInner(_ node: ASN1Node, tag: ASN1Identifier) throws(ASN1Error) -> ASN1Node {
        try expect(node, tag, constructed: true)
        var children = node.children.makeIterator()
        guard let inner = children.next() else {
            throw node.error(.unexpectedElementCount, "explicit tag \(tag) is empty")
        }
        guard children.next() == nil else {
            throw node.error(.unexpectedElementCount, "explicit tag \(tag) holds more than one element")
        }
        return inner
    }

    /// Checks a node's tag and form.
    public static func expect(_ node: ASN1Node, _ identifier: ASN1Identifier, constructed: Bool) throws(ASN1Error) {
        guard node.identifier == identifier else {
            throw node.error(.unexpectedTag, "expected \(identifier), found \(node.identifier)")
        }
        guard node.isConstructed == constructed else {
            throw node.error(.invalidConstruction, "\(identifier) must be \(constructed ? "constructed" : "primitive")")
        }
    }

    /// X.690 11.6: compare encodings as octet strings, the shorter one padded with trailing zeros.
    static func encodingPrecedesOrEquals(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex || j < b.endIndex {
            let x = i < a.endIndex ? a[i] : 0
            let y = j < b.endIndex ? b[j] : 0
            if x != y { return x < y }
            i += 1
            j += 1
        }
        return true
    }

    /// The value octets of a string type: the primitive content, or under BER the concatenated
    /// segments of a constructed encoding (X.690 8.6.3, 8.7.3, 8.23.6), each segment itself of
    /// the same universal type.
    static func stringContent(_ node: ASN1Node, segmentTag: ASN1Identifier) throws(ASN1Error) -> ArraySlice<UInt8> {
        guard node.isConstructed else { return node.contentBytes }
        guard node.rules.allowsConstructedStrings else {
            throw node.error(.invalidConstruction, "\(segmentTag) must be primitive in DER")
        }
        var out: [UInt8] = []
        try appendSegments(of: node, segmentTag: segmentTag, into: &out)
        return out[...]
    }

    private static func appendSegments(of node: ASN1Node, segmentTag: ASN1Identifier, into out: inout [UInt8])
        throws(ASN1Error)
    {
        for child in node.children {
            guard child.identifier == segmentTag else {
                throw child.error(.unexpectedTag, "segment of a constructed \(segmentTag) is \(child.identifier)")
            }
            if child.isConstructed {
                try appendSegments(of: child, segmentTag: segmentTag, into: &out)
            } else {
                out.append(contentsOf: child.contentBytes)
            }
        }
    }
}
