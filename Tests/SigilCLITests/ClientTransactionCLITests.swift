import Foundation
import SigilCore
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// A StoreKit 2 transaction as an app sends it to its server (`Transaction.jwsRepresentation`): the
/// payload carries the client-side members `deviceVerification`, `deviceVerificationNonce` and
/// `appTransactionId` besides the server members. No public client transaction with a clear source
/// exists, so the shape is built with the test PKI: `sigil verify FILE`, without `--type`, must
/// verify it, print its client-side members, check its device binding, and report (never refuse)
/// members no model names.
final class ClientTransactionCLITests: XCTestCase {
    private func sigil(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(try TestPaths.builtProduct("sigil", besideBundleOf: ClientTransactionCLITests.self).path, arguments)
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    static let nonce = "6B0E2B5C-7A1D-4E83-9C2F-1D5E8A7B9C30"
    static let deviceID = "A1B2C3D4-E5F6-4718-9A0B-C1D2E3F4A5B6"

    func file(_ payload: [String: Any], pki: AppleShapedTestPKI, name: String) throws -> String {
        let jws = try pki.signedData(payload: Array(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-client-\(UUID().uuidString)-\(name).jws")
        try Data(jws.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// A real one: a sandbox auto-renewable subscription's `jwsRepresentation` (2025-10-25) that an
    /// app sent to its server, Apple-signed, with deviceVerification, its nonce and appTransactionId.
    func testRealClientTransactionWithoutType() throws {
        let file = try TestPaths.requireAppleVectors().appendingPathComponent(
            "real/jws/mysupplyme-MedicalSupplierzApp/sandbox-transaction-autorenew-2025-10-25.jws")
        let verified = try sigil(["verify", file.path])
        XCTAssertEqual(verified.status, 0, String(decoding: verified.stderr, as: UTF8.self))
        let out = try json(verified.stdout)
        XCTAssertEqual(out["type"] as? String, "transaction")
        XCTAssertEqual((out["payload"] as? [String: Any])?["transactionId"] as? String, "2000001042162856")
        XCTAssertEqual(out["unknownMembers"] as? [String], [])
        let clientSide = try XCTUnwrap(out["clientSide"] as? [String: Any])
        XCTAssertEqual((clientSide["deviceVerification"] as? String)?.count, 64, "base64 of a 48-byte SHA-384")
        XCTAssertNotNil(clientSide["deviceVerificationNonce"] as? String)
        XCTAssertNotNil(clientSide["appTransactionId"] as? String)
        XCTAssertEqual((out["verification"] as? [String: Any])?["trust"] as? String, "appleChain")
        // Its device is not known here: any other device's id is refused.
        let other = try sigil(["verify", "--device-verification-id", "00000000-0000-4000-8000-000000000000", file.path])
        XCTAssertEqual(try json(other.stderr)["error"] as? String, "appstore.DEVICE_VERIFICATION_MISMATCH")
    }

    func testClientTransactionWithoutType() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let pki = try AppleShapedTestPKI.generate(notBefore: now - 86_400, notAfter: now + 86_400)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-client-root-\(UUID().uuidString).cer")
        try Data(pki.root.derBytes).write(to: root)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        // SHA-384 of the lowercased nonce followed by the lowercased device verification id, base64.
        let verification = Data(SHA384.hash(Array((Self.nonce.lowercased() + Self.deviceID.lowercased()).utf8))).base64EncodedString()
        let signedDate = (now - 60) * 1000
        let transaction: [String: Any] = [
            "transactionId": "2000000912345678", "originalTransactionId": "2000000912345678", "bundleId": "com.example.app",
            "productId": "com.example.app.coins100", "purchaseDate": signedDate - 5000, "originalPurchaseDate": signedDate - 5000,
            "quantity": 1, "type": "Consumable", "inAppOwnershipType": "PURCHASED", "signedDate": signedDate,
            "environment": "Sandbox", "transactionReason": "PURCHASE", "storefront": "USA", "storefrontId": "143441",
            "price": 990, "currency": "USD", "appTransactionId": "704402349364424620",
            "deviceVerification": verification, "deviceVerificationNonce": Self.nonce.lowercased(),
        ]
        let client = try file(transaction, pki: pki, name: "client")
        let verified = try sigil(["verify", "--root", root.path, "--explain", client])
        XCTAssertEqual(verified.status, 0, String(decoding: verified.stderr, as: UTF8.self))
        let out = try json(verified.stdout)
        XCTAssertEqual(out["type"] as? String, "transaction")
        XCTAssertEqual(out["unknownMembers"] as? [String], [])
        let clientSide = try XCTUnwrap(out["clientSide"] as? [String: Any])
        XCTAssertEqual(clientSide["deviceVerification"] as? String, verification)
        XCTAssertEqual(clientSide["deviceVerificationNonce"] as? String, Self.nonce.lowercased())
        XCTAssertEqual(clientSide["appTransactionId"] as? String, "704402349364424620")
        XCTAssertTrue(String(decoding: verified.stderr, as: UTF8.self).contains("transaction: the only kind whose distinctive members"))

        // The device binding: this device's id (any case) matches; another device's does not.
        let bound = try sigil(["verify", "--root", root.path, "--device-verification-id", Self.deviceID, client])
        XCTAssertEqual(bound.status, 0, String(decoding: bound.stderr, as: UTF8.self))
        XCTAssertEqual(
            ((try json(bound.stdout)["clientSide"] as? [String: Any])?["deviceVerified"] as? [String: Any])?["matches"] as? Bool, true)
        let other = try sigil(["verify", "--root", root.path, "--device-verification-id", "00000000-0000-4000-8000-000000000000", client])
        XCTAssertEqual(other.status, 1)
        XCTAssertEqual(try json(other.stderr)["error"] as? String, "appstore.DEVICE_VERIFICATION_MISMATCH")

        // A member Apple adds next year: verified, listed under unknownMembers, kept in the payload.
        var extended = transaction
        extended["inventedFutureMember"] = ["nested": true]
        extended["anotherNewFlag"] = 1
        let future = try sigil(["verify", "--root", root.path, try file(extended, pki: pki, name: "future")])
        XCTAssertEqual(future.status, 0, String(decoding: future.stderr, as: UTF8.self))
        let futureOut = try json(future.stdout)
        XCTAssertEqual(futureOut["type"] as? String, "transaction")
        XCTAssertEqual(futureOut["unknownMembers"] as? [String], ["anotherNewFlag", "inventedFutureMember"])
        XCTAssertNotNil((futureOut["payload"] as? [String: Any])?["inventedFutureMember"])

        // {"environment", "signedDate"} is still refused, with the --type values that fit named.
        let bare = try sigil([
            "verify", "--root", root.path, try file(["environment": "Sandbox", "signedDate": signedDate], pki: pki, name: "bare"),
        ])
        XCTAssertEqual(bare.status, 1)
        let refusal = try json(bare.stderr)
        XCTAssertEqual(refusal["error"] as? String, "appstore.AMBIGUOUS_PAYLOAD_KIND")
        let message = try XCTUnwrap(refusal["message"] as? String)
        for type in ["--type transaction", "--type renewal-info", "--type realtime"] { XCTAssertTrue(message.contains(type), message) }
        XCTAssertFalse(message.contains("--type notification"), message)
    }
}
