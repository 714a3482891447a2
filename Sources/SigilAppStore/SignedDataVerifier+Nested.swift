import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

/// A notification and the signed data nested in it, each verified in the same call.
public struct VerifiedNotification: Sendable {
    /// The notification itself.
    public let notification: VerifiedSignedData<ResponseBodyV2DecodedPayload>
    /// The transaction it carries, verified, when it carries one.
    public let transaction: VerifiedSignedData<JWSTransactionDecodedPayload>?
    /// The renewal info it carries, verified, when it carries one.
    public let renewalInfo: VerifiedSignedData<JWSRenewalInfoDecodedPayload>?
    /// The app transaction it carries, verified, when it carries one.
    public let appTransaction: VerifiedSignedData<AppTransaction>?

    /// The nested members that are present, in the order the notification carries them
    /// (transaction, renewal info, app transaction), each as a ``VerifiedAnySignedData`` whose
    /// ``VerifiedAnySignedData/kind`` names it: for a program that treats them alike, such as a
    /// printer or a log. Empty when the notification carries none.
    public var nested: [VerifiedAnySignedData] {
        var members: [VerifiedAnySignedData] = []
        if let transaction { members.append(.transaction(transaction)) }
        if let renewalInfo { members.append(.renewalInfo(renewalInfo)) }
        if let appTransaction { members.append(.appTransaction(appTransaction)) }
        return members
    }
}

extension SignedDataVerifier {
    /// Verifies a notification and the signed transaction, renewal info or app transaction it
    /// carries without suspension (each through the same steps and checks, and each required to
    /// be from the notification's own environment when the verifier accepts several): everything
    /// but online revocation.
    public func verifyNotificationAndNestedOffline(_ signedPayload: String, at time: Int64? = nil) throws(AppStoreError)
        -> VerifiedNotification
    {
        try verifyNestedOffline(in: try verifyNotificationOffline(signedPayload, at: time), at: time)
    }

    /// Verifies the signed data nested in `notification`, a notification already verified, as
    /// ``verifyNested(in:at:)`` does, without suspension: everything but online revocation.
    public func verifyNestedOffline(in notification: VerifiedSignedData<ResponseBodyV2DecodedPayload>, at time: Int64? = nil)
        throws(AppStoreError) -> VerifiedNotification
    {
        let nested = narrowed(to: notification.environment)
        var transaction: VerifiedSignedData<JWSTransactionDecodedPayload>?
        var renewal: VerifiedSignedData<JWSRenewalInfoDecodedPayload>?
        var app: VerifiedSignedData<AppTransaction>?
        do {
            if let signed = notification.payload.data?.signedTransactionInfo {
                transaction = try nested.verifyTransactionOffline(signed, at: time)
            }
        } catch { throw Self.nestedFailure(error, member: "transaction") }
        do {
            if let signed = notification.payload.data?.signedRenewalInfo { renewal = try nested.verifyRenewalInfoOffline(signed, at: time) }
        } catch { throw Self.nestedFailure(error, member: "renewal info") }
        do {
            if let signed = notification.payload.appData?.signedAppTransactionInfo {
                app = try nested.verifyAppTransactionOffline(signed, at: time)
            }
        } catch { throw Self.nestedFailure(error, member: "app transaction") }
        return VerifiedNotification(notification: notification, transaction: transaction, renewalInfo: renewal, appTransaction: app)
    }

    #if !hasFeature(Embedded)
    /// Verifies a notification and the signed transaction, renewal info or app transaction it
    /// carries (each through the same steps and checks, and each required to be from the
    /// notification's own environment when the verifier accepts several).
    public func verifyNotificationAndNested(_ signedPayload: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedNotification
    {
        try await verifyNested(in: try await verifyNotification(signedPayload, at: time), at: time)
    }

    /// Verifies the signed data nested in `notification`, a notification already verified (for
    /// example by ``verify(_:kind:at:trace:)``, which classifies its input): the transaction,
    /// renewal info and app transaction it carries, each through the same steps and checks as
    /// the notification, at `time` as given. When this verifier accepts the notification's
    /// environment, each member must be from that same environment. Without an online revocation
    /// checker this is ``verifyNestedOffline(in:at:)``.
    ///
    /// A member that fails throws its own error, its reason naming the member ("the
    /// notification's nested renewal info: …") and its typed ``AppStoreError/failures`` kept.
    public func verifyNested(in notification: VerifiedSignedData<ResponseBodyV2DecodedPayload>, at time: Int64? = nil)
        async throws(AppStoreError) -> VerifiedNotification
    {
        guard configuration.revocation.isOnline else { return try verifyNestedOffline(in: notification, at: time) }
        let nested = narrowed(to: notification.environment)
        var transaction: VerifiedSignedData<JWSTransactionDecodedPayload>?
        var renewal: VerifiedSignedData<JWSRenewalInfoDecodedPayload>?
        var app: VerifiedSignedData<AppTransaction>?
        do {
            if let signed = notification.payload.data?.signedTransactionInfo {
                transaction = try await nested.verifyTransaction(signed, at: time)
            }
        } catch { throw Self.nestedFailure(error, member: "transaction") }
        do {
            if let signed = notification.payload.data?.signedRenewalInfo { renewal = try await nested.verifyRenewalInfo(signed, at: time) }
        } catch { throw Self.nestedFailure(error, member: "renewal info") }
        do {
            if let signed = notification.payload.appData?.signedAppTransactionInfo {
                app = try await nested.verifyAppTransaction(signed, at: time)
            }
        } catch { throw Self.nestedFailure(error, member: "app transaction") }
        return VerifiedNotification(notification: notification, transaction: transaction, renewalInfo: renewal, appTransaction: app)
    }
    #endif

    /// `error`, its reason naming the nested member it concerns; code and failures kept.
    static func nestedFailure(_ error: AppStoreError, member: String) -> AppStoreError {
        AppStoreError(error.code, "the notification's nested \(member): \(error.reason)", failures: error.failures)
    }

    /// This verifier accepting only `environment` (one of its own), for the signed data nested in
    /// a payload from that environment; the same cache, roots, identity and checks.
    public func narrowed(to environment: AppStoreEnvironment) -> SignedDataVerifier {
        guard environments.environments.count > 1, environments.contains(environment),
            let single = try? AcceptedEnvironments(environment)
        else { return self }
        var copy = self
        copy.configuration = configuration.with(environments: single, xcodeCertificate: configuration.xcodeCertificate)
        return copy
    }
}
