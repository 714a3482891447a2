/// OBJECT IDENTIFIER (X.680 32; X.690 8.19).
///
/// ```
/// OBJECT IDENTIFIER ::= [UNIVERSAL 6] IMPLICIT OBJECT IDENTIFIER
///   -- content: sub-identifiers, base 128, high bit set on all but the last octet of each;
///   -- the first sub-identifier is 40·arc1 + arc2 (8.19.4)
/// ```
/// Arcs are unsigned 64-bit; an arc that does not fit is rejected rather than truncated.
public struct ASN1ObjectIdentifier: ASN1ImplicitlyTaggable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByArrayLiteral
{
    /// The arcs, e.g. [1, 2, 840, 10045, 2, 1].
    public let arcs: [UInt64]

    /// OBJECT IDENTIFIER.
    public static var defaultIdentifier: ASN1Identifier { .objectIdentifier }

    /// Validates arcs per X.660: at least two, the first 0–2, the second < 40 under 0 and 1, and
    /// 40·arc1 + arc2 fitting in 64 bits.
    public init(arcs: [UInt64]) throws(ASN1Error) {
        guard arcs.count >= 2 else {
            throw ASN1Error(.invalidObjectIdentifier, "an OBJECT IDENTIFIER has at least two arcs")
        }
        guard arcs[0] <= 2 else {
            throw ASN1Error(.invalidObjectIdentifier, "first arc must be 0, 1 or 2")
        }
        guard arcs[0] == 2 || arcs[1] < 40 else {
            throw ASN1Error(.invalidObjectIdentifier, "second arc must be below 40 under arc \(arcs[0])")
        }
        guard arcs[1] <= UInt64.max - 80 else {
            throw ASN1Error(.invalidObjectIdentifier, "second arc overflows the first sub-identifier")
        }
        self.arcs = arcs
    }

    /// For constants written in source. Invalid arcs in a literal are a programming error and stop
    /// the program at first use; decoding input never goes through here.
    public init(arrayLiteral elements: UInt64...) {
        do {
            try self.init(arcs: elements)
        } catch {
            preconditionFailure("invalid OBJECT IDENTIFIER literal \(elements): \(error)")
        }
    }

    /// Parses dotted form, e.g. "1.2.840.113635.100.6.11.1". Each arc is decimal without
    /// leading zeros (except "0" itself) and must fit 64 bits.
    public init(dotted: String) throws(ASN1Error) {
        var arcs: [UInt64] = []
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ (48...57).contains($0) }),
                part == "0" || part.first != "0"
            else {
                throw ASN1Error(.invalidObjectIdentifier, "\"\(dotted)\" is not dotted decimal")
            }
            guard let arc = UInt64(part) else {
                throw ASN1Error(.invalidObjectIdentifier, "arc \(part) overflows 64 bits")
            }
            arcs.append(arc)
        }
        try self.init(arcs: arcs)
    }

    /// Decodes an OBJECT IDENTIFIER tagged `identifier`, refusing non-minimal sub-identifiers.
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        // One allocation: arcs are written as they are decoded.
        var decoded: [UInt64] = []
        decoded.reserveCapacity(node.contentBytes.count + 1)
        try ASN1ObjectIdentifier.forEachArc(node, identifier: identifier) { decoded.append($0) }
        arcs = decoded
    }

    /// Checks that `node` is a valid OBJECT IDENTIFIER (the same rules as `init(node:)`, the same
    /// errors) without decoding its arcs into an array: for parsers that keep the encoding and
    /// decode later.
    public static func validate(_ node: ASN1Node, identifier: ASN1Identifier = .objectIdentifier) throws(ASN1Error) {
        try forEachArc(node, identifier: identifier) { _ in }
    }

    /// X.690 8.19: every arc of the OBJECT IDENTIFIER in `node`, in order, the first
    /// sub-identifier split into two arcs (8.19.4) when it completes.
    @inline(__always)
    static func forEachArc(_ node: ASN1Node, identifier: ASN1Identifier, _ body: (UInt64) -> Void) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: false)
        let content = node.contentBytes
        guard !content.isEmpty else { throw node.error(.invalidObjectIdentifier, "OBJECT IDENTIFIER is empty") }
        var value: UInt64 = 0
        var startOfSubidentifier = true
        var first = true
        for (i, byte) in content.enumerated() {
            // 8.19.2: the leading octet of a sub-identifier shall not be 0x80 (minimal form).
            if startOfSubidentifier && byte == 0x80 {
                throw ASN1Error(
                    .invalidObjectIdentifier, "sub-identifier is not minimally encoded",
                    offset: node.offset + i)
            }
            guard value <= (UInt64.max >> 7) else {
                throw ASN1Error(.invalidObjectIdentifier, "arc overflows 64 bits", offset: node.offset + i)
            }
            value = (value << 7) | UInt64(byte & 0x7F)
            startOfSubidentifier = byte & 0x80 == 0
            if startOfSubidentifier {
                if first {
                    let top: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    body(top)
                    body(value - 40 * top)
                    first = false
                } else {
                    body(value)
                }
                value = 0
            }
        }
        guard startOfSubidentifier else {
            throw node.error(.invalidObjectIdentifier, "last sub-identifier is cut short")
        }
    }

    /// Writes the OBJECT IDENTIFIER under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: contentBytes)
    }

    /// The content octets of the DER encoding.
    public var contentBytes: [UInt8] {
        var out: [UInt8] = []
        let subidentifiers = [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2)
        for sub in subidentifiers {
            var groups: [UInt8] = [UInt8(sub & 0x7F)]
            var rest = sub >> 7
            while rest > 0 {
                groups.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            out.append(contentsOf: groups.reversed())
        }
        return out
    }

    /// Dotted decimal.
    public var dotted: String { arcs.map(String.init).joined(separator: ".") }
    /// The dotted form, "1.2.840.10045.2.1".
    public var description: String { dotted }
}
