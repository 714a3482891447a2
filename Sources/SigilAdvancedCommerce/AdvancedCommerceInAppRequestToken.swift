import SigilAppStore
import SigilTokens

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AppleTokens {
    /// The Advanced Commerce in-app request JWS for a typed request: Apple's field limits are
    /// checked (`validate()`), the request is JSON-encoded with its `operation` and `version`, and
    /// signed by `advancedCommerceInAppRequest(key:issuerID:bundleID:requestJSON:nonce:issuedAt:)`
    /// (whose ``TokenError`` is reported with the same code's `AppStoreError`).
    public static func advancedCommerceInAppRequest<Request: AdvancedCommerceInAppRequest>(
        key: AppleSigningKey, issuerID: String, bundleID: String, request: Request, nonce: String? = nil, issuedAt: Int64
    ) throws(AppStoreError) -> String {
        try request.validate()
        let json: Data
        do { json = try JSONEncoder().encode(request) } catch {
            throw AppStoreError(.invalidConfiguration, "the Advanced Commerce request could not be encoded: \(error)")
        }
        do {
            return try advancedCommerceInAppRequest(
                key: key, issuerID: issuerID, bundleID: bundleID, requestJSON: Array(json),
                nonce: nonce, issuedAt: issuedAt)
        } catch {
            throw AppStoreError(
                wrapping: error, as: error.code == .invalidKey ? .invalidKey : .invalidConfiguration, context: "the in-app request token")
        }
    }
}
