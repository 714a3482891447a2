import SigilASN1
import SigilCore
import SigilJOSE
import SigilX509

/// Which kind of signed data a payload is, read from its members, for callers that are not told
/// (`sigil verify` without `--type`).
///
/// Each kind is recognised by its *distinctive* members — the ones Apple has always sent for it
/// and no other kind carries (``SignedDataKind/distinctiveMembers``) — never by the whole member
/// list, so a member Apple adds next year (or a client-side one such as `deviceVerification`)
/// cannot break detection: members no model names are reported (`unknownMembers`), never a
/// reason to refuse. A sparse payload with no kind's distinctive members is that kind only when
/// exactly one kind's model names every member it carries. It never guesses: otherwise, or when
/// two kinds' distinctive members are present, the answer is ``ambiguous(fitting:unknownMembers:)``
/// and the caller must choose.
public enum PayloadKindClassification: Sendable, Hashable {
    /// Exactly one kind's distinctive members are present; `unknownMembers` are the payload's
    /// top-level members its model does not name (sorted).
    case kind(SignedDataKind, unknownMembers: [String])
    /// No kind, or several, is recognised: the kinds the payload could be (those recognised, or
    /// when none is, those whose model names every member: `{"environment","signedDate"}` could be
    /// a transaction, renewal info or a realtime request), in `SignedDataKind.allCases` order, and
    /// the members that no model names.
    case ambiguous(fitting: [SignedDataKind], unknownMembers: [String])
}

extension SignedDataKind {
    /// The top-level member names of this kind's payload model (the members its reader reads,
    /// so it follows the models).
    public var memberNames: Set<String> {
        switch self {
        case .transaction: KindMemberNames.transaction
        case .renewalInfo: KindMemberNames.renewalInfo
        case .notification: KindMemberNames.notification
        case .appTransaction: KindMemberNames.appTransaction
        case .realtimeRequest: KindMemberNames.realtime
        }
    }

    /// How a payload of this kind is recognised: members it always carries (`required`), of
    /// which at least one of `anyOf` (when not empty), and members it never carries (`excluded`).
    public struct DistinctiveMembers: Sendable, Hashable {
        /// Every one present.
        public let required: Set<String>
        /// At least one present (no condition when empty).
        public let anyOf: Set<String>
        /// None present.
        public let excluded: Set<String>

        /// Whether a payload with `members` matches.
        public func matches(_ members: Set<String>) -> Bool {
            required.isSubset(of: members) && (anyOf.isEmpty || !anyOf.isDisjoint(with: members)) && excluded.isDisjoint(with: members)
        }
    }

    /// The members that tell this kind apart (Apple's App Store Server API documentation):
    ///
    /// - transaction: `transactionId` and `purchaseDate`, and no `notificationType`;
    /// - renewal info: `autoRenewStatus` or `autoRenewProductId`, and no `transactionId`;
    /// - notification: `notificationType` and `notificationUUID`;
    /// - app transaction: `receiptType`, `originalApplicationVersion`, `applicationVersion` or
    ///   `receiptCreationDate` (an Xcode app transaction has no `receiptType`), and no
    ///   `transactionId`;
    /// - realtime request: `requestIdentifier` and `userLocale`.
    public var distinctiveMembers: DistinctiveMembers {
        switch self {
        case .transaction: DistinctiveMembers(required: ["transactionId", "purchaseDate"], anyOf: [], excluded: ["notificationType"])
        case .renewalInfo: DistinctiveMembers(required: [], anyOf: ["autoRenewStatus", "autoRenewProductId"], excluded: ["transactionId"])
        case .notification: DistinctiveMembers(required: ["notificationType", "notificationUUID"], anyOf: [], excluded: [])
        case .appTransaction:
            DistinctiveMembers(
                required: [], anyOf: ["receiptType", "originalApplicationVersion", "applicationVersion", "receiptCreationDate"],
                excluded: ["transactionId"])
        case .realtimeRequest: DistinctiveMembers(required: ["requestIdentifier", "userLocale"], anyOf: [], excluded: [])
        }
    }

    /// The top-level members of `payload` (a JSON object) that this kind's model does not name,
    /// sorted: reported, never refused.
    public func unknownMembers(of payload: JSONValue) -> [String] {
        guard case .object(let members) = payload else { return [] }
        let names = memberNames
        return members.compactMap { names.contains($0.0) ? nil : $0.0 }.sorted()
    }

