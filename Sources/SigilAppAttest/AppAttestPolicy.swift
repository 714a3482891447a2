import SigilX509

/// What a server accepts of the facts Apple's authenticator-data extensions state about the app
/// (Apple writes them since iOS 27 / macOS 27: `apple_validation_category_01`, how the app was
/// distributed, and `apple_bundle_version_01`, its CFBundleVersion), applied by
/// ``AttestationVerifier`` and ``AssertionVerifier`` after every signature and chain step passed.
///
/// These are *content*: each Apple release may add categories and every app release adds bundle
/// versions, and devices before iOS 27 write no extensions at all. The default,
/// ``acceptAllAndReport``, refuses nothing for them and reports what was found (``AppAttestPolicyReport``);
/// a server that wants to accept, say, only App Store and TestFlight builds names the categories,
/// and says with ``WhenAbsent`` what an older device's object (no extensions) gets.
public struct AppAttestPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Which values of one fact are accepted.
    public enum Allowed<Value: Hashable & Sendable>: Sendable, Hashable {
        /// Any value, and its absence (reported only).
        case any
        /// Only these values; an object without the fact is judged by ``AppAttestPolicy/whenAbsent``.
        case only(Set<Value>)
    }

    /// What an object without the extension gets when a fact is restricted (``Allowed/only(_:)``):
    /// every device before iOS 27 writes none.
    public enum WhenAbsent: String, Sendable, Hashable {
        /// Accepted, reported as absent.
        case accept
        /// Refused (`policyNotMet`): only devices that state the fact are served.
        case refuse
    }

    /// The validation categories accepted (``AuthenticatorExtensions/ValidationCategory``).
    public let validationCategories: Allowed<AuthenticatorExtensions.ValidationCategory>
    /// The bundle versions (CFBundleVersion, compared as text) accepted.
    public let bundleVersions: Allowed<String>
    /// What an object that does not state a restricted fact gets.
    public let whenAbsent: WhenAbsent

    /// A policy: every argument is required, so an absent fact's treatment is always a choice.
    public init(
        validationCategories: Allowed<AuthenticatorExtensions.ValidationCategory>, bundleVersions: Allowed<String>,
        whenAbsent: WhenAbsent
    ) {
        self.validationCategories = validationCategories
        self.bundleVersions = bundleVersions
        self.whenAbsent = whenAbsent
    }

    /// Every category and bundle version accepted, present or absent; what was found is reported.
    public static let acceptAllAndReport = AppAttestPolicy(validationCategories: .any, bundleVersions: .any, whenAbsent: .accept)

    /// "categories any, bundle versions 1.2 | 1.3, absent: refuse".
    public var description: String {
        func text<V>(_ allowed: Allowed<V>, _ name: (V) -> String) -> String {
            switch allowed {
            case .any: "any"
            case .only(let values): values.map(name).sorted().joined(separator: " | ")
            }
        }
        return "validation categories \(text(validationCategories, { $0.description })), bundle versions \(text(bundleVersions, { $0 })), "
            + "absent: \(whenAbsent.rawValue)"
    }

    /// Applies the policy to `extensions` (nil: the authenticator data carries none), recording
    /// the step in `trace`.
    func check(_ extensions: AuthenticatorExtensions?, object: String, trace: VerificationTrace?) throws(AppAttestError)
        -> AppAttestPolicyReport
    {
        let clause = "Apple App Attest: authenticator-data extensions (\(object))"
        let check = "the app's validation category and bundle version under the policy (\(self))"
        let report = AppAttestPolicyReport(
            validationCategory: extensions?.validationCategory, bundleVersion: extensions?.bundleVersion,
            enforced: self != .acceptAllAndReport)
        func judge<V>(_ allowed: Allowed<V>, _ value: V?, _ name: String, _ show: (V) -> String) throws(AppAttestError) {
            guard case .only(let accepted) = allowed else { return }
            guard let value else {
                guard whenAbsent == .accept else {
                    throw AppAttestError(
                        .policyNotMet, "the \(object) states no \(name) (a device before iOS 27?) and the policy refuses its absence"
                    )
                    .recorded(in: trace, clause, check)
                }
                return
            }
            guard accepted.contains(value) else {
                throw AppAttestError(
                    .policyNotMet,
                    "the \(object)'s \(name) is \(show(value)); the policy accepts \(accepted.map(show).sorted().joined(separator: ", "))"
                ).recorded(in: trace, clause, check)
            }
        }
        try judge(validationCategories, report.validationCategory, "validation category", { $0.description })
        try judge(bundleVersions, report.bundleVersion, "bundle version", { "\"\($0)\"" })
        trace?.pass(
            clause, check,
            "validation category \(report.validationCategory?.description ?? "absent"), bundle version \(report.bundleVersion ?? "absent")"
                + (report.enforced ? "" : " — reported, not enforced"))
        return report
    }
}

/// What the authenticator-data extensions stated, as ``AppAttestPolicy`` judged them.
public struct AppAttestPolicyReport: Sendable, Hashable {
    /// `apple_validation_category_01`, when stated.
    public let validationCategory: AuthenticatorExtensions.ValidationCategory?
    /// `apple_bundle_version_01`, when stated.
    public let bundleVersion: String?
    /// Whether the policy restricted anything (false for ``AppAttestPolicy/acceptAllAndReport``:
    /// the facts are reported only).
    public let enforced: Bool
}
