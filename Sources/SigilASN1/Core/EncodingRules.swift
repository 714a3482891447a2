/// Which ASN.1 encoding rules a parse enforces (X.690).
///
/// DER (clause 10–11) is the default everywhere. BER (clause 8) is reachable only through
/// `BER.parse(_:limits:)`, which exists for PKCS#7 app receipts. Every relaxation BER allows is
/// one named predicate here, so the parser has no scattered `if ber` checks.
public enum ASN1EncodingRules: Sendable, Hashable {
    /// DER (X.690 clauses 10–11).
    case distinguished
    /// BER (X.690 clause 8).
    case basic

    /// X.690 8.1.3.6 indefinite form; DER 10.1 forbids it.
    var allowsIndefiniteLength: Bool { self == .basic }
    /// X.690 8.1.3.5 Note 2 allows extra length octets; DER 10.1 requires the fewest.
    var allowsNonMinimalLength: Bool { self == .basic }
    /// X.690 8.6.3 / 8.7.3 / 8.23 segmented strings; DER 10.2 requires primitive strings.
    var allowsConstructedStrings: Bool { self == .basic }
    /// X.690 8.2.2 any non-zero octet is TRUE; DER 11.1 requires 0xFF.
    var allowsAnyNonZeroTrue: Bool { self == .basic }
    /// X.690 11.2.1 DER requires BIT STRING unused bits to be zero; BER does not.
    var allowsNonZeroUnusedBits: Bool { self == .basic }
    /// X.690 11.6 DER sorts SET OF elements; BER does not.
    var requiresSortedSetOf: Bool { self == .distinguished }
}

/// Resource bounds for one parse. The defaults suit certificates, OCSP responses and receipts.
///
/// Memory use is bounded by the input: one parse keeps the input plus one record (about 72
/// bytes) per element, and `maximumElements` caps the records.
public struct ASN1ParseLimits: Sendable, Hashable {
    /// The parser recurses once per nesting level; no limit above this is honoured, so a caller
    /// cannot configure a stack overflow.
    public static let depthCeiling = 256

    /// Deepest nesting accepted (the outermost element is depth 1), at most ``depthCeiling``.
    public var maximumDepth: Int
    /// Largest input accepted, in bytes.
    public var maximumInputBytes: Int
    /// Most elements (nodes) accepted in one parse.
    public var maximumElements: Int

    /// Limits of `maximumDepth` levels (capped at `depthCeiling`), `maximumInputBytes` bytes and `maximumElements` elements.
    public init(maximumDepth: Int = 50, maximumInputBytes: Int = 16 << 20, maximumElements: Int = 1 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumInputBytes = maximumInputBytes
        self.maximumElements = maximumElements
    }

    /// Depth 50, 16 MiB, 2^20 elements.
    public static let `default` = ASN1ParseLimits()
}
