import SigilASN1
import SigilBase
import SigilCore
import SigilJOSE
import SigilKeys

/// An Apple Pay payment token (`PKPaymentToken.paymentData`) as Apple's "Payment Token Format
/// Reference" lays it out: `version`, `data`, `signature` and `header` (`ephemeralPublicKey` for
/// EC_v1 or `wrappedKey` for RSA_v1, `publicKeyHash`, `transactionId`, optionally
/// `applicationData`).
///
/// Decoding checks the shape (every member present, of its type, valid base64 or hex) and fixes
/// the length of every header field the signature covers, because Apple signs
/// `ephemeralPublicKey ‖ data ‖ transactionId ‖ applicationData` with no lengths between them:
/// `transactionId` is exactly 32 bytes, `applicationData`, when present, exactly 32 bytes, and an
/// EC_v1 `ephemeralPublicKey` exactly one DER SubjectPublicKeyInfo of a P-256 point. Without these
/// rules bytes could move between the fields under the same signature, each variant carrying a new
/// transaction id (``ApplePayError/Code/invalidTransactionId``,
/// ``ApplePayError/Code/invalidApplicationData``, ``ApplePayError/Code/invalidEphemeralPublicKey``).
/// The signature and the key are checked by ``PaymentTokenVerifier`` and ``PaymentTokenDecryptor``.
/// A whole `PKPaymentToken` JSON (with the token under `paymentData`) is accepted too.
///
/// ``replayKey`` names the token by what Apple signed, so no re-framing of the fields changes it:
/// a replay store keys on it.
public struct PaymentToken: Sendable, Hashable {
    /// The encryption scheme.
    public enum Version: String, Sendable, Hashable {
        /// ECDH on P-256, the one-step KDF, AES-256-GCM.
        case ecV1 = "EC_v1"
        /// RSA-OAEP (SHA-256) key wrapping, AES-256-GCM.
        case rsaV1 = "RSA_v1"
    }

    /// The largest token accepted, in bytes of JSON (real tokens are a few kilobytes).
    public static let maximumSize = 1 << 20

    /// The scheme.
    public let version: Version
    /// The encrypted payment data, its 16-byte GCM tag last.
    public let data: [UInt8]
    /// The detached CMS SignedData, BER.
    public let signature: [UInt8]
    /// EC_v1: the ephemeral public key, a DER SubjectPublicKeyInfo.
    public let ephemeralPublicKey: [UInt8]?
    /// RSA_v1: the symmetric key wrapped with RSA-OAEP.
    public let wrappedKey: [UInt8]?
    /// EC_v1: ``ephemeralPublicKey`` as the point it holds, parsed once while decoding (the
    /// decryptor's ECDH reads it from here rather than parsing the DER again).
    let ephemeralKey: ECDSAPublicKey?
    /// SHA-256 of the merchant certificate's SubjectPublicKeyInfo: which merchant key the token is for.
    public let publicKeyHash: [UInt8]
    /// The transaction identifier (from its hex text): exactly ``transactionIdLength`` bytes.
    public let transactionId: [UInt8]
    /// SHA-256 of the application data the app passed, when it passed any (from its hex text):
    /// exactly ``applicationDataLength`` bytes.
    public let applicationData: [UInt8]?

    /// The length of `transactionId` in bytes: 32 (64 hex digits), what every device writes.
    public static let transactionIdLength = 32
    /// The length of `applicationData` in bytes: 32, a SHA-256 digest.
    public static let applicationDataLength = 32

