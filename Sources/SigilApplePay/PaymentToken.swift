import SigilASN1
import SigilBase
import SigilJOSE

/// An Apple Pay payment token (`PKPaymentToken.paymentData`) as Apple's "Payment Token Format
/// Reference" lays it out: `version`, `data`, `signature` and `header` (`ephemeralPublicKey` for
/// EC_v1 or `wrappedKey` for RSA_v1, `publicKeyHash`, `transactionId`, optionally
/// `applicationData`).
///
/// Decoding checks the shape only (every member present, of its type, valid base64 or hex); the
/// signature and the key are checked by ``PaymentTokenVerifier`` and ``PaymentTokenDecryptor``. A
/// whole `PKPaymentToken` JSON (with the token under `paymentData`) is accepted too.
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
    /// SHA-256 of the merchant certificate's SubjectPublicKeyInfo: which merchant key the token is for.
    public let publicKeyHash: [UInt8]
    /// The transaction identifier (from its hex text).
    public let transactionId: [UInt8]
    /// SHA-256 of the application data the app passed, when it passed any (from its hex text).
    public let applicationData: [UInt8]?

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
        publicKeyHash = try base64(header["publicKeyHash"], "header.publicKeyHash")
        guard publicKeyHash.count == 32 else { throw fail("header.publicKeyHash has \(publicKeyHash.count) bytes, not 32") }
        transactionId = try hex(header["transactionId"], "header.transactionId")
        applicationData = try header["applicationData"].map { v throws(ApplePayError) in try hex(v, "header.applicationData") }
    }

    /// What the signature covers (the reference's step 1.c): ephemeralPublicKey (EC_v1) or
    /// wrappedKey (RSA_v1) ‖ data ‖ transactionId ‖ applicationData, as bytes.
    public var signedContent: [UInt8] {
        (ephemeralPublicKey ?? wrappedKey ?? []) + data + transactionId + (applicationData ?? [])
    }
}
