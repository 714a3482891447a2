import SigilASN1

/// One reason a chain did not validate. The verifier reports every reason it met, for every path
/// it tried, so a caller can tell an expired leaf from a missing intermediate. A failure about one
/// certificate names it by its position in the path and its subject (``PathCertificate``).
public enum ValidationFailure: Hashable, Sendable, CustomStringConvertible {
    /// No chain from the leaf to a trusted root could be built (the last certificate reached and why).
    case noPathToTrustedRoot(String)
    /// The validation time is after notAfter.
    case expired(certificate: PathCertificate, notAfter: Int64, time: Int64)
    /// The validation time is before notBefore.
    case notYetValid(certificate: PathCertificate, notBefore: Int64, time: Int64)
    /// An issuing certificate without basicConstraints cA (RFC 5280 §6.1.4 (k)).
    case notACA(certificate: PathCertificate)
    /// More intermediates below a CA than its pathLenConstraint allows (§6.1.4 (l)–(m)).
    case pathLengthExceeded(certificate: PathCertificate, constraint: Int, below: Int)
    /// An issuing certificate whose keyUsage lacks keyCertSign (§6.1.4 (n)).
    case missingKeyCertSign(certificate: PathCertificate)
    /// A critical extension no check in the chain understands (§6.1.4 (o), §4.2).
    case unhandledCriticalExtension(certificate: PathCertificate, oid: ASN1ObjectIdentifier)
    /// A signature that does not verify, or that no policy-allowed algorithm can check.
    case invalidSignature(certificate: PathCertificate, reason: String)
    /// A policy-specific rule.
    case policy(name: String, reason: String)
    /// A certificate lacks the marker extension a profile (``MarkerExtensionPolicy``) requires of
    /// its position: `role` names the position ("the WWDR intermediate"), `policy` the profile.
    case missingMarkerExtension(certificate: PathCertificate, role: String, oid: ASN1ObjectIdentifier, policy: String)
    /// The chain's length is not the profile's (``MarkerExtensionPolicy/chainLength``).
    case chainLengthMismatch(policy: String, expected: Int, found: Int)
    /// Path building stopped at its work bound (signature checks or paths tried).
    case workLimitExceeded(String)
    /// An OCSP responder said the certificate is revoked (time, and CRLReason when given).
    case revoked(certificate: PathCertificate, time: Int64, reason: Int?)
    /// An OCSP responder does not know the certificate.
    case revocationStatusUnknown(certificate: PathCertificate)
    /// The revocation check could not be completed; `retryable` for network failures (down, slow,
    /// refused, oversized), false for a response that failed verification.
    case revocationCheckFailed(certificate: PathCertificate, reason: String, retryable: Bool)
    /// A name of `certificate` (its DN or a subjectAltName) outside the permitted subtrees its CAs set (RFC 5280 §6.1.3 (b)).
    case nameNotPermitted(certificate: PathCertificate, name: String)
    /// A name of `certificate` inside a subtree a CA above it excluded (RFC 5280 §6.1.3 (c)).
    case nameExcluded(certificate: PathCertificate, name: String)
    /// `certificate` carries a name of a form a critical nameConstraints above it constrains and Sigil
    /// cannot check (otherName, x400Address, ediPartyName, registeredID, or a malformed constraint),
    /// so the certificate is refused (RFC 5280 §4.2.1.10).
    case unsupportedNameConstraint(certificate: PathCertificate, form: String)
    /// Name-constraint checking would compare more (name, subtree) pairs than allowed.
    case nameConstraintWorkExceeded(limit: Int)
    /// A policyMappings extension maps to or from anyPolicy (RFC 5280 §6.1.4 (a)).
    case policyMappingOfAnyPolicy(certificate: PathCertificate)
    /// No certificate policy is valid for the path while an explicit policy is required: at a
    /// certificate (RFC 5280 §6.1.3 (f)) or for the whole path and the user's initial policy set (§6.1.5 (g)).
    case noValidPolicy(certificate: PathCertificate, clause: String)
    /// The policy graph (RFC 9618) would grow past its bound of nodes and edges.
    case policyGraphLimitExceeded(limit: Int)
    /// `certificate` breaks a rule of the RFC 5280 certificate profile (``ProfileViolation``,
    /// each with its clause) that ``RFC5280Policy`` enforces.
    case nonConformingCertificate(certificate: PathCertificate, violation: ProfileViolation)
    /// A CRL that would decide `certificate`'s status breaks a rule of the CRL profile (RFC 5280
    /// §5), so it was not used; `crlIssuer` names the CRL's issuer.
    case nonConformingCRL(certificate: PathCertificate, crlIssuer: String, violation: ProfileViolation)

