import SigilBase
import SigilJOSE

/// Reading a signed transaction's members straight from the parsed payload, without the
/// `Decodable` machinery: the common shape (every member a scalar of its model's type, or null)
/// costs a fraction of `JSONValueDecoder`'s per-member containers and lookups.
///
/// It never decides anything the generic path would decide differently: any member it does not
/// read itself — a name it does not know (Apple's later additions included), a nested object
/// (advancedCommerceInfo, commitmentInfo), a value of another kind, a number out of range — makes
/// it give up (nil), and `JSONValueDecoder` decodes the payload as before, with the same value or
/// the same error. So a member added to the model and not here is still decoded, by the generic
/// path. Strictness is the parser's, which ran before: duplicate names, depth, number forms and
/// UTF-8 are refused there.
extension JWSTransactionDecodedPayload {
    /// The members read here, by name.
    private enum Member: Int {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId, subscriptionGroupIdentifier
        case purchaseDate, originalPurchaseDate, expiresDate, quantity, type, appAccountToken, inAppOwnershipType
        case signedDate, revocationReason, revocationDate, isUpgraded, offerType, offerIdentifier, environment
        case storefront, storefrontId, transactionReason, currency, price, offerDiscountType, appTransactionId
        case offerPeriod, revocationType, revocationPercentage, billingPlanType, deviceVerification
        case deviceVerificationNonce

        static let listed: KeyValuePairs<String, Member> = [
            "originalTransactionId": .originalTransactionId, "transactionId": .transactionId,
            "webOrderLineItemId": .webOrderLineItemId, "bundleId": .bundleId, "productId": .productId,
            "subscriptionGroupIdentifier": .subscriptionGroupIdentifier, "purchaseDate": .purchaseDate,
            "originalPurchaseDate": .originalPurchaseDate, "expiresDate": .expiresDate, "quantity": .quantity,
            "type": .type, "appAccountToken": .appAccountToken, "inAppOwnershipType": .inAppOwnershipType,
            "signedDate": .signedDate, "revocationReason": .revocationReason, "revocationDate": .revocationDate,
            "isUpgraded": .isUpgraded, "offerType": .offerType, "offerIdentifier": .offerIdentifier,
            "environment": .environment, "storefront": .storefront, "storefrontId": .storefrontId,
            "transactionReason": .transactionReason, "currency": .currency, "price": .price,
            "offerDiscountType": .offerDiscountType, "appTransactionId": .appTransactionId, "offerPeriod": .offerPeriod,
            "revocationType": .revocationType, "revocationPercentage": .revocationPercentage,
            "billingPlanType": .billingPlanType, "deviceVerification": .deviceVerification,
            "deviceVerificationNonce": .deviceVerificationNonce,
        ]
        static let byName = MemberNameTable(pairs: listed.map { ($0.key, $0.value.rawValue) })
    }

