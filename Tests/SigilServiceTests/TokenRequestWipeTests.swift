import Foundation
import SigilCore
import SigilKeys
import SigilService
import XCTest

@testable import SigilBase

/// Issue 46: a token request wipes its copy of the `.p8` text once the key is loaded, key loading
/// wipes the DER decoded from the PEM and the scalar's octets, and the request keeps no member
/// holding the key text.
final class TokenRequestWipeTests: XCTestCase {
    func testTheP8CopiesAreWipedOnceTheKeyIsLoaded() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let pem = key.pkcs8PEM
        let der = key.pkcs8DER
        let json = Array(
            try JSONSerialization.data(withJSONObject: [
                "token": "app-store-server-api", "key": pem, "keyId": "ABC123", "issuerId": "issuer-1", "bundleId": "com.example.app",
            ]))
        let (request, wipes) = try SecretMemory.observingWipes { try TokenRequest(json: json) }
        XCTAssertEqual(request.key.privateKey.publicKey, key.publicKey)
        let inPlace = wipes.filter { $0.inPlace && $0.zeroed }
        XCTAssertTrue(inPlace.contains { $0.count == pem.utf8.count }, "the request's copy of the .p8 text was not wiped")
        XCTAssertTrue(inPlace.contains { $0.count == der.count }, "the DER decoded from the .p8 PEM was not wiped")
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(\.count).reduce(0, +)
        XCTAssertTrue(inPlace.contains { $0.count == base64 }, "the PEM decoder's copy of the base64 body was not wiped")
        XCTAssertTrue(inPlace.contains { $0.count == 32 }, "the scalar's octets read from the DER were not wiped")
        XCTAssertFalse(request.heldMemberNames.contains("key"))
        XCTAssertTrue(request.heldMemberNames.contains("issuerId"))
        // Minting still reads the other members.
        let answer = VerificationService(requestTrust: .acceptedAndReported).mintToken(json: json)
        XCTAssertEqual(answer.status, .verified, answer.json)
    }
}
