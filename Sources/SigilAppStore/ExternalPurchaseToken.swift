import SigilBase
import SigilJOSE
import SigilX509

/// An external purchase token as the app or website receives it (StoreKit External Purchase and
/// External Purchase Custom Link APIs): base64url of a JSON object. Apple's article "Receiving
/// and decoding external purchase tokens" documents the fields; custom link tokens add tokenType
/// and tokenExpirationDate. The token is not signed: it identifies, it does not prove.
public struct ExternalPurchaseToken: Sendable, Hashable {
    /// The app's identifier in the App Store (absent in the sandbox).
    public let appAppleId: Int64
    /// The app's bundle identifier.
    public let bundleId: String
    /// When the token was created.
    public let tokenCreationDate: AppStoreDate
    /// The external purchase token's unique identifier.
    public let externalPurchaseId: String
    /// ACQUISITION or SERVICES (custom link tokens only).
    public let tokenType: ExternalPurchaseTokenType?
    /// When the token stops being usable for new transactions (custom link tokens only).
    public let tokenExpirationDate: AppStoreDate?
    /// The decoded JSON, every member kept.
    public let json: JSONValue
    /// The decoded bytes, exactly.
    public let bytes: [UInt8]

    /// Sandbox tokens' externalPurchaseId begins with SANDBOX.
    public var environment: AppStoreEnvironment { externalPurchaseId.utf8HasPrefix("SANDBOX") ? .sandbox : .production }
    /// Whether the token is a custom-link token (it names a token type).
    public var isCustomLinkToken: Bool { tokenType != nil }

    /// The largest token accepted, in bytes.
    public static let maximumSize = 16 * 1024

    /// Decodes `token`. Strict base64url unless `allowPaddingAndNewline` (Apple's own examples
    /// carry `=` padding; a copied token often ends in a newline).
    public init(token: String, allowPaddingAndNewline: Bool = false) throws(AppStoreError) {
        guard token.utf8.count <= ExternalPurchaseToken.maximumSize else {
            throw AppStoreError(
                .invalidExternalPurchaseToken, "a token of \(token.utf8.count) bytes is larger than \(ExternalPurchaseToken.maximumSize)")
        }
        do {
            bytes = try Base64URL.decode(token, lenient: allowPaddingAndNewline)
        } catch {
            throw AppStoreError(.invalidExternalPurchaseToken, "token: \(error.reason)")
        }
        do { json = try JSONValue(parsing: bytes) } catch {
            throw AppStoreError(.invalidExternalPurchaseToken, "token: \(error.reason)")
        }
        guard case .object = json else { throw AppStoreError(.invalidExternalPurchaseToken, "token: the JSON is not an object") }
        let json = self.json
        func integer(_ name: String) throws(AppStoreError) -> Int64? {
            guard let value = json[name] else { return nil }
            guard let number = value.int64Value else {
                throw AppStoreError(.invalidExternalPurchaseToken, "\(name): \(value.serialized) is not an integer")
            }
            return number
        }
        func string(_ name: String) throws(AppStoreError) -> String? {
            guard let value = json[name] else { return nil }
            guard let text = value.stringValue, !text.isEmpty else {
                throw AppStoreError(.invalidExternalPurchaseToken, "\(name): \(value.serialized) is not a non-empty string")
            }
            return text
        }
        func required<T>(_ value: T?, _ name: String) throws(AppStoreError) -> T {
            guard let value else { throw AppStoreError(.invalidExternalPurchaseToken, "\(name) is missing") }
            return value
        }
        appAppleId = try required(try integer("appAppleId"), "appAppleId")
        bundleId = try required(try string("bundleId"), "bundleId")
        tokenCreationDate = AppStoreDate(millisecondsSince1970: try required(try integer("tokenCreationDate"), "tokenCreationDate"))
        externalPurchaseId = try required(try string("externalPurchaseId"), "externalPurchaseId")
        tokenType = try string("tokenType").map(ExternalPurchaseTokenType.init(rawValue:))
        tokenExpirationDate = try integer("tokenExpirationDate").map { AppStoreDate(millisecondsSince1970: $0) }
        guard appAppleId > 0 else { throw AppStoreError(.invalidExternalPurchaseToken, "appAppleId: \(appAppleId) is not positive") }
        if (tokenType == nil) != (tokenExpirationDate == nil) {
            throw AppStoreError(
                .invalidExternalPurchaseToken,
                tokenType == nil
                    ? "tokenType: missing while tokenExpirationDate is present"
                    : "tokenExpirationDate: missing while tokenType is present")
        }
        if let expiry = tokenExpirationDate, expiry < tokenCreationDate {
            throw AppStoreError(.invalidExternalPurchaseToken, "tokenExpirationDate: before tokenCreationDate")
        }
    }
}
