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
    /// A policy-specific rule.
    case policy(name: String, reason: String)
    /// A certificate lacks the marker extension a profile (``MarkerExtensionPolicy``) requires of
    /// its position: `role` names the position ("the WWDR intermediate"), `policy` the profile.
    case missingMarkerExtension(subject: String, role: String, oid: ASN1ObjectIdentifier, policy: String)
    /// The chain's length is not the profile's (``MarkerExtensionPolicy/chainLength``).
    case chainLengthMismatch(policy: String, expected: Int, found: Int)
    /// Path building stopped at its work bound (signature checks or paths tried).
    case workLimitExceeded(String)
    /// An OCSP responder said the certificate is revoked (time, and CRLReason when given).
    case revoked(subject: String, time: Int64, reason: Int?)
    /// An OCSP responder does not know the certificate.
    case revocationStatusUnknown(subject: String)
    /// The revocation check could not be completed; `retryable` for network failures (down, slow,
    /// refused, oversized), false for a response that failed verification.
    case revocationCheckFailed(subject: String, reason: String, retryable: Bool)
    /// A name of `subject` (its DN or a subjectAltName) outside the permitted subtrees its CAs set (RFC 5280 §6.1.3 (b)).
    case nameNotPermitted(subject: String, name: String)
    /// A name of `subject` inside a subtree a CA above it excluded (RFC 5280 §6.1.3 (c)).
    case nameExcluded(subject: String, name: String)
    /// `subject` carries a name of a form a critical nameConstraints above it constrains and Sigil
    /// cannot check (otherName, x400Address, ediPartyName, registeredID, or a malformed constraint),
    /// so the certificate is refused (RFC 5280 §4.2.1.10).
    case unsupportedNameConstraint(subject: String, form: String)
    /// Name-constraint checking would compare more (name, subtree) pairs than allowed.
    case nameConstraintWorkExceeded(limit: Int)
    /// A policyMappings extension maps to or from anyPolicy (RFC 5280 §6.1.4 (a)).
    case policyMappingOfAnyPolicy(subject: String)
    /// No certificate policy is valid for the path while an explicit policy is required: at a
    /// certificate (RFC 5280 §6.1.3 (f)) or for the whole path and the user's initial policy set (§6.1.5 (g)).
    case noValidPolicy(subject: String, clause: String)
    /// The policy graph (RFC 9618) would grow past its bound of nodes and edges.
    case policyGraphLimitExceeded(limit: Int)

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
        case .missingMarkerExtension(let subject, let role, let oid, let policy):
            "\(policy): \(role) (\(subject)) lacks OID \(oid.dotted)"
        case .chainLengthMismatch(let policy, let expected, let found):
            "\(policy): the chain must have \(expected) certificates, found \(found)"
        case .workLimitExceeded(let s): "path building stopped: \(s)"
        case .revoked(let subject, let time, let reason):
            "\(subject) is revoked since \(time)" + (reason.map { " (CRLReason \($0))" } ?? "")
        case .revocationStatusUnknown(let subject): "the OCSP responder does not know \(subject)"
        case .revocationCheckFailed(let subject, let reason, let retryable):
            "revocation check of \(subject) failed\(retryable ? " (retryable)" : ""): \(reason)"
        case .nameNotPermitted(let subject, let name): "\(subject): name \(name) is not within the permitted subtrees"
        case .nameExcluded(let subject, let name): "\(subject): name \(name) is within an excluded subtree"
        case .unsupportedNameConstraint(let subject, let form):
            "\(subject) has a \(form) name and a critical nameConstraints above it constrains that form, which Sigil cannot check"
        case .nameConstraintWorkExceeded(let limit): "name-constraint checking stopped after \(limit) comparisons"
        case .policyMappingOfAnyPolicy(let subject): "\(subject) maps a policy to or from anyPolicy"
        case .noValidPolicy(let subject, _): "no valid certificate policy at \(subject) while an explicit policy is required"
        case .policyGraphLimitExceeded(let limit): "policy processing stopped: the policy graph would exceed \(limit) nodes and edges"
        }
    }

    /// The rule the failure breaks, as a specification clause ("RFC 5280 §6.1.3 (b)").
    public var rule: String {
        switch self {
        case .noPathToTrustedRoot: "RFC 5280 §6.1 (path to a trust anchor)"
        case .expired, .notYetValid: "RFC 5280 §6.1.3 (a)(2)"
        case .notACA: "RFC 5280 §6.1.4 (k)"
        case .pathLengthExceeded: "RFC 5280 §6.1.4 (l)–(m)"
        case .missingKeyCertSign: "RFC 5280 §6.1.4 (n)"
        case .unhandledCriticalExtension: "RFC 5280 §6.1.4 (o)"
        case .invalidSignature: "RFC 5280 §6.1.3 (a)(1)"
        case .policy(let name, _): name
        case .missingMarkerExtension(_, _, _, let policy), .chainLengthMismatch(let policy, _, _): policy
        case .workLimitExceeded: "Sigil path-building bound"
        case .revoked, .revocationStatusUnknown, .revocationCheckFailed: "RFC 5280 §6.1.3 (a)(3)"
        case .nameNotPermitted: "RFC 5280 §6.1.3 (b)"
        case .nameExcluded: "RFC 5280 §6.1.3 (c)"
        case .unsupportedNameConstraint: "RFC 5280 §4.2.1.10"
        case .nameConstraintWorkExceeded: "Sigil name-constraint bound"
        case .policyMappingOfAnyPolicy: "RFC 5280 §6.1.4 (a)"
        case .noValidPolicy(_, let clause): "RFC 5280 \(clause)"
        case .policyGraphLimitExceeded: "RFC 9618 policy-graph bound"
        }
    }
}
