import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys
import SigilX509

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
}

extension SignedDataVerifier {
    /// Verifies a notification and the signed transaction, renewal info or app transaction it
    /// carries (each through the same steps and checks, and each required to be from the
    /// notification's own environment when the verifier accepts several).
    public func verifyNotificationAndNested(_ signedPayload: String, at time: Int64? = nil) async throws(AppStoreError)
        -> VerifiedNotification
    {
        let notification = try await verifyNotification(signedPayload, at: time)
        let nested = narrowed(to: notification.environment)
        var transaction: VerifiedSignedData<JWSTransactionDecodedPayload>?
        var renewal: VerifiedSignedData<JWSRenewalInfoDecodedPayload>?
        var app: VerifiedSignedData<AppTransaction>?
        if let signed = notification.payload.data?.signedTransactionInfo {
            transaction = try await nested.verifyTransaction(signed, at: time)
        }
        if let signed = notification.payload.data?.signedRenewalInfo { renewal = try await nested.verifyRenewalInfo(signed, at: time) }
        if let signed = notification.payload.appData?.signedAppTransactionInfo {
            app = try await nested.verifyAppTransaction(signed, at: time)
        }
        return VerifiedNotification(notification: notification, transaction: transaction, renewalInfo: renewal, appTransaction: app)
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
