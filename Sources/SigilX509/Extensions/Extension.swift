import SigilASN1

/// Extension (RFC 5280 §4.1 / §4.2):
///
/// ```
/// Extension ::= SEQUENCE {
///     extnID      OBJECT IDENTIFIER,
///     critical    BOOLEAN DEFAULT FALSE,
///     extnValue   OCTET STRING }  -- the DER of the extension's own type
/// ```
/// Every extension is kept (OID, critical flag, raw value); `value` holds the decoded form for
/// the types Sigil knows. Under DER a FALSE critical flag is omitted, so an encoded FALSE is an error.
public struct Extension: Hashable, Sendable {
    public let oid: ASN1ObjectIdentifier
    public let critical: Bool
    /// The extnValue OCTET STRING's content (the extension's DER).
    public let rawValue: [UInt8]
    public let value: ExtensionValue

    /// Parses one Extension (RFC 5280 §4.1): extnID, critical (DEFAULT FALSE, so never encoded FALSE in DER), extnValue.
    public init(node: ASN1Node) throws {
        (oid, critical, rawValue) = try ASN1.sequence(node) { reader in
            let oid = try ASN1ObjectIdentifier(node: reader.next(.objectIdentifier))
            var critical = false
            if let flag = reader.nextIfPresent(.boolean) {
                critical = try Bool(node: flag)
                guard critical else {
                    throw flag.error(.invalidBoolean, "extension \(oid) encodes critical FALSE, its DEFAULT (X.690 11.5)")
                }
            }
            return (oid, critical, try ASN1OctetString(node: reader.next(.octetString)).bytes)
        }
        do {
            value = try ExtensionValue(oid: oid, der: rawValue)
        } catch {
            throw x509Error(error, context: "extension \(X509OIDs.name(oid) ?? oid.dotted)", code: .invalidExtension)
        }
    }

    public var name: String { X509OIDs.name(oid) ?? oid.dotted }
}

/// The decoded value of an extension Sigil knows; `.unknown` for the others (kept raw in the
/// Extension).
public enum ExtensionValue: Hashable, Sendable {
    case basicConstraints(BasicConstraints)
    case keyUsage(KeyUsage)
    case extendedKeyUsage([ASN1ObjectIdentifier])
    case subjectKeyIdentifier([UInt8])
    case authorityKeyIdentifier(AuthorityKeyIdentifier)
    case authorityInfoAccess([AccessDescription])
    case cRLDistributionPoints([DistributionPoint])
    case certificatePolicies([PolicyInformation])
    case subjectAltName([GeneralName])
    case issuerAltName([GeneralName])
    case nameConstraints(NameConstraints)
    case policyMappings(PolicyMappings)
    case policyConstraints(PolicyConstraints)
    case inhibitAnyPolicy(InhibitAnyPolicy)
    case unknown

    /// A list, not a set: a few comparisons of short arrays cost less than hashing the OID.
    static let known: [ASN1ObjectIdentifier] = [
        X509OIDs.basicConstraints, X509OIDs.keyUsage, X509OIDs.extKeyUsage, X509OIDs.subjectKeyIdentifier,
        X509OIDs.authorityKeyIdentifier, X509OIDs.authorityInfoAccess, X509OIDs.cRLDistributionPoints,
        X509OIDs.certificatePolicies, X509OIDs.subjectAltName, X509OIDs.issuerAltName, X509OIDs.nameConstraints,
        X509OIDs.policyMappings, X509OIDs.policyConstraints, X509OIDs.inhibitAnyPolicy,
    ]

    init(oid: ASN1ObjectIdentifier, der: [UInt8]) throws {
        // Unknown extensions are never parsed: their bytes need not even be DER.
        guard ExtensionValue.known.contains(oid) else {
            self = .unknown
            return
        }
        let node = try DER.parse(der)
        switch oid {
        case X509OIDs.basicConstraints: self = .basicConstraints(try BasicConstraints(node: node))
        case X509OIDs.keyUsage: self = .keyUsage(try KeyUsage(node: node))
        case X509OIDs.extKeyUsage:
            let purposes = try ASN1.sequenceOf(node) { try ASN1ObjectIdentifier(node: $0) }
            guard !purposes.isEmpty else { throw node.error(.unexpectedElementCount, "extKeyUsage must not be empty") }
            self = .extendedKeyUsage(purposes)
        case X509OIDs.subjectKeyIdentifier: self = .subjectKeyIdentifier(try ASN1OctetString(node: node).bytes)
        case X509OIDs.authorityKeyIdentifier: self = .authorityKeyIdentifier(try AuthorityKeyIdentifier(node: node))
        case X509OIDs.authorityInfoAccess:
            let descriptions = try ASN1.sequenceOf(node) { try AccessDescription(node: $0) }
            guard !descriptions.isEmpty else { throw node.error(.unexpectedElementCount, "authorityInfoAccess must not be empty") }
            self = .authorityInfoAccess(descriptions)
        case X509OIDs.cRLDistributionPoints:
            let points = try ASN1.sequenceOf(node) { try DistributionPoint(node: $0) }
            guard !points.isEmpty else { throw node.error(.unexpectedElementCount, "cRLDistributionPoints must not be empty") }
            self = .cRLDistributionPoints(points)
        case X509OIDs.certificatePolicies:
            let policies = try ASN1.sequenceOf(node) { try PolicyInformation(node: $0) }
            guard !policies.isEmpty else { throw node.error(.unexpectedElementCount, "certificatePolicies must not be empty") }
            guard Set(policies.map(\.identifier)).count == policies.count else {
                throw node.error(.unexpectedElementCount, "a policy identifier appears twice (RFC 5280 §4.2.1.4)")
            }
            self = .certificatePolicies(policies)
        case X509OIDs.subjectAltName: self = .subjectAltName(try GeneralName.names(node))
        case X509OIDs.issuerAltName: self = .issuerAltName(try GeneralName.names(node))
        case X509OIDs.policyMappings: self = .policyMappings(try PolicyMappings(node: node))
        case X509OIDs.policyConstraints: self = .policyConstraints(try PolicyConstraints(node: node))
        case X509OIDs.inhibitAnyPolicy: self = .inhibitAnyPolicy(try InhibitAnyPolicy(node: node))
        default: self = .nameConstraints(try NameConstraints(node: node))
        }
    }
}