    /// Classifies a payload (a JSON object) by its distinctive members; see ``PayloadKindClassification``.
    public static func classify(payload: JSONValue) -> PayloadKindClassification {
        guard case .object(let members) = payload else { return .ambiguous(fitting: [], unknownMembers: []) }
        let present = Set(members.map { $0.0 })
        let recognised = allCases.filter { $0.distinctiveMembers.matches(present) }
        if recognised.count == 1 { return .kind(recognised[0], unknownMembers: recognised[0].unknownMembers(of: payload)) }
        let known = allCases.reduce(into: Set<String>()) { $0.formUnion($1.memberNames) }
        guard recognised.isEmpty else { return .ambiguous(fitting: recognised, unknownMembers: present.subtracting(known).sorted()) }
        // No distinctive members (a sparse payload, such as Apple's library test resources): the one
        // kind whose model names every member, when exactly one does.
        let fitting = allCases.filter { present.isSubset(of: $0.memberNames) }
        if fitting.count == 1 { return .kind(fitting[0], unknownMembers: []) }
        return .ambiguous(fitting: fitting, unknownMembers: present.subtracting(known).sorted())
    }
}

extension VerifiedSignedData {
    /// The payload's top-level members that `Payload`'s model does not name (new members Apple
    /// added, or ones it never documented), sorted. They are in ``payloadJSON`` and
    /// ``payloadBytes`` as signed; nothing about them is refused.
    public var unknownMembers: [String] { Payload.kind.unknownMembers(of: payloadJSON) }
}

extension VerifiedAnySignedData {
    /// The payload's top-level members its kind's model does not name, sorted (reported only).
    public var unknownMembers: [String] { kind.unknownMembers(of: payloadJSON) }
}

/// A payload StoreKit hands to the app with device verification members (Apple: `Transaction`,
/// `Product.SubscriptionInfo.RenewalInfo` and `AppTransaction`, `deviceVerification` and
/// `deviceVerificationNonce`): the `jwsRepresentation` an app sends its server carries them; the
/// App Store Server API's signed data does not.
public protocol DeviceVerifiablePayload {
    /// Base64 of SHA-384 of the lowercased nonce and the device's lowercased verification id.
    var deviceVerification: String? { get }
    /// The UUID mixed into ``deviceVerification``.
    var deviceVerificationNonce: String? { get }
}

extension DeviceVerifiablePayload {
    /// Checks that the payload was issued to the device whose `AppStore.deviceVerificationID` is
    /// `deviceVerificationID` (a UUID string, any case), as Apple documents it: SHA-384 of the
    /// ASCII text lowercased(`deviceVerificationNonce`) + lowercased(`deviceVerificationID`)
    /// equals the base64-decoded `deviceVerification`. Throws `DEVICE_VERIFICATION_MISMATCH`
    /// when it does not, or when the payload carries no device verification members (data from
    /// the App Store Server API, not from the device). The comparison is of public values.
    public func checkDeviceVerification(deviceVerificationID: String) throws(AppStoreError) {
        guard let nonce = deviceVerificationNonce, let encoded = deviceVerification else {
            throw AppStoreError(
                .deviceVerificationMismatch,
                "the payload carries no deviceVerification and deviceVerificationNonce: only the jwsRepresentation StoreKit gives the app does"
            )
        }
        let signed: [UInt8]
        do { signed = try Base64.decode(Array(encoded.utf8), alphabet: .standard, padding: .optional) } catch {
            throw AppStoreError(.deviceVerificationMismatch, "deviceVerification is not base64: \(error.reason)")
        }
        let computed = SHA384.hash(Array((nonce.lowercased() + deviceVerificationID.lowercased()).utf8))
        guard computed == signed else {
            throw AppStoreError(
                .deviceVerificationMismatch,
                "deviceVerification is not SHA-384 of the nonce and this device verification id: the payload was issued to another device")
        }
    }
}

extension JWSTransactionDecodedPayload: DeviceVerifiablePayload {}
extension JWSRenewalInfoDecodedPayload: DeviceVerifiablePayload {}
extension AppTransaction: DeviceVerifiablePayload {}

/// The top-level member names of each kind's model: the names its direct reader reads (the
/// members its `Decodable` conformance reads; DirectReaderDifferentialTests compares the two).
private enum KindMemberNames {
    static let transaction = JWSTransactionDecodedPayload.members.names
    static let renewalInfo = JWSRenewalInfoDecodedPayload.members.names
    static let notification = ResponseBodyV2DecodedPayload.members.names
    static let appTransaction = AppTransaction.members.names
    static let realtime = DecodedRealtimeRequestBody.Partial.members.names
}
