import Foundation
import SigilCipher
import SigilCore
import SigilTestSupport
import XCTest

/// HPKE against RFC 9180's test vectors for DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and
/// AES-128-GCM (Appendix A.3: A.3.1 base, A.3.2 PSK, A.3.3 Auth, A.3.4 AuthPSK; the CFRG JSON the
/// appendix prints from, every one of the 257 encryptions and the exports), and what a hostile
/// sender can hand the recipient.
final class HPKETests: XCTestCase {
    private struct Vector {
        let mode: Int
        let fields: [String: Any]

        func bytes(_ key: String) -> [UInt8] { Hex.decode(fields[key] as? String ?? "") ?? [] }
        var encryptions: [[String: String]] { fields["encryptions"] as? [[String: String]] ?? [] }
        var exports: [[String: Any]] { fields["exports"] as? [[String: Any]] ?? [] }
    }

    private func vectors() throws -> [Vector] {
        let data = try Data(contentsOf: TestPaths.vectors("hpke/dhkem-p256-hkdf-sha256-aes128gcm.json"))
        let records = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return records.map { Vector(mode: $0["mode"] as? Int ?? -1, fields: $0) }
    }

    private func preSharedKey(_ vector: Vector) throws -> HPKE.PreSharedKey {
        try HPKE.PreSharedKey(key: vector.bytes("psk"), identifier: vector.bytes("psk_id"))
    }

    private func recipientMode(_ vector: Vector) throws -> HPKE.RecipientMode {
        switch vector.mode {
        case 0: return .base
        case 1: return .psk(try preSharedKey(vector))
        case 2: return .auth(sender: try ECDSAPublicKey(sec1Representation: vector.bytes("pkSm"), curve: .p256))
        default:
            return .authPSK(sender: try ECDSAPublicKey(sec1Representation: vector.bytes("pkSm"), curve: .p256), try preSharedKey(vector))
        }
    }

    private func senderMode(_ vector: Vector) throws -> HPKE.SenderMode {
        switch vector.mode {
        case 0: return .base
        case 1: return .psk(try preSharedKey(vector))
        case 2: return .auth(sender: try HPKE.deriveKeyPair(inputKeyMaterial: vector.bytes("ikmS")))
        default: return .authPSK(sender: try HPKE.deriveKeyPair(inputKeyMaterial: vector.bytes("ikmS")), try preSharedKey(vector))
        }
    }

    func testRFC9180AppendixA3() throws {
        let vectors = try vectors()
        XCTAssertEqual(vectors.map(\.mode).sorted(), [0, 1, 2, 3], "A.3.1 to A.3.4")
        for vector in vectors {
            let label = "mode \(vector.mode)"
            // DeriveKeyPair (§7.1.3) gives the published keys.
            let recipientKey = try HPKE.deriveKeyPair(inputKeyMaterial: vector.bytes("ikmR"))
            let ephemeralKey = try HPKE.deriveKeyPair(inputKeyMaterial: vector.bytes("ikmE"))
            XCTAssertEqual(recipientKey.rawRepresentation, vector.bytes("skRm"), label)
            XCTAssertEqual(recipientKey.publicKey.uncompressedRepresentation, vector.bytes("pkRm"), label)
            XCTAssertEqual(ephemeralKey.rawRepresentation, vector.bytes("skEm"), label)
            XCTAssertEqual(ephemeralKey.publicKey.uncompressedRepresentation, vector.bytes("pkEm"), label)
            if vector.mode >= 2 {
                XCTAssertEqual(
                    try HPKE.deriveKeyPair(inputKeyMaterial: vector.bytes("ikmS")).rawRepresentation, vector.bytes("skSm"), label)
            }

            var sender = try HPKE.Sender(
                recipientKey: recipientKey.publicKey, info: vector.bytes("info"), mode: try senderMode(vector), ephemeralKey: ephemeralKey)
            XCTAssertEqual(sender.encapsulatedKey, vector.bytes("enc"), label)
            var recipient = try HPKE.Recipient(
                privateKey: recipientKey, encapsulatedKey: vector.bytes("enc"), info: vector.bytes("info"), mode: try recipientMode(vector))

            // Every encryption in sequence order: the sender's ciphertext is the published one and
            // the recipient opens it to the published plaintext.
            XCTAssertEqual(vector.encryptions.count, 257, label)
            for (sequence, encryption) in vector.encryptions.enumerated() {
                let pt = Hex.decode(encryption["pt"] ?? "") ?? []
                let aad = Hex.decode(encryption["aad"] ?? "") ?? []
                let ct = Hex.decode(encryption["ct"] ?? "") ?? []
                XCTAssertEqual(try sender.seal(pt, additionalData: aad), ct, "\(label), sequence \(sequence)")
                XCTAssertEqual(try recipient.open(ct, additionalData: aad), pt, "\(label), sequence \(sequence)")
            }
            XCTAssertEqual(vector.exports.count, 3, label)
            for export in vector.exports {
                let context = Hex.decode(export["exporter_context"] as? String ?? "") ?? []
                let length = export["L"] as? Int ?? -1
                let expected = Hex.decode(export["exported_value"] as? String ?? "") ?? []
                XCTAssertEqual(try recipient.exportSecret(context: context, length: length), expected, label)
                XCTAssertEqual(try sender.exportSecret(context: context, length: length), expected, label)
            }
            // The single-shot Open (§6.1) is the context's first message.
            let first = try XCTUnwrap(vector.encryptions.first)
            XCTAssertEqual(
                try HPKE.open(
                    Hex.decode(first["ct"] ?? "") ?? [], encapsulatedKey: vector.bytes("enc"), privateKey: recipientKey,
                    info: vector.bytes("info"), additionalData: Hex.decode(first["aad"] ?? "") ?? [], mode: try recipientMode(vector)),
                Hex.decode(first["pt"] ?? ""), label)
        }
    }

