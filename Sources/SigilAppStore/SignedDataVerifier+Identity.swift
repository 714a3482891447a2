import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

extension SignedDataVerifier {
    /// Step 7: the payload type's identity rule against this verifier's expectation — with several
    /// accepted environments, first the one the payload names (the kind's own environment rule
    /// run, bundle id and app Apple id aside, for each accepted environment), then the whole rule
    /// for that environment.
    func checkIdentity<Payload: AppStoreSignedPayload>(_ payload: Payload, _ verified: Envelope, trace: VerificationTrace?)
        throws(AppStoreError) -> VerifiedSignedData<Payload>
    {
        let report: AppIdentityReport
        let found: AppStoreEnvironment
        do throws(AppStoreError) {
            // One environment (the common case): no candidates to sort on every verification.
            if environments.environments.count == 1, let only = environments.environments.first {
                found = only
            } else {
                var match: AppStoreEnvironment?
                var mismatch: AppStoreError?
                for candidate in environments.sorted {
                    do {
                        _ = try payload.checkIdentity(
                            AppIdentityExpectation(check: .reportOnly, environment: candidate, accepted: environments))
                        match = candidate
                        break
                    } catch { mismatch = error }
                }
                guard let match else {
                    throw mismatch ?? AppStoreError(.invalidEnvironment, "the payload is from none of \(environments)")
                }
                found = match
            }
            report = try payload.checkIdentity(AppIdentityExpectation(check: identityCheck, environment: found))
        } catch {
            trace?.fail("Apple: \(Payload.kind.rawValue) identity", "bundle id / app Apple id / environment", error.reason)
            throw error
        }
        return VerifiedSignedData(
            payload: payload, details: identityChecked(verified, report: report, environment: found, kind: Payload.kind, trace: trace))
    }

    /// What follows a passed identity check, for any payload type (not generic: one copy): the
    /// trace's record of it, the facts (a leaf expired since signing), the result's details.
    func identityChecked(
        _ verified: Envelope, report: AppIdentityReport, environment found: AppStoreEnvironment, kind: SignedDataKind,
        trace: VerificationTrace?
    ) -> SignedDataDetails {
        trace?.pass(
            "Apple: \(kind.rawValue) identity", "bundle id / app Apple id / environment",
            "bundle id \(report.bundleId ?? "(none carried)"), app Apple id \(report.appAppleId.map { String($0) } ?? "(none carried)"), "
                + "environment \(report.environment?.rawValue ?? "absent")"
                + (environments.environments.count > 1 ? " (one of \(environments))" : "")
                + (report.enforced ? "" : " — bundle id and app Apple id reported, not enforced (report-only verifier)"))
        var facts: [SignedDataFact] = []
        let now = clock()
        if verified.trust == .appleChain, let leaf = verified.chain.first, leaf.validity.notAfter < now {
            facts.append(.leafExpiredSinceSigning(notAfter: leaf.validity.notAfter))
            trace?.note(
                "Apple: leaf expired since signing",
                "the leaf's notAfter \(leaf.validity.notAfter) is before now (\(now)); the chain was valid at \(verified.validationTime)"
                    + (checksRevocation ? " and revocation was checked now" : "")
                    + ": fetch the data again through Get Transaction Info for a signature by the current leaf")
        }
        return .init(
            payloadBytes: verified.payloadBytes, payloadJSON: verified.payloadJSON, header: verified.header, chain: verified.chain,
            validationTime: verified.validationTime, trust: verified.trust, chainFromCache: verified.chainFromCache, identity: report,
            environment: found, facts: facts)
    }
}
