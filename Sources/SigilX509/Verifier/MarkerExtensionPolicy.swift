import SigilASN1

/// A chain of a fixed shape whose certificates carry given marker extensions: "the leaf carries
/// OID x, the certificate above it OID y, and the chain has exactly n certificates". Generic: an
/// issuer's profile (for example Apple's signed-data and receipt chains, defined where Apple's
/// data is handled: `MarkerExtensionPolicy.appleSignedData` in SigilAppStore,
/// `MarkerExtensionPolicy.appleReceipt` in SigilPKCS7) is a value of this type.
///
/// It adds rules to a verification and removes none: the RFC 5280 basics always run
/// (``CertificateVerifier``). The marker extensions it names count as handled when critical.
public struct MarkerExtensionPolicy: CertificatePolicy {
    /// One certificate position (0 = the leaf, 1 = its issuer, …) that must carry an extension.
    public struct Requirement: Sendable, Hashable {
        /// 0 for the leaf, counting up towards the trust anchor.
        public let position: Int
        /// The extension the certificate must carry (its value is not read).
        public let oid: ASN1ObjectIdentifier
        /// What the certificate is, for reports ("the WWDR intermediate").
        public let role: String

        /// The certificate at `position` (0 = leaf) must carry `oid`; `role` names it in reports.
        public init(position: Int, oid: ASN1ObjectIdentifier, role: String) {
            self.position = position
            self.oid = oid
            self.role = role
        }
    }

    /// The profile's name, also the rule reported with its failures ("Apple signed data").
    public let name: String
    /// The exact number of certificates, trust anchor included; nil for any length.
    public let chainLength: Int?
    /// The markers, by position.
    public let requirements: [Requirement]

    /// A profile named `name`: chains of exactly `chainLength` certificates (nil: any), each
    /// requirement's certificate carrying its marker.
    public init(name: String, chainLength: Int?, requirements: [Requirement]) {
        self.name = name
        self.chainLength = chainLength
        self.requirements = requirements
    }

    /// The markers: a critical marker extension is understood by this policy.
    public var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { Set(requirements.map { $0.oid }) }

    /// The failures of `chain` (leaf first, trust anchor last): a length other than
    /// ``chainLength``, and each required marker that is missing.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        if let chainLength, chain.count != chainLength {
            return [.chainLengthMismatch(policy: name, expected: chainLength, found: chain.count)]
        }
        var failures: [ValidationFailure] = []
        for requirement in requirements {
            guard requirement.position < chain.count else {
                failures.append(.chainLengthMismatch(policy: name, expected: requirement.position + 1, found: chain.count))
                continue
            }
            let certificate = chain[requirement.position]
            if certificate.extension(requirement.oid) == nil {
                failures.append(
                    .missingMarkerExtension(
                        certificate: PathCertificate(certificate, position: requirement.position), role: requirement.role,
                        oid: requirement.oid, policy: name))
            }
        }
        return failures
    }
}
