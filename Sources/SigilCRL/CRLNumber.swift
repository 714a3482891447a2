import SigilASN1
import SigilBase
import SigilX509

/// The cRLNumber CRL extension and the deltaCRLIndicator's base number (RFC 5280 §5.2.3–§5.2.4):
///
/// ```
/// id-ce-cRLNumber OBJECT IDENTIFIER ::= { id-ce 20 }
/// CRLNumber ::= INTEGER (0..MAX)
/// id-ce-deltaCRLIndicator OBJECT IDENTIFIER ::= { id-ce 27 }
/// BaseCRLNumber ::= CRLNumber
/// ```
/// Non-negative and at most 20 octets (§5.2.3: conforming CAs do not use longer values and
/// validators must handle up to 20); compared as unsigned integers.
public struct CRLNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The big-endian magnitude without leading zeros (empty for zero).
    public let magnitude: [UInt8]

    /// A CRL number with this big-endian magnitude (leading zeros dropped).
    public init<Bytes: Collection>(magnitude bytes: Bytes) where Bytes.Element == UInt8 {
        magnitude = Array(bytes.drop { $0 == 0 })
    }

    init(node: ASN1Node) throws(ASN1Error) {
        let value = try ASN1Integer(node: node)
        guard let magnitude = value.unsignedMagnitude else {
            throw node.error(.integerOutOfRange, "CRLNumber is negative (RFC 5280 §5.2.3: INTEGER (0..MAX))")
        }
        guard value.twosComplementBytes.count <= 20 else {
            throw node.error(.integerOutOfRange, "CRLNumber of \(value.twosComplementBytes.count) octets exceeds 20 (RFC 5280 §5.2.3)")
        }
        self.magnitude = magnitude
    }

    /// Numeric order (as unsigned integers).
    public static func < (lhs: CRLNumber, rhs: CRLNumber) -> Bool {
        if lhs.magnitude.count != rhs.magnitude.count { return lhs.magnitude.count < rhs.magnitude.count }
        return lhs.magnitude.lexicographicallyPrecedes(rhs.magnitude)
    }

    /// Decimal when it fits 64 bits, otherwise 0x-prefixed hex.
    public var description: String {
        guard magnitude.count <= 8 else { return "0x" + Base16.encode(magnitude) }
        var value: UInt64 = 0
        for byte in magnitude { value = value << 8 | UInt64(byte) }
        return String(value)
    }
}
