/// Writes DER: definite lengths in their fewest octets (X.690 10.1), identifiers in their
/// shortest form (8.1.2), content as given.
public struct DERWriter: Sendable {
    /// The DER written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// Writes a primitive element with `content` as its content octets.
    public mutating func appendPrimitive<Content: Collection>(_ identifier: ASN1Identifier, content: Content)
    where Content.Element == UInt8 {
        writeIdentifier(identifier, constructed: false)
        writeLength(content.count)
        bytes.append(contentsOf: content)
    }

    /// Writes a constructed element whose content `body` writes.
    public mutating func appendConstructed(
        _ identifier: ASN1Identifier, _ body: (inout DERWriter) throws -> Void
    ) rethrows {
        writeIdentifier(identifier, constructed: true)
        let lengthAt = bytes.count
        bytes.append(0)
        try body(&self)
        let contentLength = bytes.count - lengthAt - 1
        let lengthOctets = DERWriter.lengthOctets(contentLength)
        bytes.replaceSubrange(lengthAt..<(lengthAt + 1), with: lengthOctets)
    }

    /// Writes a SEQUENCE whose content `body` writes.
    public mutating func appendSequence(_ body: (inout DERWriter) throws -> Void) rethrows {
        try appendConstructed(.sequence, body)
    }

    /// Writes `[tag] EXPLICIT` around what `body` writes.
    public mutating func appendExplicit(_ tag: ASN1Identifier, _ body: (inout DERWriter) throws -> Void) rethrows {
        try appendConstructed(tag, body)
    }

    /// Writes a value.
    public mutating func append<T: DEREncodable>(_ value: T) {
        value.encode(into: &self)
    }

    /// Writes a value under an implicit tag.
    public mutating func append<T: ASN1ImplicitlyTaggable>(_ value: T, identifier: ASN1Identifier) {
        value.encode(into: &self, identifier: identifier)
    }

    /// Copies an already-encoded element verbatim (for example a certificate's original bytes).
    public mutating func appendEncoded<Encoded: Collection>(_ encoded: Encoded) where Encoded.Element == UInt8 {
        bytes.append(contentsOf: encoded)
    }

    /// Re-encodes a parsed node with DER framing, recursively: a node parsed from DER comes back
    /// byte for byte. (A BER node keeps its structure, e.g. segmented strings, with definite lengths.)
    public mutating func append(_ node: ASN1Node) {
        if node.isConstructed {
            appendConstructed(node.identifier) { writer in
                for child in node.children { writer.append(child) }
            }
        } else {
            appendPrimitive(node.identifier, content: node.contentBytes)
        }
    }

    /// SET OF in DER order (X.690 11.6): encodes each element, sorts the encodings, writes them.
    public mutating func appendSetOf(_ elements: [[UInt8]], identifier: ASN1Identifier = .set) {
        let sorted = elements.sorted { ASN1.encodingPrecedesOrEquals($0[...], $1[...]) && $0 != $1 }
        appendConstructed(identifier) { writer in
            for element in sorted { writer.appendEncoded(element) }
        }
    }

    mutating func writeIdentifier(_ identifier: ASN1Identifier, constructed: Bool) {
        let leading = (identifier.tagClass.rawValue << 6) | (constructed ? 0x20 : 0)
        if identifier.tagNumber < 31 {
            bytes.append(leading | UInt8(identifier.tagNumber))
            return
        }
        bytes.append(leading | 0x1F)
        var groups: [UInt8] = []
        var number = identifier.tagNumber
        repeat {
            groups.append(UInt8(number & 0x7F))
            number >>= 7
        } while number > 0
        for (i, group) in groups.reversed().enumerated() {
            bytes.append(i == groups.count - 1 ? group : group | 0x80)
        }
    }

    mutating func writeLength(_ length: Int) {
        bytes.append(contentsOf: DERWriter.lengthOctets(length))
    }

    static func lengthOctets(_ length: Int) -> [UInt8] {
        if length < 0x80 { return [UInt8(length)] }
        var octets: [UInt8] = []
        var value = length
        while value > 0 {
            octets.append(UInt8(value & 0xFF))
            value >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets.reversed()
    }
}