    /// The failure and the certificate it concerns, for people.
    public var description: String {
        switch self {
        case .noPathToTrustedRoot(let s): "no path to a trusted root: \(s)"
        case .expired(let certificate, let notAfter, let time): "\(certificate) expired at \(notAfter) (validation time \(time))"
        case .notYetValid(let certificate, let notBefore, let time):
            "\(certificate) is not valid before \(notBefore) (validation time \(time))"
        case .notACA(let certificate): "\(certificate) issues certificates but is not a CA (basicConstraints cA)"
        case .pathLengthExceeded(let certificate, let constraint, let below):
            "\(certificate) allows \(constraint) intermediate(s) below it, the chain has \(below)"
        case .missingKeyCertSign(let certificate): "\(certificate) issues certificates but its keyUsage lacks keyCertSign"
        case .unhandledCriticalExtension(let certificate, let oid): "\(certificate) has an unhandled critical extension \(oid.dotted)"
        case .invalidSignature(let certificate, let reason): "signature on \(certificate): \(reason)"
        case .policy(let name, let reason): "\(name): \(reason)"
        case .missingMarkerExtension(let certificate, let role, let oid, let policy):
            "\(policy): \(role) (\(certificate)) lacks OID \(oid.dotted)"
        case .chainLengthMismatch(let policy, let expected, let found):
            "\(policy): the chain must have \(expected) certificates, found \(found)"
        case .workLimitExceeded(let s): "path building stopped: \(s)"
        case .revoked(let certificate, let time, let reason):
            "\(certificate) is revoked since \(time)" + (reason.map { " (CRLReason \($0))" } ?? "")
        case .revocationStatusUnknown(let certificate): "the OCSP responder does not know \(certificate)"
        case .revocationCheckFailed(let certificate, let reason, let retryable):
            "revocation check of \(certificate) failed\(retryable ? " (retryable)" : ""): \(reason)"
        case .nameNotPermitted(let certificate, let name): "\(certificate): name \(name) is not within the permitted subtrees"
        case .nameExcluded(let certificate, let name): "\(certificate): name \(name) is within an excluded subtree"
        case .unsupportedNameConstraint(let certificate, let form):
            "\(certificate) has a \(form) name and a critical nameConstraints above it constrains that form, which Sigil cannot check"
        case .nameConstraintWorkExceeded(let limit): "name-constraint checking stopped after \(limit) comparisons"
        case .policyMappingOfAnyPolicy(let certificate): "\(certificate) maps a policy to or from anyPolicy"
        case .noValidPolicy(let certificate, _): "no valid certificate policy at \(certificate) while an explicit policy is required"
        case .policyGraphLimitExceeded(let limit): "policy processing stopped: the policy graph would exceed \(limit) nodes and edges"
        case .nonConformingCertificate(let certificate, let violation): "\(certificate): \(violation)"
        case .nonConformingCRL(let certificate, let crlIssuer, let violation):
            "a CRL of \(crlIssuer) for \(certificate) was not used: \(violation)"
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
        case .nonConformingCertificate(_, let violation), .nonConformingCRL(_, _, let violation): violation.clause
        }
    }
}

/// A certificate a ``ValidationFailure`` is about: its position in the path (0 = the leaf,
/// counting up to the trust anchor) and its subject (RFC 4514), so a program can get back to the
/// certificate and a reader can recognise it.
public struct PathCertificate: Hashable, Sendable, CustomStringConvertible {
    /// 0 for the leaf, 1 for its issuer, …, the trust anchor last.
    public let position: Int
    /// The subject distinguished name as RFC 4514 text ("" for an empty subject).
    public let subject: String

    /// The certificate at `position` (0 = the leaf) whose subject reads `subject`.
    public init(position: Int, subject: String) {
        self.position = position
        self.subject = subject
    }

    /// `certificate`, found at `position` in the path (its subject rendered now: build one only for a failure).
    public init(_ certificate: Certificate, position: Int) {
        self.init(position: position, subject: certificate.subject.rfc4514String)
    }

    /// `CN=Leaf (position 0)`; an empty subject reads `(empty subject)`.
    public var description: String { "\(subject.isEmpty ? "(empty subject)" : subject) (position \(position))" }
}

