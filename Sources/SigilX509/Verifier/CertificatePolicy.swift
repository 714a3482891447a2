import SigilASN1
import SigilCore
import SigilKeys

/// A rule a complete candidate chain must satisfy. Policies are values and compose: the verifier
/// runs every policy it is given on each candidate chain [leaf, …, trusted root] (signatures are
/// already checked while the path is built) and accepts the first chain with no failure.
public protocol CertificatePolicy: Sendable {
    /// A short name for reports ("RFC 5280", "Apple signed data").
    var name: String { get }
    /// Critical extensions this policy processes: the verifier's RFC 5280 basics accept a critical
    /// extension only when one of its policies handles it.
    var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { get }
    /// Every failure of `chain` (leaf first, trusted root last) at `time` (seconds since the epoch).
    func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure]
    /// The failures and, for a policy that computes them, the valid certificate policies of
    /// `chain` (RFC 5280 §6.1.6). The default reports ``failures(of:at:)`` and no policy set.
    func evaluate(_ chain: [Certificate], at time: Int64) -> PolicyEvaluation
}

/// What one policy found on one chain.
public struct PolicyEvaluation: Sendable {
    /// The rules the chain breaks, empty when it meets the policy.
    public var failures: [ValidationFailure]
    /// The valid certificate policies, from the policy that processes certificatePolicies.
    public var validPolicies: ValidPolicySet?

    /// An evaluation with its failures and, when computed, the valid policy set.
    public init(failures: [ValidationFailure], validPolicies: ValidPolicySet? = nil) {
        self.failures = failures
        self.validPolicies = validPolicies
    }
}

/// A certificate policy as ``CertificateVerifier`` holds it: the policy's name, the critical
/// extensions it handles and its evaluation, taken once from any ``CertificatePolicy`` (or given
/// as a closure). The verifier runs its policies through this one type, so the verification path
/// holds no existential (what Embedded Swift requires) and makes no allocation per verification.
public struct AnyCertificatePolicy: CertificatePolicy {
    /// The policy's name in reports.
    public let name: String
    /// The critical extensions the policy processes (read once, when it was wrapped).
    public let handledCriticalExtensions: Set<ASN1ObjectIdentifier>
    /// The policy's evaluation of a chain at a time.
    private let evaluation: @Sendable ([Certificate], Int64) -> PolicyEvaluation
    #if !hasFeature(Embedded)
    /// The policy as given, what ``CertificateVerifier/policies`` reads back (regular build; nil
    /// for a policy given as a closure, read back as itself).
    let base: (any CertificatePolicy)?
    #endif

    /// `policy`, its name and handled critical extensions read now, its evaluation run on each
    /// candidate chain.
    public init<Policy: CertificatePolicy>(_ policy: Policy) {
        name = policy.name
        handledCriticalExtensions = policy.handledCriticalExtensions
        evaluation = { chain, time in policy.evaluate(chain, at: time) }
        #if !hasFeature(Embedded)
        base = policy
        #endif
    }

    /// A policy that is already one: kept as it is.
    public init(_ policy: AnyCertificatePolicy) {
        self = policy
    }

    /// A policy named `name` that handles `handledCriticalExtensions` and evaluates a chain
    /// (leaf first, trust anchor last) at a time (seconds since the epoch) with `evaluate`.
    public init(
        name: String, handledCriticalExtensions: Set<ASN1ObjectIdentifier> = [],
        evaluate: @escaping @Sendable (_ chain: [Certificate], _ time: Int64) -> PolicyEvaluation
    ) {
        self.name = name
        self.handledCriticalExtensions = handledCriticalExtensions
        evaluation = evaluate
        #if !hasFeature(Embedded)
        base = nil
        #endif
    }

    #if !hasFeature(Embedded)
    /// The policy as given: the original value, or this one for a policy given as a closure.
    package var given: any CertificatePolicy { base ?? self }

    /// `policy`, unwrapped when it is already an ``AnyCertificatePolicy`` (regular build: for
    /// the verifier's `[any CertificatePolicy]` initialiser and property).
    package init(erasing policy: any CertificatePolicy) {
        if let erased = policy as? AnyCertificatePolicy {
            self = erased
        } else {
            self.init(policy)
        }
    }
    #endif

    /// The failures of `chain` (leaf first, trust anchor last) at `time`.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        evaluation(chain, time).failures
    }

    /// The failures of `chain` at `time` and the valid policy set, when the policy computes it.
    public func evaluate(_ chain: [Certificate], at time: Int64) -> PolicyEvaluation {
        evaluation(chain, time)
    }
}

