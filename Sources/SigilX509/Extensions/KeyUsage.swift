import SigilASN1

/// KeyUsage (RFC 5280 §4.2.1.3): a named BIT STRING; under DER trailing zero bits are removed
/// (X.690 11.2.2), so the encoding is minimal, which is checked.
///
/// ```
/// KeyUsage ::= BIT STRING { digitalSignature (0), nonRepudiation (1), keyEncipherment (2),
///     dataEncipherment (3), keyAgreement (4), keyCertSign (5), cRLSign (6),
///     encipherOnly (7), decipherOnly (8) }
/// ```
public struct KeyUsage: Hashable, Sendable, CustomStringConvertible {
    /// Bit i of the named bit string is `bits & (1 << i)`.
    public let bits: UInt16

    /// The bits' names in RFC 5280 order, bit 0 first.
    public static let names = [
        "digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment",
        "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
    ]

    /// Key usage from its bits (bit 0 = digitalSignature in the high bit of the first byte, as RFC 5280 §4.2.1.3 numbers them).
    public init(bits: UInt16) { self.bits = bits }

    init(node: ASN1Node) throws(ASN1Error) {
        let string = try ASN1BitString(node: node)
        guard string.bytes.count <= 2 else { throw node.error(.invalidBitString, "KeyUsage has more than 9 bits") }
        var value: UInt16 = 0
        for (index, byte) in string.bytes.enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << (8 * index + bit) }
        }
        guard value >> 9 == 0 else { throw node.error(.invalidBitString, "KeyUsage sets a bit past decipherOnly") }
        // DER: no trailing zero bit (the last byte's lowest used bit is 1), and no empty string
        // with set bits.
        if let last = string.bytes.last {
            guard last & (1 << string.unusedBits) != 0 else {
                throw node.error(.invalidBitString, "KeyUsage has trailing zero bits (not DER)")
            }
        }
        bits = value
    }

    /// Whether the usage named as in RFC 5280 ("digitalSignature", "keyCertSign", …) is set.
    public func contains(_ name: String) -> Bool {
        guard let index = KeyUsage.names.firstIndex(of: name) else { return false }
        return bits & (1 << index) != 0
    }

    /// Bit 0: the key verifies signatures other than on certificates and CRLs.
    public var digitalSignature: Bool { bits & 1 != 0 }
    /// Bit 5: the key verifies signatures on certificates.
    public var keyCertSign: Bool { bits & (1 << 5) != 0 }
    /// Bit 6: the key verifies signatures on CRLs.
    public var cRLSign: Bool { bits & (1 << 6) != 0 }

    /// The names of the bits set.
    public var setNames: [String] { KeyUsage.names.indices.filter { bits & (1 << $0) != 0 }.map { KeyUsage.names[$0] } }
    /// The names of the bits set, comma-separated.
    public var description: String { setNames.joined(separator: ", ") }
}
