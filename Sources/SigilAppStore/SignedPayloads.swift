/// A payload type Apple signs as App Store signed data.
public protocol AppStoreSignedPayload: Codable, Hashable, Sendable {
    /// The kind, for messages and the CLI.
    static var kind: SignedDataKind { get }
    /// The time Apple's libraries validate the chain at when online checks are off: signedDate,
    /// or receiptCreationDate for an app transaction.
    var validationDate: AppStoreDate? { get }
}

/// The kinds of signed data Apple sends, each with its payload model.
public enum SignedDataKind: String, Sendable, CaseIterable {
    case transaction
    case renewalInfo = "renewal-info"
    case notification
    case appTransaction = "app-transaction"
    case
        realtimeRequest = "realtime"
}

extension JWSTransactionDecodedPayload: AppStoreSignedPayload {
    public static let kind = SignedDataKind.transaction
    public var validationDate: AppStoreDate? { signedDate }
}

extension JWSRenewalInfoDecodedPayload: AppStoreSignedPayload {
    public static let kind = SignedDataKind.renewalInfo
    public var validationDate: AppStoreDate? { signedDate }
}

extension ResponseBodyV2DecodedPayload: AppStoreSignedPayload {
    public static let kind = SignedDataKind.notification
    public var validationDate: AppStoreDate? { signedDate }
}

extension AppTransaction: AppStoreSignedPayload {
    public static let kind = SignedDataKind.appTransaction
    public var validationDate: AppStoreDate? { receiptCreationDate }
}

extension DecodedRealtimeRequestBody: AppStoreSignedPayload {
    public static let kind = SignedDataKind.realtimeRequest
    public var validationDate: AppStoreDate? { signedDate }
}
