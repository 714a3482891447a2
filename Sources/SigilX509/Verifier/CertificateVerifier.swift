import SigilCore

/// Builds a path from a leaf to a trusted root and validates it (RFC 5280 §6; time and trust are
/// passed in).
///
/// Safe by default: the verifier itself applies the RFC 5280 §6.1 basics to every candidate
/// chain, whatever `policies` it is given (even none): validity of every certificate
/// (§6.1.3 (a)(2)), issuers are CAs (§6.1.4 (k); a v1/v2 trust anchor is taken as one),
/// pathLenConstraint (§6.1.4 (l)–(m), self-issued intermediates not counted), keyUsage
/// keyCertSign on issuers when keyUsage is present (§6.1.4 (n)), and no critical extension left
/// unhandled (§6.1.4 (o)) — handled meaning understood by these basics or declared in some
/// policy's ``CertificatePolicy/handledCriticalExtensions``. Policies add rules (name
/// constraints, certificate policies and the profile in ``RFC5280Policy``, issuer profiles,
/// CRLs); none removes a basic check.
///
/// Path building: from the current certificate, candidate issuers are the trusted roots and the
/// given intermediates whose subject matches its issuer name (RFC 5280 §7.1 matching) and whose
/// subjectKeyIdentifier, when both sides carry key identifiers, equals its authorityKeyIdentifier.
/// Trusted roots are tried first; a candidate is used only if its signature on the current
/// certificate verifies. Depth-first; a path never holds two certificates of the same subject,
/// SubjectPublicKeyInfo and subjectAltName (RFC 4158 §5.2: no loops, cross-signed ones included),
/// so every alternative is tried until a path satisfies every policy. The work is bounded: at most
/// `maximumSignatureChecks` signature verifications (each pair checked once) and
/// `maximumDepth` certificates per path; reaching a bound ends with `.workLimitExceeded`.
///
/// A verifier remembers the signature checks of CA certificates above the leaf that passed (a
/// bounded memo shared by its copies, keyed by the certificate's whole DER and the issuer's whole
/// SubjectPublicKeyInfo), so the intermediate every chain of one PKI shares is verified once; a
/// leaf's signature and every other rule are checked on every call.
///
/// A root is trusted only by being one of `trustedRoots` (by its DER). Certificates that came
/// with the message go in `intermediates`; a self-signed one there is just another candidate and
/// never ends a path.
public struct CertificateVerifier: Sendable {
    /// The trust anchors a path must end at.
    public var trustedRoots: [Certificate]
    /// Rules added to the RFC 5280 basics, each run on every candidate chain, as the verifier
    /// holds them (one concrete type: no existential on the verification path).
    public var erasedPolicies: [AnyCertificatePolicy]
    #if !hasFeature(Embedded)
    /// Rules added to the RFC 5280 basics, each run on every candidate chain, as given.
    public var policies: [any CertificatePolicy] {
        get { erasedPolicies.map { $0.given } }
        set { erasedPolicies = newValue.map { AnyCertificatePolicy(erasing: $0) } }
    }
    #endif
    /// RSA keys smaller than this verify nothing (2048 by default; 1024 for legacy data).
    public var minimumRSABits: Int
    /// The most certificates in a path (10 by default).
    public var maximumDepth: Int
    /// The most signature checks path building may make (64 by default); beyond, `workLimitExceeded`.
    public var maximumSignatureChecks: Int
    /// Signature checks on CA certificates above the leaf that passed (``CASignatureMemo``),
    /// shared by copies of this verifier: the same intermediate under the same issuer key is not
    /// verified again. Only that check is skipped; every other rule runs on every chain.
    var signatureMemo: CASignatureMemo

