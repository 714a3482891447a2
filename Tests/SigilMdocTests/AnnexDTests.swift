import Foundation
import SigilCBOR
import SigilCOSE
import SigilCore
import SigilMdoc
import SigilTestSupport
import SigilX509
import XCTest

/// ISO/IEC 18013-5 Annex D's worked example end to end: the DeviceResponse of one mDL with six
/// disclosed elements, authenticated by a deviceMac, under the "utopia" IACA root.
final class AnnexDTests: XCTestCase {
    static func annexD(_ name: String) throws -> [UInt8] { try AnnexD.bytes(name) }

    static func key(_ name: String) throws -> (x: [UInt8], y: [UInt8], d: [UInt8]) { try AnnexD.key(name) }

    static let january2021: Int64 = 1_609_459_200  // 2021-01-01T00:00:00Z
    static let january2022: Int64 = 1_640_995_200  // 2022-01-01T00:00:00Z

    private func verifier() throws -> MdocVerifier {
        MdocVerifier(trustedIACARoots: [try Certificate(derEncoded: Self.annexD("iaca-root.der"))])
    }

    private func readerKey() throws -> MdocVerifier.ReaderKey {
        .privateKey(try ECDSAPrivateKey(rawRepresentation: Self.key("ephemeral-reader-key").d, curve: .p256))
    }

    private func transcript() throws -> SessionTranscript { try SessionTranscript(bytes: Self.annexD("session-transcript-bytes.cbor")) }

    private func code(_ body: () throws -> Void) -> MdocError.Code? { mdocError(body)?.code }

    /// IssuerAuth, the chain to the IACA root at the MSO's signed time and at 2021-01-01, all six
    /// digests and the deviceMac: every element comes out typed.
    func testAnnexDVerifiesEndToEnd() throws {
        let trace = VerificationTrace()
        let response = try verifier().verify(
            deviceResponse: Self.annexD("device-response.cbor"), sessionTranscript: transcript(), readerKey: readerKey(),
            at: Self.january2021, trace: trace)
        XCTAssertEqual(response.version, "1.0")
        XCTAssertEqual(response.status, 0)
        XCTAssertEqual(response.documents.count, 1)
        let document = response.documents[0]
        XCTAssertEqual(document.docType, "org.iso.18013.5.1.mDL")
        XCTAssertEqual(document.deviceAuthentication, .mac)
        XCTAssertEqual(document.issuerSignedElements.count, 6)
        XCTAssertEqual(document.deviceSignedElements.count, 0)
        XCTAssertEqual(document.issuerChain.count, 2)
        XCTAssertEqual(document.issuerChain.last?.derBytes, try Self.annexD("iaca-root.der"))
        XCTAssertEqual(document.mobileSecurityObject.digestAlgorithm, .sha256)
        XCTAssertEqual(document.mobileSecurityObject.validityInfo.signed.text, "2020-10-01T13:30:02Z")
        XCTAssertEqual(document.mobileSecurityObject.validityInfo.validUntil.text, "2021-10-01T13:30:02Z")
        XCTAssertEqual(
            Set(document.issuerSignedElements.map { $0.identifier }),
            ["family_name", "issue_date", "expiry_date", "document_number", "portrait", "driving_privileges"])
        XCTAssertEqual(document.element("family_name")?.text, "Doe")
        XCTAssertEqual(document.element("document_number")?.text, "123456789")
        XCTAssertEqual(document.element("issue_date")?.fullDate?.description, "2019-10-20")
        XCTAssertEqual(document.element("expiry_date")?.fullDate?.description, "2024-10-20")
        let portrait = try XCTUnwrap(document.element("portrait")?.bytes)
        XCTAssertEqual(Array(portrait.prefix(2)), [0xFF, 0xD8], "the portrait is a JPEG")
        let privileges = try XCTUnwrap(document.element("driving_privileges")?.array)
        XCTAssertEqual(privileges.count, 2)
        XCTAssertEqual(privileges[0]["vehicle_category_code"]?.text, "A")
        XCTAssertEqual(privileges[0]["issue_date"]?.fullDate?.description, "2018-08-09")
        XCTAssertEqual(privileges[1]["vehicle_category_code"]?.text, "B")

        // No value reaches the trace, a printed element or a dumped document.
        let explained = trace.steps.map { "\($0)" }.joined(separator: "\n")
        XCTAssertFalse(explained.isEmpty)
        var dumped = ""
        dump(document, to: &dumped)
        for printed in [explained, "\(document)", dumped, "\(document.issuerSignedElements)"] {
            XCTAssertFalse(printed.contains("Doe"), printed)
            XCTAssertFalse(printed.contains("123456789"), printed)
            XCTAssertFalse(printed.contains("2019-10-20"), printed)
        }
        XCTAssertEqual(document.element("family_name")?.description, "text")
        XCTAssertEqual(document.element("portrait")?.description, "byte string")
        XCTAssertEqual(document.element("family_name")?.disclosedDescription, "\"Doe\"")
    }

