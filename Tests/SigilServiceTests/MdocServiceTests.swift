import Foundation
import SigilASN1
import SigilBase
import SigilCBOR
import SigilCore
import SigilService
import SigilTestPKI
import SigilTestSupport
import SigilX509
import XCTest

/// Kind `mdoc` through the one request document, on ISO/IEC 18013-5 Annex D's worked example (a
/// deviceMac document at 2021-01-01), each case from the side of a caller who wants what it must not
/// get: a verdict under its own root, a deviceMac accepted unchecked, a response bound to another
/// session, element values without asking.
final class MdocServiceTests: XCTestCase {
    /// Annex D's time: 2021-01-01T00:00:00Z, inside the MSO's and the chain's validity.
    static let at: Int64 = 1_609_459_200
    /// The service's fixed clock, a few seconds after `at` (no `at` in notEnforced).
    static let now: Int64 = at + 5

    let reporting = VerificationService(requestTrust: .acceptedAndReported, appleRootsDirectory: nil, clock: { MdocServiceTests.now })
    let refusing = VerificationService(requestTrust: .refused, appleRootsDirectory: nil, clock: { MdocServiceTests.now })

    /// Annex D as request members: the DeviceResponse, the transcript, the reader's private key (raw
    /// scalar), and the IACA root in `roots`.
    func annexD() throws -> [String: Any] {
        [
            "kind": "mdoc", "data": Base64.encode(try AnnexD.bytes("device-response.cbor")),
            "sessionTranscript": Base64.encode(try AnnexD.bytes("session-transcript-bytes.cbor")),
            "ephemeralReaderKey": Base64.encode(try AnnexD.key("ephemeral-reader-key").d),
            "roots": [Base64.encode(try AnnexD.bytes("iaca-root.der"))], "at": Self.at,
        ]
    }