    /// Decodes token JSON.
    public init(json bytes: [UInt8]) throws(ApplePayError) {
        func fail(_ reason: String) -> ApplePayError {
            ApplePayError(.malformedToken, reason, step: "decode", clause: "Payment Token Format Reference, payment token structure")
        }
        guard bytes.count <= Self.maximumSize else { throw fail("the token is \(bytes.count) bytes, over \(Self.maximumSize)") }
        var root: JSONValue
        do { root = try JSONValue(parsing: bytes) } catch { throw fail("not JSON: \(error.reason)") }
        if case .object = root, root["paymentData"] != nil, root["version"] == nil, let inner = root["paymentData"] {
            root = inner
        }
        guard case .object = root else { throw fail("the token is not a JSON object") }
        guard let versionText = root["version"]?.stringValue else { throw fail("no string member \"version\"") }
        guard let version = Version(rawValue: versionText) else {
            throw ApplePayError(
                .unknownVersion, "version \"\(versionText.prefix(32))\" is neither EC_v1 nor RSA_v1", step: "decode",
                clause: "Payment Token Format Reference, version")
        }
        func base64(_ value: JSONValue?, _ name: String) throws(ApplePayError) -> [UInt8] {
            guard let text = value?.stringValue else { throw fail("no string member \"\(name)\"") }
            do { return try Base64.decode(Array(text.utf8)) } catch { throw fail("\"\(name)\" is not base64: \(error.reason)") }
        }
        func hex(_ value: JSONValue?, _ name: String) throws(ApplePayError) -> [UInt8] {
            guard let text = value?.stringValue else { throw fail("no string member \"\(name)\"") }
            guard let bytes = Base16.decode(text) else { throw fail("\"\(name)\" is not hexadecimal") }
            return bytes
        }
        guard let header = root["header"], case .object = header else { throw fail("no object member \"header\"") }
        self.version = version
        data = try base64(root["data"], "data")
        signature = try base64(root["signature"], "signature")
        guard data.count >= 16 else { throw fail("\"data\" has \(data.count) bytes, fewer than the 16-byte tag") }
        switch version {
        case .ecV1:
            ephemeralPublicKey = try base64(header["ephemeralPublicKey"], "header.ephemeralPublicKey")
            wrappedKey = nil
        case .rsaV1:
            wrappedKey = try base64(header["wrappedKey"], "header.wrappedKey")
            ephemeralPublicKey = nil
        }
        ephemeralKey = try ephemeralPublicKey.map { der throws(ApplePayError) in try Self.ephemeralKey(der) }
        publicKeyHash = try base64(header["publicKeyHash"], "header.publicKeyHash")
        guard publicKeyHash.count == 32 else { throw fail("header.publicKeyHash has \(publicKeyHash.count) bytes, not 32") }
        transactionId = try hex(header["transactionId"], "header.transactionId")
        guard transactionId.count == Self.transactionIdLength else {
            throw ApplePayError(
                .invalidTransactionId,
                "header.transactionId has \(transactionId.count) bytes, not \(Self.transactionIdLength) (64 hex digits)",
                step: "decode", clause: "Payment Token Format Reference, header keys, transactionId")
        }
        applicationData = try header["applicationData"].map { v throws(ApplePayError) in try hex(v, "header.applicationData") }
        if let applicationData, applicationData.count != Self.applicationDataLength {
            throw ApplePayError(
                .invalidApplicationData,
                "header.applicationData has \(applicationData.count) bytes, not \(Self.applicationDataLength) (a SHA-256 hash, 64 hex digits)",
                step: "decode", clause: "Payment Token Format Reference, header keys, applicationData")
        }
    }

    /// EC_v1's ephemeral public key: exactly one DER SubjectPublicKeyInfo (nothing after it) of a
    /// point on P-256.
    static func ephemeralKey(_ der: [UInt8]) throws(ApplePayError) -> ECDSAPublicKey {
        func fail(_ reason: String) -> ApplePayError {
            ApplePayError(
                .invalidEphemeralPublicKey, "header.ephemeralPublicKey: \(reason)", step: "decode",
                clause: "Payment Token Format Reference, header keys, ephemeralPublicKey; RFC 5480 §2; SEC 1 §3.2.2")
        }
        let key: ECDSAPublicKey
        do { key = try ECDSAPublicKey(spkiDER: der) } catch {
            throw fail("not one DER SubjectPublicKeyInfo of an EC point (\(error.reason))")
        }
        guard key.curve == .p256 else { throw fail("the key is not on P-256") }
        return key
    }

    /// What the signature covers (the reference's step 1.c): ephemeralPublicKey (EC_v1) or
    /// wrappedKey (RSA_v1) ‖ data ‖ transactionId ‖ applicationData, as bytes.
    public var signedContent: [UInt8] {
        (ephemeralPublicKey ?? wrappedKey ?? []) + data + transactionId + (applicationData ?? [])
    }

    /// The token's replay key: SHA-256 of ``signedContent``, lowercase hex (64 digits). It names
    /// what Apple signed rather than how the JSON frames it, so moving bytes between `data`,
    /// `transactionId` and `applicationData` — which keeps Apple's signature valid — never yields
    /// a new key, where it would yield a new `transactionId`. A replay store keys on it.
    public var replayKey: String {
        Base16.encode(SHA256.hash(signedContent))
    }
}
