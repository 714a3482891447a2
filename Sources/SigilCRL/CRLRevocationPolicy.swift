import SigilASN1
import SigilCore
import SigilX509

/// Revocation checking of every certificate of a chain except the trust anchor against CRLs,
/// as RFC 5280 §6.3 describes: a `CertificatePolicy`, so it runs on each candidate chain
/// [leaf, …, root] and composes with the others (and, through `RevocationPolicy`, with OCSP).
///
/// For each certificate, its distribution points are taken in turn (a certificate without
/// cRLDistributionPoints is covered by CRLs its issuer issued, §6.3.3 last paragraph), and for
/// each, while the reasons covered so far (reasons_mask) are not all reasons and the certificate
/// is not found revoked, every complete CRL in the set is considered (§6.3.3 (a)–(k)):
/// (a) current at the validation time (thisUpdate ≤ time ≤ nextUpdate), with no critical
/// extension Sigil does not process, and within the CRL profile: a cRLNumber, not critical
/// (§5.2.3; a CRL left unused for this is reported as `ValidationFailure.nonConformingCRL`
/// unless ``Relaxation`` names it); (b) in scope: issued by the certificate's issuer, or by the
/// distribution point's cRLIssuer with indirectCRL asserted; the issuingDistributionPoint's name
/// matching the distribution point's (full names, or names relative to the CRL issuer) and its
/// onlyContainsUserCerts / onlyContainsCACerts / onlyContainsAttributeCerts fitting the
/// certificate; (c)–(d) interim_reasons_mask = onlySomeReasons ∩ the point's reasons, used only
/// if it adds a reason; (e)–(f) signed by a certificate named as the CRL issuer (matching the
/// CRL's authorityKeyIdentifier), with cRLSign when it has keyUsage, whose own path validates to
/// the same trust anchor (the chain's issuer needs nothing more; any other signer — a separate
/// CRL signing key, an indirect CRL issuer — is validated by a `CertificateVerifier` over the
/// candidate certificates); (g)–(h) the newest delta CRL for it (same issuer, same
/// issuingDistributionPoint, same key, base number ≤ its cRLNumber < the delta's, current, signed
/// by the same key) is read first; (i)–(j) then the complete CRL (removeFromCRL ends as
/// unrevoked); (k) the interim reasons join reasons_mask. A certificate is revoked if listed;
/// if the reasons covered are not all reasons, its status is undetermined, which fails the chain
/// unless `Options.allowUndetermined` (default false: PKITS semantics).
///
/// The CRL signer's own certificate path is validated with `signerPolicies` (RFC 5280 basics by
/// default) and checked for revocation by this policy one level deeper, up to
/// `Options.maximumSignerNesting` levels (deeper signers are refused: fail closed).
/// Work is bounded: at most `Options.maximumCRLsPerCertificate` CRLs considered per certificate
/// and point, lookups are binary searches (see `CRL`), and each signer path is one bounded
/// `CertificateVerifier` run. Variable time (public inputs).
public struct CRLRevocationPolicy: CertificatePolicy {
    /// How the policy treats what CRLs cannot decide.
    public struct Options: Sendable {
        /// Accept a certificate no usable CRL covers (soft fail). Default false: it fails the chain.
        public var allowUndetermined: Bool
        /// Read delta CRLs (§6.3.2 use-deltas). Default true.
        public var useDeltaCRLs: Bool
        /// RSA keys smaller than this verify no CRL.
        public var minimumRSABits: Int
        /// CRLs considered per certificate and distribution point (a bound on work).
        public var maximumCRLsPerCertificate: Int
        /// How deep CRL signers' own certificates are checked for revocation in turn (a CRL
        /// signer's certificate is itself checked against CRLs, whose signers are checked, …);
        /// a signer found at this depth is not trusted (fail closed).
        public var maximumSignerNesting: Int
        /// CRL-profile rules not enforced (none by default).
        public var relaxations: Set<Relaxation>

        /// Options: fail on undetermined status unless `allowUndetermined`; delta CRLs read unless `useDeltaCRLs` is false.
        public init(
            allowUndetermined: Bool = false, useDeltaCRLs: Bool = true,
            minimumRSABits: Int = RSAPublicKey.defaultMinimumModulusBits, maximumCRLsPerCertificate: Int = 64,
            maximumSignerNesting: Int = 3, relaxations: Set<Relaxation> = []
        ) {
            self.relaxations = relaxations
            self.allowUndetermined = allowUndetermined
            self.useDeltaCRLs = useDeltaCRLs
            self.minimumRSABits = minimumRSABits
            self.maximumCRLsPerCertificate = maximumCRLsPerCertificate
            self.maximumSignerNesting = maximumSignerNesting
        }
    }

