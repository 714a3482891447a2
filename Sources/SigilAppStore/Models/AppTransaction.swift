import SigilJOSE

/// The decoded payload of a signed app transaction (AppTransaction).
public struct AppTransaction: Hashable, Sendable {
    /// The environment the app transaction was made in.
    public var receiptType: AppStoreEnvironment?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the app transaction is for (CFBundleVersion on iOS).
    public var applicationVersion: String?
    /// The identifier of the app version in the App Store.
    public var versionExternalIdentifier: Int64?
    /// When the App Store signed the app transaction.
    public var receiptCreationDate: AppStoreDate?
    /// When the original purchase was made.
    public var originalPurchaseDate: AppStoreDate?
    /// The app version the user first bought.
    public var originalApplicationVersion: String?
    /// The device verification value (base64), for checking the app transaction belongs to the device.
    public var deviceVerification: String?
    /// The UUID mixed into the device verification value.
    public var deviceVerificationNonce: String?
    /// When the user pre-ordered the app, when they did.
    public var preorderDate: AppStoreDate?
    /// The app transaction's identifier: one per user and app, across devices.
    public var appTransactionId: String?
    /// The platform the user first bought the app on.
    public var originalPlatform: PurchasePlatform?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The decoded payload of a Retention Messaging realtime request (DecodedRealtimeRequestBody).
/// Apple documents every field as required; a payload missing one is refused.
public struct DecodedRealtimeRequestBody: Hashable, Sendable {
    /// The transaction id of the original purchase, the same for every renewal and restore.
    public var originalTransactionId: String
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64
    /// The in-app purchase's product identifier.
    public var productId: String
    /// The user's locale.
    public var userLocale: String
    /// The request's UUID.
    public var requestIdentifier: String
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment
    /// When the App Store signed the data.
    public var signedDate: AppStoreDate
}

#if !hasFeature(Embedded)
extension AppTransaction: Codable {}
extension AppTransaction.CodingKeys: CodingKey {}
extension DecodedRealtimeRequestBody: Codable {}
extension DecodedRealtimeRequestBody.CodingKeys: CodingKey {}
#endif

extension AppTransaction {
    /// Reads an app transaction from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The app transaction as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension AppTransaction: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate
        case originalPurchaseDate, originalApplicationVersion, deviceVerification, deviceVerificationNonce, preorderDate
        case appTransactionId, originalPlatform
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .receiptType: receiptType = try AppStoreEnvironment(member: value)
        case .appAppleId: appAppleId = try Int64(member: value)
        case .bundleId: bundleId = try String(member: value)
        case .applicationVersion: applicationVersion = try String(member: value)
        case .versionExternalIdentifier: versionExternalIdentifier = try Int64(member: value)
        case .receiptCreationDate: receiptCreationDate = try AppStoreDate(member: value)
        case .originalPurchaseDate: originalPurchaseDate = try AppStoreDate(member: value)
        case .originalApplicationVersion: originalApplicationVersion = try String(member: value)
        case .deviceVerification: deviceVerification = try String(member: value)
        case .deviceVerificationNonce: deviceVerificationNonce = try String(member: value)
        case .preorderDate: preorderDate = try AppStoreDate(member: value)
        case .appTransactionId: appTransactionId = try String(member: value)
        case .originalPlatform: originalPlatform = try PurchasePlatform(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .receiptType: receiptType?.memberJSON
        case .appAppleId: appAppleId?.memberJSON
        case .bundleId: bundleId?.memberJSON
        case .applicationVersion: applicationVersion?.memberJSON
        case .versionExternalIdentifier: versionExternalIdentifier?.memberJSON
        case .receiptCreationDate: receiptCreationDate?.memberJSON
        case .originalPurchaseDate: originalPurchaseDate?.memberJSON
        case .originalApplicationVersion: originalApplicationVersion?.memberJSON
        case .deviceVerification: deviceVerification?.memberJSON
        case .deviceVerificationNonce: deviceVerificationNonce?.memberJSON
        case .preorderDate: preorderDate?.memberJSON
        case .appTransactionId: appTransactionId?.memberJSON
        case .originalPlatform: originalPlatform?.memberJSON
        }
    }
}

extension DecodedRealtimeRequestBody: ModelValue {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, environment, signedDate
    }

    /// The members as read, each nil until read: every one is required.
    struct Partial: DirectModel {
        static let members = ModelMembers<CodingKeys>()
        var originalTransactionId: String?
        var appAppleId: Int64?
        var productId: String?
        var userLocale: String?
        var requestIdentifier: String?
        var environment: AppStoreEnvironment?
        var signedDate: AppStoreDate?

        static func isRequired(_ member: Member) -> Bool { true }

        @inline(__always)
        mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
            switch member {
            case .originalTransactionId: originalTransactionId = try String(member: value)
            case .appAppleId: appAppleId = try Int64(member: value)
            case .productId: productId = try String(member: value)
            case .userLocale: userLocale = try String(member: value)
            case .requestIdentifier: requestIdentifier = try String(member: value)
            case .environment: environment = try AppStoreEnvironment(member: value)
            case .signedDate: signedDate = try AppStoreDate(member: value)
            }
        }

        func json(of member: CodingKeys) -> JSONValue? {
            switch member {
            case .originalTransactionId: originalTransactionId?.memberJSON
            case .appAppleId: appAppleId?.memberJSON
            case .productId: productId?.memberJSON
            case .userLocale: userLocale?.memberJSON
            case .requestIdentifier: requestIdentifier?.memberJSON
            case .environment: environment?.memberJSON
            case .signedDate: signedDate?.memberJSON
            }
        }
    }

    /// Every member required: the first in declaration order that is absent or refused is reported.
    init(member json: JSONValue) throws(ModelReadFailure) {
        var partial = Partial()
        let refusal = try partial.readMembers(of: json)
        self.init(
            originalTransactionId: try partial.required(partial.originalTransactionId, .originalTransactionId, refusal),
            appAppleId: try partial.required(partial.appAppleId, .appAppleId, refusal),
            productId: try partial.required(partial.productId, .productId, refusal),
            userLocale: try partial.required(partial.userLocale, .userLocale, refusal),
            requestIdentifier: try partial.required(partial.requestIdentifier, .requestIdentifier, refusal),
            environment: try partial.required(partial.environment, .environment, refusal),
            signedDate: try partial.required(partial.signedDate, .signedDate, refusal))
    }

    var memberJSON: JSONValue {
        Partial(
            originalTransactionId: originalTransactionId, appAppleId: appAppleId, productId: productId, userLocale: userLocale,
            requestIdentifier: requestIdentifier, environment: environment, signedDate: signedDate
        ).memberJSON
    }
}

extension DecodedRealtimeRequestBody {
    /// Reads a realtime request from its parsed JSON, member by member (no `Decoder`): every
    /// member is required, unknown members are ignored. Throws `INVALID_JWT_FORMAT` naming the
    /// member first in declaration order that is missing or that the model cannot hold, as the
    /// `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The realtime request as JSON: every member, in declaration order, as its `Encodable`
    /// conformance writes them.
    public var json: JSONValue { memberJSON }
}