extension CertificatePolicy {
    /// No critical extension is handled unless the policy says so.
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
/// - the trust anchor's name constraints (RFC 5937, as Go and rustls-webpki apply them): a
///   trust anchor whose nameConstraints is not critical or holds a subtree that is no valid name
///   is refused, otherwise its subtrees constrain every certificate below it;
/// - the certificate profile (``ProfileViolation``): authorityKeyIdentifier present in every
///   certificate but a self-issued trust anchor and never critical, subjectKeyIdentifier in every
///   CA certificate (§4.2.1.1–2); no CA certificate with an empty subject, a critical
///   basicConstraints in the trust anchor, no keyCertSign in a leaf that is not a CA
///   (§4.1.2.6, §4.2.1.3, §4.2.1.9); no nameConstraints in an end-entity certificate
///   (§4.2.1.10); a critical subjectAltName when the subject is empty, dNSNames in the
///   preferred name syntax (§4.2.1.6); a critical policyConstraints (§4.2.1.11). Data that
///   breaks one of these and must still be accepted is accepted only through a named
///   ``Relaxation``.
///
/// The trust anchor's policies and policy constraints are not applied (§6.1.1 (d)).
/// Revocation (§6.1.3 (a)(3)) is a separate policy (OCSP, CRLs).
public struct RFC5280Policy: CertificatePolicy {
    public let name = "RFC 5280"

    /// A profile rule deliberately not enforced, for data known to break it. Off by default;
    /// each names what it admits and who issued such data.
    public enum Relaxation: String, Hashable, Sendable, CaseIterable {
        /// Accept certificates without authorityKeyIdentifier or, in a CA certificate, without
        /// subjectKeyIdentifier (§4.2.1.1–2): Apple's App Store Server Library test PKI (the
        /// signed-data test root, intermediate and leaves) and Xcode's StoreKit testing certificate.
        case missingKeyIdentifiers
        /// Accept a trust anchor whose basicConstraints is not critical (§4.2.1.9): the App Store
        /// Server Library's test root.
        case nonCriticalBasicConstraints
        /// Accept a policyConstraints that is not critical (§4.2.1.11): NIST's PKITS CA
        /// certificates, written before the rule was enforced.
        case nonCriticalPolicyConstraints
    }

    /// The profile rules not enforced (none by default).
    public var relaxations: Set<Relaxation>
    /// The certificate-policy inputs (RFC 5280 §6.1.1 (c), (e)–(g)).
    public var policySettings: PolicySettings
    /// Bound on the policy graph: nodes, edges and expected-policy entries created per chain.
    public var maximumPolicyGraphSize: Int
    /// Bound on name-constraint checking: (name, subtree) comparisons per chain.
    public var maximumNameConstraintComparisons: Int

    /// RFC 5280 path processing with `policySettings`, the relying party's policy inputs, every
    /// profile rule enforced but `relaxations`.
    public init(
        policySettings: PolicySettings = PolicySettings(), relaxations: Set<Relaxation> = [],
        maximumPolicyGraphSize: Int = 10_000, maximumNameConstraintComparisons: Int = 100_000
    ) {
        self.relaxations = relaxations
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
        var failures = profileFailures(of: chain)
        // RFC 5280 numbering: certificate 1 is issued by the trust anchor, certificate n is the leaf.
        let path = Array(chain.dropLast().reversed())
        failures += nameConstraintFailures(of: path, anchor: chain.count > 1 ? chain.last : nil)
        let policies = PolicyGraph.process(path, settings: policySettings, limit: maximumPolicyGraphSize)
        failures += policies.failures
        return PolicyEvaluation(failures: failures, validPolicies: failures.isEmpty ? policies.validPolicies : nil)
    }

