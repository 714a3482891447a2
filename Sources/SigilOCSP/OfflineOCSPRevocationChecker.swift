import SigilX509

/// Revocation checking from OCSP responses the caller already holds (stapled to a message, kept
/// from an earlier fetch, loaded from files): no network, synchronous, so the synchronous
/// `CertificateVerifier.verify(…, checkingRevocationWith:)` takes it (and, in the regular build,
/// the asynchronous one too).
///
/// For each certificate of a validated chain but the trust anchor, with the next certificate as
/// its issuer, the responses are tried in order: the first one that passes `verifier`'s checks
/// for that certificate (RFC 6960 §3.2: signer, signature, CertID, freshness; no nonce, since no
/// request was sent) decides — revoked and unknown fail the chain, as with
/// ``OCSPRevocationChecker``. A response about the certificate that fails those checks fails it
/// (not retryable) unless another one passes; a response about another certificate is skipped.
/// A certificate no response is about fails the chain in `.hardFail` mode and is let through in
/// `.softFail` mode (a stapled response usually covers the leaf alone).
public struct OfflineOCSPRevocationChecker: OfflineRevocationChecker {
    /// The responses at hand.
    public let responses: [OCSPResponse]
    /// The checks each response passes before it is believed.
    public let verifier: OCSPResponseVerifier
    /// What a certificate no response is about does to the chain.
    public let mode: OCSPRevocationChecker.Mode
    /// The checker's name in reports.
    public var name: String { "OCSP (supplied responses)" }

    /// A checker deciding from `responses`, believing what `verifier` accepts, in `mode`.
    public init(
        responses: [OCSPResponse], verifier: OCSPResponseVerifier = OCSPResponseVerifier(), mode: OCSPRevocationChecker.Mode = .hardFail
    ) {
        self.responses = responses
        self.verifier = verifier
        self.mode = mode
    }

    /// The verified status of `certificate` (issued by `issuer`) at `time` from the responses: the
    /// first that passes the checks; otherwise the error of the first response about the
    /// certificate that failed them, or `certIDMismatch` when none is about it.
    public func status(of certificate: Certificate, issuer: Certificate, at time: Int64) throws(OCSPError) -> OCSPVerifiedStatus {
        var firstError: OCSPError?
        for response in responses {
            do {
                return try verifier.verify(response, certificate: certificate, issuer: issuer, at: time)
            } catch  where error.code == .certIDMismatch {
                continue
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError
            ?? OCSPError(.certIDMismatch, "no supplied OCSP response is about serial \(certificate.serialNumberHex) of \(issuer.subject)")
    }

    /// The revocation failures of a validated chain (leaf first, trust anchor last) at `time`.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for index in 0..<max(0, chain.count - 1) {
            let named = PathCertificate(chain[index], position: index)
            do {
                let verified = try status(of: chain[index], issuer: chain[index + 1], at: time)
                if let failure = verified.failure(for: named) { failures.append(failure) }
            } catch  where error.code == .certIDMismatch {
                if mode == .hardFail {
                    failures.append(.revocationCheckFailed(certificate: named, reason: error.description, retryable: false))
                }
            } catch {
                failures.append(.revocationCheckFailed(certificate: named, reason: error.description, retryable: false))
            }
        }
        return failures
    }
}

extension OCSPVerifiedStatus {
    /// What this status does to a chain for `certificate`: revoked and unknown fail it, good does
    /// not (one rule for the online and the offline checkers).
    func failure(for certificate: PathCertificate) -> ValidationFailure? {
        switch status {
        case .good: nil
        case .revoked(let revokedAt, let reason): .revoked(certificate: certificate, time: revokedAt, reason: reason)
        case .unknown: .revocationStatusUnknown(certificate: certificate)
        }
    }
}
