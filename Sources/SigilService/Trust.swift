import SigilAppleRoots
import SigilX509

/// What a valid answer's verification ended at: the answer's `"trust"` member, right after
/// `"environment"`. Every valid answer of every kind names one.
///
/// Only ``apple`` is Apple's own anchor for the kind; every other anchor but ``attestedKey`` is a
/// relaxation, and the answer then lists `"appleRoot"` in `notEnforced`.
public enum TrustAnchor: String, Sendable, Hashable, CaseIterable {
    /// Apple's root for the kind: Apple Root CA - G3 (App Store signed data, built in; Apple Pay),
    /// Apple Inc. Root Certificate (receipts) or Apple App Attestation Root CA (attestations,
    /// pinned) — the service's own copy, or request `roots` that are exactly that root by its
    /// SHA-256 fingerprint.
    case apple
    /// Roots the request supplied that are not Apple's root for the kind.
    case requestRoots = "request-roots"
    /// Xcode's StoreKit testing certificate, given in `roots` or carried by the data
    /// (`environments: ["Xcode"]`).
    case xcode
    /// An attestation's root taken without the Apple App Attestation Root CA's pin
    /// (`unpinnedTestRoot`).
    case unpinnedTestRoot = "unpinned-test-root"
    /// An assertion: the key the caller stored after the attestation (`publicKey`).
    case attestedKey = "attested-key"
    /// Apple Pay: the service's own configured test roots instead of Apple Root CA - G3.
    case configuredRoots = "configured-roots"
    /// An mdoc: the IACA roots the service was configured with (``MdocServiceConfiguration``),
    /// the issuing authorities' roots its owner chose. Mdocs have no Apple root: this is the kind's
    /// own anchor, not a relaxation.
    case iacaRoots = "iaca-roots"

    /// Whether Apple's root check was relaxed: every anchor but ``apple``, ``attestedKey`` (the
    /// assertion's key was attested under Apple's root when it was stored) and ``iacaRoots`` (an
    /// mdoc has no Apple root; its answers never list `appleRoot`, and list `iacaRoots` under
    /// ``requestRoots``).
    public var relaxesAppleRoot: Bool {
        switch self {
        case .apple, .attestedKey, .iacaRoots: false
        case .requestRoots, .xcode, .unpinnedTestRoot, .configuredRoots: true
        }
    }
}

/// Whether a ``VerificationService`` takes trust configuration from the request: `roots` that
/// are not Apple's, `environments: ["Xcode"]`, `unpinnedTestRoot`. A choice the service's owner
/// makes by name; there is no default.
public enum RequestTrust: Sendable, Hashable {
    /// The request's trust configuration is used and named in the answer (`"trust"` other than
    /// `"apple"`, and `"appleRoot"` in `notEnforced`). For doors whose caller is the operator:
    /// the C ABI, the Python package, the `sigil` command.
    case acceptedAndReported
    /// A request carrying trust configuration is answered `request.trustRefused` (HTTP 403)
    /// before any verifier runs; `roots` that are exactly Apple's root for the kind pass, and so do
    /// an mdoc's `roots` that are all among the service's configured IACA roots. For services that
    /// take requests from others and know their own roots.
    case refused
}

extension VerificationService {
    /// How far a request's `at` may be from the service's clock before the answer lists `"at"`
    /// in `notEnforced`, in seconds.
    public static let atTolerance: Int64 = 60

    /// Whether every one of `roots` is `apple` by its SHA-256 fingerprint.
    static func areExactly(_ roots: [Certificate], _ apple: AppleRootCertificate) -> Bool {
        !roots.isEmpty && roots.allSatisfy { AppleRootCertificates.identify($0.derBytes) == apple }
    }

    /// The roots a verification trusts and their anchor when the request gives roots (`given`):
    /// ``TrustAnchor/apple`` when they are exactly `apple`, else ``TrustAnchor/requestRoots``,
    /// admitted under ``requestTrust``. A request without roots is verified under Apple's root
    /// (the caller's, read only then).
    func anchoredRoots(_ given: [Certificate], apple: AppleRootCertificate) throws(Refusal) -> (roots: [Certificate], anchor: TrustAnchor) {
        let anchor: TrustAnchor = Self.areExactly(given, apple) ? .apple : .requestRoots
        do { try admit(anchor, because: "roots") } catch { throw Refusal(error) }
        return (given, anchor)
    }

    /// Refuses `anchor` under ``RequestTrust/refused`` when it is trust the request brought.
    func admit(_ anchor: TrustAnchor, because member: String) throws(ServiceError) {
        guard requestTrust == .refused, anchor.relaxesAppleRoot else { return }
        throw ServiceError(
            .trustRefused,
            "\(member): this service takes no trust configuration from a request (it trusts its own roots only)")
    }

    /// The relaxations the answer lists for `anchor` and the request's `at` (compared with
    /// `now`, the service's clock unless given), after `others`.
    func relaxations(_ others: [String], anchor: TrustAnchor, at: Int64?, now: Int64? = nil) -> [String] {
        var listed = others
        if anchor.relaxesAppleRoot { listed.append("appleRoot") }
        return listed + timeRelaxation(at: at, now: now)
    }

    /// `["at"]` when the request's `at` is more than ``atTolerance`` seconds from `now` (the
    /// service's clock unless given), else none.
    func timeRelaxation(at: Int64?, now: Int64? = nil) -> [String] {
        guard let at else { return [] }
        let now = now ?? clock()
        let distance = at > now ? at.subtractingReportingOverflow(now) : now.subtractingReportingOverflow(at)
        return distance.overflow || distance.partialValue > Self.atTolerance ? ["at"] : []
    }
}
