import Foundation
import SigilCBOR
import SigilCOSE
import SigilCore
import SigilTestSupport
import SigilX509
import XCTest

/// COSE against the messages of ISO/IEC 18013-5 Annex D (an issuer's COSE_Sign1, a reader's
/// COSE_Sign1 with a detached payload, a device's COSE_Mac0 under an ECDH + HKDF key), and what a
/// hostile sender can put in a COSE message.
final class COSETests: XCTestCase {
    private func annexD(_ name: String) throws -> [UInt8] { try AnnexD.bytes(name) }

    private func decode(_ bytes: [UInt8]) throws -> CBORValue {
        try CBOR.decode(bytes, options: CBORDecodingOptions(allowTags: true))
    }

    /// The one document of Annex D's DeviceResponse.
    private func document() throws -> CBORValue {
        let response = try decode(annexD("device-response.cbor"))
        return try XCTUnwrap(response["documents"]?.arrayValue?.first)
    }

    private func certificateKey(_ der: [UInt8]) throws -> ECDSAPublicKey {
        guard case .ec(let key) = try Certificate(derEncoded: der).publicKey else {
            throw CocoaError(.coderInvalidValue)  // not reached: Annex D's certificates hold P-256 keys
        }
        return key
    }

    private func key(_ name: String) throws -> (x: [UInt8], y: [UInt8], d: [UInt8]) { try AnnexD.key(name) }

