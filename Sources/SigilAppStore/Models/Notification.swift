import SigilBase
import SigilJOSE

/// The body Apple POSTs to a notification URL (responseBodyV2).
public struct ResponseBodyV2: Hashable, Sendable {
    /// The signed notification (a JWS), as Apple posts it.
    public var signedPayload: String?
    /// A notification request body carrying `signedPayload`.
    public init(signedPayload: String? = nil) { self.signedPayload = signedPayload }
}

/// The decoded payload of an App Store Server Notification V2 (responseBodyV2DecodedPayload).
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` is expected.
public struct ResponseBodyV2DecodedPayload: Hashable, Sendable {
    /// What happened.
    public var notificationType: NotificationTypeV2?
    /// Details of what happened, for the types that have them.
    public var subtype: NotificationSubtype?
    /// The notification's unique identifier: a redelivery carries the same one.
    public var notificationUUID: String?
    /// The app and the signed transaction and renewal info, for notifications about a purchase.
    public var data: NotificationData?
    /// The notification format version ("2.0").
    public var version: String?
    /// When the App Store signed the data.
    public var signedDate: AppStoreDate?
    /// The outcome of a renewal-date extension for many subscribers.
    public var summary: NotificationSummary?
    /// The external purchase token, for EXTERNAL_PURCHASE_TOKEN notifications.
    public var externalPurchaseToken: ExternalPurchaseTokenPayload?
    /// The app and its signed app transaction, for notifications about the app itself.
    public var appData: NotificationAppData?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The app and signed transaction data of a notification.
public struct NotificationData: Hashable, Sendable {
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The signed transaction (a JWS).
    public var signedTransactionInfo: String?
    /// The signed subscription renewal info (a JWS).
    public var signedRenewalInfo: String?
    /// The subscription's status.
    public var status: SubscriptionStatus?
    /// Why the customer asked for a refund, for CONSUMPTION_REQUEST notifications.
    public var consumptionRequestReason: ConsumptionRequestReason?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The summary of a mass renewal-date extension (RENEWAL_EXTENSION / SUMMARY).
public struct NotificationSummary: Hashable, Sendable {
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The in-app purchase's product identifier.
    public var productId: String?
    /// The request's UUID.
    public var requestIdentifier: String?
    /// The storefronts the extension applied to.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many subscriptions could not be extended.
    public var failedCount: Int64?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

/// The external purchase token inside an EXTERNAL_PURCHASE_TOKEN notification.
public struct ExternalPurchaseTokenPayload: Hashable, Sendable {
    /// The external purchase token's unique identifier.
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: AppStoreDate?
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The kind of custom-link token, when it is one.
    public var tokenType: ExternalPurchaseTokenType?
    /// When a custom-link token expires.
    public var tokenExpirationDate: AppStoreDate?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}

    /// Sandbox tokens are recognised by the SANDBOX prefix of their externalPurchaseId.
    public var environment: AppStoreEnvironment? {
        externalPurchaseId.map { $0.utf8HasPrefix("SANDBOX") ? .sandbox : .production }
    }
}

/// App data of notifications about the app itself (for example RESCIND_CONSENT).
public struct NotificationAppData: Hashable, Sendable {
    /// The app's identifier in the App Store (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The server environment (Sandbox, Production, …).
    public var environment: AppStoreEnvironment?
    /// The signed app transaction (a JWS).
    public var signedAppTransactionInfo: String?
    /// An empty value (every member nil), to fill in member by member.
    public init() {}
}

#if !hasFeature(Embedded)
extension ResponseBodyV2: Codable {}
extension ResponseBodyV2.CodingKeys: CodingKey {}
extension ResponseBodyV2DecodedPayload: Codable {}
extension ResponseBodyV2DecodedPayload.CodingKeys: CodingKey {}
extension NotificationData: Codable {}
extension NotificationData.CodingKeys: CodingKey {}
extension NotificationSummary: Codable {}
extension NotificationSummary.CodingKeys: CodingKey {}
extension ExternalPurchaseTokenPayload: Codable {}
extension ExternalPurchaseTokenPayload.CodingKeys: CodingKey {}
extension NotificationAppData: Codable {}
extension NotificationAppData.CodingKeys: CodingKey {}
#endif

extension ResponseBodyV2 {
    /// Reads a notification request body from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The request body as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension ResponseBodyV2DecodedPayload {
    /// Reads a notification from its parsed JSON, member by member (no `Decoder`): unknown members are
    /// ignored, null is an absent member, an open enum keeps any value. Throws
    /// `INVALID_JWT_FORMAT` naming the member first in declaration order that the model cannot
    /// hold, as the `Decodable` conformance reports it.
    public init(json: JSONValue) throws(AppStoreError) {
        do { try self.init(member: json) } catch { throw error.appStoreError }
    }

    /// The notification as JSON: the members present, in declaration order, as its `Encodable` conformance
    /// writes them (members the model does not name are not kept).
    public var json: JSONValue { memberJSON }
}

extension ResponseBodyV2: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case signedPayload
    }
    static let members = ModelMembers<CodingKeys>()

    /// Every member absent.
    init() { self.init(signedPayload: nil) }

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .signedPayload: signedPayload = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .signedPayload: signedPayload?.memberJSON
        }
    }
}

extension ResponseBodyV2DecodedPayload: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case notificationType, subtype, notificationUUID, data, version, signedDate, summary, externalPurchaseToken, appData
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .notificationType: notificationType = try NotificationTypeV2(member: value)
        case .subtype: subtype = try NotificationSubtype(member: value)
        case .notificationUUID: notificationUUID = try String(member: value)
        case .data: data = try NotificationData(member: value)
        case .version: version = try String(member: value)
        case .signedDate: signedDate = try AppStoreDate(member: value)
        case .summary: summary = try NotificationSummary(member: value)
        case .externalPurchaseToken: externalPurchaseToken = try ExternalPurchaseTokenPayload(member: value)
        case .appData: appData = try NotificationAppData(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .notificationType: notificationType?.memberJSON
        case .subtype: subtype?.memberJSON
        case .notificationUUID: notificationUUID?.memberJSON
        case .data: data?.memberJSON
        case .version: version?.memberJSON
        case .signedDate: signedDate?.memberJSON
        case .summary: summary?.memberJSON
        case .externalPurchaseToken: externalPurchaseToken?.memberJSON
        case .appData: appData?.memberJSON
        }
    }
}

extension NotificationData: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case environment, appAppleId, bundleId, bundleVersion, signedTransactionInfo, signedRenewalInfo, status
        case consumptionRequestReason
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .environment: environment = try AppStoreEnvironment(member: value)
        case .appAppleId: appAppleId = try Int64(member: value)
        case .bundleId: bundleId = try String(member: value)
        case .bundleVersion: bundleVersion = try String(member: value)
        case .signedTransactionInfo: signedTransactionInfo = try String(member: value)
        case .signedRenewalInfo: signedRenewalInfo = try String(member: value)
        case .status: status = try SubscriptionStatus(member: value)
        case .consumptionRequestReason: consumptionRequestReason = try ConsumptionRequestReason(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .environment: environment?.memberJSON
        case .appAppleId: appAppleId?.memberJSON
        case .bundleId: bundleId?.memberJSON
        case .bundleVersion: bundleVersion?.memberJSON
        case .signedTransactionInfo: signedTransactionInfo?.memberJSON
        case .signedRenewalInfo: signedRenewalInfo?.memberJSON
        case .status: status?.memberJSON
        case .consumptionRequestReason: consumptionRequestReason?.memberJSON
        }
    }
}

extension NotificationSummary: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case environment, appAppleId, bundleId, productId, requestIdentifier, storefrontCountryCodes, succeededCount, failedCount
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .environment: environment = try AppStoreEnvironment(member: value)
        case .appAppleId: appAppleId = try Int64(member: value)
        case .bundleId: bundleId = try String(member: value)
        case .productId: productId = try String(member: value)
        case .requestIdentifier: requestIdentifier = try String(member: value)
        case .storefrontCountryCodes: storefrontCountryCodes = try [String](member: value)
        case .succeededCount: succeededCount = try Int64(member: value)
        case .failedCount: failedCount = try Int64(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .environment: environment?.memberJSON
        case .appAppleId: appAppleId?.memberJSON
        case .bundleId: bundleId?.memberJSON
        case .productId: productId?.memberJSON
        case .requestIdentifier: requestIdentifier?.memberJSON
        case .storefrontCountryCodes: storefrontCountryCodes?.memberJSON
        case .succeededCount: succeededCount?.memberJSON
        case .failedCount: failedCount?.memberJSON
        }
    }
}

extension ExternalPurchaseTokenPayload: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case externalPurchaseId, tokenCreationDate, appAppleId, bundleId, tokenType, tokenExpirationDate
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .externalPurchaseId: externalPurchaseId = try String(member: value)
        case .tokenCreationDate: tokenCreationDate = try AppStoreDate(member: value)
        case .appAppleId: appAppleId = try Int64(member: value)
        case .bundleId: bundleId = try String(member: value)
        case .tokenType: tokenType = try ExternalPurchaseTokenType(member: value)
        case .tokenExpirationDate: tokenExpirationDate = try AppStoreDate(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .externalPurchaseId: externalPurchaseId?.memberJSON
        case .tokenCreationDate: tokenCreationDate?.memberJSON
        case .appAppleId: appAppleId?.memberJSON
        case .bundleId: bundleId?.memberJSON
        case .tokenType: tokenType?.memberJSON
        case .tokenExpirationDate: tokenExpirationDate?.memberJSON
        }
    }
}

extension NotificationAppData: DirectModel {
    /// The members, JSON names as raw values, in declaration order (the `Codable` conformance's
    /// coding keys too).
    enum CodingKeys: String, CaseIterable, Sendable {
        case appAppleId, bundleId, environment, signedAppTransactionInfo
    }
    static let members = ModelMembers<CodingKeys>()

    @inline(__always)
    mutating func read(_ member: CodingKeys, from value: JSONValue) throws(ModelReadFailure) {
        switch member {
        case .appAppleId: appAppleId = try Int64(member: value)
        case .bundleId: bundleId = try String(member: value)
        case .environment: environment = try AppStoreEnvironment(member: value)
        case .signedAppTransactionInfo: signedAppTransactionInfo = try String(member: value)
        }
    }

    func json(of member: CodingKeys) -> JSONValue? {
        switch member {
        case .appAppleId: appAppleId?.memberJSON
        case .bundleId: bundleId?.memberJSON
        case .environment: environment?.memberJSON
        case .signedAppTransactionInfo: signedAppTransactionInfo?.memberJSON
        }
    }
}
