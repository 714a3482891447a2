import Foundation
import SigilCBOR
import SigilCOSE
import SigilCipher
import SigilCore
import SigilMdoc
import SigilTestSupport
import SigilX509
import XCTest

/// The bytes of a hex string, or a test failure.
func unhex(_ text: String) throws -> [UInt8] { try XCTUnwrap(Hex.decode(text), "not hex") }

/// Sigil against independent code from PyPI (`Scripts/get-peers`): documents issued by pymdoccbor
/// with the device's part signed by pycose or MACed with cbor2 + pyca/cryptography, and HPKE
/// sealed and opened by pyhpke and pyca/cryptography (`mdoc_peer.py`).
final class PeerTests: XCTestCase {
    struct Minted: Decodable {
        let iaca: String
        let iaca384: String
        let now: Int64
        let cases: [String: String]
    }

    static let script = TestPaths.repositoryRoot.appendingPathComponent("Tests/SigilMdocTests/mdoc_peer.py").path

    /// Runs the peer script with `arguments`; its standard output, trimmed.
    static func peer(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(try Subprocess.peerPython(), [script] + arguments)
        guard result.status == 0 else {
            throw TestPaths.MissingVectors(
                message: "mdoc_peer.py \(arguments[0]) failed: \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return result.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func mint(transcript: SessionTranscript, reader: ECDSAPrivateKey) throws -> Minted {
        let output = try peer(["mint", Hex.encode(transcript.bytes), Hex.encode(reader.rawRepresentation)])
        return try JSONDecoder().decode(Minted.self, from: Data(output.utf8))
    }

    private func code(_ body: () throws -> Void) -> MdocError.Code? { mdocError(body)?.code }

    /// pymdoccbor's documents verify, with a deviceSignature (ES256, and ES384 under a P-384 IACA
    /// with SHA-384 digests), with a deviceMac, two documents in one response; every element
    /// typed; then each tampering is refused with its own code.
    func testPymdoccborDocuments() throws {
        // An in-person session: DeviceEngagementBytes, EReaderKeyBytes (the reader's key, which a
        // deviceMac needs), a null handover (QR engagement).
        let reader = ECDSAPrivateKey.generate(curve: .p256)
        func inPerson(_ engagement: [UInt8]) throws -> SessionTranscript {
            try SessionTranscript(
                bytes: CBOR.encode(
                    .array([.tagged(24, .bytes(engagement)), .tagged(24, .bytes(CBOR.encode(COSEKey.encode(reader.publicKey)))), .null])))
        }
        let transcript = try inPerson([0xA1, 0x00, 0x63] + Array("1.0".utf8))
        let minted = try Self.mint(transcript: transcript, reader: reader)
        let root = try Certificate(derEncoded: unhex(minted.iaca))
        let root384 = try Certificate(derEncoded: unhex(minted.iaca384))
        let verifier = MdocVerifier(trustedIACARoots: [root, root384])
        func response(_ name: String) throws -> [UInt8] { try unhex(XCTUnwrap(minted.cases[name], name)) }
        let defaultTranscript = transcript
        func verify(_ name: String, transcript: SessionTranscript? = nil, reader readerKey: ECDSAPrivateKey? = nil, at: Int64? = nil) throws
            -> VerifiedDeviceResponse
        {
            try verifier.verify(
                deviceResponse: response(name),
                sessionTranscript: transcript ?? defaultTranscript,
                readerKey: MdocVerifier.ReaderKey.privateKey(readerKey ?? reader), at: at ?? minted.now + 5)
        }

        let signed = try verify("signature").documents[0]
        XCTAssertEqual(signed.deviceAuthentication, .signature(.es256))
        XCTAssertEqual(signed.mobileSecurityObject.digestAlgorithm, .sha256)
        XCTAssertEqual(signed.element("family_name")?.text, "Mustermann")
        XCTAssertEqual(signed.element("birth_date")?.fullDate, FullDate("1971-09-01"))
        XCTAssertEqual(signed.element("age_over_18")?.bool, true)
        XCTAssertEqual(signed.element("age_over_65")?.bool, false)
        XCTAssertEqual(signed.element("portrait")?.bytes, Array(repeating: (0...255).map { UInt8($0) }, count: 8).flatMap { $0 })
        let privilege = try XCTUnwrap(signed.element("driving_privileges")?.array?.first)
        XCTAssertEqual(privilege["vehicle_category_code"]?.text, "B")
        XCTAssertEqual(privilege["issue_date"]?.fullDate, FullDate("2020-01-01"))
        XCTAssertEqual(privilege["codes"]?.array?.first?["code"]?.text, "S01")
        XCTAssertEqual(signed.element("sex", in: "org.iso.18013.5.1.aamva")?.integer, 2)
        XCTAssertEqual(signed.element("DHS_compliance", in: "org.iso.18013.5.1.aamva")?.text, "F")
        XCTAssertEqual(Set(signed.issuerSignedElements.map { $0.nameSpace }), ["org.iso.18013.5.1", "org.iso.18013.5.1.aamva"])
        XCTAssertEqual(signed.issuerChain.last, root)

        XCTAssertEqual(try verify("mac").documents[0].deviceAuthentication, .mac)
        let es384 = try verify("es384").documents[0]
        XCTAssertEqual(es384.deviceAuthentication, .signature(.es384))
        XCTAssertEqual(es384.mobileSecurityObject.digestAlgorithm, .sha384)
        XCTAssertEqual(es384.issuerChain.last, root384)
        let two = try verify("two-documents")
        XCTAssertEqual(two.documents.map { $0.docType }, ["org.iso.18013.5.1.mDL", "org.iso.23220.photoid.1"])
        XCTAssertEqual(two.documents[1].element("family_name_unicode", in: "org.iso.23220.1")?.text, "Mustermann")

        // Each tampering, its own code.
        XCTAssertEqual(code { _ = try verify("tampered-element") }, .digestMismatch)
        XCTAssertEqual(code { _ = try verify("tampered-digest-id") }, .unknownDigestID)
        XCTAssertEqual(code { _ = try verify("tampered-mso") }, .invalidIssuerSignature)
        XCTAssertEqual(code { _ = try verify("tampered-signature") }, .invalidDeviceSignature)
        XCTAssertEqual(code { _ = try verify("wrong-doctype") }, .docTypeMismatch)
        XCTAssertEqual(code { _ = try verify("other-device-key") }, .invalidDeviceSignature)
        // Validity: the MSO ends a year after issuance, the document signer 1,000 days after.
        XCTAssertEqual(code { _ = try verify("signature", at: minted.now + 400 * 86_400) }, .documentNotValidAtTime)
        XCTAssertEqual(code { _ = try verify("signature", at: minted.now - 2 * 86_400) }, .documentNotValidAtTime)
        // Another session's transcript, another reader key.
        let other = try inPerson([0xA1, 0x00, 0x63] + Array("1.1".utf8))
        XCTAssertEqual(code { _ = try verify("signature", transcript: other) }, .invalidDeviceSignature)
        XCTAssertEqual(code { _ = try verify("mac", transcript: other) }, .invalidDeviceMAC)
        XCTAssertEqual(code { _ = try verify("mac", reader: ECDSAPrivateKey.generate(curve: .p256)) }, .invalidReaderKey)
        // A deviceMac in a web session (no EReaderKeyBytes) cannot be genuine.
        let web = SessionTranscript.digitalCredentialsAPI(encryptionInfo: "peer-test", origin: "https://verifier.example")
        XCTAssertEqual(code { _ = try verify("mac", transcript: web) }, .invalidDeviceMAC)
        // Another IACA root only.
        XCTAssertEqual(
            code {
                _ = try MdocVerifier(trustedIACARoots: [root384]).verify(
                    deviceResponse: response("signature"), sessionTranscript: transcript, readerKey: .notHeld, at: minted.now + 5)
            }, .untrustedIssuer)
    }

    /// HPKE both ways: pyhpke and pyca/cryptography seal, Sigil opens; Sigil seals, pyhpke opens.
    func testHPKEAgainstPyhpkeAndPyca() throws {
        let recipient = ECDSAPrivateKey.generate(curve: .p256)
        let publicKey = Hex.encode(recipient.publicKey.uncompressedRepresentation)
        let info = Array("an Annex C transcript".utf8)
        for (command, length) in [("hpke-seal", 0), ("hpke-seal", 1), ("hpke-seal", 1_000), ("hpke-seal-pyca", 37)] {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
            let parts = try Self.peer([command, publicKey, Hex.encode(info), Hex.encode(plaintext)]).split(separator: " ")
            XCTAssertEqual(parts.count, 2)
            let opened = try HPKE.open(
                unhex(String(parts[1])), encapsulatedKey: unhex(String(parts[0])), privateKey: recipient, info: info, mode: .base)
            XCTAssertEqual(opened, plaintext, "\(command) \(length)")
            XCTAssertThrowsError(
                try HPKE.open(
                    unhex(String(parts[1])), encapsulatedKey: unhex(String(parts[0])), privateKey: recipient, info: info + [0],
                    mode: .base))
        }
        let plaintext = Array("a DeviceResponse".utf8)
        let sealed = try HPKE.seal(plaintext, recipientKey: recipient.publicKey, info: info, mode: .base)
        let opened = try Self.peer([
            "hpke-open", Hex.encode(recipient.rawRepresentation), Hex.encode(sealed.encapsulatedKey), Hex.encode(sealed.ciphertext),
            Hex.encode(info),
        ])
        XCTAssertEqual(try unhex(opened), plaintext)
    }

    /// The web flow of ISO/IEC 18013-7 Annex C: Sigil builds the request, pymdoccbor and pycose
    /// answer for its transcript, pyhpke seals the EncryptedResponse; Sigil opens and verifies it.
    /// The same response under another origin's request, or opened with another key, does not open.
    func testAnnexCRequestOpenAndVerify() throws {
        let serverKey = ECDSAPrivateKey.generate(curve: .p256)
        let nonce = (0..<32).map { UInt8($0 * 3 + 5) }
        let documents = [
            DigitalCredentialsRequest.DocumentRequest(
                docType: "org.iso.18013.5.1.mDL", elements: ["org.iso.18013.5.1": ["family_name": false, "age_over_18": false]])
        ]
        let request = try DigitalCredentialsRequest(
            documents: documents, origin: "https://verifier.example", recipientKey: serverKey.publicKey, nonce: nonce,
            readerAuthentication: nil)
        let minted = try Self.mint(transcript: request.sessionTranscript, reader: ECDSAPrivateKey.generate(curve: .p256))
        let deviceResponse = try XCTUnwrap(minted.cases["signature"])
        let encrypted = try Self.peer([
            "annexc-seal", Hex.encode(serverKey.publicKey.uncompressedRepresentation), Hex.encode(request.sessionTranscript.bytes),
            deviceResponse,
        ])
        let opened = try request.open(response: encrypted, privateKey: serverKey)
        XCTAssertEqual(opened, try unhex(deviceResponse))
        let verified = try MdocVerifier(trustedIACARoots: [try Certificate(derEncoded: unhex(minted.iaca))]).verify(
            deviceResponse: opened, sessionTranscript: request.sessionTranscript, readerKey: .notHeld, at: minted.now + 5)
        XCTAssertEqual(verified.documents[0].deviceAuthentication, DeviceAuthenticationMethod.signature(.es256))

        // The request's data: the two members, base64url without padding.
        XCTAssertTrue(request.data.hasPrefix("{\"deviceRequest\":\""))
        XCTAssertFalse(request.data.contains("="))
        // Another origin (same key and nonce), another key: refused, typed.
        let elsewhere = try DigitalCredentialsRequest(
            documents: documents, origin: "https://attacker.example", recipientKey: serverKey.publicKey, nonce: nonce,
            readerAuthentication: nil)
        XCTAssertEqual(code { _ = try elsewhere.open(response: encrypted, privateKey: serverKey) }, .decryptionFailed)
        XCTAssertEqual(
            code { _ = try request.open(response: encrypted, privateKey: ECDSAPrivateKey.generate(curve: .p256)) }, .decryptionFailed)
        XCTAssertEqual(code { _ = try request.open(response: "not base64url!", privateKey: serverKey) }, .decryptionFailed)
        XCTAssertEqual(
            code { _ = try request.open(encryptedResponse: [0x82, 0x61, 0x78, 0xA0], privateKey: serverKey) }, .malformedStructure)
    }
}
