import SigilASN1

/// DistributionPoint of cRLDistributionPoints (RFC 5280 §4.2.1.13), implicit tags:
///
/// ```
/// DistributionPoint ::= SEQUENCE {
///     distributionPoint [0] DistributionPointName OPTIONAL,
///     reasons           [1] ReasonFlags OPTIONAL,
///     cRLIssuer         [2] GeneralNames OPTIONAL }
/// DistributionPointName ::= CHOICE {
///     fullName                [0] GeneralNames,
///     nameRelativeToCRLIssuer [1] RelativeDistinguishedName }
/// ```
/// (a DistributionPoint must not consist of reasons alone).
public struct DistributionPoint: Hashable, Sendable {
    /// distributionPoint's fullName (URIs, typically), when given.
    public let fullName: [GeneralName]?
    /// nameRelativeToCRLIssuer, kept as its encoding.
    public let nameRelativeToCRLIssuer: [UInt8]?
    /// ReasonFlags bits, kept as the BIT STRING's bytes.
    public let reasons: [UInt8]?
    /// cRLIssuer: who issues the CRL when it is not the certificate's issuer (indirect CRLs).
    public let cRLIssuer: [GeneralName]?

    package init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        var full: [GeneralName]?
        var relative: [UInt8]?
        if let point = reader.nextIfPresent(.contextSpecific(0)) {
            let choice = try ASN1.explicitInner(point, tag: .contextSpecific(0))
            switch choice.identifier {
            case .contextSpecific(0): full = try GeneralName.names(choice, identifier: .contextSpecific(0))
            case .contextSpecific(1):
                try ASN1.expect(choice, .contextSpecific(1), constructed: true)
                relative = Array(choice.encodedBytes)
            default: throw choice.error(.unexpectedTag, "DistributionPointName must be [0] or [1]")
            }
        }
        var reasons: [UInt8]?
        if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
            reasons = try ASN1BitString(node: tagged, identifier: .contextSpecific(1)).bytes
        }
        var issuer: [GeneralName]?
        if let tagged = reader.nextIfPresent(.contextSpecific(2)) {
            issuer = try GeneralName.names(tagged, identifier: .contextSpecific(2))
        }
        guard full != nil || relative != nil || issuer != nil else {
            throw node.error(.unexpectedElementCount, "a DistributionPoint needs a distributionPoint or a cRLIssuer")
        }
        try reader.finish()
        (fullName, nameRelativeToCRLIssuer, self.reasons, cRLIssuer) = (full, relative, reasons, issuer)
    }

    /// Every check of `init(node:)`, in the same order and with the same errors, building as little as possible.
    static func validate(_ node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        var named = false
        if let point = reader.nextIfPresent(.contextSpecific(0)) {
            let choice = try ASN1.explicitInner(point, tag: .contextSpecific(0))
            switch choice.identifier {
            case .contextSpecific(0): try GeneralName.validateNames(choice, identifier: .contextSpecific(0))
            case .contextSpecific(1): try ASN1.expect(choice, .contextSpecific(1), constructed: true)
            default: throw choice.error(.unexpectedTag, "DistributionPointName must be [0] or [1]")
            }
            named = true
        }
        if let reasons = reader.nextIfPresent(.contextSpecific(1)) {
            _ = try ASN1BitString(node: reasons, identifier: .contextSpecific(1))
        }
        let issuer = reader.nextIfPresent(.contextSpecific(2))
        if let issuer { try GeneralName.validateNames(issuer, identifier: .contextSpecific(2)) }
        guard named || issuer != nil else {
            throw node.error(.unexpectedElementCount, "a DistributionPoint needs a distributionPoint or a cRLIssuer")
        }
        try reader.finish()
    }

    /// The URIs of the full name.
    public var uris: [String] {
        (fullName ?? []).compactMap { if case .uniformResourceIdentifier(let uri) = $0 { uri } else { nil } }
    }
}
