import Foundation
import SigilApplePay
import SigilCore
import SigilKeys
import SigilTestSupport
import SigilX509
import XCTest

/// Issue 46, from the attacker's side: Apple signs `ephemeralPublicKey ‖ data ‖ transactionId ‖
/// applicationData` (or `wrappedKey ‖ …`) with no lengths, so bytes moved between the fields keep
/// Apple's signature valid, and each variant would carry a new `transactionId`. For every real
/// token of the Apple Pay vectors (the four decryptable sets and the three signature-only files),
/// every re-framing the length rules catch is refused at decoding with its own code, and the one
/// they cannot catch (32 bytes moved between the end of `data` and the header, which adds
/// `applicationData`) still verifies, fails the GCM tag, and keeps the original's replay key.
final class ReframingTests: XCTestCase {
    /// Every real token: folder/file, and whether its merchant key is published.
    static let tokens: [(path: String, folder: String?)] = [
        ("spreedly-gala/token.json", "spreedly-gala"), ("spreedly-gala-2014/token.json", "spreedly-gala-2014"),
        ("payu-sandbox/token.json", "payu-sandbox"), ("sepuka-sandbox/token.json", "sepuka-sandbox"),
        ("signature-only/processout-rsa_v1-2017.json", nil), ("signature-only/processout-ec_v1-2017.json", nil),
        ("signature-only/evervault-ec_v1-2025.json", nil),
    ]

    /// The signed fields of a token, as bytes.
    struct Fields {
        var key: [UInt8]
        var data: [UInt8]
        var transactionId: [UInt8]
        var applicationData: [UInt8]?
        var signedContent: [UInt8] { key + data + transactionId + (applicationData ?? []) }
    }

    private func directory() throws -> URL { try TestPaths.requireApplePayVectors() }

