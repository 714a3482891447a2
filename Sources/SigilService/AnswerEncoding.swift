import SigilASN1
import SigilAppAttest
import SigilAppStore
import SigilJOSE
import SigilReceipts
import SigilX509

/// The answer documents, member by member in a fixed order: what the library returned, written as
/// JSON and nothing added. Times are seconds since 1970 (App Store payloads keep Apple's own
/// members and numbers exactly as signed); bytes are standard base64.
enum AnswerEncoding {
    /// `{"valid": true, "kind", "environment"?, "trust", <field>: value, "notEnforced": [...]}`.
    static func valid(kind: String, environment: String?, trust: TrustAnchor, field: String, value: JSONValue, notEnforced: [String])
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [("valid", .bool(true)), ("kind", .string(kind))]
        if let environment { members.append(("environment", .string(environment))) }
        members.append(("trust", .string(trust.rawValue)))
        members.append((field, value))
        members.append(("notEnforced", .array(notEnforced.map(JSONValue.string))))
        return .object(members)
    }

    /// `{"valid": false, "error": {"code", "message", "failures": [{"reason", "rule"}]}}`.
    static func failure(code: String, message: String, failures: [ValidationFailure]) -> JSONValue {
        let listed = failures.map { JSONValue.object([("reason", .string($0.description)), ("rule", .string($0.rule))]) }
        return .object([
            ("valid", .bool(false)),
            ("error", .object([("code", .string(code)), ("message", .string(message)), ("failures", .array(listed))])),
        ])
    }

    /// The request kind's name of an App Store kind (`realtime-request` for SigilAppStore's `realtime`).
    static func kindName(_ kind: SignedDataKind) -> String {
        kind == .realtimeRequest ? VerificationRequest.Kind.realtimeRequest.rawValue : kind.rawValue
    }

    private static func optional(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(members.compactMap { name, value in value.map { (name, $0) } })
    }

    private static func string(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
    private static func integer(_ value: Int64?) -> JSONValue? { value.map(JSONValue.int) }
    private static func bool(_ value: Bool?) -> JSONValue? { value.map(JSONValue.bool) }

    /// An app receipt's fields (those `AppReceipt` decodes), absent ones left out.
    static func receipt(_ receipt: AppReceipt) -> JSONValue {
        let purchases = receipt.inAppPurchases.map { p -> JSONValue in
            optional([
                ("productId", string(p.productID)), ("transactionId", string(p.transactionID)),
                ("originalTransactionId", string(p.originalTransactionID)), ("quantity", integer(p.quantity)),
                ("purchaseDate", integer(p.purchaseDate)), ("originalPurchaseDate", integer(p.originalPurchaseDate)),
                ("expiresDate", integer(p.subscriptionExpirationDate)), ("cancellationDate", integer(p.cancellationDate)),
                ("cancellationReason", integer(p.cancellationReason)), ("webOrderLineItemId", integer(p.webOrderLineItemID)),
                ("isTrialPeriod", bool(p.isTrialPeriod)), ("isInIntroOfferPeriod", bool(p.isInIntroOfferPeriod)),
                ("promotionalOfferId", string(p.promotionalOfferID)),
            ])
        }
        return optional([
            ("receiptType", string(receipt.receiptType)), ("bundleId", string(receipt.bundleID)),
            ("appItemId", integer(receipt.appItemID)), ("applicationVersion", string(receipt.appVersion)),
            ("originalApplicationVersion", string(receipt.originalApplicationVersion)),
            ("creationDate", integer(receipt.creationDate)), ("originalPurchaseDate", integer(receipt.originalPurchaseDate)),
            ("expirationDate", integer(receipt.expirationDate)), ("inApp", .array(purchases)),
        ])
    }

    /// A verified attestation: what the server stores (key id, public key, counter, receipt) and
    /// what the credential certificate and authenticator data report.
    static func attestation(_ verified: VerifiedAttestation, appID: AppAttestAppID) -> JSONValue {
        optional([
            ("appId", .string(appID.description)), ("keyId", .string(Base64.encode(verified.keyID))),
            ("publicKey", .string(Base64.encode(verified.publicKey.uncompressedRepresentation))),
            ("counter", .int(Int64(verified.counter))), ("osVersion", string(verified.certificateInfo.osVersion)),
            ("validationCategory", verified.policyReport.validationCategory.map { .int(Int64($0.rawValue)) }),
            ("bundleVersion", string(verified.policyReport.bundleVersion)),
            ("receipt", .string(Base64.encode(verified.receipt))),
        ])
    }

    /// A verified assertion: the counter to store (compare-and-set) and what the extensions report.
    static func assertion(_ verified: VerifiedAssertion) -> JSONValue {
        optional([
            ("counter", .int(Int64(verified.counter))),
            ("validationCategory", verified.policyReport.validationCategory.map { .int(Int64($0.rawValue)) }),
            ("bundleVersion", string(verified.policyReport.bundleVersion)),
        ])
    }
}