    /// A CRL-profile rule deliberately not enforced, for data known to break it. Off by default.
    public enum Relaxation: String, Hashable, Sendable, CaseIterable {
        /// Use a complete CRL without a cRLNumber (§5.2.3): CRLs made by pyca/cryptography's
        /// CertificateRevocationListBuilder when no CRLNumber extension is added.
        case missingCRLNumber
    }

    /// The policy's name in reports.
    public let name = "CRL revocation"
    /// The CRLs the policy decides with.
    public let crls: [CRL]
    /// Certificates that may sign CRLs or lie on a CRL signer's path (intermediates, roots).
    public let candidateCertificates: [Certificate]
    /// Soft fail, delta CRLs, key sizes, bounds and relaxations.
    public let options: Options
    /// Policies a CRL signer's own path must meet.
    public let signerPolicies: [any CertificatePolicy]
    /// 0 for the chain being validated; n for the path of a CRL signer found at depth n − 1.
    let nesting: Int

    /// A policy deciding revocation from `crls` (complete and delta, any issuers); separate CRL
    /// signers and their issuers are looked for among `candidateCertificates` and the chain.
    public init(
        crls: [CRL], candidateCertificates: [Certificate] = [], options: Options = Options(),
        signerPolicies: [any CertificatePolicy] = [RFC5280Policy()]
    ) {
        self.crls = crls
        self.candidateCertificates = candidateCertificates
        self.options = options
        self.signerPolicies = signerPolicies
        self.nesting = 0
    }

    /// The policy that checks a CRL signer's own path, one level deeper.
    init(nestedIn parent: CRLRevocationPolicy) {
        crls = parent.crls
        candidateCertificates = parent.candidateCertificates
        options = parent.options
        signerPolicies = parent.signerPolicies
        nesting = parent.nesting + 1
    }

    /// cRLDistributionPoints is processed here (a certificate may mark it critical).
    public var handledCriticalExtensions: Set<ASN1ObjectIdentifier> { [X509OIDs.cRLDistributionPoints, X509OIDs.freshestCRL] }

