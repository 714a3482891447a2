import SigilBase

/// The one error type of SigilCipher.
///
/// `code` is stable and meant for programs; `reason` is for people. Neither ever carries key
/// material, plaintext or any intermediate value: only lengths and public facts.
public struct CipherError: ModuleError {
    /// "cipher": `cipher.code` names this module's errors across Sigil.
    public static let domain = "cipher"
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        /// The code's stable name.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// An AES key that is not 16 or 32 bytes long.
        public static var invalidKeyLength: Code { Code("invalidKeyLength") }
        /// A GCM initialisation vector that is empty or too long (NIST SP 800-38D §5.2.1.1).
        public static var invalidIVLength: Code { Code("invalidIVLength") }
        /// A GCM tag length outside 128, 120, 112, 104, 96, 64 and 32 bits (NIST SP 800-38D §5.2.1.2).
        public static var invalidTagLength: Code { Code("invalidTagLength") }
        /// A plaintext, ciphertext or additional data longer than GCM allows (NIST SP 800-38D §5.2.1.1).
        public static var inputTooLong: Code { Code("inputTooLong") }
        /// The GCM tag did not match: the ciphertext, the additional data, the IV or the key is not the
        /// one the tag was made with (NIST SP 800-38D §7.2 step 8). No plaintext is released.
        public static var authenticationFailed: Code { Code("authenticationFailed") }
        /// A Diffie–Hellman peer public key that is malformed, off the curve or the identity.
        public static var invalidPeerKey: Code { Code("invalidPeerKey") }
        /// A Diffie–Hellman result that is the identity (an all-zero shared secret).
        public static var invalidSharedSecret: Code { Code("invalidSharedSecret") }
        /// A key-derivation request outside what the KDF allows.
        public static var invalidDerivationLength: Code { Code("invalidDerivationLength") }
        /// An RSA private key whose encoding or numbers are not a usable key.
        public static var invalidPrivateKey: Code { Code("invalidPrivateKey") }
        /// RSA-OAEP decryption failed: the ciphertext is out of range or its padding is not valid
        /// (one code for every padding defect, RFC 8017 §7.1.2 note).
        public static var decryptionFailed: Code { Code("decryptionFailed") }
    }

    /// Why the operation failed, as a stable code.
    public let code: Code
    /// What went wrong, for people (never secret bytes).
    public let reason: String

    /// An error with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
