import Foundation
import SigilCBOR
import SigilCOSE
import SigilCore
import SigilKeys
import SigilMdoc
import SigilTestSupport
import SigilX509
import XCTest

/// What a hostile sender can put in a DeviceResponse, a session transcript or a reader key, on
/// Annex D's response: every refusal typed, never a trap. The outer map is covered by no signature
/// (IssuerAuth covers the MSO, DeviceAuth the transcript, docType and device namespaces), so it is
/// rewritten here freely; where the deviceMac must still verify, it is recomputed with Annex D's
/// reader key.
final class HostileTests: XCTestCase {
    private var annexD: [UInt8] = []
    private var verifier: MdocVerifier!
    private var readerKey: ECDSAPrivateKey!
    private var transcript: SessionTranscript!

    override func setUpWithError() throws {
        annexD = try AnnexDTests.annexD("device-response.cbor")
        verifier = MdocVerifier(trustedIACARoots: [try Certificate(derEncoded: AnnexDTests.annexD("iaca-root.der"))])
        readerKey = try ECDSAPrivateKey(rawRepresentation: AnnexDTests.key("ephemeral-reader-key").d, curve: .p256)
        transcript = try SessionTranscript(bytes: AnnexDTests.annexD("session-transcript-bytes.cbor"))
    }

    private func verify(_ bytes: [UInt8]) throws -> VerifiedDeviceResponse {
        try verifier.verify(
            deviceResponse: bytes, sessionTranscript: transcript, readerKey: .privateKey(readerKey), at: AnnexDTests.january2021)
    }

    private func code(_ bytes: [UInt8]) -> MdocError.Code? { mdocError { _ = try self.verify(bytes) }?.code }

    private func decoded() throws -> [CBORMapEntry] {
        try XCTUnwrap(CBOR.decode(annexD, options: CBORDecodingOptions(allowTags: true)).mapValue)
    }

    /// The response with its map's `key` set to `value` (nil: removed).
    private func withMember(_ key: String, _ value: CBORValue?) throws -> [UInt8] {
        var entries = try decoded().filter { $0.key != .text(key) }
        if let value { entries.append(CBORMapEntry(key: .text(key), value: value)) }
        return CBOR.encode(.map(entries))
    }

    /// The response with its one document rewritten by `change`.
    private func withDocument(_ change: (inout [CBORMapEntry]) throws -> Void) throws -> [UInt8] {
        let documents = try XCTUnwrap(decoded().first { $0.key == .text("documents") }?.value.arrayValue)
        var document = try XCTUnwrap(documents[0].mapValue)
        try change(&document)
        return try withMember("documents", .array([.map(document)]))
    }

    private func member(_ entries: [CBORMapEntry], _ key: String) throws -> CBORValue {
        try XCTUnwrap(entries.first { $0.key == .text(key) }?.value, key)
    }

    private func replacing(_ entries: [CBORMapEntry], _ key: String, _ value: CBORValue) -> [CBORMapEntry] {
        entries.filter { $0.key != .text(key) } + [CBORMapEntry(key: .text(key), value: value)]
    }