    /// A verifier trusting `trustedRoots`, applying the RFC 5280 basics and `policies`, refusing
    /// RSA keys under `minimumRSABits`, with bounded path building.
    public init(
        trustedRoots: [Certificate], policies: [AnyCertificatePolicy] = [AnyCertificatePolicy(RFC5280Policy())],
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits, maximumDepth: Int = 10,
        maximumSignatureChecks: Int = 64
    ) {
        self.trustedRoots = trustedRoots
        self.erasedPolicies = policies
        self.minimumRSABits = minimumRSABits
        self.maximumDepth = maximumDepth
        self.maximumSignatureChecks = maximumSignatureChecks
        self.signatureMemo = CASignatureMemo()
    }

    #if !hasFeature(Embedded)
    /// A verifier trusting `trustedRoots`, applying the RFC 5280 basics and `policies` (any mix of
    /// policy types), refusing RSA keys under `minimumRSABits`, with bounded path building.
    @_disfavoredOverload
    public init(
        trustedRoots: [Certificate], policies: [any CertificatePolicy] = [RFC5280Policy()],
        minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits, maximumDepth: Int = 10,
        maximumSignatureChecks: Int = 64
    ) {
        self.init(
            trustedRoots: trustedRoots, policies: policies.map { AnyCertificatePolicy(erasing: $0) }, minimumRSABits: minimumRSABits,
            maximumDepth: maximumDepth, maximumSignatureChecks: maximumSignatureChecks)
    }
    #endif

    /// The outcome: a validated chain, or every failure met.
    public enum Result: Sendable {
        /// The validated chain, leaf first, trusted root last.
        case valid([Certificate])
        /// Every failure met on every path tried (deduplicated, in the order met).
        case invalid([ValidationFailure])

        /// The validated chain, leaf first; nil when invalid.
        public var chain: [Certificate]? {
            if case .valid(let chain) = self { return chain }
            return nil
        }

        /// The failures; empty when valid.
        public var failures: [ValidationFailure] {
            if case .invalid(let failures) = self { return failures }
            return []
        }
    }

    /// The outcome with what the policies computed for the chain they accepted.
    public struct Validation: Sendable {
        /// Valid with its chain, or invalid with every failure.
        public let result: Result
        /// The valid certificate policies of the validated chain (RFC 5280 §6.1.6), from the
        /// policy that processes certificatePolicies (``RFC5280Policy``); nil when invalid or
        /// when no policy computed them.
        public let validPolicies: ValidPolicySet?

        /// The validated chain, leaf first; nil when invalid.
        public var chain: [Certificate]? { result.chain }
        /// The failures; empty when valid.
        public var failures: [ValidationFailure] { result.failures }
    }

    /// Validates `leaf` at `time` (seconds since the epoch). Variable time (public inputs).
    ///
    /// `trace`, when given, receives every step as it runs: each signature checked while building
    /// paths (RFC 5280 §6.1.3 (a)(1)), then, for each candidate path that reaches a trusted root,
    /// the basics and each policy with its failures and their clauses, and the outcome.
    public func verify(
        leaf: Certificate, intermediates: [Certificate] = [], at time: Int64, trace: VerificationTrace? = nil
    ) -> Result {
        validate(leaf: leaf, intermediates: intermediates, at: time, trace: trace).result
    }

    /// Validates `leaf` at `time` like ``verify(leaf:intermediates:at:trace:)``, and reports the
    /// valid policy set of the accepted chain.
    public func validate(
        leaf: Certificate, intermediates: [Certificate] = [], at time: Int64, trace: VerificationTrace? = nil
    ) -> Validation {
        if let trace {
            let policyNames = (["RFC 5280 basics"] + erasedPolicies.map { $0.name }).joined(separator: " + ")
            trace.note(
                "RFC 5280 §6.1.1",
                "inputs: validation time \(time), \(trustedRoots.count) trusted root(s), \(intermediates.count) candidate intermediate(s); "
                    + "rules \(policyNames)")
        }
        var search = Search(verifier: self, intermediates: intermediates, time: time, trace: trace)
        if let chain = search.extend([leaf]) {
            trace?.pass(
                "RFC 5280 §6.1", "a certification path to a trusted root",
                chain.map { $0.subject.rfc4514String }.joined(separator: " → "))
            return Validation(result: .valid(chain), validPolicies: search.validPolicies)
        }
        if search.failures.isEmpty {
            search.record(.noPathToTrustedRoot("no issuer found for \(leaf.subject.rfc4514String)"))
        }
        let failures = search.failures
        trace?.fail(
            "RFC 5280 §6.1", "a certification path to a trusted root",
            failures.map { "\($0) [\($0.rule)]" }.joined(separator: "; "))
        return Validation(result: .invalid(failures), validPolicies: nil)
    }