    /// §6.1.3 (b)–(c) and §6.1.4 (g) over `path` (certificate 1 first), starting from the
    /// name constraints of the trust anchor `anchor` (RFC 5937).
    func nameConstraintFailures(of path: [Certificate], anchor: Certificate?) -> [ValidationFailure] {
        let anchorConstraints = anchor?.extension(X509OIDs.nameConstraints)
        // No CA of the path constrains names: nothing to check (the common case, kept cheap).
        guard anchorConstraints != nil || path.dropLast().contains(where: { $0.extension(X509OIDs.nameConstraints) != nil }) else {
            return []
        }
        var check = NameConstraintsCheck(limit: maximumNameConstraintComparisons)
        var failures: [ValidationFailure] = []
        if let e = anchorConstraints, case .nameConstraints(let constraints) = e.value {
            // An anchor's constraints must be critical and well formed: a CA that cannot be read
            // exactly constrains nothing safely, so the anchor is refused.
            let position = path.count
            if !e.critical {
                failures.append(
                    .nonConformingCertificate(
                        certificate: PathCertificate(anchor!, position: position), violation: .nameConstraintsNotCritical))
            }
            if !(constraints.permitted + constraints.excluded).allSatisfy({ NameConstraintsCheck.isValidSubtree($0.base) }) {
                failures.append(
                    .nonConformingCertificate(
                        certificate: PathCertificate(anchor!, position: position), violation: .nameConstraintsMalformed))
            }
            guard failures.isEmpty else { return failures }
            check.add(constraints, critical: true)
        }
        for (offset, certificate) in path.enumerated() {
            let isLeaf = offset == path.count - 1
            if isLeaf || !certificate.isSelfIssued {
                failures += check.check(certificate, position: path.count - 1 - offset)
                if failures.contains(where: { if case .nameConstraintWorkExceeded = $0 { true } else { false } }) { return failures }
            }
            if !isLeaf, let e = certificate.extension(X509OIDs.nameConstraints), case .nameConstraints(let constraints) = e.value {
                check.add(constraints, critical: e.critical)
            }
        }
        return failures
    }

    /// The certificate-profile failures of `chain` (leaf first, trust anchor last), but for the
    /// rules `relaxations` names.
    func profileFailures(of chain: [Certificate]) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let anchorIndex = chain.count - 1
        for (index, certificate) in chain.enumerated() {
            func fail(_ violation: ProfileViolation) {
                failures.append(.nonConformingCertificate(certificate: PathCertificate(certificate, position: index), violation: violation))
            }
            let isCA = certificate.basicConstraints?.isCA == true
            // §4.2.1.1–2.
            if let aki = certificate.extension(X509OIDs.authorityKeyIdentifier) {
                if aki.critical { fail(.authorityKeyIdentifierCritical) }
            }
            if !relaxations.contains(.missingKeyIdentifiers) {
                let needsAKI = index < anchorIndex || !certificate.isSelfIssued
                if needsAKI && certificate.authorityKeyIdentifier?.keyIdentifier == nil { fail(.authorityKeyIdentifierMissing) }
                if isCA && certificate.subjectKeyIdentifier == nil { fail(.subjectKeyIdentifierMissing) }
            }
            // §4.1.2.6, §4.2.1.9, §4.2.1.3.
            if isCA && certificate.subject.rdns.isEmpty { fail(.caSubjectEmpty) }
            if index == anchorIndex, !relaxations.contains(.nonCriticalBasicConstraints),
                let e = certificate.extension(X509OIDs.basicConstraints), !e.critical
            {
                fail(.basicConstraintsNotCritical)
            }
            if index == 0, index < anchorIndex, !isCA, certificate.keyUsage?.keyCertSign == true { fail(.keyCertSignWithoutCA) }
            // §4.2.1.10.
            if index == 0, index < anchorIndex, !isCA, certificate.extension(X509OIDs.nameConstraints) != nil {
                fail(.nameConstraintsInEndEntity)
            }
            // §4.2.1.6.
            if let san = certificate.extension(X509OIDs.subjectAltName) {
                if !san.critical && certificate.subject.rdns.isEmpty { fail(.subjectAltNameNotCritical) }
                if index < anchorIndex,
                    certificate.subjectAlternativeNames.contains(where: {
                        if case .dnsName(let name) = $0 { !RFC5280Policy.isPreferredDNSName(name) } else { false }
                    })
                {
                    fail(.dnsNameSyntax)
                }
            }
            // §4.2.1.11.
            if !relaxations.contains(.nonCriticalPolicyConstraints), let e = certificate.extension(X509OIDs.policyConstraints), !e.critical
            {
                fail(.policyConstraintsNotCritical)
            }
        }
        return failures
    }

    /// A dNSName in the preferred name syntax (RFC 1034 §3.5, §4.2.1.6): non-empty labels of
    /// ASCII letters, digits and hyphens, the leftmost label possibly the wildcard "*".
    static func isPreferredDNSName(_ name: String) -> Bool {
        var length = 0  // bytes of the current label
        var wildcard = false  // the current label is the leading "*"
        var firstLabel = true
        for byte in name.utf8 {
            if byte == UInt8(ascii: ".") {
                guard length > 0 else { return false }
                (length, wildcard, firstLabel) = (0, false, false)
                continue
            }
            if byte == UInt8(ascii: "*") && firstLabel && length == 0 {
                (length, wildcard) = (1, true)
                continue
            }
            let ok =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            guard ok && !wildcard else { return false }
            length += 1
        }
        return length > 0
    }
}
