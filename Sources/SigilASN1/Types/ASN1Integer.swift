/// INTEGER of any size (X.680 19; X.690 8.3).
///
/// ```
/// INTEGER ::= [UNIVERSAL 2] IMPLICIT INTEGER  -- two's complement, big-endian, fewest octets
/// ```
/// The content octets are kept exactly as received (they are already canonical: X.690 8.3.2
/// requires the fewest octets in BER and DER alike, so a non-minimal INTEGER is rejected by both).
public struct ASN1Integer: ASN1ImplicitlyTaggable, Hashable, Sendable, CustomStringConvertible {
    /// Two's-complement big-endian content octets, minimal, at least one octet.
    public let twosComplementBytes: [UInt8]

    /// INTEGER.
    public static var defaultIdentifier: ASN1Identifier { .integer }

    /// Validates minimal two's-complement content octets.
    public init<Bytes: Collection>(twosComplementBytes bytes: Bytes) throws(ASN1Error) where Bytes.Element == UInt8 {
        let content = Array(bytes)
        try ASN1Integer.checkMinimal(content[...], offset: nil)
        twosComplementBytes = content
    }

    /// The non-negative integer with big-endian magnitude `bytes` (leading zeros ignored).
    public init<Bytes: Collection>(unsignedMagnitude bytes: Bytes) where Bytes.Element == UInt8 {
        var magnitude = Array(bytes.drop { $0 == 0 })
        if magnitude.isEmpty {
            magnitude = [0]
        } else if let first = magnitude.first, first & 0x80 != 0 {
            magnitude.insert(0, at: 0)
        }
        twosComplementBytes = magnitude
    }

    /// The INTEGER `value`, in its minimal two's-complement form.
    public init(_ value: Int64) {
        var bytes: [UInt8] = []
        var v = value
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        } while !(v == 0 && bytes[bytes.count - 1] & 0x80 == 0) && !(v == -1 && bytes[bytes.count - 1] & 0x80 != 0)
        twosComplementBytes = bytes.reversed()
    }

    /// The INTEGER `value`, in its minimal two's-complement form.
    public init(_ value: Int) { self.init(Int64(value)) }

    /// Decodes an INTEGER tagged `identifier`, refusing a non-minimal encoding.
    public init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        try ASN1.expect(node, identifier, constructed: false)
        try ASN1Integer.checkMinimal(node.contentBytes, offset: node.offset)
        twosComplementBytes = Array(node.contentBytes)
    }

    /// X.690 8.3.1–8.3.2.
    static func checkMinimal(_ content: ArraySlice<UInt8>, offset: Int?) throws(ASN1Error) {
        guard let first = content.first else {
            throw ASN1Error(.invalidInteger, "INTEGER has no content octets", offset: offset)
        }
        // 8.3.2: the first nine bits shall not all be ones, and shall not all be zero.
        if content.count > 1 {
            let second = content[content.startIndex + 1]
            if (first == 0xFF && second & 0x80 != 0) || (first == 0x00 && second & 0x80 == 0) {
                throw ASN1Error(.invalidInteger, "INTEGER is not in its fewest octets", offset: offset)
            }
        }
    }

    /// Writes the INTEGER under `identifier`.
    public func encode(into writer: inout DERWriter, identifier: ASN1Identifier) {
        writer.appendPrimitive(identifier, content: twosComplementBytes)
    }

    /// Whether the value is below zero.
    public var isNegative: Bool { (twosComplementBytes.first ?? 0) & 0x80 != 0 }

    /// The big-endian magnitude of a non-negative value (no sign octet; empty for zero), or nil
    /// for a negative value.
    public var unsignedMagnitude: [UInt8]? {
        guard !isNegative else { return nil }
        return Array(twosComplementBytes.drop { $0 == 0 })
    }

    /// The value as `Int64`, or nil when it does not fit.
    public var int64Value: Int64? {
        guard twosComplementBytes.count <= 8 else { return nil }
        var value: Int64 = isNegative ? -1 : 0
        for byte in twosComplementBytes { value = (value << 8) | Int64(byte) }
        return value
    }

    /// The value as `Int`, throwing ``ASN1Error/Code/integerOutOfRange`` when it does not fit.
    public func intValue() throws(ASN1Error) -> Int {
        guard let value = int64Value, let int = Int(exactly: value) else {
            throw ASN1Error(.integerOutOfRange, "INTEGER of \(twosComplementBytes.count) octets does not fit Int")
        }
        return int
    }

    /// The value in decimal when it fits 64 bits, else in hexadecimal.
    public var description: String {
        if let value = int64Value { return String(value) }
        return "0x" + twosComplementBytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
