import SigilASN1

/// BasicConstraints (RFC 5280 §4.2.1.9):
///
/// ```
/// BasicConstraints ::= SEQUENCE {
///     cA                      BOOLEAN DEFAULT FALSE,
///     pathLenConstraint       INTEGER (0..MAX) OPTIONAL }
/// ```
public struct BasicConstraints: Hashable, Sendable {
    /// cA: whether the subject is a CA.
    public let isCA: Bool
    /// pathLenConstraint: the most non-self-issued intermediates that may follow, when given.
    public let pathLengthConstraint: Int?

    /// basicConstraints with cA and an optional pathLenConstraint.
    public init(isCA: Bool, pathLengthConstraint: Int? = nil) {
        self.isCA = isCA
        self.pathLengthConstraint = pathLengthConstraint
    }

    init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        var ca = false
        if let flag = reader.nextIfPresent(.boolean) {
            ca = try Bool(node: flag)
            guard ca else { throw flag.error(.invalidBoolean, "cA encodes FALSE, its DEFAULT (X.690 11.5)") }
        }
        var length: Int?
        if let value = reader.nextIfPresent(.integer) {
            let n = try ASN1Integer(node: value).intValue()
            guard n >= 0 else { throw value.error(.integerOutOfRange, "pathLenConstraint is negative") }
            length = n
        }
        try reader.finish()
        (isCA, pathLengthConstraint) = (ca, length)
    }
}
