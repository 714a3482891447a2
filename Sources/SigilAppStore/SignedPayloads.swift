import SigilJOSE

#if hasFeature(Embedded)
/// A payload type Apple signs as App Store signed data.
///
/// Every conformance states its identity rule (``checkIdentity(_:)``): there is no default, so a
/// new payload type cannot be verified without one, and every verify entry point runs it. The
/// verifier reads the payload with ``init(json:)``; in the regular build the type is also
/// `Codable` (Embedded Swift has no `Codable`).
public protocol AppStoreSignedPayload: Hashable, Sendable {
    /// The kind, for messages and the CLI.
    static var kind: SignedDataKind { get }
    /// The time Apple's libraries validate the chain at when online checks are off: signedDate,
    /// or receiptCreationDate for an app transaction.
    var validationDate: AppStoreDate? { get }
    /// Reads the payload from its parsed JSON; a payload the model cannot hold is
    /// `INVALID_JWT_FORMAT`, its reason naming the member.
    init(json: JSONValue) throws(AppStoreError)
    /// Checks the app identity this kind carries against `expected` (Apple's rule for the kind:
    /// which of bundle id, app Apple id and environment it must match) and reports it.
    func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport
}
#else
/// A payload type Apple signs as App Store signed data.
///
/// Every conformance states its identity rule (``checkIdentity(_:)``): there is no default, so a
/// new payload type cannot be verified without one, and every verify entry point runs it. The
/// verifier reads the payload with ``init(json:)``: Sigil's models read their members directly; a
/// conformance of another `Decodable` type that does not implement it is read by
/// `JSONValueDecoder`.
public protocol AppStoreSignedPayload: Codable, Hashable, Sendable {
    /// The kind, for messages and the CLI.
    static var kind: SignedDataKind { get }
    /// The time Apple's libraries validate the chain at when online checks are off: signedDate,
    /// or receiptCreationDate for an app transaction.
    var validationDate: AppStoreDate? { get }
    /// Reads the payload from its parsed JSON; a payload the model cannot hold is
    /// `INVALID_JWT_FORMAT`, its reason naming the member.
    init(json: JSONValue) throws(AppStoreError)
    /// Checks the app identity this kind carries against `expected` (Apple's rule for the kind:
    /// which of bundle id, app Apple id and environment it must match) and reports it.
    func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport
}

extension AppStoreSignedPayload {
    /// Reads the payload through its `Decodable` conformance (`JSONValueDecoder`): what a
    /// conformance of another type gets unless it reads its members itself.
    public init(json: JSONValue) throws(AppStoreError) {
        do { self = try JSONValueDecoder().decode(Self.self, from: json) } catch {
            throw AppStoreError(.invalidJWTFormat, SignedDataVerifier.describe(error))
        }
    }
}
#endif

/// The kinds of signed data Apple sends, each with its payload model.
public enum SignedDataKind: String, Sendable, CaseIterable {
    /// A signed transaction (JWSTransactionDecodedPayload).
    case transaction
    /// Signed renewal info (JWSRenewalInfoDecodedPayload).
    case renewalInfo = "renewal-info"
    /// A signed notification (ResponseBodyV2DecodedPayload).
    case notification
    /// A signed app transaction (AppTransaction).
    case appTransaction = "app-transaction"
    /// A signed Retention Messaging realtime request (DecodedRealtimeRequestBody).
    case realtimeRequest = "realtime"
}

extension JWSTransactionDecodedPayload: AppStoreSignedPayload {
    /// The kind this model is for.
    public static let kind = SignedDataKind.transaction
    /// The payload's signedDate: the time its chain is validated at when online checks are off.
    public var validationDate: AppStoreDate? { signedDate }

    /// Bundle id and environment (Apple's libraries do not compare a transaction's app Apple id).
    public func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
        try expected.bundleId(bundleId)
        try expected.environment(environment)
        return AppIdentityReport(bundleId: bundleId, appAppleId: nil, environment: environment, enforced: expected.isEnforced)
    }
}

extension JWSRenewalInfoDecodedPayload: AppStoreSignedPayload {
    /// The kind this model is for.
    public static let kind = SignedDataKind.renewalInfo
    /// The payload's signedDate: the time its chain is validated at when online checks are off.
    public var validationDate: AppStoreDate? { signedDate }

    /// Environment only: renewal info carries no bundle id or app Apple id.
    public func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
        try expected.environment(environment)
        return AppIdentityReport(bundleId: nil, appAppleId: nil, environment: environment, enforced: expected.isEnforced)
    }
}

extension ResponseBodyV2DecodedPayload: AppStoreSignedPayload {
    /// The kind this model is for.
    public static let kind = SignedDataKind.notification
    /// The payload's signedDate: the time its chain is validated at when online checks are off.
    public var validationDate: AppStoreDate? { signedDate }

    /// Bundle id, app Apple id (Production) and environment of the data, summary, external
    /// purchase token or app data the notification carries (the first present).
    public func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
        let identity = identity
        try expected.bundleId(identity.bundleId)
        try expected.appAppleId(identity.appAppleId)
        try expected.environment(identity.environment)
        return AppIdentityReport(
            bundleId: identity.bundleId, appAppleId: identity.appAppleId, environment: identity.environment,
            enforced: expected.isEnforced)
    }
}

extension AppTransaction: AppStoreSignedPayload {
    /// The kind this model is for.
    public static let kind = SignedDataKind.appTransaction
    /// The payload's receiptCreationDate: the time its chain is validated at when online checks are off.
    public var validationDate: AppStoreDate? { receiptCreationDate }

    /// Bundle id, app Apple id (Production) and receiptType as the environment. Xcode writes
    /// app transactions without receiptType: in the Xcode environment an absent one is Xcode's
    /// (and reported as Xcode); in every other environment it fails.
    public func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
        try expected.bundleId(bundleId)
        try expected.appAppleId(appAppleId)
        let environment = receiptType ?? (expected.environment == .xcode ? .xcode : nil)
        try expected.environment(environment, field: "receiptType")
        return AppIdentityReport(bundleId: bundleId, appAppleId: appAppleId, environment: environment, enforced: expected.isEnforced)
    }
}

extension DecodedRealtimeRequestBody: AppStoreSignedPayload {
    /// The kind this model is for.
    public static let kind = SignedDataKind.realtimeRequest
    /// The payload's signedDate: the time its chain is validated at when online checks are off.
    public var validationDate: AppStoreDate? { signedDate }

    /// App Apple id (Production) and environment: a realtime request carries no bundle id.
    public func checkIdentity(_ expected: AppIdentityExpectation) throws(AppStoreError) -> AppIdentityReport {
        try expected.appAppleId(appAppleId)
        try expected.environment(environment)
        return AppIdentityReport(bundleId: nil, appAppleId: appAppleId, environment: environment, enforced: expected.isEnforced)
    }
}

extension ResponseBodyV2DecodedPayload {
    /// (bundle id, app Apple id, environment) from the first of data, summary,
    /// externalPurchaseToken (environment from the SANDBOX prefix) and appData that is present.
    public var identity: (bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?) {
        if let data { return (data.bundleId, data.appAppleId, data.environment) }
        if let summary { return (summary.bundleId, summary.appAppleId, summary.environment) }
        if let token = externalPurchaseToken { return (token.bundleId, token.appAppleId, token.environment) }
        if let appData { return (appData.bundleId, appData.appAppleId, appData.environment) }
        return (nil, nil, nil)
    }
}
