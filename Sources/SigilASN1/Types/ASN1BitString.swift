/// BIT STRING (X.680 22; X.690 8.6, 11.2).
///
/// ```
/// BIT STRING ::= [UNIVERSAL 3] IMPLICIT BIT STRING
///   -- content: one octet giving the unused bits in the last octet (0–7), then the bits
/// ```
/// DER: primitive only, unused bits zero, and an empty string has 0 unused bits. BER also accepts a
/// constructed string of BIT STRING segments, where only the last segment may have unused bits.
public struct ASN1BitString: ASN1ImplicitlyTaggable, Hashable, Sendable {
    /// The bit octets, most significant bit first.
    public let bytes: [UInt8]
    /// Unused (padding) bits at the end of the last octet, 0–7.
    public let unusedBits: Int

    /// BIT STRING.
    public static var defaultIdentifier: ASN1Identifier { .bitString }

    /// A bit string of `bytes` whose last octet has `unusedBits` (0–7, zero for an empty string) unused bits, which must be zero.
    public init<Bytes: Collection>(bytes: Bytes, unusedBits: Int = 0) throws(ASN1Error) where Bytes.Element == UInt8 {
        let value = Array(bytes)
        guard (0...7).contains(unusedBits), !(value.isEmpty && unusedBits != 0) else {
            throw ASN1Error(.invalidBitString, "unused bits must be 0–7 and 0 for an empty string")
        }
        guard value.last.map({ $0 & UInt8((1 << unusedBits) - 1) == 0 }) ?? true else {
            throw ASN1Error(.invalidBitString, "unused bits must be zero")
        }
        self.bytes = value
        self.unusedBits = unusedBits
    }

    /// A string of whole octets (no unused bits), which is always valid.
    public init<Bytes: Collection>(wholeBytes bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
        self.unusedBits = 0
    }

    /// Decodes a BIT STRING tagged `identifier` (under BER also constructed).
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        guard node.identifier == identifier else {
            throw node.error(.unexpectedTag, "expected \(identifier), found \(node.identifier)")
        }
        if node.isConstructed {
            guard node.rules.allowsConstructedStrings else {
                throw node.error(.invalidConstruction, "BIT STRING must be primitive in DER")
            }
            // 8.6.4: segments are BIT STRINGs; all but the last have no unused bits.
            var collected: [UInt8] = []
            var lastUnused = 0
            var sawSegment = false
            for segment in node.children {
                if sawSegment && lastUnused != 0 {
                    throw segment.error(.invalidBitString, "only the last BIT STRING segment may have unused bits")
                }
                let part = try ASN1BitString(node: segment, identifier: .bitString)
                collected.append(contentsOf: part.bytes)
                lastUnused = part.unusedBits
                sawSegment = true
            }
            bytes = collected
            unusedBits = lastUnused
            return
        }
        let content = node.contentBytes
        guard let first = content.first else {
            throw node.error(.invalidBitString, "BIT STRING has no unused-bits octet")
        }
        guard first <= 7 else {
            throw node.error(.invalidBitString, "unused-bits octet is \(first), must be 0–7")
        }
        let value = content.dropFirst()
        guard !(value.isEmpty && first != 0) else {
            throw node.error(.invalidBitString, "an empty BIT STRING must have 0 unused bits")
        }
        if !node.rules.allowsNonZeroUnusedBits, let last = value.last, last & UInt8((1 << first) - 1) != 0 {
            throw node.error(.invalidBitString, "DER requires the unused bits to be zero")
        }
        bytes = Array(value)
        unusedBits = Int(first)
    }

    /// Writes the BIT STRING under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: [UInt8(unusedBits)] + bytes)
    }
}
