import SigilASN1

/// AuthorityKeyIdentifier (RFC 5280 §4.2.1.1):
///
/// ```
/// AuthorityKeyIdentifier ::= SEQUENCE {
///     keyIdentifier             [0] KeyIdentifier           OPTIONAL,
///     authorityCertIssuer       [1] GeneralNames            OPTIONAL,
///     authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL }
/// ```
/// (implicit tags; issuer and serial come together or not at all).
public struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// keyIdentifier: the issuer's subjectKeyIdentifier, when given.
    public let keyIdentifier: [UInt8]?
    /// authorityCertIssuer, when given.
    public let authorityCertIssuer: [GeneralName]?
    /// The serial's two's-complement bytes.
    public let authorityCertSerialNumber: [UInt8]?

    init(node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        var key: [UInt8]?
        if let tagged = reader.nextIfPresent(.contextSpecific(0)) {
            key = try ASN1OctetString(node: tagged, identifier: .contextSpecific(0)).bytes
        }
        var issuer: [GeneralName]?
        if let tagged = reader.nextIfPresent(.contextSpecific(1)) {
            issuer = try GeneralName.names(tagged, identifier: .contextSpecific(1))
        }
        var serial: [UInt8]?
        if let tagged = reader.nextIfPresent(.contextSpecific(2)) {
            serial = try ASN1Integer(node: tagged, identifier: .contextSpecific(2)).twosComplementBytes
        }
        guard (issuer == nil) == (serial == nil) else {
            throw node.error(
                .unexpectedElementCount, "authorityCertIssuer and authorityCertSerialNumber must both be present or both absent")
        }
        try reader.finish()
        (keyIdentifier, authorityCertIssuer, authorityCertSerialNumber) = (key, issuer, serial)
    }

    /// Every check of `init(node:)`, in the same order and with the same errors, building as little as possible.
    static func validate(_ node: ASN1Node) throws(ASN1Error) {
        var reader = try ASN1SequenceReader(checking: node, identifier: .sequence)
        if let key = reader.nextIfPresent(.contextSpecific(0)) {
            _ = try ASN1OctetString.content(of: key, identifier: .contextSpecific(0))
        }
        let issuer = reader.nextIfPresent(.contextSpecific(1))
        if let issuer { try GeneralName.validateNames(issuer, identifier: .contextSpecific(1)) }
        let serial = reader.nextIfPresent(.contextSpecific(2))
        if let serial { _ = try ASN1Integer(node: serial, identifier: .contextSpecific(2)) }
        guard (issuer == nil) == (serial == nil) else {
            throw node.error(
                .unexpectedElementCount, "authorityCertIssuer and authorityCertSerialNumber must both be present or both absent")
        }
        try reader.finish()
    }
}