    /// Bytes that are not CBOR within the limits: each refused as invalidCBOR.
    func testHostileCBOR() throws {
        let deep = [UInt8](repeating: 0x81, count: 200) + [0x00]
        let hugeByteString: [UInt8] = [0x5B, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]
        let hugeArray: [UInt8] = [0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let indefinite: [UInt8] = [0xBF, 0x67] + Array("version".utf8) + [0x63] + Array("1.0".utf8) + [0xFF]
        let duplicate: [UInt8] = [0xA2, 0x66] + Array("status".utf8) + [0x00, 0x66] + Array("status".utf8) + [0x00]
        let nonMinimal: [UInt8] = [0xB8, 0x01, 0x66] + Array("status".utf8) + [0x00]
        for (name, bytes) in [
            ("empty", []), ("deep", deep), ("huge byte string", hugeByteString), ("huge array", hugeArray), ("indefinite map", indefinite),
            ("duplicate key", duplicate), ("non-minimal head", nonMinimal), ("trailing bytes", annexD + [0x00]),
            ("truncated", Array(annexD.dropLast())), ("too large", [UInt8](repeating: 0x40, count: (8 << 20) + 1)),
        ] as [(String, [UInt8])] {
            XCTAssertEqual(code(bytes), .invalidCBOR, name)
        }
        // Inside: an indefinite-length item in an IssuerSignedItem is refused at its own decode.
        let indefiniteItem = try withDocument { document in
            var issuerSigned = try XCTUnwrap(member(document, "issuerSigned").mapValue)
            let item: [UInt8] = [0xBF, 0xFF]
            issuerSigned = replacing(
                issuerSigned, "nameSpaces", .map(pairs: [(.text("org.iso.18013.5.1"), .array([.tagged(24, .bytes(item))]))]))
            document = replacing(document, "issuerSigned", .map(issuerSigned))
        }
        XCTAssertEqual(code(indefiniteItem), .invalidCBOR)
    }

    /// Wrong shapes and tags, the response's status and version, document errors reported.
    func testHostileStructure() throws {
        XCTAssertEqual(code(CBOR.encode(.array([]))), .malformedStructure)
        XCTAssertEqual(code(try withMember("status", .unsigned(10))), .responseStatus)
        XCTAssertEqual(code(try withMember("status", .text("0"))), .malformedStructure)
        XCTAssertEqual(code(try withMember("status", nil)), .malformedStructure)
        XCTAssertEqual(code(try withMember("version", .text("2.0"))), .unsupportedVersion)
        XCTAssertEqual(code(try withMember("documents", nil)), .noDocument)
        XCTAssertEqual(code(try withMember("documents", .array([]))), .noDocument)
        XCTAssertEqual(code(try withMember("documents", .map([]))), .malformedStructure)
        XCTAssertEqual(code(try withMember("documents", .array([.unsigned(1)]))), .malformedStructure)

        // Document errors are reported with the documents, never dropped; a member unknown today
        // is ignored (later editions add members).
        let reported = try verify(try withMember("documentErrors", .array([.map(pairs: [(.text("org.example.other"), .unsigned(0))])])))
        XCTAssertEqual(reported.documentErrors, ["org.example.other": 0])
        XCTAssertEqual(try verify(try withMember("futureMember", .text("x"))).documents.count, 1)
        XCTAssertEqual(code(try withMember("documentErrors", .map([]))), .malformedStructure)

        // Element errors of a document, reported.
        let withErrors = try withDocument { document in
            document.append(
                CBORMapEntry(
                    key: .text("errors"),
                    value: .map(pairs: [(.text("org.iso.18013.5.1"), .map(pairs: [(.text("birth_date"), .unsigned(0))]))])))
        }
        XCTAssertEqual(try verify(withErrors).documents[0].elementErrors, ["org.iso.18013.5.1": ["birth_date": 0]])

        // A document without deviceSigned is bound to no session: refused.
        XCTAssertEqual(code(try withDocument { $0 = $0.filter { $0.key != .text("deviceSigned") } }), .malformedStructure)
        // deviceAuth with both, or neither.
        let both = try withDocument { document in
            var deviceSigned = try XCTUnwrap(member(document, "deviceSigned").mapValue)
            var auth = try XCTUnwrap(member(deviceSigned, "deviceAuth").mapValue)
            auth.append(CBORMapEntry(key: .text("deviceSignature"), value: try member(auth, "deviceMac")))
            deviceSigned = replacing(deviceSigned, "deviceAuth", .map(auth))
            document = replacing(document, "deviceSigned", .map(deviceSigned))
        }
        XCTAssertEqual(code(both), .malformedStructure)

        // An item disclosed twice; an item not under tag 24; a namespace the MSO does not list.
        func items(_ change: @escaping ([CBORValue]) -> [CBORValue], nameSpace: String = "org.iso.18013.5.1") throws -> [UInt8] {
            try withDocument { document in
                var issuerSigned = try XCTUnwrap(self.member(document, "issuerSigned").mapValue)
                let nameSpaces = try XCTUnwrap(self.member(issuerSigned, "nameSpaces").mapValue)
                let list = try XCTUnwrap(nameSpaces[0].value.arrayValue)
                issuerSigned = self.replacing(issuerSigned, "nameSpaces", .map(pairs: [(.text(nameSpace), .array(change(list)))]))
                document = self.replacing(document, "issuerSigned", .map(issuerSigned))
            }
        }
        XCTAssertNoThrow(try verify(try items { $0 }))
        XCTAssertEqual(try verify(try items { Array($0.prefix(2)) }).documents[0].issuerSignedElements.count, 2)
        XCTAssertEqual(code(try items { $0 + [$0[0]] }), .duplicateItem)
        XCTAssertEqual(
            code(try items { $0.map { item in if case .tagged(24, let inner) = item { .tagged(25, inner) } else { item } } }),
            .malformedStructure)
        XCTAssertEqual(code(try items({ $0 }, nameSpace: "org.example.unsigned")), .unknownDigestID)
        XCTAssertEqual(code(try items { _ in [] }), .malformedStructure)
    }

    /// A device-signed element the MSO's keyAuthorizations does not allow (Annex D's MSO allows
    /// none), with the deviceMac recomputed so that only the authorization refuses it.
    func testUnauthorizedDeviceSignedElementIsRefused() throws {
        let deviceNameSpaces = CBOR.encode(.map(pairs: [(.text("org.iso.18013.5.1"), .map(pairs: [(.text("family_name"), .text("Roe"))]))]))
        let transcriptBytes = try AnnexDTests.annexD("session-transcript-bytes.cbor")
        guard case .tagged(24, .bytes(let inner)) = try CBOR.decode(transcriptBytes, options: CBORDecodingOptions(allowTags: true)) else {
            return XCTFail("Annex D's transcript is not tag 24")
        }
        let deviceAuthentication = CBOR.encode(
            .tagged(
                24,
                .bytes(
                    CBOR.encode(
                        .array([
                            .text("DeviceAuthentication"), try CBOR.decode(inner, options: CBORDecodingOptions(allowTags: true)),
                            .text("org.iso.18013.5.1.mDL"), .tagged(24, .bytes(deviceNameSpaces)),
                        ])))))
        let static_ = try AnnexDTests.key("static-device-key")
        let deviceKey = try ECDSAPublicKey(x: static_.x, y: static_.y, curve: .p256)
        let macKey = try HKDF<SHA256>.deriveKey(
            inputKeyMaterial: readerKey.sharedSecret(with: deviceKey), salt: SHA256.hash(transcriptBytes), info: Array("EMacKey".utf8),
            outputByteCount: 32)
        let protected = CBOR.encode(.map(pairs: [(.unsigned(1), .unsigned(5))]))
        let tag = HMAC<SHA256>.authenticationCode(
            key: macKey, message: CBOR.encode(.array([.text("MAC0"), .bytes(protected), .bytes([]), .bytes(deviceAuthentication)])))
        let bytes = try withDocument { document in
            let deviceSigned: CBORValue = .map(pairs: [
                (.text("nameSpaces"), .tagged(24, .bytes(deviceNameSpaces))),
                (.text("deviceAuth"), .map(pairs: [(.text("deviceMac"), .array([.bytes(protected), .map([]), .null, .bytes(tag)]))])),
            ])
            document = replacing(document, "deviceSigned", deviceSigned)
        }
        XCTAssertEqual(code(bytes), .unauthorizedDeviceElement)
        // Under acceptUnverifiedDeviceMAC without the reader's key, device-signed elements rest on
        // nothing: refused, not returned.
        let relaxed = MdocVerifier(trustedIACARoots: verifier.trustedIACARoots, relaxations: [.acceptUnverifiedDeviceMAC])
        XCTAssertThrowsError(
            try relaxed.verify(deviceResponse: bytes, sessionTranscript: transcript, readerKey: .notHeld, at: AnnexDTests.january2021)
        ) {
            XCTAssertEqual(($0 as? MdocError)?.code, .deviceMACNotVerifiable)
        }
    }

    /// A deviceMac in a session whose transcript has no EReaderKeyBytes (the web's) cannot have
    /// been made for it: refused even under the relaxation. A reader key that is not the
    /// transcript's EReaderKey is refused before any MAC is computed.
    func testDeviceMacOutsideItsSession() throws {
        let relaxed = MdocVerifier(trustedIACARoots: verifier.trustedIACARoots, relaxations: [.acceptUnverifiedDeviceMAC])
        let web = SessionTranscript.digitalCredentialsAPI(encryptionInfo: "e", origin: "https://example.com")
        XCTAssertFalse(web.hasReaderKey)
        XCTAssertTrue(transcript.hasReaderKey)
        XCTAssertEqual(transcript.readerPublicKey, readerKey.publicKey)
        for key in [MdocVerifier.ReaderKey.notHeld, .privateKey(readerKey)] {
            XCTAssertThrowsError(
                try relaxed.verify(deviceResponse: annexD, sessionTranscript: web, readerKey: key, at: AnnexDTests.january2021)
            ) {
                XCTAssertEqual(($0 as? MdocError)?.code, .invalidDeviceMAC)
            }
        }
        XCTAssertThrowsError(
            try verifier.verify(
                deviceResponse: annexD, sessionTranscript: transcript, readerKey: .privateKey(ECDSAPrivateKey.generate(curve: .p256)),
                at: AnnexDTests.january2021)
        ) { XCTAssertEqual(($0 as? MdocError)?.code, .invalidReaderKey) }
    }

    /// Private keys never print: not through description, debugDescription or dump.
    func testPrivateKeysDoNotPrint() throws {
        let key: ECDSAPrivateKey = readerKey
        let secret = Hex.encode(key.rawRepresentation)
        var dumped = ""
        dump(MdocVerifier.ReaderKey.privateKey(key), to: &dumped)
        for printed in [dumped, "\(key)", String(reflecting: key), "\(MdocVerifier.ReaderKey.privateKey(key))"] {
            XCTAssertFalse(printed.lowercased().contains(secret.lowercased()), printed)
        }
    }

    /// Origins a browser can send, and the rest refused; ReaderAuth without a certificate refused.
    func testRequestOrigins() throws {
        let key = ECDSAPrivateKey.generate(curve: .p256).publicKey
        let documents = [
            DigitalCredentialsRequest.DocumentRequest(
                docType: "org.iso.18013.5.1.mDL", elements: ["org.iso.18013.5.1": ["age_over_18": false]])
        ]
        for origin in ["https://example.com", "https://verifier.example:8443", "http://localhost", "http://localhost:8080"] {
            XCTAssertNoThrow(
                try DigitalCredentialsRequest(
                    documents: documents, origin: origin, recipientKey: key, nonce: Array(repeating: 1, count: 16),
                    readerAuthentication: nil),
                origin)
        }
        for origin in [
            "", "example.com", "http://example.com", "https://", "https://example.com/", "https://example.com/path",
            "http://localhost.evil.example",
            "https://Example.com", "https://example.com:", "https://example.com:123456", "https://exa mple.com",
        ] {
            XCTAssertThrowsError(
                try DigitalCredentialsRequest(
                    documents: documents, origin: origin, recipientKey: key, nonce: Array(repeating: 1, count: 16),
                    readerAuthentication: nil),
                origin
            ) { XCTAssertEqual(($0 as? MdocError)?.code, .invalidRequest, origin) }
        }
        XCTAssertThrowsError(
            try DigitalCredentialsRequest(
                documents: documents, origin: "https://example.com", recipientKey: key, nonce: Array(repeating: 1, count: 16),
                readerAuthentication: .init(privateKey: ECDSAPrivateKey.generate(curve: .p256), certificates: []))
        ) { XCTAssertEqual(($0 as? MdocError)?.code, .invalidRequest) }
        XCTAssertThrowsError(
            try DigitalCredentialsRequest(
                documents: documents, origin: "https://example.com", recipientKey: key, nonce: Array(repeating: 1, count: 15),
                readerAuthentication: nil))
        XCTAssertThrowsError(
            try DigitalCredentialsRequest(
                documents: [], origin: "https://example.com", recipientKey: key, nonce: Array(repeating: 1, count: 16),
                readerAuthentication: nil))
    }

    /// A COSE header bucket with more parameters than any message carries is refused before any
    /// quadratic work.
    func testOversizedHeaderBucket() throws {
        let many = CBORValue.map(pairs: (0..<65).map { (.unsigned(UInt64(100 + $0)), .unsigned(0)) })
        XCTAssertThrowsError(try COSEHeaders(protected: .bytes([]), unprotected: many)) {
            XCTAssertEqual(($0 as? COSEError)?.code, .malformedHeader)
        }
        XCTAssertNoThrow(
            try COSEHeaders(protected: .bytes([]), unprotected: .map(pairs: (0..<64).map { (.unsigned(UInt64(100 + $0)), .unsigned(0)) })))
    }

    /// Random single-byte changes anywhere in Annex D's response: each is refused with an
    /// MdocError (or, where the byte is not covered by anything, still verifies), never a trap.
    func testMutatedResponsesNeverTrap() throws {
        var generator = SplitMix64(seed: 0x6D64_6F63)
        var refused = 0
        for _ in 0..<400 {
            var bytes = annexD
            let position = Int(generator.next() % UInt64(bytes.count))
            bytes[position] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            if code(bytes) != nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 380)
    }

    /// ProximityReader's `ephemeralReaderKey` in every form a key can take: the private forms
    /// check Annex D's deviceMac, the public ones leave it unverifiable, the rest are refused.
    func testEphemeralReaderKeyForms() throws {
        let key = try AnnexDTests.key("ephemeral-reader-key")
        let coseKey: [(CBORValue, CBORValue)] = [
            (.unsigned(1), .unsigned(2)), (.negative(0), .unsigned(1)), (.negative(1), .bytes(key.x)), (.negative(2), .bytes(key.y)),
        ]
        let privateForms: [(String, [UInt8])] = [
            ("raw scalar", key.d), ("x9.63 private", [0x04] + key.x + key.y + key.d), ("PKCS#8 DER", readerKey.pkcs8DER),
            ("SEC 1 DER", readerKey.sec1DER), ("PKCS#8 PEM", Array(readerKey.pkcs8PEM.utf8)),
            ("COSE_Key with d", CBOR.encode(.map(pairs: coseKey + [(.negative(3), .bytes(key.d))]))),
            (
                "EReaderKeyBytes with d",
                CBOR.encode(.tagged(24, .bytes(CBOR.encode(.map(pairs: coseKey + [(.negative(3), .bytes(key.d))])))))
            ),
        ]
        for (name, bytes) in privateForms {
            let readerKey = try MdocVerifier.ReaderKey(ephemeralReaderKey: bytes)
            guard case .privateKey = readerKey else { return XCTFail("\(name) is not read as a private key") }
            let response = try verifier.verify(
                deviceResponse: annexD, sessionTranscript: transcript, readerKey: readerKey, at: AnnexDTests.january2021)
            XCTAssertEqual(response.documents[0].deviceAuthentication, .mac, name)
        }
        let publicForms: [(String, [UInt8])] = [
            ("uncompressed", [0x04] + key.x + key.y), ("compressed", readerKey.publicKey.compressedRepresentation),
            ("SubjectPublicKeyInfo", readerKey.publicKey.spkiDER), ("COSE_Key", CBOR.encode(.map(pairs: coseKey))),
            ("EReaderKeyBytes", CBOR.encode(.tagged(24, .bytes(CBOR.encode(.map(pairs: coseKey)))))),
        ]
        for (name, bytes) in publicForms {
            let readerKey = try MdocVerifier.ReaderKey(ephemeralReaderKey: bytes)
            guard case .publicKeyOnly(let publicKey) = readerKey else { return XCTFail("\(name) is not read as a public key") }
            XCTAssertEqual(publicKey.x, key.x, name)
            XCTAssertThrowsError(
                try verifier.verify(
                    deviceResponse: annexD, sessionTranscript: transcript, readerKey: readerKey, at: AnnexDTests.january2021), name
            ) { XCTAssertEqual(($0 as? MdocError)?.code, .deviceMACNotVerifiable, name) }
        }
        var mismatched = [0x04] + key.x + key.y + key.d
        mismatched[96] ^= 1
        let zero = [UInt8](repeating: 0, count: 32)
        let offCurve = [0x04] + key.x + key.x
        let secret = Hex.encode(key.d)
        for (name, bytes) in [
            ("empty", []), ("31 bytes", Array(key.d.dropLast())), ("zero scalar", zero), ("mismatched x9.63", mismatched),
            ("off the curve", offCurve), ("garbage DER", [0x30, 0x03, 0x02, 0x01, 0x01]), ("text", Array("key".utf8)),
            ("COSE_Key with another d", CBOR.encode(.map(pairs: coseKey + [(.negative(3), .bytes(zero.dropLast() + [1]))]))),
        ] as [(String, [UInt8])] {
            XCTAssertThrowsError(try MdocVerifier.ReaderKey(ephemeralReaderKey: bytes), name) { error in
                XCTAssertEqual((error as? MdocError)?.code, .invalidReaderKey, name)
                XCTAssertFalse("\(error)".lowercased().contains(secret), name)
            }
        }
    }
}

/// A small deterministic generator for the mutation test.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
