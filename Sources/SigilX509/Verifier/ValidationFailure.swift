import SigilASN1

/// One reason a chain did not validate. The verifier reports every reason it met, for every path
/// it tried, so a caller can tell an expired leaf from a missing intermediate.
public enum ValidationFailure: Hashable, Sendable, CustomStringConvertible {
    /// No chain from the leaf to a trusted root could be built (the last certificate reached and why).
    case noPathToTrustedRoot(String)
    /// The validation time is after notAfter.
    case expired(subject: String, notAfter: Int64, time: Int64)
    /// The validation time is before notBefore.
    case notYetValid(subject: String, notBefore: Int64, time: Int64)
    /// An issuing certificate without basicConstraints cA (RFC 5280 §6.1.4 (k)).
    case notACA(subject: String)
    /// More intermediates below a CA than its pathLenConstraint allows (§6.1.4 (l)–(m)).
    case pathLengthExceeded(subject: String, constraint: Int, below: Int)
    /// An issuing certificate whose keyUsage lacks keyCertSign (§6.1.4 (n)).
    case missingKeyCertSign(subject: String)
    /// A critical extension no check in the chain understands (§6.1.4 (o), §4.2).
    case unhandledCriticalExtension(subject: String, oid: ASN1ObjectIdentifier)
    /// A signature that does not verify, or that no policy-allowed algorithm can check.
    case invalidSignature(subject: String, reason: String)
    /// A policy-specific rule (e.g. Apple's marker OIDs or chain length).
    case policy(name: String, reason: String)
    /// Path building stopped at its work bound (signature checks or paths tried).
    case workLimitExceeded(String)
    /// An OCSP responder said the certificate is revoked (time, and CRLReason when given).
    case revoked(subject: String, time: Int64, reason: Int?)
    /// An OCSP responder does not know the certificate.
    case revocationStatusUnknown(subject: String)
    /// The revocation check could not be completed; `retryable` for network failures (down, slow,
    /// refused, oversized), false for a response that failed verification.
    case revocationCheckFailed(subject: String, reason: String, retryable: Bool)

    public var description: String {
        switch self {
        case .noPathToTrustedRoot(let s): "no path to a trusted root: \(s)"
        case .expired(let subject, let notAfter, let time): "\(subject) expired at \(notAfter) (validation time \(time))"
        case .notYetValid(let subject, let notBefore, let time): "\(subject) is not valid before \(notBefore) (validation time \(time))"
        case .notACA(let subject): "\(subject) issues certificates but is not a CA (basicConstraints cA)"
        case .pathLengthExceeded(let subject, let constraint, let below):
            "\(subject) allows \(constraint) intermediate(s) below it, the chain has \(below)"
        case .missingKeyCertSign(let subject): "\(subject) issues certificates but its keyUsage lacks keyCertSign"
        case .unhandledCriticalExtension(let subject, let oid): "\(subject) has an unhandled critical extension \(oid.dotted)"
        case .invalidSignature(let subject, let reason): "signature on \(subject): \(reason)"
        case .policy(let name, let reason): "\(name): \(reason)"
        case .workLimitExceeded(let s): "path building stopped: \(s)"
        case .revoked(let subject, let time, let reason):
            "\(subject) is revoked since \(time)" + (reason.map { " (CRLReason \($0))" } ?? "")
        case .revocationStatusUnknown(let subject): "the OCSP responder does not know \(subject)"
        case .revocationCheckFailed(let subject, let reason, let retryable):
            "revocation check of \(subject) failed\(retryable ? " (retryable)" : ""): \(reason)"
        }
    }
}
