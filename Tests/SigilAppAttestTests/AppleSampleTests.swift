import Foundation
import SigilAppAttest
import SigilCBOR
import SigilCore
import SigilTestSupport
import SigilX509
import XCTest

/// Apple's own sample attestation (its Attestation Object Validation Guide, 2026), read through
/// `Scripts/vectors-dir appattest` and never copied here: it verifies at a time inside its
/// credential certificate's validity with the results Apple documents, and its receipt verifies to
/// Apple Root CA - G3 at its creation time.
final class AppleSampleTests: XCTestCase {
    /// 2026-04-21T00:00:00Z, inside the credential certificate's validity (2026-04-20T18:13:12Z → 2026-04-23T18:13:12Z).
    static let time: Int64 = 1_776_729_600
    static let appID = AppAttestAppID(teamID: "1234567890", bundleID: "com.example.myapp")
    /// Apple's sample used the raw challenge as clientDataHash (the reference's nonce pitfall).
    static let clientDataHash = Array("example_server_challenge".utf8)
    /// zgSY9YSD+7TaDXssY6WlOPVS1K3Lmk+pFhlcSWE+ZV0= as Apple documents it.
    static let keyID = Hex.decode("ce0498f58483fbb4da0d7b2c63a5a538f552d4adcb9a4fa916195c49613e655d") ?? []

    func sample() throws -> (object: [UInt8], base64: [UInt8], root: Certificate) {
        let folder = try TestPaths.requireAppAttestVectors()
        let object = Array(try Data(contentsOf: folder.appendingPathComponent("apple-guide-attestation.cbor")))
        let base64 = Array(try Data(contentsOf: folder.appendingPathComponent("apple-guide-attestation.b64")))
        let pem = try String(contentsOf: folder.appendingPathComponent("Apple_App_Attestation_Root_CA.pem"), encoding: .utf8)
        let roots = try Certificate.certificates(pem: pem)
        XCTAssertEqual(roots.count, 1)
        return (object, base64, roots[0])
    }

    func testAppleSampleVerifiesWithAppleResults() throws {
        let (object, base64, root) = try sample()
        XCTAssertEqual(root.sha256Fingerprint, AppAttestRoot.sha256Fingerprint)
        let verifier = try AttestationVerifier(appAttestationRoot: root, appID: Self.appID, environment: .production)
        let trace = VerificationTrace()
        let verified = try verifier.verify(
            object, clientDataHash: Self.clientDataHash, expectedKeyID: Self.keyID, at: Self.time, trace: trace)
        XCTAssertEqual(verified.keyID, Self.keyID)
        XCTAssertEqual(Data(verified.keyID).base64EncodedString(), "zgSY9YSD+7TaDXssY6WlOPVS1K3Lmk+pFhlcSWE+ZV0=")
        XCTAssertEqual(verified.environment, .production)
        XCTAssertEqual(verified.counter, 0)
        XCTAssertEqual(verified.authenticatorData.rpIDHash, SHA256.hash(Array("1234567890.com.example.myapp".utf8)))
        XCTAssertEqual(verified.authenticatorData.flags, 0x40)
        XCTAssertEqual(verified.extensions?.validationCategory, .platform)
        XCTAssertEqual(verified.extensions?.bundleVersion, "1")
        XCTAssertEqual(verified.certificateInfo.appID, "1234567890.com.example.myapp")
        XCTAssertEqual(verified.certificateInfo.osVersion, "27.0")
        XCTAssertEqual(verified.chain.count, 3)
        XCTAssertEqual(verified.chain.last, root)
        XCTAssertEqual(verified.receipt.count, 3977)
        // Every one of Apple's steps passed, in order, and the certificate verifier fed the same trace.
        let steps = trace.steps
        XCTAssertFalse(steps.contains { $0.verdict == .fail })
        for n in 1...9 { XCTAssertTrue(steps.contains { $0.clause == "Apple App Attest, attestation step \(n)" }, "step \(n)") }
        XCTAssertTrue(steps.contains { $0.clause.hasPrefix("RFC 5280 §6.1.3") })
        // The same object as base64 text.
        XCTAssertEqual(try verifier.verify(base64, clientDataHash: Self.clientDataHash, at: Self.time).keyID, Self.keyID)
    }

    func testAppleSampleNoncePitfall() throws {
        let (object, _, root) = try sample()
        let verifier = try AttestationVerifier(appAttestationRoot: root, appID: Self.appID, environment: .production)
        // Hashing the challenge once more (what a verifier that always hashes does) fails the sample.
        XCTAssertThrowsError(try verifier.verify(object, clientDataHash: SHA256.hash(Self.clientDataHash), at: Self.time)) {
            XCTAssertEqual(($0 as? AppAttestError)?.code, .nonceMismatch)
        }
    }