    private func json(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory().appendingPathComponent(path)))
    }

    private func signingTime(_ path: String) throws -> Int64 {
        let expected = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory().appendingPathComponent("expected.json"))) as? [String: Any])
        let parts = path.split(separator: "/").map(String.init)
        let entry =
            parts[0] == "signature-only"
            ? (expected["signature-only"] as? [String: Any])?[parts[1]] as? [String: Any] : expected[parts[0]] as? [String: Any]
        let text = try XCTUnwrap(entry?["signingTime"] as? String, path)
        return Int64(try XCTUnwrap(ISO8601DateFormatter().date(from: text)).timeIntervalSince1970)
    }

    /// The token's fields as the JSON holds them (before any length rule).
    private func fields(_ json: [UInt8]) throws -> (Fields, keyMember: String) {
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let token = root["paymentData"] as? [String: Any] ?? root
        let header = try XCTUnwrap(token["header"] as? [String: Any])
        let keyMember = header["ephemeralPublicKey"] != nil ? "ephemeralPublicKey" : "wrappedKey"
        func base64(_ value: Any?) throws -> [UInt8] { Array(try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(value as? String)))) }
        let fields = Fields(
            key: try base64(header[keyMember]), data: try base64(token["data"]),
            transactionId: try XCTUnwrap(Hex.decode(try XCTUnwrap(header["transactionId"] as? String))),
            applicationData: try (header["applicationData"] as? String).map { try XCTUnwrap(Hex.decode($0)) })
        return (fields, keyMember)
    }

    /// `json` with its signed fields replaced by `fields` (hex lowercase, base64 standard; the
    /// signature and publicKeyHash untouched).
    private func reframed(_ json: [UInt8], _ change: (inout Fields) -> Void) throws -> [UInt8] {
        var (fields, keyMember) = try fields(json)
        change(&fields)
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        var token = root["paymentData"] as? [String: Any] ?? root
        var header = try XCTUnwrap(token["header"] as? [String: Any])
        header[keyMember] = Data(fields.key).base64EncodedString()
        header["transactionId"] = Hex.encode(fields.transactionId)
        header["applicationData"] = fields.applicationData.map { Hex.encode($0) }
        token["header"] = header
        token["data"] = Data(fields.data).base64EncodedString()
        if root["paymentData"] != nil { root["paymentData"] = token } else { root = token }
        return Array(try JSONSerialization.data(withJSONObject: root))
    }

    private func merchantKey(_ folder: String) throws -> MerchantKey {
        let url = try directory().appendingPathComponent(folder)
        let key = Array(try Data(contentsOf: url.appendingPathComponent("merchant_key.pem")))
        if let certificate = try? Data(contentsOf: url.appendingPathComponent("merchant_cert.pem")) {
            return try MerchantKey(privateKey: key, certificate: try XCTUnwrap(Certificate.load(Array(certificate)).first))
        }
        let identifier = String(decoding: try Data(contentsOf: url.appendingPathComponent("merchant_id.txt")), as: UTF8.self)
        return try MerchantKey(privateKey: key, merchantIdentifier: identifier)
    }

    private func assertRefused(
        _ json: [UInt8], _ code: ApplePayError.Code, _ attack: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try PaymentToken(json: json), attack, file: file, line: line) {
            XCTAssertEqual(($0 as? ApplePayError)?.code, code, "\(attack): \($0)", file: file, line: line)
            XCTAssertEqual(($0 as? ApplePayError)?.step, "decode", attack, file: file, line: line)
        }
    }

    func testEveryRealTokenHasA32ByteTransactionIdAndNoApplicationData() throws {
        // The list above is every real token the vectors hold: a token added there without a
        // row here fails, so no real token escapes the re-framing tests.
        let root = try directory()
        var onDisk: Set<String> = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            if entry == "signature-only" {
                for file in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(entry).path)
                where file.hasSuffix(".json") {
                    onDisk.insert(entry + "/" + file)
                }
            } else if FileManager.default.fileExists(atPath: root.appendingPathComponent(entry + "/token.json").path) {
                onDisk.insert(entry + "/token.json")
            }
        }
        XCTAssertEqual(onDisk, Set(Self.tokens.map(\.path)), "every real token of the Apple Pay vectors has a row")
        for (path, _) in Self.tokens {
            let token = try PaymentToken(json: json(path))
            XCTAssertEqual(token.transactionId.count, 32, path)
            XCTAssertNil(token.applicationData, path)
            XCTAssertEqual(token.replayKey, Hex.encode(SHA256.hash(token.signedContent)), path)
            XCTAssertEqual(token.replayKey.count, 64, path)
        }
    }

    /// Attack: move k = 1…32 bytes from the end of transactionId into applicationData (the signed
    /// content is unchanged; each variant a new, shorter transactionId). Refused:
    /// applepay.invalidTransactionId.
    func testBytesMovedFromTransactionIdIntoApplicationDataAreRefused() throws {
        for (path, _) in Self.tokens {
            let original = try json(path)
            let signed = try fields(original).0.signedContent
            for k in 1...32 {
                let variant = try reframed(original) { f in
                    f.applicationData = Array(f.transactionId.suffix(k))
                    f.transactionId.removeLast(k)
                }
                XCTAssertEqual(try fields(variant).0.signedContent, signed, "\(path) k=\(k): the signed content is unchanged")
                assertRefused(variant, .invalidTransactionId, "\(path): \(k) byte(s) of transactionId moved to applicationData")
            }
        }
    }

    /// Attack: shorten or lengthen transactionId alone (empty, 1, 4, 31 bytes; 33 bytes taken from
    /// the end of data). Refused: applepay.invalidTransactionId.
    func testTransactionIdsOfOtherLengthsAreRefused() throws {
        for (path, _) in Self.tokens {
            let original = try json(path)
            for length in [0, 1, 4, 31] {
                let variant = try reframed(original) { $0.transactionId = Array($0.transactionId.prefix(length)) }
                assertRefused(variant, .invalidTransactionId, "\(path): a \(length)-byte transactionId")
            }
            let longer = try reframed(original) { f in
                f.transactionId = [f.data.removeLast()] + f.transactionId
            }
            assertRefused(longer, .invalidTransactionId, "\(path): a 33-byte transactionId, its first byte from data's end")
        }
    }

    /// Attack: after moving data's last 32 bytes into the header, move k bytes from
    /// applicationData back to transactionId (transactionId 32 + k bytes), or frame
    /// applicationData at 32 ± k bytes around a 32-byte transactionId, or send an empty one.
    /// Refused: applepay.invalidTransactionId or applepay.invalidApplicationData.
    func testApplicationDataReframingsAreRefused() throws {
        for (path, _) in Self.tokens {
            let original = try json(path)
            let signed = try fields(original).0.signedContent
            for k in 1...32 {
                let exact = try reframed(original) { f in
                    let tail = Array(f.data.suffix(32))
                    f.data.removeLast(32)
                    let id = f.transactionId
                    f.transactionId = tail + id.prefix(k)
                    f.applicationData = Array(id.dropFirst(k))
                }
                XCTAssertEqual(try fields(exact).0.signedContent, signed, "\(path) k=\(k)")
                assertRefused(exact, .invalidTransactionId, "\(path): \(k) byte(s) of applicationData moved back to transactionId")
                if k < 32 {
                    let shortApplicationData = try reframed(original) { f in
                        let tail = Array(f.data.suffix(32 - k))
                        f.data.removeLast(32 - k)
                        let id = f.transactionId
                        f.transactionId = tail + id.prefix(k)
                        f.applicationData = Array(id.dropFirst(k))
                    }
                    XCTAssertEqual(try fields(shortApplicationData).0.signedContent, signed, "\(path) k=\(k)")
                    assertRefused(
                        shortApplicationData, .invalidApplicationData, "\(path): a \(32 - k)-byte applicationData behind a 32-byte id")
                }
                let longApplicationData = try reframed(original) { f in
                    let tail = Array(f.data.suffix(32 + k))
                    f.data.removeLast(32 + k)
                    f.applicationData = Array(tail.suffix(k)) + f.transactionId
                    f.transactionId = Array(tail.prefix(32))
                }
                XCTAssertEqual(try fields(longApplicationData).0.signedContent, signed, "\(path) k=\(k)")
                assertRefused(
                    longApplicationData, .invalidApplicationData, "\(path): a \(32 + k)-byte applicationData behind a 32-byte id")
            }
            let empty = try reframed(original) { $0.applicationData = [] }
            assertRefused(empty, .invalidApplicationData, "\(path): an empty applicationData")
        }
    }

    /// Attack: move bytes between the ephemeral public key and data (EC_v1). The key is one DER
    /// SubjectPublicKeyInfo, so a byte too many or too few is refused:
    /// applepay.invalidEphemeralPublicKey. So is a P-384 key, and an empty one.
    func testBytesMovedBetweenTheEphemeralKeyAndDataAreRefused() throws {
        let p384 = ECDSAPrivateKey.generate(curve: .p384).publicKey.spkiDER
        var checked = 0
        for (path, _) in Self.tokens {
            let original = try json(path)
            guard try fields(original).keyMember == "ephemeralPublicKey" else { continue }
            checked += 1
            for k in [1, 2, 16, 32] {
                let longer = try reframed(original) { f in
                    f.key += f.data.prefix(k)
                    f.data.removeFirst(k)
                }
                assertRefused(longer, .invalidEphemeralPublicKey, "\(path): \(k) byte(s) of data moved into ephemeralPublicKey")
                let shorter = try reframed(original) { f in
                    f.data = f.key.suffix(k) + f.data
                    f.key.removeLast(k)
                }
                assertRefused(shorter, .invalidEphemeralPublicKey, "\(path): \(k) byte(s) of ephemeralPublicKey moved into data")
            }
            assertRefused(try reframed(original) { $0.key = p384 }, .invalidEphemeralPublicKey, "\(path): a P-384 ephemeral key")
            assertRefused(try reframed(original) { $0.key = [] }, .invalidEphemeralPublicKey, "\(path): an empty ephemeral key")
        }
        XCTAssertEqual(checked, 6, "six EC_v1 tokens")
    }

    /// Attack: move data's last 32 bytes into transactionId and the old transactionId into
    /// applicationData — both 32 bytes, so the length rules pass and Apple's signature still
    /// verifies. The replay key is the original's (a replay store refuses it as the same token),
    /// and decryption refuses it: applepay.tagMismatch (the tag is data's last 16 bytes). The
    /// way back — a token with applicationData whose 32 bytes return to data's end — likewise.
    func testThirtyTwoBytesMovedBetweenDataAndTheHeaderKeepTheReplayKeyAndFailTheTag() throws {
        for (path, folder) in Self.tokens {
            let original = try json(path)
            let token = try PaymentToken(json: original)
            let moved = try PaymentToken(
                json: reframed(original) { f in
                    let tail = Array(f.data.suffix(32))
                    f.data.removeLast(32)
                    f.applicationData = f.transactionId
                    f.transactionId = tail
                })
            XCTAssertNotEqual(moved.transactionId, token.transactionId, path)
            XCTAssertEqual(moved.signedContent, token.signedContent, path)
            XCTAssertEqual(moved.replayKey, token.replayKey, "\(path): the replay key does not move with the bytes")
            let time = try signingTime(path)
            XCTAssertEqual(try PaymentTokenVerifier().verify(moved, at: time).signingTime, time, "\(path): Apple's signature still holds")
            // The way back, from the re-framed token: the original again, same key.
            let back = try PaymentToken(
                json: reframed(
                    reframed(original) { f in
                        let tail = Array(f.data.suffix(32))
                        f.data.removeLast(32)
                        f.applicationData = f.transactionId
                        f.transactionId = tail
                    }
                ) { f in
                    f.data += f.transactionId
                    f.transactionId = f.applicationData ?? []
                    f.applicationData = nil
                })
            XCTAssertEqual(back, token, path)
            guard let folder else { continue }
            let decryptor = PaymentTokenDecryptor(merchantKeys: [try merchantKey(folder)])
            XCTAssertNoThrow(try decryptor.decrypt(token), path)
            XCTAssertThrowsError(try decryptor.decrypt(moved), "\(path): 32 bytes of data moved into the header") {
                XCTAssertEqual(($0 as? ApplePayError)?.code, .tagMismatch, "\(path): \($0)")
            }
        }
    }

    /// Hex that is not 64 digits of 32 bytes: empty text, odd digits, a non-hex character.
    func testTransactionIdTextThatIsNotHexIsRefused() throws {
        let original = try json("spreedly-gala/token.json")
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(original)) as? [String: Any])
        var header = try XCTUnwrap(root["header"] as? [String: Any])
        let id = try XCTUnwrap(header["transactionId"] as? String)
        for (text, code) in [
            ("", ApplePayError.Code.invalidTransactionId), (String(id.dropLast()), .malformedToken),
            (String(id.dropLast()) + "g", .malformedToken), (id + "00", .invalidTransactionId),
        ] {
            header["transactionId"] = text
            root["header"] = header
            assertRefused(Array(try JSONSerialization.data(withJSONObject: root)), code, "transactionId \"\(text)\"")
        }
    }
}
