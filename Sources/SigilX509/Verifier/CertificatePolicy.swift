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

/// RFC 5280 §6.1 path processing beyond the basics every ``CertificateVerifier`` applies itself
/// (validity, CA and key-usage checks, path length, critical extensions):
/// - name constraints: every name of each certificate within the permitted and outside the
///   excluded subtrees of the CAs above it (§6.1.3 (b)–(c), §6.1.4 (g); see `NameConstraintsCheck`);
/// - certificate policies with the caller's ``PolicySettings`` (§6.1.3 (d)–(f), §6.1.4 (a)–(b),
///   (h)–(j), §6.1.5 (a)–(b), (g)), computed on RFC 9618's policy graph, and the resulting
///   ``ValidPolicySet`` reported through ``evaluate(_:at:)``.
///
/// The trust anchor (the chain's last certificate) is an input, not part of the path: its
/// policies and policy constraints are not applied (§6.1.1 (d)).
/// Revocation (§6.1.3 (a)(3)) is a separate policy (OCSP, CRLs).
public struct RFC5280Policy: CertificatePolicy {
    public let name = "RFC 5280"

    /// The certificate-policy inputs (RFC 5280 §6.1.1 (c), (e)–(g)).
    public var policySettings: PolicySettings
    /// Bound on the policy graph: nodes, edges and expected-policy entries created per chain.
    public var maximumPolicyGraphSize: Int
    /// Bound on name-constraint checking: (name, subtree) comparisons per chain.
    public var maximumNameConstraintComparisons: Int

    /// RFC 5280 path processing with `policySettings`, the relying party's policy inputs.
    public init(
        policySettings: PolicySettings = PolicySettings(), maximumPolicyGraphSize: Int = 10_000,
        maximumNameConstraintComparisons: Int = 100_000
    ) {
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
        var failures: [ValidationFailure] = []
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
                failures += check.check(certificate, position: path.count - 1 - offset)
                if failures.contains(.nameConstraintWorkExceeded(limit: maximumNameConstraintComparisons)) { return failures }
            }
            if !isLeaf, let e = certificate.extension(X509OIDs.nameConstraints), case .nameConstraints(let constraints) = e.value {
                check.add(constraints, critical: e.critical)
            }
        }
        return failures
    }
}