    func testAppleSampleRefusals() throws {
        let (object, _, root) = try sample()
        let verifier = try AttestationVerifier(appAttestationRoot: root, appID: Self.appID, environment: .production)
        // After the credential certificate expired, before it began.
        XCTAssertEqual(
            appAttestCode { _ = try verifier.verify(object, clientDataHash: Self.clientDataHash, at: 1_776_967_993) },
            .certificateNotValidAtTime)
        XCTAssertEqual(
            appAttestCode { _ = try verifier.verify(object, clientDataHash: Self.clientDataHash, at: 1_776_708_791) },
            .certificateNotValidAtTime)
        // The development environment, another App ID, another key id.
        let development = try AttestationVerifier(appAttestationRoot: root, appID: Self.appID, environment: .development)
        XCTAssertEqual(
            appAttestCode { _ = try development.verify(object, clientDataHash: Self.clientDataHash, at: Self.time) }, .environmentMismatch)
        let other = try AttestationVerifier(
            appAttestationRoot: root, appID: AppAttestAppID(teamID: "1234567890", bundleID: "com.example.other"), environment: .production)
        XCTAssertEqual(appAttestCode { _ = try other.verify(object, clientDataHash: Self.clientDataHash, at: Self.time) }, .rpIDMismatch)
        XCTAssertEqual(
            appAttestCode {
                _ = try verifier.verify(object, clientDataHash: Self.clientDataHash, expectedKeyID: SHA256.hash([1]), at: Self.time)
            },
            .keyIDMismatch)
        // A root other than the pinned one is refused when the verifier is made.
        let apple = try TestPaths.requireAppleVectors()
        let g3 = try Certificate(derEncoded: Array(Data(contentsOf: apple.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))))
        XCTAssertEqual(
            appAttestCode { _ = try AttestationVerifier(appAttestationRoot: g3, appID: Self.appID, environment: .production) },
            .rootNotPinned)
        // Every truncation of the object is refused with a typed error, never a crash.
        for length in stride(from: 0, to: object.count, by: 7) {
            XCTAssertNotNil(
                appAttestCode { _ = try verifier.verify(Array(object.prefix(length)), clientDataHash: Self.clientDataHash, at: Self.time) })
        }
    }

    func testAppleSampleReceiptVerifiesAtItsCreationTime() throws {
        let (object, _, root) = try sample()
        let verified = try AttestationVerifier(appAttestationRoot: root, appID: Self.appID, environment: .production)
            .verify(object, clientDataHash: Self.clientDataHash, at: Self.time)
        let apple = try TestPaths.requireAppleVectors()
        let g3 = try Certificate(derEncoded: Array(Data(contentsOf: apple.appendingPathComponent("real/apple-pki/AppleRootCA-G3.cer"))))
        let trace = VerificationTrace()
        let receipt = try AttestationReceiptVerifier(trustedRoots: [g3], appID: Self.appID).verify(
            verified.receipt, attestedPublicKey: verified.publicKey, trace: trace)
        XCTAssertEqual(receipt.validationTime, 1_776_795_192)  // 2026-04-21T18:13:12.153Z, validated at its whole second
        XCTAssertEqual(receipt.receipt.receiptType, "ATTEST")
        XCTAssertEqual(receipt.receipt.environment, "production")
        XCTAssertEqual(receipt.receipt.appID, "1234567890.com.example.myapp")
        XCTAssertEqual(receipt.receipt.clientHash, Self.clientDataHash)
        // The creation time comes out as signed, its milliseconds kept.
        XCTAssertEqual(receipt.receipt.creationTime.text, "2026-04-21T18:13:12.153Z")
        XCTAssertEqual(receipt.receipt.creationTime.description, "2026-04-21T18:13:12.153Z")
        XCTAssertEqual(receipt.receipt.creationTime.secondsSinceEpoch, 1_776_795_192)
        XCTAssertEqual(receipt.receipt.creationTime.fractionDigits, "153")
        XCTAssertEqual(receipt.receipt.creationTime.millisecondsSinceEpoch, 1_776_795_192_153)
        XCTAssertEqual(receipt.receipt.expirationTime?.secondsSinceEpoch, 1_776_795_192 + 90 * 86_400)
        XCTAssertNil(receipt.receipt.riskMetric)
        XCTAssertNotNil(receipt.receipt.token)
        XCTAssertEqual(receipt.chain.count, 3)
        XCTAssertEqual(receipt.chain.last, g3)
        XCTAssertFalse(trace.steps.contains { $0.verdict == .fail })
        // The receipt's attested key is the credential certificate itself.
        XCTAssertEqual(receipt.receipt.attestedCertificate, verified.chain[0])
        // Trusting the App Attestation root instead, the receipt's chain is refused.
        XCTAssertThrowsError(try AttestationReceiptVerifier(trustedRoots: [root], appID: Self.appID).verify(verified.receipt)) {
            XCTAssertEqual(($0 as? AppAttestError)?.code, .receiptNotTrusted)
        }
    }
}
