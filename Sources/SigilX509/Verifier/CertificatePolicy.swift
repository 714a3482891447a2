import SigilASN1
import SigilCore
import SigilKeys

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
    /// The failures and, for a policy that computes them, the valid certificate policies of
    /// `chain` (RFC 5280 §6.1.6). The default reports ``failures(of:at:)`` and no policy set.
    func evaluate(_ chain: [Certificate], at time: Int64) -> PolicyEvaluation
}

/// What one policy found on one chain.
public struct PolicyEvaluation: Sendable {
    public var failures: [ValidationFailure]
    /// The valid certificate policies, from the policy that processes certificatePolicies.
    public var validPolicies: ValidPolicySet?

    /// An evaluation with its failures and, when computed, the valid policy set.
    public init(failures: [ValidationFailure], validPolicies: ValidPolicySet? = nil) {
        self.failures = failures
        self.validPolicies = validPolicies
    }
}

extension CertificatePolicy {
    public var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { [] }

    /// The default evaluation: ``failures(of:at:)`` and no policy set.
    public func evaluate(_ chain: [Certificate], at time: Int64) -> PolicyEvaluation {
        PolicyEvaluation(failures: failures(of: chain, at: time))
    }
}

/// RFC 5280 §6.1 path validation of a candidate chain (name chaining and signatures are checked
/// while the path is built):
/// - validity of every certificate at the validation time (§6.1.3 (a)(2));
/// - name constraints: every name of each certificate within the permitted and outside the
///   excluded subtrees of the CAs above it (§6.1.3 (b)–(c), §6.1.4 (g); see `NameConstraintsCheck`);
/// - certificate policies with the caller's ``PolicySettings`` (§6.1.3 (d)–(f), §6.1.4 (a)–(b),
///   (h)–(j), §6.1.5 (a)–(b), (g)), computed on RFC 9618's policy graph, and the resulting
///   ``ValidPolicySet`` reported through ``evaluate(_:at:)``;
/// - issuers are CAs (§6.1.4 (k); a v1/v2 trust anchor is taken as one), pathLenConstraint
///   (§6.1.4 (l)–(m), self-issued intermediates not counted), keyUsage keyCertSign on issuers
///   when keyUsage is present (§6.1.4 (n)), and no critical extension left unhandled (§6.1.4 (o)).
///
/// The trust anchor (the chain's last certificate) is an input, not part of the path: its
/// name constraints, policies and policy constraints are not applied (§6.1.1 (d)).
/// Revocation (§6.1.3 (a)(3)) is a separate policy (OCSP, CRLs).
public struct RFC5280Policy: CertificatePolicy {
    public let name = "RFC 5280"

    /// The critical extensions the RFC 5280 checks here process or that carry no constraint Sigil
    /// ignores: basicConstraints, keyUsage, extKeyUsage (processed by purpose-specific policies),
    /// subjectAltName, certificatePolicies, policyMappings, policyConstraints, inhibitAnyPolicy,
    /// nameConstraints.
    static let understood: Set<ASN1ObjectIdentifier> = [
        X509OIDs.basicConstraints, X509OIDs.keyUsage, X509OIDs.extKeyUsage, X509OIDs.subjectAltName,
        X509OIDs.certificatePolicies, X509OIDs.subjectKeyIdentifier, X509OIDs.authorityKeyIdentifier,
        X509OIDs.nameConstraints, X509OIDs.policyMappings, X509OIDs.policyConstraints, X509OIDs.inhibitAnyPolicy,
    ]

    /// Extensions other policies in the same verification declare they handle.
    public var alsoHandled: Set<ASN1ObjectIdentifier>
    /// The certificate-policy inputs (RFC 5280 §6.1.1 (c), (e)–(g)).
    public var policySettings: PolicySettings
    /// Bound on the policy graph: nodes, edges and expected-policy entries created per chain.
    public var maximumPolicyGraphSize: Int
    /// Bound on name-constraint checking: (name, subtree) comparisons per chain.
    public var maximumNameConstraintComparisons: Int

    /// RFC 5280 checks; `alsoHandled` lists critical extensions another policy in the same
    /// verification processes; `policySettings` the relying party's policy inputs.
    public init(
        alsoHandled: Set<ASN1ObjectIdentifier> = [], policySettings: PolicySettings = PolicySettings(),
        maximumPolicyGraphSize: Int = 10_000, maximumNameConstraintComparisons: Int = 100_000
    ) {
        self.alsoHandled = alsoHandled
        self.policySettings = policySettings
        self.maximumPolicyGraphSize = maximumPolicyGraphSize
        self.maximumNameConstraintComparisons = maximumNameConstraintComparisons
    }

    /// The failures of `chain` (leaf first, root last) at `time`; empty when it meets the policy.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        evaluate(chain, at: time).failures
    }

    /// The failures of `chain` (leaf first, root last) at `time`, and its valid policy set when
    /// policy processing succeeded.
    public func evaluate(_ chain: [Certificate], at time: Int64) -> PolicyEvaluation {
        var failures = basicFailures(of: chain, at: time)
        // RFC 5280 numbering: certificate 1 is issued by the trust anchor, certificate n is the leaf.
        let path = Array(chain.dropLast().reversed())
        failures += nameConstraintFailures(of: path)
        let policies = PolicyGraph.process(path, settings: policySettings, limit: maximumPolicyGraphSize)
        failures += policies.failures
        return PolicyEvaluation(failures: failures, validPolicies: failures.isEmpty ? policies.validPolicies : nil)
    }

    /// §6.1.3 (b)–(c) and §6.1.4 (g) over `path` (certificate 1 first).
    func nameConstraintFailures(of path: [Certificate]) -> [ValidationFailure] {
        // No CA of the path constrains names: nothing to check (the common case, kept cheap).
        guard path.dropLast().contains(where: { $0.extension(X509OIDs.nameConstraints) != nil }) else { return [] }
        var check = NameConstraintsCheck(limit: maximumNameConstraintComparisons)
        var failures: [ValidationFailure] = []
        for (offset, certificate) in path.enumerated() {
            let isLeaf = offset == path.count - 1
            if isLeaf || !certificate.isSelfIssued {
                failures += check.check(certificate)
                if failures.contains(.nameConstraintWorkExceeded(limit: maximumNameConstraintComparisons)) { return failures }
            }
            if !isLeaf, let e = certificate.extension(X509OIDs.nameConstraints), case .nameConstraints(let constraints) = e.value {
                check.add(constraints, critical: e.critical)
            }
        }
        return failures
    }

    /// Validity, CA and key-usage checks, path length and unhandled critical extensions.
    func basicFailures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
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