    private struct Search {
        let verifier: CertificateVerifier
        let intermediates: [Certificate]
        let time: Int64
        let trace: VerificationTrace?
        var failures: [ValidationFailure] = []
        private var recorded: Set<String> = []
        var signatureChecks = 0
        var stopped = false
        /// The valid policy set of the accepted chain.
        var validPolicies: ValidPolicySet?
        /// (child DER, issuer DER) → did the signature verify.
        var checked: [PairKey: Bool] = [:]

        struct PairKey: Hashable {
            let child: [UInt8]
            let issuer: [UInt8]

            /// Hashes the lengths and last 32 bytes of each DER (the signatures' ends); equality
            /// still compares both encodings in full.
            func hash(into hasher: inout Hasher) {
                hasher.combine(child.count)
                hasher.combine(issuer.count)
                child.suffix(32).withUnsafeBytes { hasher.combine(bytes: $0) }
                issuer.suffix(32).withUnsafeBytes { hasher.combine(bytes: $0) }
            }
        }

        init(verifier: CertificateVerifier, intermediates: [Certificate], time: Int64, trace: VerificationTrace?) {
            self.verifier = verifier
            // A trusted root given again as an intermediate adds nothing.
            let roots = verifier.trustedRoots
            self.intermediates = intermediates.filter { candidate in !roots.contains { $0.derBytes == candidate.derBytes } }
            self.time = time
            self.trace = trace
        }

        /// Each failure once, as the caller reads it: two failures that print the same are one.
        /// (Text, not `==`: the derived equality of ``ValidationFailure`` is 14 KB of
        /// WebAssembly, and its text is what every door answers.)
        mutating func record(_ failure: ValidationFailure) {
            if recorded.insert(failure.description).inserted { failures.append(failure) }
        }

        func mayIssue(_ issuer: Certificate, _ child: Certificate) -> Bool {
            guard issuer.subject.matches(child.issuer) else { return false }
            if let akid = child.authorityKeyIdentifier?.keyIdentifier, let skid = issuer.subjectKeyIdentifier {
                return akid == skid
            }
            return true
        }

        /// Whether `issuer` signed `child`, the certificate at `position` (0 = leaf); nil past the work bound.
        mutating func signatureVerifies(_ child: Certificate, at position: Int, by issuer: Certificate) -> Bool? {
            let key = PairKey(child: child.derBytes, issuer: issuer.derBytes)
            if let known = checked[key] { return known }
            // A CA certificate above the leaf whose signature by this issuer key passed before
            // (its whole DER and the key compared in full): the check is not made again.
            let memoizable = CASignatureMemo.applies(to: child, at: position)
            if memoizable, verifier.signatureMemo.verifiedBefore(child, by: issuer, minimumRSABits: verifier.minimumRSABits) {
                trace?.pass(
                    "RFC 5280 §6.1.3 (a)(1)", "signature on \(PathCertificate(child, position: position))",
                    "verified earlier by this verifier (same certificate bytes, same issuer key)")
                checked[key] = true
                return true
            }
            guard signatureChecks < verifier.maximumSignatureChecks else {
                stopped = true
                record(.workLimitExceeded("more than \(verifier.maximumSignatureChecks) signature checks"))
                return nil
            }
            signatureChecks += 1
            let result = child.isSignedVartime(by: issuer, minimumRSABits: verifier.minimumRSABits)
            // The subject is rendered only for a trace or a failure (arguments of `trace?.…` are
            // not evaluated without a trace): a verification that keeps no trace formats nothing.
            switch result {
            case .success:
                trace?.pass(
                    "RFC 5280 §6.1.3 (a)(1)", "signature on \(PathCertificate(child, position: position))",
                    "\(child.signatureAlgorithm) by the key of \(issuer.subject.rfc4514String) verifies")
            case .failure(let reason):
                let subject = PathCertificate(child, position: position)
                trace?.fail(
                    "RFC 5280 §6.1.3 (a)(1)", "signature on \(subject)",
                    "\(child.signatureAlgorithm) by the key of \(issuer.subject.rfc4514String): \(reason)")
                record(.invalidSignature(certificate: subject, reason: reason.description))
            }
            let ok = (try? result.get()) != nil
            checked[key] = ok
            if ok, memoizable { verifier.signatureMemo.recordVerified(child, by: issuer, minimumRSABits: verifier.minimumRSABits) }
            return ok
        }