    /// The payload from `json`'s members, or nil when one of them needs the generic decoder.
    @inline(never)
    init?(members json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        self.init()
        for (name, value) in members {
            guard let number = Member.byName[name], let member = Member(rawValue: number) else { return nil }
            // null is an absent member, as `decodeIfPresent` reads it.
            if case .null = value { continue }
            switch member {
            case .originalTransactionId:
                guard let v = value.stringValue else { return nil }
                originalTransactionId = v
            case .transactionId:
                guard let v = value.stringValue else { return nil }
                transactionId = v
            case .webOrderLineItemId:
                guard let v = value.stringValue else { return nil }
                webOrderLineItemId = v
            case .bundleId:
                guard let v = value.stringValue else { return nil }
                bundleId = v
            case .productId:
                guard let v = value.stringValue else { return nil }
                productId = v
            case .subscriptionGroupIdentifier:
                guard let v = value.stringValue else { return nil }
                subscriptionGroupIdentifier = v
            case .purchaseDate:
                guard let v = AppStoreDate(member: value) else { return nil }
                purchaseDate = v
            case .originalPurchaseDate:
                guard let v = AppStoreDate(member: value) else { return nil }
                originalPurchaseDate = v
            case .expiresDate:
                guard let v = AppStoreDate(member: value) else { return nil }
                expiresDate = v
            case .quantity:
                guard let v = Self.integer(Int32.self, value) else { return nil }
                quantity = v
            case .type:
                guard let v = value.stringValue else { return nil }
                type = ProductType(rawValue: v)
            case .appAccountToken:
                guard let v = value.stringValue else { return nil }
                appAccountToken = v
            case .inAppOwnershipType:
                guard let v = value.stringValue else { return nil }
                inAppOwnershipType = InAppOwnershipType(rawValue: v)
            case .signedDate:
                guard let v = AppStoreDate(member: value) else { return nil }
                signedDate = v
            case .revocationReason:
                guard let v = Self.integer(Int32.self, value) else { return nil }
                revocationReason = RevocationReason(rawValue: v)
            case .revocationDate:
                guard let v = AppStoreDate(member: value) else { return nil }
                revocationDate = v
            case .isUpgraded:
                guard let v = value.boolValue else { return nil }
                isUpgraded = v
            case .offerType:
                guard let v = Self.integer(Int32.self, value) else { return nil }
                offerType = OfferType(rawValue: v)
            case .offerIdentifier:
                guard let v = value.stringValue else { return nil }
                offerIdentifier = v
            case .environment:
                guard let v = value.stringValue else { return nil }
                environment = AppStoreEnvironment(rawValue: v)
            case .storefront:
                guard let v = value.stringValue else { return nil }
                storefront = v
            case .storefrontId:
                guard let v = value.stringValue else { return nil }
                storefrontId = v
            case .transactionReason:
                guard let v = value.stringValue else { return nil }
                transactionReason = TransactionReason(rawValue: v)
            case .currency:
                guard let v = value.stringValue else { return nil }
                currency = v
            case .price:
                guard let v = Self.integer(Int64.self, value) else { return nil }
                price = v
            case .offerDiscountType:
                guard let v = value.stringValue else { return nil }
                offerDiscountType = OfferDiscountType(rawValue: v)
            case .appTransactionId:
                guard let v = value.stringValue else { return nil }
                appTransactionId = v
            case .offerPeriod:
                guard let v = value.stringValue else { return nil }
                offerPeriod = v
            case .revocationType:
                guard let v = value.stringValue else { return nil }
                revocationType = RevocationType(rawValue: v)
            case .revocationPercentage:
                guard let v = Self.integer(Int32.self, value) else { return nil }
                revocationPercentage = v
            case .billingPlanType:
                guard let v = value.stringValue else { return nil }
                billingPlanType = BillingPlanType(rawValue: v)
            case .deviceVerification:
                guard let v = value.stringValue else { return nil }
                deviceVerification = v
            case .deviceVerificationNonce:
                guard let v = value.stringValue else { return nil }
                deviceVerificationNonce = v
            }
        }
    }

    /// A JSON integer as `JSONValueDecoder` reads one (the number's text converts exactly), or
    /// nil: through `JSONValue.int64Value` (the same text parsed as an Int64, then narrowed
    /// exactly), so the binary holds one integer parser.
    private static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue) -> T? {
        value.int64Value.flatMap { T(exactly: $0) }
    }
}

extension AppStoreDate {
    /// A date member as its `Decodable` initializer reads it (a finite number of milliseconds
    /// under 10¹⁷ in magnitude), or nil.
    init?(member value: JSONValue) {
        guard case .number(let text) = value, let milliseconds = Double(text), milliseconds.isFinite, abs(milliseconds) < 1e17
        else { return nil }
        self.init(millisecondsSince1970: milliseconds)
    }
}

#if Benchmarks
/// Benchmarks/ only (`@_spi(Benchmarks) import SigilAppStore`): turns the direct member reading
/// of signed transactions off, so one build measures the payload decode with and without it.
@_spi(Benchmarks)
public enum DirectMemberDecoding {
    private static let state = Locked(true)

    /// Whether verifiers read a transaction's members directly (true unless a benchmark turns it off).
    public static var isEnabled: Bool {
        get { state.withValue { $0 } }
        set { state.withValue { $0 = newValue } }
    }
}
#endif