    /// The revocation failures of `chain` (leaf first, trust anchor last) at `time`.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        guard chain.count >= 2 else { return [] }
        for index in 0..<(chain.count - 1) {
            let certificate = chain[index]
            var nonConforming: [(CRL, ProfileViolation)] = []
            switch status(of: certificate, issuer: chain[index + 1], chain: chain, at: time, nonConforming: &nonConforming) {
            case .unrevoked: break
            case .revoked(let entry):
                failures.append(
                    .revoked(
                        certificate: PathCertificate(certificate, position: index), time: entry.revocationDate,
                        reason: entry.reason?.rawValue))
            case .undetermined(let why):
                if !options.allowUndetermined {
                    let named = PathCertificate(certificate, position: index)
                    // CRLs in scope left unused for breaking the CRL profile, each with its clause.
                    for (crl, violation) in nonConforming {
                        failures.append(.nonConformingCRL(certificate: named, crlIssuer: crl.issuer.rfc4514String, violation: violation))
                    }
                    failures.append(.revocationCheckFailed(certificate: named, reason: why, retryable: false))
                }
            }
        }
        return failures
    }

    /// The outcome of §6.3.3 for one certificate.
    public enum Status: Sendable, Equatable {
        /// Covered for every reason, and not listed.
        case unrevoked
        /// Listed, with its entry (date, reason).
        case revoked(RevokedCertificate)
        /// No usable CRL (or not enough of them) covers every reason; why, for the report.
        case undetermined(String)
    }

    /// One distribution point as §6.3.3 uses it (names already resolved to full names).
    struct Point {
        var names: [GeneralName]?
        var reasons: ReasonFlags?
        var crlIssuer: [GeneralName]?
    }

    /// RFC 5280 §6.3.3 for `certificate`, issued by `issuer`, on `chain` (for its trust anchor).
    public func status(of certificate: Certificate, issuer: Certificate, chain: [Certificate], at time: Int64) -> Status {
        var nonConforming: [(CRL, ProfileViolation)] = []
        return status(of: certificate, issuer: issuer, chain: chain, at: time, nonConforming: &nonConforming)
    }

    /// ``status(of:issuer:chain:at:)``, collecting in `nonConforming` the CRLs in scope left
    /// unused for breaking the CRL profile.
    func status(
        of certificate: Certificate, issuer: Certificate, chain: [Certificate], at time: Int64,
        nonConforming: inout [(CRL, ProfileViolation)]
    ) -> Status {
        var points: [Point] = certificate.crlDistributionPoints.map { dp in
            var names = dp.fullName
            if let relative = dp.nameRelativeToCRLIssuer {
                let base = dp.cRLIssuer?.compactMap { if case .directoryName(let n) = $0 { n } else { nil } }.first ?? certificate.issuer
                names = base.appending(relativeName: relative).map { [.directoryName($0)] } ?? []
            }
            return Point(names: names, reasons: dp.reasons.map { ReasonFlags(distributionPointBytes: $0) }, crlIssuer: dp.cRLIssuer)
        }
        // CRLs not named in a distribution point but issued by the certificate's issuer.
        points.append(Point(names: nil, reasons: nil, crlIssuer: nil))
        var reasonsMask: ReasonFlags = []
        var notes: [String] = []
        for point in points {
            var considered = 0
            for crl in crls where !crl.isDelta && mayHaveIssued(crl, certificate: certificate, point: point) {
                guard reasonsMask != .all else { break }
                guard considered < options.maximumCRLsPerCertificate else {
                    notes.append("more than \(options.maximumCRLsPerCertificate) CRLs considered")
                    break
                }
                considered += 1
                // (a) current, and fully understood.
                if let next = crl.nextUpdate, next < time {
                    notes.append("a CRL of \(crl.issuer) expired (nextUpdate)")
                    continue
                }
                if crl.thisUpdate > time {
                    notes.append("a CRL of \(crl.issuer) is not yet valid (thisUpdate)")
                    continue
                }
                if !crl.unhandledCriticalExtensions.isEmpty {
                    notes.append(
                        "a CRL of \(crl.issuer) has unhandled critical extension(s) \(crl.unhandledCriticalExtensions.map(\.dotted).joined(separator: ", "))"
                    )
                    continue
                }
                // (b) scope.
                guard inScope(crl, certificate: certificate, point: point) else { continue }
                // The CRL profile (§5.2.3): a CRL without a cRLNumber, or with a critical one, is not used.
                if let violation = profileViolation(of: crl) {
                    nonConforming.append((crl, violation))
                    notes.append("a CRL of \(crl.issuer): \(violation) (\(violation.clause))")
                    continue
                }
                // (c)–(d) reasons.
                let interim = (crl.issuingDistributionPoint?.onlySomeReasons ?? .all).intersection(point.reasons ?? .all).intersection(.all)
                guard !interim.subtracting(reasonsMask).isEmpty else { continue }
                // (e)–(f) signer.
                guard let signer = signer(of: crl, issuer: issuer, chain: chain, at: time, notes: &notes) else { continue }
                // (g)–(h) the newest delta CRL.
                var removed = false
                if options.useDeltaCRLs, let delta = delta(for: crl, signer: signer, at: time),
                    let entry = delta.revokedEntry(serialNumber: certificate.serialNumber, certificateIssuer: certificate.issuer)
                {
                    if entry.reason == .removeFromCRL {
                        removed = true
                    } else {
                        return .revoked(entry)
                    }
                }
                // (i)–(j) the complete CRL.
                if !removed, let entry = crl.revokedEntry(serialNumber: certificate.serialNumber, certificateIssuer: certificate.issuer),
                    entry.reason != .removeFromCRL
                {
                    return .revoked(entry)
                }
                // (k)
                reasonsMask.formUnion(interim)
            }
            if reasonsMask == .all { break }
        }
        if reasonsMask == .all { return .unrevoked }
        let covered = reasonsMask.isEmpty ? "no usable CRL covers it" : "CRLs cover only \(reasonsMask)"
        return .undetermined(([covered] + notes.prefix(4)).joined(separator: "; "))
    }

    /// The CRL-profile rule `crl` breaks, if any: cRLNumber missing (unless relaxed) or marked
    /// critical (§5.2.3).
    func profileViolation(of crl: CRL) -> ProfileViolation? {
        guard let number = crl.extensions.first(where: { $0.oid == X509OIDs.cRLNumber }) else {
            return options.relaxations.contains(.missingCRLNumber) ? nil : .crlNumberMissing
        }
        return number.critical ? .crlNumberCritical : nil
    }

    /// The cheap part of §6.3.3 (b)(1), checked before a CRL counts against the work bound: its
    /// issuer is the point's cRLIssuer or, without one, the certificate's issuer.
    func mayHaveIssued(_ crl: CRL, certificate: Certificate, point: Point) -> Bool {
        if let crlIssuer = point.crlIssuer {
            return crlIssuer.contains { CRLRevocationPolicy.names($0, .directoryName(crl.issuer)) }
        }
        return crl.issuer.matches(certificate.issuer)
    }

    /// §6.3.3 (b): the CRL's issuer and issuingDistributionPoint fit the certificate and point.
    func inScope(_ crl: CRL, certificate: Certificate, point: Point) -> Bool {
        let idp = crl.issuingDistributionPoint
        // (b)(1)
        if let crlIssuer = point.crlIssuer {
            guard idp?.indirectCRL == true, crlIssuer.contains(where: { CRLRevocationPolicy.names($0, .directoryName(crl.issuer)) }) else {
                return false
            }
        } else if !crl.issuer.matches(certificate.issuer) {
            return false
        }
        guard let idp else { return true }
        // (b)(2)(i)
        var idpNames = idp.fullName
        if let relative = idp.nameRelativeToCRLIssuer {
            idpNames = crl.issuer.appending(relativeName: relative).map { [.directoryName($0)] } ?? []
        }
        if let idpNames {
            let other = point.names ?? point.crlIssuer ?? [.directoryName(certificate.issuer)]
            guard idpNames.contains(where: { a in other.contains { CRLRevocationPolicy.names(a, $0) } }) else { return false }
        }
        // (b)(2)(ii)–(iv)
        let isCA = certificate.basicConstraints?.isCA == true
        if idp.onlyContainsUserCerts && isCA { return false }
        if idp.onlyContainsCACerts && !isCA { return false }
        if idp.onlyContainsAttributeCerts { return false }
        return true
    }

    /// GeneralName equality for scope checks: directory names by RFC 5280 §7.1 matching, the rest exactly.
    static func names(_ a: GeneralName, _ b: GeneralName) -> Bool {
        if case .directoryName(let x) = a, case .directoryName(let y) = b { return x.matches(y) }
        return a == b
    }

    /// §6.3.3 (e)–(f): the certificate whose key signed `crl`, with cRLSign when keyUsage is
    /// present and a path to the chain's trust anchor; nil (with a note) when there is none.
    func signer(of crl: CRL, issuer: Certificate, chain: [Certificate], at time: Int64, notes: inout [String]) -> Certificate? {
        var seen = Set<[UInt8]>()
        let candidates = ([issuer] + chain + candidateCertificates).filter { seen.insert($0.derBytes).inserted }
        for candidate in candidates where candidate.subject.matches(crl.issuer) {
            if let akid = crl.authorityKeyIdentifier?.keyIdentifier, let skid = candidate.subjectKeyIdentifier, akid != skid { continue }
            if let usage = candidate.keyUsage, !usage.cRLSign {
                notes.append("\(candidate.subject) lacks cRLSign")
                continue
            }
            guard case .success = crl.isSignedVartime(by: candidate, minimumRSABits: options.minimumRSABits) else {
                notes.append("a CRL of \(crl.issuer) does not verify under \(candidate.subject)'s key")
                continue
            }
            // The chain's issuer (and anything else on the validated chain) is already validated.
            if chain.contains(candidate) { return candidate }
            guard nesting < options.maximumSignerNesting else {
                notes.append("CRL signers nested deeper than \(options.maximumSignerNesting) are not trusted")
                continue
            }
            // The signer's path, to the same trust anchor, itself checked for revocation.
            let verifier = CertificateVerifier(
                trustedRoots: [chain[chain.count - 1]],
                policies: signerPolicies + [CRLRevocationPolicy(nestedIn: self)],
                minimumRSABits: options.minimumRSABits)
            if case .valid = verifier.verify(leaf: candidate, intermediates: candidateCertificates + chain, at: time) {
                return candidate
            }
            notes.append("the CRL signer \(candidate.subject) has no valid path to the trust anchor")
        }
        return nil
    }

    /// §6.3.3 (g): the newest usable delta CRL for the complete CRL `base`, signed by `signer`.
    func delta(for base: CRL, signer: Certificate, at time: Int64) -> CRL? {
        guard let baseNumber = base.crlNumber else { return nil }
        var best: CRL?
        for candidate in crls {
            guard let indicator = candidate.deltaCRLIndicator, let number = candidate.crlNumber,
                candidate.issuer.matches(base.issuer),
                candidate.issuingDistributionPoint?.derBytes == base.issuingDistributionPoint?.derBytes,
                candidate.authorityKeyIdentifier?.keyIdentifier == base.authorityKeyIdentifier?.keyIdentifier,
                indicator <= baseNumber, baseNumber < number,
                candidate.thisUpdate <= time, (candidate.nextUpdate ?? Int64.max) >= time,
                candidate.unhandledCriticalExtensions.isEmpty
            else { continue }
            if let best, let bestNumber = best.crlNumber, bestNumber >= number { continue }
            guard case .success = candidate.isSignedVartime(by: signer, minimumRSABits: options.minimumRSABits) else { continue }
            best = candidate
        }
        return best
    }
}

/// A fixed set of CRLs is an offline revocation checker: the synchronous `CertificateVerifier.verify(…,
/// checkingRevocationWith:)` takes it, and (regular build) the asynchronous one too.
extension CRLRevocationPolicy: OfflineRevocationChecker {}
