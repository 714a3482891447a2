/// What a verifier expects of the app a payload is for, and whether it enforces it. Not
/// enforcing is a named choice (``reportOnly``), never the effect of a nil or a default.
public enum AppIdentityCheck: Sendable, Hashable {
    /// The payload must name this bundle id, and in Production this app Apple id (Apple's rules
    /// per payload kind; Production without an app Apple id is a configuration error, as in
    /// Apple's App Store Server Library).
    case enforce(bundleId: String, appAppleId: Int64?)
    /// Neither the bundle id nor the app Apple id is checked: the verified result reports what
    /// the payload says (``VerifiedSignedData/identity``). The environment is still enforced.
    /// For tools that inspect data from any app (`sigil verify` without `--bundle-id`); a server
    /// that serves one app should ``enforce(bundleId:appAppleId:)``.
    case reportOnly
}

/// The identity expectation one verification checks a payload against: the verifier's
/// ``AppIdentityCheck`` and one of its accepted environments. A payload type's
/// ``AppStoreSignedPayload/checkIdentity(_:)`` calls the checks its kind is subject to. A verifier
/// that accepts several environments (``AcceptedEnvironments/productionAndSandbox``) first finds
/// the one the payload names, then checks the payload against that environment's expectation (so
/// Production data is always held to the app Apple id).
public struct AppIdentityExpectation: Sendable, Hashable {
    /// Enforced or report-only.
    public let check: AppIdentityCheck
    /// The environment the payload must carry (always enforced).
    public let environment: AppStoreEnvironment
    /// The verifier's accepted environments, for messages (nil: `environment` alone).
    let accepted: AcceptedEnvironments?

    /// An expectation of `check` in `environment`.
    public init(check: AppIdentityCheck, environment: AppStoreEnvironment) {
        self.check = check
        self.environment = environment
        accepted = nil
    }

    init(check: AppIdentityCheck, environment: AppStoreEnvironment, accepted: AcceptedEnvironments) {
        self.check = check
        self.environment = environment
        self.accepted = accepted.environments.count > 1 ? accepted : nil
    }

    /// The payload's bundle id must be the expected one (unless report-only).
    public func bundleId(_ found: String?) throws(AppStoreError) {
        guard case .enforce(let expected, _) = check, found != expected else { return }
        throw AppStoreError(
            .invalidAppIdentifier, "the payload's bundle id \(found.map { "\"\($0)\"" } ?? "absent") (expected \"\(expected)\")")
    }

    /// In Production, the payload's app Apple id must be the expected one (unless report-only);
    /// Apple's libraries compare it only in Production.
    public func appAppleId(_ found: Int64?) throws(AppStoreError) {
        guard case .enforce(_, let expected) = check, environment == .production, found != expected else { return }
        throw AppStoreError(
            .invalidAppIdentifier,
            "the payload's app Apple id \(found.map { String($0) } ?? "absent") (expected \(expected.map { String($0) } ?? "none"))")
    }

    /// The payload's `field` (environment, or receiptType for an app transaction) must be the
    /// expected environment — always enforced.
    public func environment(_ found: AppStoreEnvironment?, field: String = "environment") throws(AppStoreError) {
        guard found != environment else { return }
        if let accepted {
            throw AppStoreError(
                .invalidEnvironment, "the payload's \(field) is \(found?.rawValue ?? "absent"), expected \(accepted)")
        }
        throw AppStoreError(
            .invalidEnvironment,
            "the payload's \(field) is \(found?.rawValue ?? "absent"), expected \(environment.rawValue)"
                + (found.map {
                    " (verify \($0.rawValue) data with a \($0.rawValue) verifier"
                        + ($0 == .production || $0 == .sandbox
                            ? ", or accept Production and Sandbox in one verifier: AcceptedEnvironments.productionAndSandbox)" : ")")
                } ?? ""))
    }

    /// Whether the bundle id and app Apple id were enforced.
    public var isEnforced: Bool { if case .enforce = check { true } else { false } }
}

/// What a verified payload said about its app, and what of it was enforced.
public struct AppIdentityReport: Sendable, Hashable {
    /// The bundle id the payload carries (nil for kinds that carry none: renewal info, realtime requests).
    public let bundleId: String?
    /// The app Apple id the payload carries, when it carries one.
    public let appAppleId: Int64?
    /// The payload's environment (an app transaction's receiptType).
    public let environment: AppStoreEnvironment?
    /// True when the bundle id and (in Production) the app Apple id were checked against the
    /// verifier's; false for a report-only verifier. The environment is always checked.
    public let enforced: Bool

    /// A report of what a payload carried and whether it was enforced.
    public init(bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?, enforced: Bool) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.enforced = enforced
    }
}
