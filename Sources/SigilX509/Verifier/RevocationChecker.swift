#if hasFeature(Embedded)
/// Revocation checking of a validated chain from data the caller already holds — CRLs
/// (`CRLRevocationPolicy`), OCSP responses (SigilOCSP's `OfflineOCSPRevocationChecker`) — run
/// synchronously, with no network and no existential: the synchronous
/// `CertificateVerifier.verify(leaf:intermediates:at:checkingRevocationWith:asOf:trace:)` takes any
/// conformer generically. ``AnyOfflineRevocationChecker`` composes several (`anyOf`, `allOf`).
///
/// In the regular build every offline checker is also a `RevocationChecker`, so the asynchronous
/// API (which fetches what it needs: OCSP over a transport, CRLs from a `CRLSource`) takes it too.
public protocol OfflineRevocationChecker: Sendable {
    /// A short name for reports ("CRL revocation").
    var name: String { get }
    /// The revocation failures of `chain` (leaf first, trust anchor last) at `time`; empty when
    /// every certificate but the trust anchor is known not to be revoked.
    func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure]
}
#else
/// Revocation checking of a validated chain from data the caller already holds — CRLs
/// (`CRLRevocationPolicy`), OCSP responses (SigilOCSP's `OfflineOCSPRevocationChecker`) — run
/// synchronously, with no network and no existential: the synchronous
/// `CertificateVerifier.verify(leaf:intermediates:at:checkingRevocationWith:asOf:trace:)` takes any
/// conformer generically. ``AnyOfflineRevocationChecker`` composes several (`anyOf`, `allOf`).
///
/// In the regular build every offline checker is also a `RevocationChecker`, so the asynchronous
/// API (which fetches what it needs: OCSP over a transport, CRLs from a `CRLSource`) takes it too.
public protocol OfflineRevocationChecker: RevocationChecker {
    /// A short name for reports ("CRL revocation").
    var name: String { get }
    /// The revocation failures of `chain` (leaf first, trust anchor last) at `time`; empty when
    /// every certificate but the trust anchor is known not to be revoked.
    func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure]
}
#endif

/// An offline revocation checker as one concrete type: its name and its check, taken once from
/// any ``OfflineRevocationChecker``; also the compositions of several.
public struct AnyOfflineRevocationChecker: OfflineRevocationChecker {
    /// The checker's name in reports.
    public let name: String
    /// The check.
    private let check: @Sendable ([Certificate], Int64) -> [ValidationFailure]

    /// `checker`, its name read now.
    public init<Checker: OfflineRevocationChecker>(_ checker: Checker) {
        name = checker.name
        check = { chain, time in checker.failures(of: chain, at: time) }
    }

    /// A checker that is already one: kept as it is.
    public init(_ checker: AnyOfflineRevocationChecker) {
        self = checker
    }

    /// A checker named `name` whose revocation failures of a chain (leaf first, trust anchor
    /// last) at a time are `failures`.
    public init(name: String, failures: @escaping @Sendable (_ chain: [Certificate], _ time: Int64) -> [ValidationFailure]) {
        self.name = name
        check = failures
    }

    /// The revocation failures of `chain` at `time`.
    public func failures(of chain: [Certificate], at time: Int64) -> [ValidationFailure] {
        check(chain, time)
    }

    /// Either suffices, as `RevocationPolicy.anyOf`: the chain passes when one checker finds
    /// nothing wrong, unless a checker reports a certificate revoked, which always fails it.
    public static func anyOf(_ checkers: [AnyOfflineRevocationChecker]) -> AnyOfflineRevocationChecker {
        AnyOfflineRevocationChecker(name: "any of " + checkers.map { $0.name }.joined(separator: ", ")) { chain, time in
            RevocationVerdicts.anyOf(checkers.map { $0.failures(of: chain, at: time) })
        }
    }

    /// All are required, as `RevocationPolicy.allOf`: every checker runs and every failure of each
    /// is reported.
    public static func allOf(_ checkers: [AnyOfflineRevocationChecker]) -> AnyOfflineRevocationChecker {
        AnyOfflineRevocationChecker(name: "all of " + checkers.map { $0.name }.joined(separator: ", ")) { chain, time in
            RevocationVerdicts.allOf(checkers.map { $0.failures(of: chain, at: time) })
        }
    }
}

