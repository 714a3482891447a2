import SigilX509

/// Where CRLs come from, as `OCSPTransport` is where OCSP responses come from: Sigil's X.509
/// layer has no networking of its own. `OfflineCRLSource` is a fixed set; SigilHTTP's
/// `HTTPCRLSource` fetches from cRLDistributionPoints (and freshestCRL) with a bounded cache.
public protocol CRLSource: Sendable {
    /// The CRLs (complete and delta) that may decide the status of `certificate`, issued by
    /// `issuer`, at `time`. Throwing means the source could not be reached (a retryable failure).
    func crls(for certificate: Certificate, issuer: Certificate, at time: Int64) async throws -> [CRL]
}

/// A fixed set of CRLs (files the caller loaded, a directory, a cache of its own).
public struct OfflineCRLSource: CRLSource {
    /// The CRLs it holds.
    public let crls: [CRL]

    /// A source answering every question with `crls`.
    public init(_ crls: [CRL]) { self.crls = crls }

    /// The CRLs issued by the certificate's issuer or named by its distribution points' cRLIssuer
    /// (indirect CRLs), complete and delta. Synchronous and never failing: the set is at hand.
    public func crls(for certificate: Certificate, issuer: Certificate, at time: Int64) -> [CRL] {
        let issuers = certificate.crlDistributionPoints.flatMap { $0.cRLIssuer ?? [] }
            .compactMap { if case .directoryName(let name) = $0 { name } else { nil } }
        return crls.filter { crl in crl.issuer.matches(certificate.issuer) || issuers.contains { $0.matches(crl.issuer) } }
    }
}

/// CRL revocation checking with CRLs from a `CRLSource`: for each certificate of the chain but
/// the trust anchor, its CRLs are gathered from the source (and, for a CRL signed by another
/// certificate, that signer's own CRLs through the same source on the nested check), then decided
/// by `CRLRevocationPolicy`. A source that throws fails the certificate as retryable.
public struct CRLRevocationChecker: RevocationChecker {
    /// Where the CRLs come from.
    public let source: any CRLSource
    /// Certificates that may sign CRLs or lie on a CRL signer's path (intermediates, roots).
    public let candidateCertificates: [Certificate]
    /// Soft fail, delta CRLs, key sizes, bounds and relaxations, as for `CRLRevocationPolicy`.
    public let options: CRLRevocationPolicy.Options

    /// A checker drawing CRLs from `source`; `candidateCertificates` may hold separate CRL signers.
    public init(source: any CRLSource, candidateCertificates: [Certificate] = [], options: CRLRevocationPolicy.Options = .init()) {
        self.source = source
        self.candidateCertificates = candidateCertificates
        self.options = options
    }

    /// The revocation failures of `chain` (leaf first, trust anchor last) at `time`, from the source's CRLs.
    public func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] {
        guard chain.count >= 2 else { return [] }
        var gathered: [CRL] = []
        var seen = Set<CRL>()
        var unreachable: [Int: String] = [:]
        // The chain's certificates, then candidate signers (their CRLs decide the signers' status).
        var subjects: [(Certificate, Certificate)] = (0..<(chain.count - 1)).map { (chain[$0], chain[$0 + 1]) }
        for signer in candidateCertificates {
            if let issuer = (candidateCertificates + chain).first(where: { $0.subject.matches(signer.issuer) && $0 != signer }) {
                subjects.append((signer, issuer))
            }
        }
        for (index, (certificate, issuer)) in subjects.enumerated() {
            do {
                for crl in try await source.crls(for: certificate, issuer: issuer, at: time) where seen.insert(crl).inserted {
                    gathered.append(crl)
                }
            } catch {
                if index < chain.count - 1 { unreachable[index] = "\(error)" }
            }
        }
        let policy = CRLRevocationPolicy(crls: gathered, candidateCertificates: candidateCertificates, options: options)
        var failures: [ValidationFailure] = []
        for index in 0..<(chain.count - 1) {
            let certificate = chain[index]
            let named = PathCertificate(certificate, position: index)
            switch policy.status(of: certificate, issuer: chain[index + 1], chain: chain, at: time) {
            case .unrevoked: break
            case .revoked(let entry):
                failures.append(.revoked(certificate: named, time: entry.revocationDate, reason: entry.reason?.rawValue))
            case .undetermined(let why):
                if let error = unreachable[index] {
                    failures.append(.revocationCheckFailed(certificate: named, reason: "CRL source: \(error)", retryable: true))
                } else if !options.allowUndetermined {
                    failures.append(.revocationCheckFailed(certificate: named, reason: why, retryable: false))
                }
            }
        }
        return failures
    }
}