    private func ask(_ service: VerificationService, _ members: [String: Any]) throws -> (VerificationAnswer.Status, [String: Any], String)
    {
        let answer = service.verify(json: Array(try JSONSerialization.data(withJSONObject: members)))
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any], answer.json)
        XCTAssertEqual(document["valid"] as? Bool, answer.status == .verified, answer.json)
        return (answer.status, document, answer.json)
    }

    private func code(_ document: [String: Any]) -> String? { (document["error"] as? [String: Any])?["code"] as? String }

    /// The whole example verifies: the deviceMac checked with the reader's key, the chain under the
    /// request's root (named), the elements listed by name and kind, no value.
    func testAnnexDVerifiesWithTheRequestRootNamedAndNoValues() throws {
        let (status, document, json) = try ask(reporting, try annexD())
        XCTAssertEqual(status, .verified, json)
        XCTAssertEqual(document["kind"] as? String, "mdoc")
        XCTAssertNil(document["environment"])
        XCTAssertEqual(document["trust"] as? String, "request-roots")
        XCTAssertEqual(document["notEnforced"] as? [String], ["iacaRoots"])
        let response = try XCTUnwrap(document["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 0)
        let documents = try XCTUnwrap(response["documents"] as? [[String: Any]])
        XCTAssertEqual(documents.count, 1)
        XCTAssertEqual(documents[0]["docType"] as? String, "org.iso.18013.5.1.mDL")
        XCTAssertEqual(documents[0]["deviceAuthentication"] as? String, "deviceMac")
        XCTAssertEqual(documents[0]["deviceAuthenticated"] as? Bool, true)
        XCTAssertEqual((documents[0]["validityInfo"] as? [String: Any])?["signed"] as? String, "2020-10-01T13:30:02Z")
        let elements = try XCTUnwrap(documents[0]["issuerSigned"] as? [[String: Any]])
        XCTAssertEqual(elements.count, 6)
        XCTAssertTrue(elements.allSatisfy { $0["value"] == nil }, "values without asking")
        XCTAssertTrue(elements.contains { $0["identifier"] as? String == "family_name" && $0["kind"] as? String == "text" })
        // No value anywhere in the text: Annex D's family name is "Doe".
        XCTAssertFalse(json.contains("Doe"), json)
    }

    /// Values only when the request asks, typed: text as text, the full-date as its text, the
    /// portrait... as base64 of its bytes.
    func testValuesOnlyWhenAsked() throws {
        var request = try annexD()
        request["values"] = true
        let (status, document, json) = try ask(reporting, request)
        XCTAssertEqual(status, .verified, json)
        let documents = try XCTUnwrap((document["response"] as? [String: Any])?["documents"] as? [[String: Any]])
        let elements = try XCTUnwrap(documents.first?["issuerSigned"] as? [[String: Any]])
        func value(_ identifier: String) -> Any? { elements.first { $0["identifier"] as? String == identifier }?["value"] }
        XCTAssertEqual(value("family_name") as? String, "Doe")
        XCTAssertEqual(value("issue_date") as? String, "2019-10-20")
        XCTAssertNotNil(value("driving_privileges") as? [Any])
    }

    /// Attack: the caller's own IACA root. The reporting door names it (`request-roots`); a door
    /// that takes no trust from requests refuses it (403) before verifying anything; a door with
    /// configured IACA roots accepts request roots only when they are among its own.
    func testRequestRootsAreTrustConfiguration() throws {
        let (status, document, _) = try ask(refusing, try annexD())
        XCTAssertEqual(status, .trustRefused)
        XCTAssertEqual(code(document), "request.trustRefused")

        let root = try Certificate(derEncoded: try AnnexD.bytes("iaca-root.der"))
        let configured = VerificationService(
            mdoc: MdocServiceConfiguration(trustedIACARoots: [root]), requestTrust: .refused, appleRootsDirectory: nil,
            clock: { MdocServiceTests.now })
        var request = try annexD()
        var (configuredStatus, configuredDocument, json) = try ask(configured, request)
        XCTAssertEqual(configuredStatus, .verified, json)
        XCTAssertEqual(configuredDocument["trust"] as? String, "iaca-roots")
        request["roots"] = nil
        (configuredStatus, configuredDocument, json) = try ask(configured, request)
        XCTAssertEqual(configuredStatus, .verified, json)
        XCTAssertEqual(configuredDocument["trust"] as? String, "iaca-roots")
        XCTAssertEqual(configuredDocument["notEnforced"] as? [String], [])

        // A root of the attacker's making beside the configured one: refused as request trust.
        let pki = try AppleShapedTestPKI.generate(notBefore: Self.at - 86_400, notAfter: Self.at + 86_400)
        request["roots"] = [Base64.encode(root.derBytes), Base64.encode(pki.root.derBytes)]
        let (mixedStatus, mixed, _) = try ask(configured, request)
        XCTAssertEqual(mixedStatus, .trustRefused)
        XCTAssertEqual(code(mixed), "request.trustRefused")

        // Under the attacker's root alone, at a door that reports request trust: the chain fails.
        request["roots"] = [Base64.encode(pki.root.derBytes)]
        let (foreignStatus, foreign, _) = try ask(reporting, request)
        XCTAssertEqual(foreignStatus, .refused)
        XCTAssertEqual(code(foreign), "mdoc.untrustedIssuer")
    }

    /// No roots at all, at a door without configured IACA roots (the C ABI, Python): nothing to
    /// trust, answered `service.notConfigured`, never verified under some default.
    func testNoRootsAnywhereIsNotConfigured() throws {
        var request = try annexD()
        request["roots"] = nil
        let (status, document, _) = try ask(reporting, request)
        XCTAssertEqual(status, .notConfigured)
        XCTAssertEqual(code(document), "service.notConfigured")
    }

    /// Attack: a deviceMac with no reader private key (so it cannot be checked: the response may be
    /// a copy from another session). Refused unless the request names the relaxation, and then the
    /// answer says the device did not authenticate this session.
    func testUncheckableDeviceMACIsRefusedUnlessNamed() throws {
        var request = try annexD()
        request["ephemeralReaderKey"] = nil
        var (status, document, _) = try ask(reporting, request)
        XCTAssertEqual(status, .refused)
        XCTAssertEqual(code(document), "mdoc.deviceMACNotVerifiable")

        let key = try AnnexD.key("ephemeral-reader-key")
        request["ephemeralReaderKey"] = Base64.encode([0x04] + key.x + key.y)  // the public key only
        (status, document, _) = try ask(reporting, request)
        XCTAssertEqual(status, .refused)
        XCTAssertEqual(code(document), "mdoc.deviceMACNotVerifiable")

        request["acceptUnverifiedDeviceMAC"] = true
        (status, document, _) = try ask(reporting, request)
        XCTAssertEqual(status, .verified)
        XCTAssertEqual(document["notEnforced"] as? [String], ["iacaRoots", "deviceAuthentication"])
        let documents = try XCTUnwrap((document["response"] as? [String: Any])?["documents"] as? [[String: Any]])
        XCTAssertEqual(documents.first?["deviceAuthentication"] as? String, "deviceMacNotVerified")
        XCTAssertEqual(documents.first?["deviceAuthenticated"] as? Bool, false)
    }

    /// Attack: the response replayed into another session (another transcript), or with another
    /// reader key: the deviceMac does not hold.
    func testAnotherSessionIsRefused() throws {
        var request = try annexD()
        var transcript = try AnnexD.bytes("session-transcript-bytes.cbor")
        transcript[transcript.count - 1] ^= 0x01
        request["sessionTranscript"] = Base64.encode(transcript)
        let (status, document, _) = try ask(reporting, request)
        XCTAssertEqual(status, .refused)
        XCTAssertEqual(code(document), "mdoc.invalidDeviceMAC")

        request = try annexD()
        request["ephemeralReaderKey"] = Base64.encode(try AnnexD.key("ephemeral-device-key").d)
        let (otherStatus, other, _) = try ask(reporting, request)
        XCTAssertEqual(otherStatus, .refused)
        XCTAssertEqual(code(other), "mdoc.invalidReaderKey")
    }

    /// A changed element, and the document a year later: refused with their own codes, and no
    /// value in the message.
    func testTamperingAndTimeAreRefusedWithoutValues() throws {
        var request = try annexD()
        var response = try AnnexD.bytes("device-response.cbor")
        let doe = Array("Doe".utf8)
        let index = try XCTUnwrap((0...(response.count - doe.count)).first { Array(response[$0..<($0 + doe.count)]) == doe })
        response[index] = UInt8(ascii: "R")
        request["data"] = Base64.encode(response)
        let (status, document, json) = try ask(reporting, request)
        XCTAssertEqual(status, .refused)
        XCTAssertEqual(code(document), "mdoc.digestMismatch")
        XCTAssertFalse(json.contains("Roe") || json.contains("Doe"), json)

        request = try annexD()
        request["at"] = Self.at + 366 * 86_400
        let (laterStatus, later, _) = try ask(reporting, request)
        XCTAssertEqual(laterStatus, .refused)
        XCTAssertTrue(["mdoc.documentNotValidAtTime", "mdoc.certificateNotValidAtTime"].contains(code(later) ?? ""), "\(later)")
    }

    /// Members that belong to other kinds are refused on mdoc, mdoc's on every other kind, and the
    /// transcript is required: nothing is ignored.
    func testMembersBelongToTheirKind() throws {
        var request = try annexD()
        request["bundleId"] = "com.example"
        XCTAssertEqual(code(try ask(reporting, request).1), "request.invalidMember")
        request = try annexD()
        request["sessionTranscript"] = nil
        XCTAssertEqual(code(try ask(reporting, request).1), "request.missingMember")
        for member in ["sessionTranscript", "ephemeralReaderKey", "acceptUnverifiedDeviceMAC", "values"] {
            var other: [String: Any] = ["kind": "transaction", "data": "x.y.z"]
            other[member] = member.hasPrefix("accept") || member == "values" ? true as Any : "AAAA" as Any
            XCTAssertEqual(code(try ask(reporting, other).1), "request.invalidMember", member)
        }
        // data that is not base64 is data the verifier refuses (422), as for receipts; base64
        // wrapped over lines, as `base64` prints it, is read.
        request = try annexD()
        request["data"] = "not base64!"
        XCTAssertEqual(code(try ask(reporting, request).1), "mdoc.invalidCBOR")
        let text = Base64.encode(try AnnexD.bytes("device-response.cbor"))
        var wrapped = ""
        for (index, character) in text.enumerated() {
            if index > 0 && index % 76 == 0 { wrapped += "\n" }
            wrapped.append(character)
        }
        request["data"] = wrapped + "\n"
        XCTAssertEqual(try ask(reporting, request).0, .verified)
    }

    /// The relaxation is listed only when it was used: named with the reader's private key at
    /// hand, the deviceMac is checked and nothing but the request's roots is listed.
    func testAnUnusedRelaxationIsNotListed() throws {
        var request = try annexD()
        request["acceptUnverifiedDeviceMAC"] = true
        let (status, document, json) = try ask(reporting, request)
        XCTAssertEqual(status, .verified, json)
        XCTAssertEqual(document["notEnforced"] as? [String], ["iacaRoots"])
        let documents = try XCTUnwrap((document["response"] as? [String: Any])?["documents"] as? [[String: Any]])
        XCTAssertEqual(documents.first?["deviceAuthentication"] as? String, "deviceMac")
    }

    /// A door that takes no trust from requests refuses a foreign root before it reads the data:
    /// garbage data with a foreign root is 403, not a CBOR error that would tell the sender more.
    func testTrustIsRefusedBeforeTheDataIsRead() throws {
        let pki = try AppleShapedTestPKI.generate(notBefore: Self.at - 86_400, notAfter: Self.at + 86_400)
        var request = try annexD()
        request["roots"] = [Base64.encode(pki.root.derBytes)]
        request["data"] = Base64.encode([0xFF, 0xFF])
        let (status, document, _) = try ask(refusing, request)
        XCTAssertEqual(status, .trustRefused)
        XCTAssertEqual(code(document), "request.trustRefused")
    }

    /// A request never prints its values: the reader's private key and the response stay out of
    /// its description, debug description and dump.
    func testARequestPrintsNoValue() throws {
        let members = try annexD()
        let request = try VerificationRequest(json: Array(try JSONSerialization.data(withJSONObject: members)))
        var dumped = ""
        dump(request, to: &dumped)
        let secret = Hex.encode(try AnnexD.key("ephemeral-reader-key").d).lowercased()
        for printed in [dumped, "\(request)", String(reflecting: request)] {
            XCTAssertFalse(printed.lowercased().contains(secret), printed)
            XCTAssertFalse(printed.contains(members["ephemeralReaderKey"] as? String ?? "-"), printed)
            XCTAssertFalse(printed.contains(String((members["data"] as? String ?? "-").prefix(40))), printed)
            XCTAssertTrue(printed.contains("ephemeralReaderKey"), printed)
        }
    }

    /// Hostile bytes in every mdoc member: typed refusals, never a trap.
    func testHostileBytesAreTypedRefusals() throws {
        let base = try annexD()
        let garbage: [[UInt8]] = [[], [0xFF], [0x9F], [0xBF, 0x61, 0x61], Array(repeating: 0x81, count: 5000), [0xD8, 0x18, 0x41, 0x00]]
        for bytes in garbage {
            for member in ["data", "sessionTranscript", "ephemeralReaderKey"] {
                var request = base
                request[member] = Base64.encode(bytes)
                let (status, document, json) = try ask(reporting, request)
                XCTAssertNotEqual(status, .verified, json)
                let found = code(document) ?? ""
                XCTAssertTrue(found.hasPrefix("mdoc.") || found.hasPrefix("request."), json)
            }
        }
    }

    /// Annex D's response with its one document given `count` times.
    private func annexD(documents count: Int) throws -> [String: Any] {
        let bytes = try AnnexD.bytes("device-response.cbor")
        let entries = try XCTUnwrap(CBOR.decode(bytes, options: CBORDecodingOptions(allowTags: true)).mapValue)
        let documents = try XCTUnwrap(entries.first { $0.key == .text("documents") }?.value.arrayValue)
        let repeated =
            entries.filter { $0.key != .text("documents") }
            + [CBORMapEntry(key: .text("documents"), value: .array(Array(repeating: documents[0], count: count)))]
        var request = try annexD()
        request["data"] = Base64.encode(CBOR.encode(.map(repeated)))
        return request
    }

    /// A response of many documents costs a signature check and a chain each: the door reads 16
    /// and refuses the 17th with the verifier's typed error, never a partial answer.
    func testMoreThanSixteenDocumentsAreRefusedWhole() throws {
        let (sixteen, accepted, acceptedJSON) = try ask(reporting, try annexD(documents: 16))
        XCTAssertEqual(sixteen, .verified, acceptedJSON)
        XCTAssertEqual(((accepted["response"] as? [String: Any])?["documents"] as? [[String: Any]])?.count, 16)
        let (seventeen, refused, refusedJSON) = try ask(reporting, try annexD(documents: 17))
        XCTAssertEqual(seventeen, .refused, refusedJSON)
        XCTAssertEqual(code(refused), "mdoc.malformedStructure", refusedJSON)
        XCTAssertTrue(refusedJSON.contains("17 documents"), refusedJSON)
        XCTAssertNil(refused["response"], "no partial answer")
        XCTAssertFalse(refusedJSON.contains("Doe"), refusedJSON)
    }

    /// A request at the door's size bound is read and refused by what it holds; one byte more is
    /// refused before it is parsed, with the request's own code.
    func testARequestAtTheSizeBoundIsTypedAndOneByteMoreIsTooLarge() throws {
        var request = try annexD()
        request["data"] = ""
        let empty = try JSONSerialization.data(withJSONObject: request).count
        // Base64 of zero bytes, sized so the request is exactly the bound: 4 characters per 3 bytes.
        let room = VerificationRequest.maximumBytes - empty
        request["data"] = Base64.encode([UInt8](repeating: 0, count: room / 4 * 3)) + String(repeating: " ", count: room % 4)
        let atBound = try JSONSerialization.data(withJSONObject: request)
        XCTAssertEqual(atBound.count, VerificationRequest.maximumBytes)
        let answer = reporting.verify(json: Array(atBound))
        XCTAssertEqual(answer.status, .refused, String(answer.json.prefix(300)))
        XCTAssertTrue(answer.json.contains("\"code\":\"mdoc."), String(answer.json.prefix(300)))
        XCTAssertLessThan(answer.json.utf8.count, 4096, "the refusal does not echo the request")

        let over = Array(atBound) + [0x20]
        let refused = reporting.verify(json: over)
        XCTAssertEqual(refused.status, .tooLarge, refused.json)
        XCTAssertTrue(refused.json.contains("\"code\":\"request.tooLarge\""), refused.json)
    }
}