        /// One trace step for one set of rules applied to a candidate path.
        static func record(
            _ failures: [ValidationFailure], on path: String, in trace: VerificationTrace, clause: String, check: String
        ) {
            if failures.isEmpty {
                trace.pass(clause, check, "path \(path)")
            } else {
                trace.fail(clause, check, "path \(path): " + failures.map { "\($0) [\($0.rule)]" }.joined(separator: "; "))
            }
        }

        /// Depth-first extension of `path` (leaf first). Returns the first chain every policy accepts.
        mutating func extend(_ path: [Certificate]) -> [Certificate]? {
            guard let current = path.last, !stopped else { return nil }
            guard path.count < verifier.maximumDepth else {
                record(.workLimitExceeded("paths longer than \(verifier.maximumDepth) certificates are not built"))
                return nil
            }
            // 1. A trusted root that issued `current` ends the path.
            for root in verifier.trustedRoots where mayIssue(root, current) {
                guard let verifies = signatureVerifies(current, at: path.count - 1, by: root) else { return nil }
                guard verifies else { continue }
                // A trusted root reached as the leaf itself (the leaf is a trusted root) counts once.
                let chain = path.last?.derBytes == root.derBytes ? path : path + [root]
                let basics = BasicChecks.failures(of: chain, at: time, policies: verifier.erasedPolicies)
                let evaluations = verifier.erasedPolicies.map { $0.evaluate(chain, at: time) }
                if let trace {
                    let path = chain.map { $0.subject.rfc4514String }.joined(separator: " → ")
                    Self.record(
                        basics, on: path, in: trace, clause: "RFC 5280 §6.1.3 (a)(2), §6.1.4 (k)–(o)",
                        check: "basics: validity, basicConstraints and pathLen, keyUsage, critical extensions")
                    for (policy, evaluation) in zip(verifier.erasedPolicies, evaluations) {
                        Self.record(evaluation.failures, on: path, in: trace, clause: policy.name, check: "policy \(policy.name)")
                    }
                }
                let chainFailures = basics + evaluations.flatMap { $0.failures }
                if chainFailures.isEmpty {
                    validPolicies = evaluations.lazy.compactMap { $0.validPolicies }.first
                    return chain
                }
                chainFailures.forEach { record($0) }
            }
            // 2. Otherwise an intermediate whose entity (subject, key, subjectAltName; RFC 4158
            // §5.2) is not already on the path. Paths are a few certificates long: a linear scan.
            for candidate in intermediates
            where mayIssue(candidate, current) && !path.contains(where: { $0.isSameEntity(as: candidate) }) {
                guard let verifies = signatureVerifies(current, at: path.count - 1, by: candidate) else { return nil }
                guard verifies else { continue }
                if let chain = extend(path + [candidate]) { return chain }
                if stopped { return nil }
            }
            // A generic "no path" only when nothing more specific was found on the way.
            if failures.isEmpty {
                record(
                    .noPathToTrustedRoot("no trusted issuer for \(current.subject.rfc4514String) (issuer \(current.issuer.rfc4514String))"))
            }
            return nil
        }
    }
}
