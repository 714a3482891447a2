/// The framing of one DER element read without parsing its contents: for formats too large to
/// hold one record per element (a CRL with millions of entries), whose caller walks the outer
/// structure element by element and hands each small element to `DER.parse(_:limits:)`.
public struct DERHeader: Sendable, Hashable {
    /// The element's tag.
    public let identifier: ASN1Identifier
    /// Whether the element is constructed.
    public let isConstructed: Bool
    /// Offset of the first identifier octet.
    public let start: Int
    /// Offset of the first content octet.
    public let contentStart: Int
    /// Offset just past the last content octet (and the element).
    public let end: Int

    /// Reads the identifier and length octets of the element at `position` (X.690 8.1.2–8.1.3
    /// under DER 10.1: definite, minimal lengths; universal types in their required form) and
    /// checks that its content fits before `limit`. The content itself is not examined.
    public init(reading bytes: [UInt8], at position: Int, limit: Int) throws(ASN1Error) {
        guard position >= 0, limit <= bytes.count, position <= limit else {
            throw ASN1Error(.truncated, "element starts outside the input", offset: position)
        }
        let parser = ASN1Parser(bytes: bytes, rules: .distinguished, limits: .default)
        var cursor = position
        let (identifier, constructed) = try parser.readIdentifier(at: &cursor, limit: limit)
        guard let length = try parser.readLength(at: &cursor, limit: limit) else {
            throw ASN1Error(.indefiniteLength, "indefinite length is not allowed in DER", offset: position)
        }
        if identifier.tagClass == .universal && identifier.tagNumber == 0 {
            throw ASN1Error(.invalidIdentifier, "universal tag 0 (end-of-contents) in DER", offset: position)
        }
        try parser.checkConstruction(identifier, isConstructed: constructed, offset: position)
        guard length <= limit - cursor else {
            throw ASN1Error(.truncated, "\(identifier) declares \(length) content bytes, \(limit - cursor) remain", offset: position)
        }
        self.identifier = identifier
        self.isConstructed = constructed
        self.start = position
        self.contentStart = cursor
        self.end = cursor + length
    }
}