    private func code(_ body: () throws -> Void) -> CipherError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CipherError)?.code
        }
    }

    /// What a hostile sender can hand the recipient: every refusal typed, no plaintext, and a
    /// refused message does not advance the context.
    func testHostileSender() throws {
        let base = try XCTUnwrap(try vectors().first { $0.mode == 0 })
        let recipientKey = try HPKE.deriveKeyPair(inputKeyMaterial: base.bytes("ikmR"))
        let enc = base.bytes("enc")
        let info = base.bytes("info")
        let first = try XCTUnwrap(base.encryptions.first)
        let ct = Hex.decode(first["ct"] ?? "") ?? []
        let aad = Hex.decode(first["aad"] ?? "") ?? []

        // Encapsulated keys that are no uncompressed P-256 point: each refused as invalidPeerKey.
        var offCurve = enc
        offCurve[64] ^= 1
        let compressed = [0x02 | (enc[64] & 1)] + enc[1...32]
        let hostileKeys: [[UInt8]] = [
            [], Array(enc.prefix(64)), enc + [0], compressed, offCurve, [0x04] + [UInt8](repeating: 0, count: 64),
        ]
        for key in hostileKeys {
            XCTAssertEqual(
                code { _ = try HPKE.Recipient(privateKey: recipientKey, encapsulatedKey: key, info: info, mode: .base) }, .invalidPeerKey,
                "\(key.count) bytes")
        }

        var recipient = try HPKE.Recipient(privateKey: recipientKey, encapsulatedKey: enc, info: info, mode: .base)
        // A flipped bit anywhere in the ciphertext or the tag, other additional data, a truncated
        // tag: authenticationFailed, and the sequence number stays (the real message still opens).
        for position in [0, ct.count / 2, ct.count - 16, ct.count - 1] {
            var tampered = ct
            tampered[position] ^= 0x80
            XCTAssertEqual(code { _ = try recipient.open(tampered, additionalData: aad) }, .authenticationFailed, "bit at \(position)")
        }
        XCTAssertEqual(code { _ = try recipient.open(ct, additionalData: aad + [0]) }, .authenticationFailed)
        XCTAssertEqual(code { _ = try recipient.open(Array(ct.dropLast())) }, .authenticationFailed)
        XCTAssertEqual(code { _ = try recipient.open(Array(ct.prefix(15))) }, .invalidTagLength)
        XCTAssertEqual(code { _ = try recipient.open([]) }, .invalidTagLength)
        XCTAssertEqual(try recipient.open(ct, additionalData: aad), Hex.decode(first["pt"] ?? ""))
        // Replaying the first message against the advanced context fails: its nonce is spent.
        XCTAssertEqual(code { _ = try recipient.open(ct, additionalData: aad) }, .authenticationFailed)

        // Another info, another recipient key, or another mode: the message does not open.
        XCTAssertEqual(
            code {
                _ = try HPKE.open(ct, encapsulatedKey: enc, privateKey: recipientKey, info: info + [0], additionalData: aad, mode: .base)
            }, .authenticationFailed)
        let other = ECDSAPrivateKey.generate(curve: .p256)
        XCTAssertEqual(
            code { _ = try HPKE.open(ct, encapsulatedKey: enc, privateKey: other, info: info, additionalData: aad, mode: .base) },
            .authenticationFailed)
        let psk = try HPKE.PreSharedKey(key: [UInt8](repeating: 1, count: 32), identifier: [1])
        XCTAssertEqual(
            code {
                _ = try HPKE.open(ct, encapsulatedKey: enc, privateKey: recipientKey, info: info, additionalData: aad, mode: .psk(psk))
            }, .authenticationFailed)
        XCTAssertEqual(
            code {
                _ = try HPKE.open(
                    ct, encapsulatedKey: enc, privateKey: recipientKey, info: info, additionalData: aad,
                    mode: .auth(sender: other.publicKey))
            },
            .authenticationFailed)

        // A P-384 recipient key, a short pre-shared key, an empty identifier, short DeriveKeyPair input.
        let p384 = ECDSAPrivateKey.generate(curve: .p384)
        XCTAssertEqual(code { _ = try HPKE.Recipient(privateKey: p384, encapsulatedKey: enc, info: info, mode: .base) }, .invalidPrivateKey)
        XCTAssertEqual(code { _ = try HPKE.PreSharedKey(key: [UInt8](repeating: 1, count: 31), identifier: [1]) }, .invalidKeyLength)
        XCTAssertEqual(code { _ = try HPKE.PreSharedKey(key: [UInt8](repeating: 1, count: 32), identifier: []) }, .invalidKeyLength)
        XCTAssertEqual(code { _ = try HPKE.deriveKeyPair(inputKeyMaterial: [UInt8](repeating: 1, count: 31)) }, .invalidDerivationLength)
        XCTAssertEqual(code { _ = try recipient.exportSecret(context: [], length: 255 * 32 + 1) }, .invalidDerivationLength)
        XCTAssertEqual(code { _ = try recipient.exportSecret(context: [], length: -1) }, .invalidDerivationLength)
    }

    /// A fresh sender (system randomness) and the recipient agree, in every mode; two senders to
    /// the same key never share an encapsulated key.
    func testRoundTripWithFreshEphemeralKeys() throws {
        let recipientKey = ECDSAPrivateKey.generate(curve: .p256)
        let senderKey = ECDSAPrivateKey.generate(curve: .p256)
        let psk = try HPKE.PreSharedKey(key: Array(repeating: 0x5A, count: 32), identifier: Array("id".utf8))
        let modes: [(HPKE.SenderMode, HPKE.RecipientMode)] = [
            (.base, .base), (.psk(psk), .psk(psk)), (.auth(sender: senderKey), .auth(sender: senderKey.publicKey)),
            (.authPSK(sender: senderKey, psk), .authPSK(sender: senderKey.publicKey, psk)),
        ]
        for (senderMode, recipientMode) in modes {
            let message = Array("a mobile document response".utf8)
            let (enc, ct) = try HPKE.seal(
                message, recipientKey: recipientKey.publicKey, info: [1, 2], additionalData: [3], mode: senderMode)
            XCTAssertEqual(ct.count, message.count + 16)
            XCTAssertEqual(
                try HPKE.open(ct, encapsulatedKey: enc, privateKey: recipientKey, info: [1, 2], additionalData: [3], mode: recipientMode),
                message)
            let (otherEnc, _) = try HPKE.seal(message, recipientKey: recipientKey.publicKey, info: [1, 2], mode: senderMode)
            XCTAssertNotEqual(enc, otherEnc)
        }
    }
}