    /// At 2022-01-01 the document signer and the MSO have expired: refused, typed (the MSO's
    /// window is checked first). Between the two ends — 2021-10-01 06:00, after the certificate's
    /// notAfter (00:00) and before the MSO's validUntil (13:30:02) — the certificate refuses, with
    /// the certificate verifier's typed failure.
    func testAnnexDIsRefusedAfterItExpired() throws {
        XCTAssertEqual(
            code {
                _ = try self.verifier().verify(
                    deviceResponse: Self.annexD("device-response.cbor"), sessionTranscript: self.transcript(), readerKey: self.readerKey(),
                    at: Self.january2022)
            }, .documentNotValidAtTime)
        let expired = try XCTUnwrap(
            mdocError {
                _ = try self.verifier().verify(
                    deviceResponse: Self.annexD("device-response.cbor"), sessionTranscript: self.transcript(), readerKey: self.readerKey(),
                    at: 1_633_068_000)  // 2021-10-01T06:00:00Z
            })
        XCTAssertEqual(expired.code, .certificateNotValidAtTime)
        XCTAssertTrue(expired.failures.contains { if case .expired = $0 { true } else { false } }, "\(expired.failures)")
        // The MSO's own window: one second before validFrom, the certificates are already valid
        // (notBefore 2020-10-01T00:00:00Z) and the MSO is not.
        XCTAssertEqual(
            code {
                _ = try self.verifier().verify(
                    deviceResponse: Self.annexD("device-response.cbor"), sessionTranscript: self.transcript(), readerKey: self.readerKey(),
                    at: 1_601_559_001)  // 2020-10-01T13:30:01Z: the certificate is valid, the MSO not yet
            }, .documentNotValidAtTime)
    }