/// How the failures of several revocation checkers combine: one rule for the offline and the
/// asynchronous compositions.
enum RevocationVerdicts {
    /// Either suffices: no failure when one checker found none — unless one reports a certificate
    /// revoked, which always stands (a stale "good" from another source never outvotes a
    /// revocation). Otherwise every checker's failures.
    static func anyOf(_ results: [[ValidationFailure]]) -> [ValidationFailure] {
        let all = results.flatMap { $0 }
        let revoked = all.filter { if case .revoked = $0 { true } else { false } }
        if !revoked.isEmpty { return revoked }
        return results.isEmpty || results.contains { $0.isEmpty } ? [] : all
    }

    /// All are required: every failure of every checker.
    static func allOf(_ results: [[ValidationFailure]]) -> [ValidationFailure] {
        results.flatMap { $0 }
    }
}

extension CertificateVerifier {
    /// Path validation followed by the offline revocation check `revocation` on the chain found
    /// (RFC 5280 §6.1.3 (a)(3)), synchronously; `trace` receives the path steps and the
    /// revocation verdict. (In asynchronous code the regular build chooses the asynchronous
    /// overload, which runs the same check: every offline checker is a `RevocationChecker`.)
    public func verify<Checker: OfflineRevocationChecker>(
        leaf: Certificate, intermediates: [Certificate] = [], at time: Int64, checkingRevocationWith revocation: Checker,
        trace: VerificationTrace? = nil
    ) -> Result {
        verify(leaf: leaf, intermediates: intermediates, at: time, checkingRevocationWith: revocation, asOf: time, trace: trace)
    }

    /// Path validation at `time`, then the offline revocation check `revocation` on the chain
    /// found as of `revocationTime` (RFC 5280 §6.1.3 (a)(3)), synchronously: for data signed in
    /// the past, the chain is validated when it was signed and its revocation is what the
    /// checker's data says at `revocationTime`.
    public func verify<Checker: OfflineRevocationChecker>(
        leaf: Certificate, intermediates: [Certificate] = [], at time: Int64, checkingRevocationWith revocation: Checker,
        asOf revocationTime: Int64, trace: VerificationTrace? = nil
    ) -> Result {
        let result = verify(leaf: leaf, intermediates: intermediates, at: time, trace: trace)
        guard case .valid(let chain) = result else { return result }
        return Self.revocationVerdict(
            result, failures: revocation.failures(of: chain, at: revocationTime), checker: revocation.name, at: time,
            asOf: revocationTime, trace: trace)
    }

    /// The result once the revocation check found `failures` on the valid `result`'s chain, with
    /// its trace step (shared by the offline and the asynchronous checks).
    static func revocationVerdict(
        _ result: Result, failures: [ValidationFailure], checker: String, at time: Int64, asOf revocationTime: Int64,
        trace: VerificationTrace?
    ) -> Result {
        let check = revocationTime == time ? "revocation status" : "revocation status at \(revocationTime)"
        if failures.isEmpty {
            trace?.pass("RFC 5280 §6.1.3 (a)(3)", check, "no certificate of the path is revoked (\(checker))")
            return result
        }
        trace?.fail("RFC 5280 §6.1.3 (a)(3)", check, failures.map { "\($0) [\($0.rule)]" }.joined(separator: "; "))
        return .invalid(failures)
    }
}

#if !hasFeature(Embedded)
/// Revocation checking of a validated chain, asynchronous so a checker may fetch what it needs
/// (OCSP responses, CRLs). Implementations: every ``OfflineRevocationChecker`` (`CRLRevocationPolicy`,
/// a fixed set of CRLs; SigilOCSP's `OfflineOCSPRevocationChecker`, supplied OCSP responses),
/// `CRLRevocationChecker` (CRLs from a `CRLSource`), SigilOCSP's `OCSPRevocationChecker`, and the
/// compositions of `RevocationPolicy` — revocation is a policy the caller composes. Regular build
/// only (Embedded Swift has no concurrency on every target); the offline checkers serve both.
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
            var results: [[ValidationFailure]] = []
            for checker in checkers { results.append(await checker.failures(of: chain, at: time)) }
            return RevocationVerdicts.anyOf(results)
        }
    }

    struct AllOf: RevocationChecker {
        let checkers: [any RevocationChecker]

        func failures(of chain: [Certificate], at time: Int64) async -> [ValidationFailure] {
            var results: [[ValidationFailure]] = []
            for checker in checkers { results.append(await checker.failures(of: chain, at: time)) }
            return RevocationVerdicts.allOf(results)
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
        // An offline checker is named as the synchronous path names it.
        let name = (revocation as? any OfflineRevocationChecker)?.name ?? "\(type(of: revocation))"
        return Self.revocationVerdict(result, failures: failures, checker: name, at: time, asOf: revocationTime, trace: trace)
    }
}
#endif
