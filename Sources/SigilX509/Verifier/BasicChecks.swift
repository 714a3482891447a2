import SigilASN1

/// The RFC 5280 §6.1 basics ``CertificateVerifier`` applies to every candidate chain itself,
/// whatever policies it is given: validity, issuers are CAs, pathLenConstraint, keyCertSign on
/// issuers, and no unhandled critical extension.
enum BasicChecks {
    /// The critical extensions the basics and ``RFC5280Policy`` process, or that carry no
    /// constraint Sigil ignores: basicConstraints, keyUsage, extKeyUsage (processed by
    /// purpose-specific policies), subjectAltName, certificatePolicies, the key identifiers,
    /// nameConstraints, policyMappings, policyConstraints, inhibitAnyPolicy.
    static let understood: Set<ASN1ObjectIdentifier> = [
        X509OIDs.basicConstraints, X509OIDs.keyUsage, X509OIDs.extKeyUsage, X509OIDs.subjectAltName,
        X509OIDs.certificatePolicies, X509OIDs.subjectKeyIdentifier, X509OIDs.authorityKeyIdentifier,
        X509OIDs.nameConstraints, X509OIDs.policyMappings, X509OIDs.policyConstraints, X509OIDs.inhibitAnyPolicy,
    ]

    /// Whether a critical extension `oid` is handled: by the basics, or declared by one of
    /// `policies` (the union of every policy's ``CertificatePolicy/handledCriticalExtensions``).
    static func isHandled(_ oid: ASN1ObjectIdentifier, by policies: [AnyCertificatePolicy]) -> Bool {
        understood.contains(oid) || policies.contains { $0.handledCriticalExtensions.contains(oid) }
    }

    /// The basic failures of `chain` (leaf first, trust anchor last) at `time`; critical
    /// extensions are checked against the basics and `policies`.
    static func failures(of chain: [Certificate], at time: Int64, policies: [AnyCertificatePolicy]) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for (index, certificate) in chain.enumerated() {
            // The subject's RFC 4514 string is built only when a failure needs it.
            var named: PathCertificate { PathCertificate(certificate, position: index) }
            if time > certificate.validity.notAfter {
                failures.append(.expired(certificate: named, notAfter: certificate.validity.notAfter, time: time))
            }
            if time < certificate.validity.notBefore {
                failures.append(.notYetValid(certificate: named, notBefore: certificate.validity.notBefore, time: time))
            }
            for e in certificate.extensions where e.critical && !isHandled(e.oid, by: policies) {
                failures.append(.unhandledCriticalExtension(certificate: named, oid: e.oid))
            }
            guard index > 0 else { continue }
            // An issuer: must be a CA, may limit the intermediates below it, must be allowed to sign certificates.
            let isTrustAnchor = index == chain.count - 1
            if let constraints = certificate.basicConstraints {
                if !constraints.isCA { failures.append(.notACA(certificate: named)) }
                if let limit = constraints.pathLengthConstraint {
                    // Non-self-issued intermediates strictly between this CA and the leaf.
                    let below = chain[1..<index].filter { !$0.isSelfIssued }.count
                    if below > limit { failures.append(.pathLengthExceeded(certificate: named, constraint: limit, below: below)) }
                }
            } else if !(isTrustAnchor && certificate.version < 3) {
                failures.append(.notACA(certificate: named))
            }
            if let usage = certificate.keyUsage, !usage.keyCertSign {
                failures.append(.missingKeyCertSign(certificate: named))
            }
        }
        return failures
    }
}
