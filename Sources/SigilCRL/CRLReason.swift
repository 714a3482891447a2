import SigilASN1
import SigilX509

/// CRLReason, the value of the reasonCode CRL entry extension (RFC 5280 §5.3.1):
///
/// ```
/// id-ce-cRLReasons OBJECT IDENTIFIER ::= { id-ce 21 }
/// CRLReason ::= ENUMERATED {
///     unspecified             (0),
///     keyCompromise           (1),
///     cACompromise            (2),
///     affiliationChanged      (3),
///     superseded              (4),
///     cessationOfOperation    (5),
///     certificateHold         (6),
///          -- value 7 is not used
///     removeFromCRL           (8),
///     privilegeWithdrawn      (9),
///     aACompromise           (10) }
/// ```
/// Value 7 and values past 10 are refused; §5.3.1 says unspecified SHOULD NOT be encoded but it
/// is accepted (deployed CRLs carry it).
public enum CRLReason: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 0: no reason given.
    case unspecified = 0
    /// 1: the certificate's key was compromised.
    case keyCompromise = 1
    /// 2: the issuing CA's key was compromised.
    case cACompromise = 2
    /// 3: the subject's name or other information changed.
    case affiliationChanged = 3
    /// 4: the certificate was replaced.
    case superseded = 4
    /// 5: the certificate is no longer needed.
    case cessationOfOperation = 5
    /// 6: the certificate is on hold (it may be taken off the list again).
    case certificateHold = 6
    /// 8: a delta CRL takes a held certificate off the list.
    case removeFromCRL = 8
    /// 9: a privilege the certificate granted was withdrawn.
    case privilegeWithdrawn = 9
    /// 10: the attribute authority's key was compromised.
    case aACompromise = 10

    init(node: ASN1Node) throws(ASN1Error) {
        let value = try ASN1Integer(node: node, identifier: .enumerated)
        guard let number = value.int64Value, let reason = CRLReason(rawValue: Int(number)) else {
            throw node.error(.integerOutOfRange, "CRLReason \(value) is not defined (RFC 5280 §5.3.1)")
        }
        self = reason
    }

    /// The reason's name in RFC 5280.
    public var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .keyCompromise: "keyCompromise"
        case .cACompromise: "cACompromise"
        case .affiliationChanged: "affiliationChanged"
        case .superseded: "superseded"
        case .cessationOfOperation: "cessationOfOperation"
        case .certificateHold: "certificateHold"
        case .removeFromCRL: "removeFromCRL"
        case .privilegeWithdrawn: "privilegeWithdrawn"
        case .aACompromise: "aACompromise"
        }
    }
}

/// ReasonFlags of distribution points and issuingDistributionPoint (RFC 5280 §4.2.1.13):
///
/// ```
/// ReasonFlags ::= BIT STRING {
///     unused                  (0),
///     keyCompromise           (1),
///     cACompromise            (2),
///     affiliationChanged      (3),
///     superseded              (4),
///     cessationOfOperation    (5),
///     certificateHold         (6),
///     privilegeWithdrawn      (7),
///     aACompromise            (8) }
/// ```
/// Held as a mask, bit n for the flag numbered n. The revocation algorithm of §6.3 works with
/// sets of these: `all` is every reason (bits 1–8; "unused" is never a reason).
public struct ReasonFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The mask: bit n for the flag numbered n.
    public let rawValue: UInt16
    /// The flags whose bits (bit n for the flag numbered n) are set in `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// keyCompromise (1).
    public static let keyCompromise = ReasonFlags(rawValue: 1 << 1)
    /// cACompromise (2).
    public static let cACompromise = ReasonFlags(rawValue: 1 << 2)
    /// affiliationChanged (3).
    public static let affiliationChanged = ReasonFlags(rawValue: 1 << 3)
    /// superseded (4).
    public static let superseded = ReasonFlags(rawValue: 1 << 4)
    /// cessationOfOperation (5).
    public static let cessationOfOperation = ReasonFlags(rawValue: 1 << 5)
    /// certificateHold (6).
    public static let certificateHold = ReasonFlags(rawValue: 1 << 6)
    /// privilegeWithdrawn (7).
    public static let privilegeWithdrawn = ReasonFlags(rawValue: 1 << 7)
    /// aACompromise (8).
    public static let aACompromise = ReasonFlags(rawValue: 1 << 8)
    /// Every reason (the "all-reasons" of RFC 5280 §6.3.2).
    public static let all = ReasonFlags(rawValue: 0x1FE)

    static let names = [
        "unused", "keyCompromise", "cACompromise", "affiliationChanged", "superseded",
        "cessationOfOperation", "certificateHold", "privilegeWithdrawn", "aACompromise",
    ]

    /// Decodes the BIT STRING (implicitly tagged `identifier`), strictly: DER has no trailing
    /// zero bits, and no bit past aACompromise may be set.
    init(node: ASN1Node, identifier: ASN1Identifier) throws(ASN1Error) {
        let string = try ASN1BitString(node: node, identifier: identifier)
        guard string.bytes.count <= 2 else {
            throw node.error(.invalidBitString, "ReasonFlags longer than nine bits")
        }
        var value: UInt16 = 0
        for (index, byte) in string.bytes.enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << (8 * index + bit) }
        }
        guard value >> 9 == 0 else { throw node.error(.invalidBitString, "ReasonFlags sets a bit past aACompromise") }
        // X.690 11.2.2: a named bit list has no trailing zero bits in DER.
        if let last = string.bytes.last {
            guard last & (1 << string.unusedBits) != 0 else {
                throw node.error(.invalidBitString, "ReasonFlags has trailing zero bits (not DER)")
            }
        }
        rawValue = value
    }

    /// The reasons DistributionPoint.reasons names (the raw BIT STRING bytes Sigil keeps there).
    init(distributionPointBytes bytes: [UInt8]) {
        var value: UInt16 = 0
        for (index, byte) in bytes.prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << (8 * index + bit) }
        }
        rawValue = value & 0x1FF
    }

    /// The names of the flags set, in flag order.
    public var setNames: [String] { (0..<9).filter { rawValue & (1 << $0) != 0 }.map { ReasonFlags.names[$0] } }
    /// The names of the flags set, comma-separated.
    public var description: String { setNames.joined(separator: ", ") }
}
