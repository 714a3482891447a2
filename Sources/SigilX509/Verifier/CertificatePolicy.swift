import SigilASN1
import SigilKeys
import SigilCore

/// A rule a complete candidate chain must satisfy. Policies are values and compose: the verifier
/// runs every policy it is given on each candidate chain [leaf, …, trusted root] (signatures are
/// already checked while the path is built) and accepts the first chain with no failure.
public protocol CertificatePolicy: Sendable {
    /// A short name for reports ("RFC 5280", "Apple signed data").
    var name: String { get }
    /// Critical extensions this policy processes, so the RFC 5280 policy does not reject them.
    var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { get }
    /// Every failure of `chain` (leaf first, trusted root last) at `time` (seconds since the epoch).
    func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure]
}

extension CertificatePolicy {
    public var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { [] }
}

/// The RFC 5280 §6.1 basics Sigil checks on every chain: validity of every certificate at the
/// validation time (§6.1.3 (a)(2)), issuers are CAs (§6.1.4 (k); a v1/v2 trust anchor is taken as
/// one), pathLenConstraint (§6.1.4 (l)–(m), self-issued intermediates not counted), keyUsage
/// keyCertSign on issuers when keyUsage is present (§6.1.4 (n)), and no critical extension left
/// unhandled (§6.1.4 (o)). Name chaining and signatures are checked while the path is built.
/// Not implemented (and so not claimed): certificate policy processing (§6.1.3 (d)–(f)), name
/// constraints enforcement, and revocation (OCSP is a separate policy).
public struct RFC5280Policy: CertificatePolicy {
    public let name = "RFC 5280"

    /// The critical extensions the RFC 5280 checks here process or that carry no constraint Sigil
    /// ignores: basicConstraints, keyUsage, extKeyUsage (processed by purpose-specific policies),
    /// subjectAltName, certificatePolicies (no policy OIDs are required by any Sigil policy).
    static let understood: Set<ASN1ObjectIdentifier> = [
        X509OIDs.basicConstraints, X509OIDs.keyUsage, X509OIDs.extKeyUsage, X509OIDs.subjectAltName,
        X509OIDs.certificatePolicies, X509OIDs.subjectKeyIdentifier, X509OIDs.authorityKeyIdentifier,
    ]

    /// Extensions other policies in the same verification declare they handle.
    public var alsoHandled: Set<ASN1ObjectIdentifier>

    /// RFC 5280 checks; `alsoHandled` lists critical extensions another policy in the same verification processes.
    public init(alsoHandled: Set<ASN1ObjectIdentifier> = []) { self.alsoHandled = alsoHandled }

    /// The failures of `chain` (leaf first, root last) at `time`; empty when it meets the policy.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for (index, certificate) in chain.enumerated() {
            // The RFC 4514 string is built only when a failure needs it.
            var subject: String { certificate.subject.rfc4514String }
            if time > certificate.validity.notAfter {
                failures.append(.expired(subject: subject, notAfter: certificate.validity.notAfter, time: time))
            }
            if time < certificate.validity.notBefore {
                failures.append(.notYetValid(subject: subject, notBefore: certificate.validity.notBefore, time: time))
            }
            for e in certificate.extensions where e.critical && !RFC5280Policy.understood.contains(e.oid) && !alsoHandled.contains(e.oid) {
                failures.append(.unhandledCriticalExtension(subject: subject, oid: e.oid))
            }
            guard index > 0 else { continue }
            // An issuer: must be a CA, may limit the intermediates below it, must be allowed to sign certificates.
            let isTrustAnchor = index == chain.count - 1
            if let constraints = certificate.basicConstraints {
                if !constraints.isCA { failures.append(.notACA(subject: subject)) }
                if let limit = constraints.pathLengthConstraint {
                    // Non-self-issued intermediates strictly between this CA and the leaf.
                    let below = chain[1..<index].filter { !$0.isSelfIssued }.count
                    if below > limit { failures.append(.pathLengthExceeded(subject: subject, constraint: limit, below: below)) }
                }
            } else if !(isTrustAnchor && certificate.version < 3) {
                failures.append(.notACA(subject: subject))
            }
            if let usage = certificate.keyUsage, !usage.keyCertSign {
                failures.append(.missingKeyCertSign(subject: subject))
            }
        }
        return failures
    }
}

/// Apple's signed-data policy (App Store Server API JWS x5c; Apple's App Store Server Library):
/// exactly leaf → intermediate → trusted root; the intermediate carries
/// 1.2.840.113635.100.6.2.1 and the leaf 1.2.840.113635.100.6.11.1. The root is whichever
/// trusted root the path reached: a root the message carried is never trusted for being there.
public struct AppleSignedDataPolicy: CertificatePolicy {
    public let name = "Apple signed data"
    /// Apple's signed-data policy: chain of three, WWDR intermediate marker, receipt-signing leaf marker.
    public init() {}

    /// The failures of `chain` (leaf first, root last) at `time`; empty when it meets the policy.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        guard chain.count == 3 else {
            return [.policy(name: name, reason: "the chain must be leaf → intermediate → root, found \(chain.count) certificates")]
        }
        if chain[1].extension(X509OIDs.appleWWDRIntermediate) == nil {
            failures.append(.policy(name: name, reason: "the intermediate lacks OID 1.2.840.113635.100.6.2.1"))
        }
        if chain[0].extension(X509OIDs.appleAppStoreReceiptSigning) == nil {
            failures.append(.policy(name: name, reason: "the leaf lacks OID 1.2.840.113635.100.6.11.1"))
        }
        return failures
    }
}

/// The PKCS#7 receipt policy: receipt signing leaf → Apple WWDR intermediate → Apple Root CA,
/// exactly three certificates, the leaf carrying 1.2.840.113635.100.6.11.1 and the intermediate
/// 1.2.840.113635.100.6.2.1 (the markers Apple's receipt-era WWDR CAs and signing leaves carry).
public struct AppleReceiptPolicy: CertificatePolicy {
    public let name = "Apple receipt"
    /// Apple's receipt policy: the signer under a WWDR intermediate, with Apple's receipt OIDs.
    public init() {}

    /// The failures of `chain` (leaf first, root last) at `time`; empty when it meets the policy.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        guard chain.count == 3 else {
            return [.policy(name: name, reason: "the chain must be signer → WWDR intermediate → Apple root, found \(chain.count) certificates")]
        }
        if chain[1].extension(X509OIDs.appleWWDRIntermediate) == nil {
            failures.append(.policy(name: name, reason: "the intermediate lacks OID 1.2.840.113635.100.6.2.1"))
        }
        if chain[0].extension(X509OIDs.appleAppStoreReceiptSigning) == nil {
            failures.append(.policy(name: name, reason: "the signer lacks OID 1.2.840.113635.100.6.11.1"))
        }
        return failures
    }
}