    /// IssuerAuth: ES256 by the document signer, whose certificate is the x5chain (unprotected).
    func testIssuerAuthVerifiesWithTheDocumentSigner() throws {
        let issuerAuth = try XCTUnwrap(try document()["issuerSigned"]?["issuerAuth"])
        let message = try COSESign1(issuerAuth)
        XCTAssertEqual(try message.headers.algorithm(), .es256)
        let chain = try XCTUnwrap(try message.headers.certificateChain())
        XCTAssertEqual(chain, [try annexD("ds-cert.der")])
        let signer = try certificateKey(chain[0])
        try message.verify(with: signer)
        // The payload is MobileSecurityObjectBytes: tag 24 around the MSO.
        guard case .tagged(24, .bytes(let mso)) = try decode(try XCTUnwrap(message.payload)) else {
            return XCTFail("the IssuerAuth payload is not tag 24")
        }
        XCTAssertEqual(try decode(mso)["docType"]?.textValue, "org.iso.18013.5.1.mDL")

        // One changed bit anywhere the signature covers, external data it did not cover, another
        // key, another curve's algorithm: refused, each with its code.
        XCTAssertEqual(code { try message.verify(with: signer, externalAAD: [0]) }, .invalidSignature)
        XCTAssertEqual(code { try message.verify(with: try self.certificateKey(self.annexD("reader-cert.der"))) }, .invalidSignature)
        let p384 = ECDSAPrivateKey.generate(curve: .p384).publicKey
        XCTAssertEqual(code { try message.verify(with: p384) }, .algorithmKeyMismatch)
        // A bit flipped in the protected header, the payload or the signature (what the
        // signature covers, and the signature): each refused. The unprotected bucket (x5chain) is
        // not covered; its certificate is checked by the chain, not by COSE.
        guard case .array(let members) = issuerAuth else { return XCTFail("IssuerAuth is not an array") }
        var flipped = 0
        for member in [0, 2, 3] {
            let bytes = try XCTUnwrap(members[member].bytesValue)
            for position in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 16)) {
                var changed = bytes
                changed[position] ^= 0x01
                var tampered = members
                tampered[member] = .bytes(changed)
                guard let reread = try? COSESign1(.array(tampered)) else { continue }  // the protected header no longer reads
                XCTAssertThrowsError(try reread.verify(with: signer), "member \(member), byte \(position)")
                flipped += 1
            }
        }
        XCTAssertGreaterThan(flipped, 30)
    }

    /// ReaderAuth: a COSE_Sign1 with a detached payload, ReaderAuthenticationBytes (§9.1.4).
    func testReaderAuthVerifiesOverItsDetachedPayload() throws {
        let message = try COSESign1(bytes: annexD("reader-auth.cbor"))
        XCTAssertNil(message.payload)
        guard case .tagged(24, .bytes(let transcript)) = try decode(annexD("session-transcript-bytes.cbor")) else {
            return XCTFail("SessionTranscriptBytes is not tag 24")
        }
        let readerAuthentication = CBORValue.array([
            // ItemsRequestBytes: tag 24 around the ItemsRequest's exact bytes.
            .text("ReaderAuthentication"), try decode(transcript), .tagged(24, .bytes(try annexD("items-request.cbor"))),
        ])
        let payload = CBOR.encode(.tagged(24, .bytes(CBOR.encode(readerAuthentication))))
        let readerKey = try certificateKey(annexD("reader-cert.der"))
        try message.verify(with: readerKey, detachedPayload: payload)
        XCTAssertEqual(code { try message.verify(with: readerKey) }, .payloadMismatch)
        XCTAssertEqual(code { try message.verify(with: readerKey, detachedPayload: payload + [0]) }, .invalidSignature)
    }

    /// DeviceAuth's deviceMac: HMAC 256/256 under HKDF-SHA256(ECDH(EReaderKey, SDeviceKey),
    /// SHA-256(SessionTranscriptBytes), "EMacKey") over DeviceAuthenticationBytes (§9.1.3.5).
    func testDeviceMacVerifiesUnderTheECDHAndHKDFKey() throws {
        let document = try document()
        let transcriptBytes = try annexD("session-transcript-bytes.cbor")
        guard case .tagged(24, .bytes(let transcript)) = try decode(transcriptBytes) else {
            return XCTFail("SessionTranscriptBytes is not tag 24")
        }
        let deviceNameSpaces = try XCTUnwrap(document["deviceSigned"]?["nameSpaces"])
        let deviceAuthentication = CBORValue.array([
            .text("DeviceAuthentication"), try decode(transcript), try XCTUnwrap(document["docType"]), deviceNameSpaces,
        ])
        let payload = CBOR.encode(.tagged(24, .bytes(CBOR.encode(deviceAuthentication))))

        // The device key from the MSO (COSE_Key), the same point keys.txt gives.
        let issuerAuth = try COSESign1(try XCTUnwrap(document["issuerSigned"]?["issuerAuth"]))
        guard case .tagged(24, .bytes(let mso)) = try decode(try XCTUnwrap(issuerAuth.payload)) else {
            return XCTFail("the IssuerAuth payload is not tag 24")
        }
        let deviceKey = try COSEKey.publicKey(try XCTUnwrap(try decode(mso)["deviceKeyInfo"]?["deviceKey"]))
        let staticDevice = try key("static-device-key")
        XCTAssertEqual(deviceKey.x, staticDevice.x)
        XCTAssertEqual(deviceKey.y, staticDevice.y)
        XCTAssertEqual(COSEKey.encode(deviceKey), try decode(mso)["deviceKeyInfo"]?["deviceKey"])

        let reader = try ECDSAPrivateKey(rawRepresentation: key("ephemeral-reader-key").d, curve: .p256)
        let z = try reader.sharedSecret(with: deviceKey)
        let macKey = try HKDF<SHA256>.deriveKey(
            inputKeyMaterial: z, salt: SHA256.hash(transcriptBytes), info: Array("EMacKey".utf8), outputByteCount: 32)
        let mac = try COSEMac0(try XCTUnwrap(document["deviceSigned"]?["deviceAuth"]?["deviceMac"]))
        XCTAssertEqual(try mac.headers.algorithm(), .hmac256)
        try mac.verify(key: macKey, detachedPayload: payload)

        // Another transcript, another key, a changed element of the payload: invalidMAC.
        XCTAssertEqual(code { try mac.verify(key: macKey, detachedPayload: payload + [0]) }, .invalidMAC)
        var otherKey = macKey
        otherKey[0] ^= 1
        XCTAssertEqual(code { try mac.verify(key: otherKey, detachedPayload: payload) }, .invalidMAC)
        let otherSalt = try HKDF<SHA256>.deriveKey(
            inputKeyMaterial: z, salt: SHA256.hash(transcriptBytes + [0]), info: Array("EMacKey".utf8), outputByteCount: 32)
        XCTAssertEqual(code { try mac.verify(key: otherSalt, detachedPayload: payload) }, .invalidMAC)
    }

    private func code(_ body: () throws -> Void) -> COSEError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? COSEError)?.code
        }
    }

    /// A signed message built here (with this module's own structures) for the hostile cases.
    private func sign1(
        protected: CBORValue, unprotected: CBORValue = .map([]), payload: CBORValue = .bytes([1, 2, 3]), key: ECDSAPrivateKey
    )
        -> CBORValue
    {
        let protectedBytes: [UInt8]
        if case .map(let entries) = protected, entries.isEmpty { protectedBytes = [] } else { protectedBytes = CBOR.encode(protected) }
        let content = payload.bytesValue ?? []
        let toBeSigned = CBOR.encode(.array([.text("Signature1"), .bytes(protectedBytes), .bytes([]), .bytes(content)]))
        let signature = key.signature(for: toBeSigned, hash: key.curve == .p256 ? .sha256 : .sha384).rawRepresentation
        return .array([.bytes(protectedBytes), unprotected, payload, .bytes(signature)])
    }

    /// What a hostile sender can put in a COSE message: every refusal typed, never a trap.
    func testHostileMessages() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256)
        let es256: CBORValue = .map(pairs: [(.unsigned(1), .integer(-7))])
        try COSESign1(sign1(protected: es256, key: key)).verify(with: key.publicKey)
        try COSESign1(.tagged(18, sign1(protected: es256, key: key))).verify(with: key.publicKey)

        // Shapes.
        XCTAssertEqual(code { _ = try COSESign1(.tagged(17, self.sign1(protected: es256, key: key))) }, .malformedStructure)
        XCTAssertEqual(code { _ = try COSESign1(.array([.bytes([]), .map([]), .bytes([])])) }, .malformedStructure)
        XCTAssertEqual(code { _ = try COSESign1(.map([])) }, .malformedStructure)
        XCTAssertEqual(code { _ = try COSESign1(.array([.map([]), .map([]), .bytes([]), .bytes([])])) }, .malformedHeader)
        XCTAssertEqual(code { _ = try COSESign1(.array([.bytes([0xA0]), .array([]), .bytes([]), .bytes([])])) }, .malformedHeader)
        XCTAssertEqual(code { _ = try COSESign1(.array([.bytes([0x80]), .map([]), .bytes([]), .bytes([])])) }, .malformedHeader)
        XCTAssertEqual(code { _ = try COSESign1(.array([.bytes([0xA1, 0x01]), .map([]), .bytes([]), .bytes([])])) }, .malformedHeader)
        XCTAssertEqual(code { _ = try COSESign1(.array([.bytes([]), .map([]), .text("x"), .bytes([])])) }, .malformedStructure)
        XCTAssertEqual(code { _ = try COSESign1(bytes: [0x84, 0x40]) }, .invalidCBOR)
        XCTAssertEqual(code { _ = try COSESign1(bytes: [UInt8](repeating: 0x81, count: 100_000)) }, .invalidCBOR)

        // Headers: alg only in the unprotected bucket, a label in both, crit naming the unknown.
        XCTAssertEqual(
            code { try COSESign1(self.sign1(protected: .map([]), unprotected: es256, key: key)).verify(with: key.publicKey) },
            .missingAlgorithm)
        XCTAssertEqual(code { try COSESign1(self.sign1(protected: .map([]), key: key)).verify(with: key.publicKey) }, .missingAlgorithm)
        XCTAssertEqual(code { _ = try COSESign1(self.sign1(protected: es256, unprotected: es256, key: key)) }, .malformedHeader)
        let critical: CBORValue = .map(pairs: [
            (.unsigned(1), .integer(-7)), (.unsigned(2), .array([.integer(-70_000)])), (.integer(-70_000), .unsigned(1)),
        ])
        XCTAssertEqual(code { _ = try COSESign1(self.sign1(protected: critical, key: key)) }, .unknownCriticalHeader)

        // Algorithms refused by name; a text alg refused as malformed.
        for (value, name) in [(-8, "EdDSA"), (-36, "ES512"), (-257, "RS256"), (5, "HMAC 256/256"), (-999, "unregistered")] {
            let protected: CBORValue = .map(pairs: [(.unsigned(1), .integer(Int64(value)))])
            do {
                try COSESign1(sign1(protected: protected, key: key)).verify(with: key.publicKey)
                XCTFail("\(name) accepted")
            } catch {
                XCTAssertEqual(error.code, .unsupportedAlgorithm)
                XCTAssertTrue(error.reason.contains("\(name) (\(value))"), error.reason)
            }
        }
        let textAlgorithm: CBORValue = .map(pairs: [(.unsigned(1), .text("ES256"))])
        XCTAssertEqual(code { try COSESign1(self.sign1(protected: textAlgorithm, key: key)).verify(with: key.publicKey) }, .malformedHeader)

        // Signatures of the wrong length; a detached payload given twice.
        var message = sign1(protected: es256, key: key)
        if case .array(var members) = message {
            members[3] = .bytes(Array((members[3].bytesValue ?? []).dropLast()))
            message = .array(members)
        }
        XCTAssertEqual(code { try COSESign1(message).verify(with: key.publicKey) }, .invalidSignature)
        XCTAssertEqual(
            code { try COSESign1(self.sign1(protected: es256, key: key)).verify(with: key.publicKey, detachedPayload: [1, 2, 3]) },
            .payloadMismatch)

        // x5chain: empty, or not byte strings.
        for chain in [CBORValue.array([]), .array([.text("x")]), .unsigned(1)] {
            let headers = try COSEHeaders(protected: .bytes([]), unprotected: .map(pairs: [(.unsigned(33), chain)]))
            XCTAssertEqual(code { _ = try headers.certificateChain() }, .malformedCertificateChain)
        }

        // COSE_Mac0 with another algorithm or a short tag.
        let hmacProtected = CBOR.encode(.map(pairs: [(.unsigned(1), .unsigned(5))]))
        let macKey = [UInt8](repeating: 9, count: 32)
        let toBeMACed = CBOR.encode(.array([.text("MAC0"), .bytes(hmacProtected), .bytes([]), .bytes([7])]))
        let tag = HMAC<SHA256>.authenticationCode(key: macKey, message: toBeMACed)
        try COSEMac0(.tagged(17, .array([.bytes(hmacProtected), .map([]), .bytes([7]), .bytes(tag)]))).verify(key: macKey)
        XCTAssertEqual(
            code {
                try COSEMac0(.array([.bytes(hmacProtected), .map([]), .bytes([7]), .bytes(Array(tag.prefix(8)))])).verify(key: macKey)
            }, .invalidMAC)
        let truncatedAlgorithm = CBOR.encode(.map(pairs: [(.unsigned(1), .unsigned(4))]))
        XCTAssertEqual(
            code { try COSEMac0(.array([.bytes(truncatedAlgorithm), .map([]), .bytes([7]), .bytes(tag)])).verify(key: macKey) },
            .unsupportedAlgorithm)
    }

    /// COSE_Key: only EC2 public keys on P-256 and P-384, the point on the curve.
    func testHostileKeys() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256).publicKey
        let good = COSEKey.encode(key)
        XCTAssertEqual(try COSEKey.publicKey(good), key)
        guard case .map(let entries) = good else { return XCTFail("not a map") }
        func with(_ label: Int64, _ value: CBORValue?) -> CBORValue {
            var changed = entries.filter { $0.key.int64Value != label }
            if let value { changed.append(CBORMapEntry(key: .integer(label), value: value)) }
            return .map(changed)
        }
        let compressed = with(-3, .bool((key.y.last ?? 0) & 1 == 1))
        XCTAssertEqual(try COSEKey.publicKey(compressed), key)
        var offCurve = key.y
        offCurve[offCurve.count - 1] ^= 1
        let hostile: [(CBORValue, String)] = [
            (.array([]), "a map"), (with(1, .unsigned(1)), "OKP"), (with(1, nil), "kty"), (with(-1, .unsigned(3)), "P-521"),
            (with(-1, .unsigned(6)), "Ed25519"), (with(-1, nil), "crv"), (with(-2, .bytes(Array(key.x.dropLast()))), "x"),
            (with(-3, .bytes(offCurve)), "point"), (with(-3, .text("y")), "y"), (with(-4, .bytes(key.x)), "private key"),
            (with(-1, .unsigned(2)), "x"),
        ]
        for (value, expected) in hostile {
            do {
                _ = try COSEKey.publicKey(value)
                XCTFail("accepted: \(expected)")
            } catch {
                XCTAssertEqual(error.code, .invalidKey)
                XCTAssertTrue(error.reason.contains(expected), "\(expected): \(error.reason)")
            }
        }
    }
}
