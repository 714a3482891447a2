import SigilBase
import SigilCipher
import SigilCore
import SigilKeys
import SigilX509

/// Decrypts Apple Pay payment tokens with the merchant's keys: the reference's "Decrypt the data".
///
/// The merchant key is chosen by the token's `publicKeyHash` among the keys given (several at once,
/// as during a certificate rotation); a token for no key given is refused before any decryption.
/// - EC_v1: Z = ECDH(merchant key, ephemeralPublicKey) on P-256 (SigilCore, constant time), the
///   symmetric key = the one-step KDF (SHA-256) of Z with other info 0x0D ‖ "id-aes256-GCM" ‖
///   "Apple" ‖ the merchant identifier hash (NIST SP 800-56A §5.8.1).
/// - RSA_v1: the symmetric key = RSA-OAEP (SHA-256, MGF1-SHA-256) decryption of `wrappedKey`.
/// Then `data` is opened with AES-256-GCM, a 16-byte all-zero IV and no additional data, its last
/// 16 bytes the tag; a mismatch is ``ApplePayError/Code/tagMismatch`` and releases nothing.
///
/// Decryption does not check Apple's signature: run ``PaymentTokenVerifier`` first (the CLI's
/// `sigil applepay decrypt` always does).
public struct PaymentTokenDecryptor: Sendable {
    /// The merchant keys, tried by `publicKeyHash`.
    public let merchantKeys: [MerchantKey]

    /// A decryptor with the merchant's keys.
    public init(merchantKeys: [MerchantKey]) {
        self.merchantKeys = merchantKeys
    }

    /// The other info of EC_v1's KDF before the merchant identifier hash: 0x0D ‖ "id-aes256-GCM" ‖ "Apple".
    static let otherInfoPrefix: [UInt8] = [0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8)

    /// Decrypts `token` into its payment data. `trace`, when given, records each step (which key,
    /// which scheme, the tag's verdict, the payment data's type) and never a secret or card value.
    public func decrypt(_ token: PaymentToken, trace: VerificationTrace? = nil) throws(ApplePayError) -> DecryptedPayment {
        do {
            let payment = try decryptSteps(token, trace: trace)
            trace?.pass(
                "Payment Token Format Reference, payment data keys", "payment data read",
                "paymentDataType \(payment.paymentDataType), \(payment.otherMembers.count) other member(s)")
            return payment
        } catch {
            trace?.fail(error.clause, error.step, error.code.rawValue)
            throw error
        }
    }

    private func decryptSteps(_ token: PaymentToken, trace: VerificationTrace?) throws(ApplePayError) -> DecryptedPayment {
        guard let key = merchantKeys.first(where: { ConstantTime.equals($0.publicKeyHash, token.publicKeyHash) }) else {
            throw ApplePayError(
                .unknownMerchantKey,
                "the token's publicKeyHash matches none of the \(merchantKeys.count) merchant key(s) given: it was made for another key",
                step: "merchant key", clause: "Payment Token Format Reference, decrypt the data, step a")
        }
        trace?.pass(
            "Payment Token Format Reference, decrypt the data, step a", "merchant key chosen by publicKeyHash",
            "\(key.description) of \(merchantKeys.count)")
        var symmetricKey = try symmetricKey(token, key)
        trace?.pass(
            token.version == .ecV1 ? "NIST SP 800-56A §5.7.1.2, §5.8.1" : "RFC 8017 §7.1.2",
            token.version == .ecV1 ? "ECDH and the one-step KDF" : "RSA-OAEP unwrapping", "a 32-byte key (not shown)")
        // The derived (or unwrapped) key wiped once the AES key schedule is made and used
        // (SecretMemory.wipe: the optimizer keeps it; AESGCM wipes its schedule when released).
        defer { SecretMemory.wipe(&symmetricKey) }
        let plaintext: [UInt8]
        do {
            let gcm = try AESGCM(key: symmetricKey)
            plaintext = try gcm.open(
                Array(token.data.dropLast(16)), iv: [UInt8](repeating: 0, count: 16), tag: Array(token.data.suffix(16)))
        } catch {
            throw ApplePayError(
                .tagMismatch, "AES-256-GCM: \(error.reason)", step: "decryption",
                clause: "Payment Token Format Reference, decrypt the data, step d; NIST SP 800-38D §7.2")
        }
        trace?.pass("NIST SP 800-38D §7.2", "AES-256-GCM tag", "\(plaintext.count) bytes decrypted (not shown)")
        return try DecryptedPayment(plaintext: plaintext)
    }

    private func symmetricKey(_ token: PaymentToken, _ key: MerchantKey) throws(ApplePayError) -> [UInt8] {
        func fail(_ reason: String, _ clause: String) -> ApplePayError {
            ApplePayError(.keyAgreementFailed, reason, step: "key agreement", clause: clause)
        }
        switch (token.version, key.privateKey) {
        case (.ecV1, .ec(let merchant)):
            // Parsed and checked when the token was decoded (PaymentToken.ephemeralKey): one DER
            // SPKI of a P-256 point; an EC_v1 token always has one.
            guard let ephemeral = token.ephemeralKey else {
                throw ApplePayError(
                    .invalidEphemeralPublicKey, "an EC_v1 token without header.ephemeralPublicKey", step: "decode",
                    clause: "Payment Token Format Reference, header keys, ephemeralPublicKey")
            }
            var z: [UInt8]
            do { z = try merchant.sharedSecret(with: ephemeral) } catch {
                throw fail("ECDH with the ephemeral key failed: \(error)", "NIST SP 800-56A §5.7.1.2")
            }
            defer { SecretMemory.wipe(&z) }
            do {
                return try ConcatKDF.deriveKey(sharedSecret: z, fixedInfo: Self.otherInfoPrefix + key.merchantIdentifierHash, length: 32)
            } catch {
                throw fail("ECDH with the ephemeral key failed: \(error)", "NIST SP 800-56A §5.7.1.2")
            }
        case (.rsaV1, .rsa(let merchant)):
            var unwrapped: [UInt8]
            do { unwrapped = try merchant.decryptOAEP(token.wrappedKey ?? [], hash: .sha256) } catch {
                throw fail("RSA-OAEP unwrapping of wrappedKey: \(error)", "Payment Token Format Reference, RSA_v1; RFC 8017 §7.1.2")
            }
            guard unwrapped.count == 32 else {
                SecretMemory.wipe(&unwrapped)
                throw fail("the unwrapped key has \(unwrapped.count) bytes, not 32", "Payment Token Format Reference, RSA_v1")
            }
            return unwrapped
        default:
            throw ApplePayError(
                .invalidMerchantKey, "a \(token.version.rawValue) token needs a \(token.version == .ecV1 ? "P-256" : "RSA") merchant key",
                step: "merchant key", clause: "Payment Token Format Reference, version")
        }
    }
}
