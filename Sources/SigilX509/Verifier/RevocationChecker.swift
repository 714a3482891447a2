/// Revocation checking of a validated chain, asynchronous so a checker may fetch what it needs
/// (OCSP responses, CRLs). Implementations: `CRLRevocationPolicy` (a fixed set of CRLs),
/// `CRLRevocationChecker` (CRLs from a `CRLSource`), SigilOCSP's `OCSPRevocationChecker`, and the
/// compositions of `RevocationPolicy` — revocation is a policy the caller composes.
public protocol RevocationChecker: Sendable {
    /// The revocation failures of `chain` (leaf first, trust anchor last) at `time`; empty when
    /// every certificate but the trust anchor is known not to be revoked.
    func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure]
}

/// Compositions of revocation checkers (OCSP, CRL, …).
public enum RevocationPolicy {
    /// Either suffices: the chain passes when one checker finds nothing wrong — unless a checker
    /// reports a certificate revoked, which always fails the chain (a stale "good" from another
    /// source never outvotes a revocation). Otherwise every checker's failures are reported.
    public static func anyOf(_ checkers: [any RevocationChecker]) -> any RevocationChecker { AnyOf(checkers: checkers) }

    /// All are required: every checker runs and every failure of each is reported.
    public static func allOf(_ checkers: [any RevocationChecker]) -> any RevocationChecker { AllOf(checkers: checkers) }

    struct AnyOf: RevocationChecker {
        let checkers: [any RevocationChecker]

        func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] {
            var all: [ValidationFailure] = []
            var anyClean = false
            for checker in checkers {
                let failures = await checker.failures(of: chain, at: time)
                if failures.isEmpty { anyClean = true }
                all += failures
            }
            let revoked = all.filter { if case .revoked = $0 { true } else { false } }
            if !revoked.isEmpty { return revoked }
            return anyClean || checkers.isEmpty ? [] : all
        }
    }

    struct AllOf: RevocationChecker {
        let checkers: [any RevocationChecker]

        func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] {
            var all: [ValidationFailure] = []
            for checker in checkers { all += await checker.failures(of: chain, at: time) }
            return all
        }
    }
}

extension CertificateVerifier {
    /// Path validation followed by the revocation check `revocation` on the chain found
    /// (RFC 5280 §6.1.3 (a)(3)); `trace` receives the path steps and the revocation verdict.
    public func verify(
        leaf: Certificate, intermediates: [Certificate] = [], at time: Int64,
        checkingRevocationWith revocation: any RevocationChecker, trace: VerificationTrace? = nil
    ) async -> Result {
        await verify(leaf: leaf, intermediates: intermediates, at: time, checkingRevocationWith: revocation, asOf: time, trace: trace)
    }

    /// Path validation at `time`, then the revocation check `revocation` on the chain found as
    /// of `revocationTime` (RFC 5280 §6.1.3 (a)(3)): for data signed in the past, the chain is
    /// validated when it was signed and its revocation is what the checker knows now.
    public func verify(
        leaf: Certificate, intermediates: [Certificate] = [], at time: Int64,
        checkingRevocationWith revocation: any RevocationChecker, asOf revocationTime: Int64, trace: VerificationTrace? = nil
    ) async -> Result {
        let result = verify(leaf: leaf, intermediates: intermediates, at: time, trace: trace)
        guard case .valid(let chain) = result else { return result }
        let failures = await revocation.failures(of: chain, at: revocationTime)
        let check = revocationTime == time ? "revocation status" : "revocation status at \(revocationTime)"
        if failures.isEmpty {
            trace?.pass("RFC 5280 §6.1.3 (a)(3)", check, "no certificate of the path is revoked (\(type(of: revocation)))")
            return result
        }
        trace?.fail("RFC 5280 §6.1.3 (a)(3)", check, failures.map { "\($0) [\($0.rule)]" }.joined(separator: "; "))
        return .invalid(failures)
    }
}
