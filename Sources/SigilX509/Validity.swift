import SigilASN1

/// Validity (RFC 5280 §4.1.2.5):
///
/// ```
/// Validity ::= SEQUENCE { notBefore Time, notAfter Time }
/// Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
/// ```
/// Dates through 2049 are UTCTime (YYMMDDHHMMSSZ, YY ≥ 50 meaning 19YY) and dates from 2050 are
/// GeneralizedTime without fractional seconds (§4.1.2.5.1–2). A GeneralizedTime before 2050 is
/// kept and flagged (`usesGeneralizedTimeBefore2050`), since deployed certificates carry it;
/// fractions and a UTCTime/GeneralizedTime outside DER form are errors.
public struct Validity: Hashable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let notBefore: Int64
    /// Seconds since 1970-01-01T00:00:00Z.
    public let notAfter: Int64
    /// notBefore as encoded.
    public let notBeforeComponents: ASN1TimeComponents
    /// notAfter as encoded.
    public let notAfterComponents: ASN1TimeComponents
    /// Whether a date before 2050 was written as GeneralizedTime (a profile violation deployed certificates carry).
    public let usesGeneralizedTimeBefore2050: Bool

    /// Parses Validity (RFC 5280 §4.1.2.5): UTCTime through 2049, GeneralizedTime from 2050.
    public init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        let (before, beforeFlagged) = try Validity.time(reader.next())
        let (after, afterFlagged) = try Validity.time(reader.next())
        try reader.finish()
        (notBeforeComponents, notAfterComponents) = (before, after)
        notBefore = notBeforeComponents.secondsSinceEpoch
        notAfter = notAfterComponents.secondsSinceEpoch
        usesGeneralizedTimeBefore2050 = beforeFlagged || afterFlagged
    }

    /// One Time, and whether it is a GeneralizedTime before 2050.
    private static func time(_ node: ASN1Node) throws(ASN1Error) -> (ASN1TimeComponents, generalizedBefore2050: Bool) {
        switch node.identifier {
        case .utcTime:
            return (try ASN1UTCTime(node: node).components, false)
        case .generalizedTime:
            let components = try ASN1GeneralizedTime(node: node).components
            guard components.fraction.isEmpty else {
                throw node.error(.invalidTime, "certificate GeneralizedTime must not have fractional seconds (RFC 5280 §4.1.2.5.2)")
            }
            return (components, components.year < 2050)
        default:
            throw node.error(.unexpectedTag, "Time must be UTCTime or GeneralizedTime, found \(node.identifier)")
        }
    }

    /// Whether `time` (seconds since the epoch) is within [notBefore, notAfter] (both inclusive,
    /// RFC 5280 §4.1.2.5).
    public func contains(_ time: Int64) -> Bool { notBefore <= time && time <= notAfter }
}