    /// One element's value changed (its digest no longer matches), another session transcript
    /// (the deviceMac no longer verifies), another IACA root: each refused with its code.
    func testAnnexDTamperingIsRefused() throws {
        let bytes = try Self.annexD("device-response.cbor")
        // "Doe" is family_name's value; change one letter inside its IssuerSignedItemBytes.
        let doe = Array("cDoe".utf8)  // text head (0x63) and the three letters
        let at = try XCTUnwrap((0...(bytes.count - doe.count)).first { Array(bytes[$0..<($0 + doe.count)]) == doe })
        var changed = bytes
        changed[at + 1] = UInt8(ascii: "R")
        XCTAssertEqual(
            code {
                _ = try self.verifier().verify(
                    deviceResponse: changed, sessionTranscript: self.transcript(), readerKey: self.readerKey(), at: Self.january2021)
            }, .digestMismatch)

        // Another transcript: the same array with one byte of the handover changed.
        var otherTranscript = try transcript().bytes
        otherTranscript[otherTranscript.count - 1] ^= 1
        XCTAssertEqual(
            code {
                _ = try self.verifier().verify(
                    deviceResponse: bytes, sessionTranscript: try SessionTranscript(bytes: otherTranscript), readerKey: self.readerKey(),
                    at: Self.january2021)
            }, .invalidDeviceMAC)
        // Another reader key: not the session's (the transcript holds EReaderKeyBytes).
        XCTAssertEqual(
            code {
                _ = try self.verifier().verify(
                    deviceResponse: bytes, sessionTranscript: self.transcript(),
                    readerKey: .privateKey(ECDSAPrivateKey.generate(curve: .p256)), at: Self.january2021)
            }, .invalidReaderKey)

        // Another IACA root (the reader root of Annex D, a real certificate of another PKI).
        let otherRoot = try Certificate(derEncoded: Self.annexD("reader-root.der"))
        let untrusted = try XCTUnwrap(
            mdocError {
                _ = try MdocVerifier(trustedIACARoots: [otherRoot]).verify(
                    deviceResponse: bytes, sessionTranscript: self.transcript(), readerKey: self.readerKey(), at: Self.january2021)
            })
        XCTAssertEqual(untrusted.code, .untrustedIssuer)
        XCTAssertFalse(untrusted.failures.isEmpty)
        // No root at all.
        XCTAssertEqual(
            code {
                _ = try MdocVerifier(trustedIACARoots: []).verify(
                    deviceResponse: bytes, sessionTranscript: self.transcript(), readerKey: self.readerKey(), at: Self.january2021)
            }, .untrustedIssuer)
    }

    /// A deviceMac with no reader private key: refused by default; accepted only under the named
    /// relaxation, and then reported as not verified.
    func testAnUncheckableDeviceMacIsRefusedUnlessNamed() throws {
        let bytes = try Self.annexD("device-response.cbor")
        let reader = try Self.key("ephemeral-reader-key")
        let publicKey = try ECDSAPublicKey(x: reader.x, y: reader.y, curve: .p256)
        for key in [MdocVerifier.ReaderKey.notHeld, .publicKeyOnly(publicKey)] {
            XCTAssertEqual(
                code {
                    _ = try self.verifier().verify(
                        deviceResponse: bytes, sessionTranscript: self.transcript(), readerKey: key, at: Self.january2021)
                },
                .deviceMACNotVerifiable)
        }
        let relaxed = MdocVerifier(
            trustedIACARoots: [try Certificate(derEncoded: Self.annexD("iaca-root.der"))], relaxations: [.acceptUnverifiedDeviceMAC])
        let response = try relaxed.verify(deviceResponse: bytes, sessionTranscript: transcript(), readerKey: .notHeld, at: Self.january2021)
        XCTAssertEqual(response.documents[0].deviceAuthentication, .macNotVerified)
        XCTAssertFalse(response.documents[0].deviceAuthentication.isVerified)
    }

    /// The transcript is read in both forms: SessionTranscriptBytes (tag 24, Annex D's file) and
    /// the plain array inside it; anything else is refused.
    func testSessionTranscriptForms() throws {
        let tagged = try Self.annexD("session-transcript-bytes.cbor")
        let transcript = try SessionTranscript(bytes: tagged)
        XCTAssertEqual(transcript.taggedBytes, tagged)
        XCTAssertEqual(try SessionTranscript(bytes: transcript.bytes), transcript)
        for bad: [UInt8] in [[], [0x80], [0x82, 0xF6, 0xF6], [0xD8, 0x18, 0x41, 0x80], [0xA0], [0xD8, 0x18, 0x43, 0x83, 0xF6, 0xF6]] {
            XCTAssertEqual(code { _ = try SessionTranscript(bytes: bad) }, .invalidSessionTranscript, "\(bad)")
        }
    }
}

/// The MdocError `body` throws; nil when it throws nothing (or another error, which fails the test).
func mdocError(_ body: () throws -> Void) -> MdocError? {
    do {
        try body()
        return nil
    } catch {
        guard let mdoc = error as? MdocError else {
            XCTFail("not an MdocError: \(error)")
            return nil
        }
        return mdoc
    }
}
