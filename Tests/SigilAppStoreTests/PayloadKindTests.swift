import SigilASN1
import SigilAppStore
import SigilCore
import SigilJOSE
import XCTest

/// Payload kinds told apart by their distinctive members, so that members Apple adds (or the
/// client-side ones) never break detection; and the device verification check.
final class PayloadKindTests: XCTestCase {
    func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    func testDistinctiveMembersClassifyAndUnknownMembersAreReported() throws {
        let cases: [(String, SignedDataKind, [String])] = [
            (
                #"{"transactionId":"1","purchaseDate":1,"productId":"p","deviceVerification":"x","deviceVerificationNonce":"n","appTransactionId":"7"}"#,
                .transaction, []
            ),
            (#"{"transactionId":"1","purchaseDate":1,"brandNewMember2027":true}"#, .transaction, ["brandNewMember2027"]),
            (
                #"{"originalTransactionId":"1","autoRenewStatus":1,"autoRenewProductId":"p","somethingNew":0}"#, .renewalInfo,
                ["somethingNew"]
            ),
            (
                #"{"notificationType":"TEST","notificationUUID":"u","signedDate":1,"version":"2.0","newTopLevel":{}}"#, .notification,
                ["newTopLevel"]
            ),
            (#"{"receiptType":"Production","bundleId":"b","appTransactionId":"7","deviceVerification":"x"}"#, .appTransaction, []),
            (
                #"{"bundleId":"b","applicationVersion":"1","originalApplicationVersion":"1","requestDate":1}"#, .appTransaction,
                ["requestDate"]
            ),
            (#"{"requestIdentifier":"r","userLocale":"en_US","environment":"Sandbox","newField":1}"#, .realtimeRequest, ["newField"]),
            // Sparse, no distinctive member, one model names all: Apple's library test resource.
            (#"{"bundleId":"b","environment":"Sandbox","signedDate":1}"#, .transaction, []),
        ]
        for (text, kind, unknown) in cases {
            XCTAssertEqual(SignedDataKind.classify(payload: try json(text)), .kind(kind, unknownMembers: unknown), text)
        }
        // Three kinds could be {"environment","signedDate"}: refused with them named.
        XCTAssertEqual(
            SignedDataKind.classify(payload: try json(#"{"environment":"Sandbox","signedDate":1}"#)),
            .ambiguous(fitting: [.transaction, .renewalInfo, .realtimeRequest], unknownMembers: []))
        // Two kinds' distinctive members at once: refused with both named.
        XCTAssertEqual(
            SignedDataKind.classify(
                payload: try json(#"{"notificationType":"T","notificationUUID":"u","requestIdentifier":"r","userLocale":"l"}"#)),
            .ambiguous(fitting: [.notification, .realtimeRequest], unknownMembers: []))
        // Nothing known at all.
        XCTAssertEqual(
            SignedDataKind.classify(payload: try json(#"{"whatIsThis":1}"#)), .ambiguous(fitting: [], unknownMembers: ["whatIsThis"]))
        XCTAssertEqual(SignedDataKind.classify(payload: try json("[1]")), .ambiguous(fitting: [], unknownMembers: []))
        // The models name the client-side members.
        for member in ["deviceVerification", "deviceVerificationNonce", "appTransactionId"] {
            XCTAssertTrue(SignedDataKind.transaction.memberNames.contains(member), member)
            XCTAssertTrue(SignedDataKind.renewalInfo.memberNames.contains(member), member)
            XCTAssertTrue(SignedDataKind.appTransaction.memberNames.contains(member), member)
        }
    }

    /// Apple's rule: SHA-384 of lowercased(nonce) + lowercased(deviceVerificationID), base64.
    func testDeviceVerification() throws {
        let nonce = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
        let device = "6BA7B810-9DAD-41D1-80B4-00C04FD430C8"
        var transaction = JWSTransactionDecodedPayload()
        // Computed independently of the helper: the digest of the documented text.
        let text = "3f2504e0-4f89-41d3-9a0c-0305e82c3301" + "6ba7b810-9dad-41d1-80b4-00c04fd430c8"
        transaction.deviceVerification = Base64.encode(SHA384.hash(Array(text.utf8)))
        transaction.deviceVerificationNonce = nonce
        XCTAssertNoThrow(try transaction.checkDeviceVerification(deviceVerificationID: device))
        XCTAssertNoThrow(try transaction.checkDeviceVerification(deviceVerificationID: device.lowercased()))
        for other in ["6BA7B810-9DAD-41D1-80B4-00C04FD430C9", "", nonce] {
            XCTAssertThrowsError(try transaction.checkDeviceVerification(deviceVerificationID: other)) {
                XCTAssertEqual(($0 as? AppStoreError)?.code, .deviceVerificationMismatch)
            }
        }
        transaction.deviceVerification = "not base64!"
        XCTAssertThrowsError(try transaction.checkDeviceVerification(deviceVerificationID: device))
        XCTAssertThrowsError(try JWSTransactionDecodedPayload().checkDeviceVerification(deviceVerificationID: device)) {
            XCTAssertEqual(($0 as? AppStoreError)?.code, .deviceVerificationMismatch)
        }
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.deviceVerification = Base64.encode(SHA384.hash(Array(text.utf8)))
        renewal.deviceVerificationNonce = nonce.lowercased()
        XCTAssertNoThrow(try renewal.checkDeviceVerification(deviceVerificationID: device))
    }
}
