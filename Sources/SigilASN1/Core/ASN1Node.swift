/// One element of a parsed ASN.1 document: a light view (the document plus an index).
///
/// Nodes share the bytes the caller passed to the parser; `encodedBytes` and `contentBytes` are
/// slices of them, so signatures can be checked over exactly the bytes received.
public struct ASN1Node: Sendable {
    let document: ASN1Document
    let index: Int

    init(document: ASN1Document, index: Int) {
        self.document = document
        self.index = index
    }

    var record: ASN1Record { document.records[index] }

    /// The element's tag.
    public var identifier: ASN1Identifier { record.identifier }
    /// Whether the element is constructed (its content is elements).
    public var isConstructed: Bool { record.isConstructed }
    /// Whether the element used the BER indefinite-length form.
    public var isIndefiniteLength: Bool { record.isIndefinite }
    /// The rules this node was parsed under.
    public var rules: ASN1EncodingRules { document.rules }
    /// Offset of the element's first identifier octet in the parsed input.
    public var offset: Int { record.start }
    /// Nesting level: 1 for the outermost element.
    public var depth: Int { record.depth }

    /// The whole element as received: identifier, length, content (and end-of-contents octets).
    public var encodedBytes: ArraySlice<UInt8> {
        let r = record
        return document.bytes[r.start..<r.end]
    }

    /// The content octets as received. For a constructed element these are the children's
    /// encodings; for an indefinite-length one, without the closing end-of-contents octets.
    public var contentBytes: ArraySlice<UInt8> {
        let r = record
        return document.bytes[r.contentStart..<r.contentEnd]
    }

    /// The direct children of a constructed node (empty for a primitive one).
    public var children: ASN1NodeCollection { ASN1NodeCollection(parent: self) }

    /// An error of `code` located at this node.
    public func error(_ code: ASN1Error.Code, _ reason: String) -> ASN1Error {
        ASN1Error(code, reason, offset: offset)
    }
}

/// The direct children of a node, in order.
public struct ASN1NodeCollection: Sequence, Sendable {
    let parent: ASN1Node

    /// Walks the children in order.
    public struct Iterator: IteratorProtocol, Sendable {
        let document: ASN1Document
        var nextIndex: Int
        let end: Int

        /// The next child, or nil after the last.
        public mutating func next() -> ASN1Node? {
            guard nextIndex < end else { return nil }
            let node = ASN1Node(document: document, index: nextIndex)
            nextIndex = document.records[nextIndex].subtreeEnd
            return node
        }
    }

    /// An iterator over the children, first to last.
    public func makeIterator() -> Iterator {
        let record = parent.record
        return Iterator(
            document: parent.document, nextIndex: parent.index + 1,
            end: record.isConstructed ? record.subtreeEnd : parent.index + 1)
    }

    /// The number of direct children (walks them).
    public var count: Int { reduce(0) { count, _ in count + 1 } }
}

/// Reads the children of a SEQUENCE (or SET) in order, for schema decoders.
///
/// Decoders pull required fields with ``next(_:)`` and optional ones with ``nextIfPresent(_:)``;
/// ``ASN1/sequence(_:identifier:_:)`` then insists that nothing is left (ARCHITECTURE.md, Conventions 2).
public struct ASN1SequenceReader: Sendable {
    let parent: ASN1Node
    /// Index of the next unconsumed child, and the end of the parent's subtree. Kept as indices
    /// (the document is `parent`'s): stepping holds no extra reference to retain and release.
    private var nextIndex: Int
    private let end: Int

    init(_ parent: ASN1Node) {
        self.parent = parent
        let record = parent.record
        self.nextIndex = parent.index + 1
        self.end = record.isConstructed ? record.subtreeEnd : parent.index + 1
    }

    /// A reader over `node`'s children after checking its tag and that it is constructed.
    public init(checking node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: true)
        self.init(node)
    }

    /// Requires that every child was consumed.
    public func finish() throws(ASN1Error) {
        if let extra = peek {
            throw extra.error(.unexpectedElementCount, "\(parent.identifier) has an unexpected element \(extra.identifier)")
        }
    }

    /// The next child without consuming it.
    public var peek: ASN1Node? { nextIndex < end ? ASN1Node(document: parent.document, index: nextIndex) : nil }

    /// Whether every child was consumed.
    public var isAtEnd: Bool { nextIndex >= end }

    /// Consumes the next child, which must exist (and carry `identifier`, if given).
    public mutating func next(_ identifier: ASN1Identifier? = nil) throws(ASN1Error) -> ASN1Node {
        guard nextIndex < end else {
            throw parent.error(
                .unexpectedElementCount,
                "\(parent.identifier) ends before a required \(identifier.map { "\($0)" } ?? "element")")
        }
        let node = ASN1Node(document: parent.document, index: nextIndex)
        if let identifier, node.identifier != identifier {
            throw node.error(.unexpectedTag, "expected \(identifier), found \(node.identifier)")
        }
        nextIndex = node.record.subtreeEnd
        return node
    }

    /// Consumes and returns the next child only if it carries `identifier`.
    public mutating func nextIfPresent(_ identifier: ASN1Identifier) -> ASN1Node? {
        guard nextIndex < end else { return nil }
        let record = parent.document.records[nextIndex]
        guard record.identifier == identifier else { return nil }
        let node = ASN1Node(document: parent.document, index: nextIndex)
        nextIndex = record.subtreeEnd
        return node
    }
}