/// A rule of the RFC 5280 certificate or CRL profile a certificate or CRL breaks. Each names its
/// clause (``clause``); ``RFC5280Policy`` refuses a path with any of them unless the caller
/// names the matching ``RFC5280Policy/Relaxation``.
public enum ProfileViolation: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A certificate that is not self-issued without authorityKeyIdentifier keyIdentifier (§4.2.1.1).
    case authorityKeyIdentifierMissing
    /// An authorityKeyIdentifier marked critical, in any certificate of the path (§4.2.1.1).
    case authorityKeyIdentifierCritical
    /// A CA certificate without subjectKeyIdentifier (§4.2.1.2).
    case subjectKeyIdentifierMissing
    /// A CA certificate with an empty subject (§4.1.2.6).
    case caSubjectEmpty
    /// A trust anchor whose basicConstraints is not critical (§4.2.1.9).
    case basicConstraintsNotCritical
    /// A leaf asserting keyCertSign without basicConstraints cA (§4.2.1.3, §4.2.1.9).
    case keyCertSignWithoutCA
    /// nameConstraints in an end-entity certificate (§4.2.1.10).
    case nameConstraintsInEndEntity
    /// nameConstraints not marked critical (§4.2.1.10), checked on the trust anchor (RFC 5937).
    case nameConstraintsNotCritical
    /// A subtree of nameConstraints that is no valid name of its form (§4.2.1.10), checked on the
    /// trust anchor (RFC 5937).
    case nameConstraintsMalformed
    /// A non-critical subjectAltName in a certificate with an empty subject (§4.2.1.6).
    case subjectAltNameNotCritical
    /// A dNSName outside the preferred name syntax: letters, digits and hyphens in non-empty
    /// labels, a wildcard only as a whole leftmost label (§4.2.1.6, RFC 1034 §3.5).
    case dnsNameSyntax
    /// policyConstraints not marked critical (§4.2.1.11).
    case policyConstraintsNotCritical
    /// A CRL without cRLNumber (§5.2.3).
    case crlNumberMissing
    /// A CRL whose cRLNumber is marked critical (§5.2.3).
    case crlNumberCritical

    /// The clause the rule is stated in ("RFC 5280 §4.2.1.1").
    public var clause: String {
        switch self {
        case .authorityKeyIdentifierMissing, .authorityKeyIdentifierCritical: "RFC 5280 §4.2.1.1"
        case .subjectKeyIdentifierMissing: "RFC 5280 §4.2.1.2"
        case .caSubjectEmpty: "RFC 5280 §4.1.2.6"
        case .basicConstraintsNotCritical: "RFC 5280 §4.2.1.9"
        case .keyCertSignWithoutCA: "RFC 5280 §4.2.1.3"
        case .nameConstraintsInEndEntity, .nameConstraintsNotCritical, .nameConstraintsMalformed: "RFC 5280 §4.2.1.10"
        case .subjectAltNameNotCritical, .dnsNameSyntax: "RFC 5280 §4.2.1.6"
        case .policyConstraintsNotCritical: "RFC 5280 §4.2.1.11"
        case .crlNumberMissing, .crlNumberCritical: "RFC 5280 §5.2.3"
        }
    }

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .authorityKeyIdentifierMissing: "no authorityKeyIdentifier keyIdentifier"
        case .authorityKeyIdentifierCritical: "authorityKeyIdentifier is marked critical"
        case .subjectKeyIdentifierMissing: "a CA certificate without subjectKeyIdentifier"
        case .caSubjectEmpty: "a CA certificate with an empty subject"
        case .basicConstraintsNotCritical: "the trust anchor's basicConstraints is not critical"
        case .keyCertSignWithoutCA: "keyUsage keyCertSign without basicConstraints cA"
        case .nameConstraintsInEndEntity: "nameConstraints in an end-entity certificate"
        case .nameConstraintsNotCritical: "nameConstraints is not critical"
        case .nameConstraintsMalformed: "nameConstraints holds a subtree that is no valid name"
        case .subjectAltNameNotCritical: "an empty subject with a non-critical subjectAltName"
        case .dnsNameSyntax: "a dNSName outside the preferred name syntax"
        case .policyConstraintsNotCritical: "policyConstraints is not critical"
        case .crlNumberMissing: "the CRL has no cRLNumber"
        case .crlNumberCritical: "the CRL's cRLNumber is marked critical"
        }
    }
}

extension Array where Element == ValidationFailure {
    /// Whether there is at least one failure and every one is a validity-period failure (expired,
    /// not yet valid): the chain is trusted and only the time is wrong, which the CMS verifier
    /// (`signerNotValidAtTime`) and App Attest (`certificateNotValidAtTime`) report under a code of
    /// their own.
    public var failsOnlyOnValidityPeriod: Bool {
        !isEmpty
            && allSatisfy {
                switch $0 {
                case .expired, .notYetValid: true
                default: false
                }
            }
    }
}
