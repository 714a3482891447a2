import SigilBase
import SigilCore

/// Hybrid Public Key Encryption (RFC 9180), its four modes, with the suite ISO/IEC 18013-7 Annex C
/// and Apple's mobile documents on the web use: DHKEM(P-256, HKDF-SHA256) (KEM 0x0010),
/// HKDF-SHA256 (KDF 0x0001) and AES-128-GCM (AEAD 0x0001).
///
/// The recipient opens what a sender sealed to its P-256 key:
/// `var context = try HPKE.Recipient(privateKey: key, encapsulatedKey: enc, info: info, mode: .base)`,
/// then `try context.open(ciphertext, additionalData: aad)` for each message in order (§5.2);
/// ``HPKE/open(_:encapsulatedKey:privateKey:info:additionalData:mode:)`` does it for one message
/// (§6.1). ``HPKE/Sender`` is the other side, for requests a server encrypts and for tests. The
/// mode is always named: `.base` (Annex C's), a pre-shared key (`.psk`), the sender's static key
/// (`.auth`), or both (`.authPSK`) (§5.1).
///
/// The Diffie–Hellman step is `ECDSAPrivateKey.sharedSecret(with:)` (SigilCore) (constant time in the private
/// key; the peer's point fully validated), the derivations HKDF over HMAC-SHA-256 (constant time in
/// the secrets), the AEAD ``AESGCM`` (no plaintext released when the tag does not match). The shared
/// secret, the key schedule's secrets and every intermediate are wiped; errors carry lengths and
/// codes only.
public enum HPKE {
    /// DHKEM(P-256, HKDF-SHA256) (RFC 9180 §7.1, Table 2).
    public static let kemIdentifier: UInt16 = 0x0010
    /// HKDF-SHA256 (§7.2, Table 3).
    public static let kdfIdentifier: UInt16 = 0x0001
    /// AES-128-GCM (§7.3, Table 5).
    public static let aeadIdentifier: UInt16 = 0x0001

    /// The encapsulated key's length: an uncompressed P-256 point (Nenc, §7.1).
    public static let encapsulatedKeyByteCount = 65

    // Nk, Nn, Nh and Nsecret of the suite (§7.1–7.3).
    static let keyByteCount = 16
    static let nonceByteCount = 12
    static let hashByteCount = 32
    static let tagByteCount = 16

    /// The receiving side of one HPKE context (§5.1.1 SetupBaseR, §5.2 Open): messages are opened
    /// in the order they were sealed, each with the next sequence number.
    public struct Recipient: Sendable {
        private var context: Context

        /// Decapsulates `encapsulatedKey` (the sender's ephemeral P-256 public key, 65 bytes
        /// uncompressed) with `privateKey` (§4.1 Decap, or AuthDecap with the sender's public key
        /// in `mode`) and runs the key schedule with `info` and `mode` (§5.1).
        ///
        /// Throws ``CipherError/Code/invalidPeerKey`` for an encapsulated key that is not an
        /// uncompressed point on P-256 (§7.1.1 DeserializePublicKey; the identity included) or a
        /// sender key on another curve, ``CipherError/Code/invalidPrivateKey`` for a key that is
        /// not a P-256 key, and ``CipherError/Code/invalidSharedSecret`` when a Diffie–Hellman
        /// result is the identity.
        public init(privateKey: ECDSAPrivateKey, encapsulatedKey: [UInt8], info: [UInt8], mode: RecipientMode) throws(CipherError) {
            guard privateKey.curve == .p256 else {
                throw CipherError(
                    .invalidPrivateKey, "HPKE's DHKEM(P-256, HKDF-SHA256) needs a P-256 key, not \(privateKey.curve.rawValue)")
            }
            let ephemeral = try HPKE.deserializePublicKey(encapsulatedKey)
            if let sender = mode.sender, sender.curve != .p256 {
                throw CipherError(
                    .invalidPeerKey, "HPKE's DHKEM(P-256, HKDF-SHA256) needs a P-256 sender key, not \(sender.curve.rawValue)")
            }
            var dh = try HPKE.diffieHellman(privateKey, [ephemeral] + (mode.sender.map { [$0] } ?? []))
            defer { SecretMemory.wipe(&dh) }
            var kemContext = encapsulatedKey + privateKey.publicKey.uncompressedRepresentation
            if let sender = mode.sender { kemContext += sender.uncompressedRepresentation }
            var sharedSecret = HPKE.extractAndExpand(dh, kemContext: kemContext)
            defer { SecretMemory.wipe(&sharedSecret) }
            context = try Context(sharedSecret: sharedSecret, info: info, mode: mode.identifier, preSharedKey: mode.preSharedKey)
        }

        /// Opens the next message (§5.2 ContextR.Open): checks the tag over `ciphertext` (which
        /// ends in the 16-byte tag) and `additionalData` with the nonce of the next sequence
        /// number, and returns the plaintext. A mismatch throws
        /// ``CipherError/Code/authenticationFailed``, releases nothing and leaves the sequence
        /// number where it was (§5.2: it advances only on success). A ciphertext shorter than the
        /// tag throws ``CipherError/Code/invalidTagLength``.
        public mutating func open(_ ciphertext: [UInt8], additionalData: [UInt8] = []) throws(CipherError) -> [UInt8] {
            guard ciphertext.count >= HPKE.tagByteCount else {
                throw CipherError(.invalidTagLength, "an HPKE ciphertext ends in a 16-byte tag; this one has \(ciphertext.count) bytes")
            }
            let split = ciphertext.count - HPKE.tagByteCount
            let plaintext = try context.aead.open(
                Array(ciphertext[..<split]), iv: context.nonce(), additionalData: additionalData, tag: Array(ciphertext[split...]))
            try context.advance()
            return plaintext
        }

        /// A secret exported from the context (§5.3): `length` bytes bound to `exporterContext`.
        public func exportSecret(context exporterContext: [UInt8], length: Int) throws(CipherError) -> [UInt8] {
            try context.exportSecret(exporterContext, length: length)
        }
    }

    /// The sending side of one HPKE context (§5.1.1 SetupBaseS, §5.2 Seal).
    public struct Sender: Sendable {
        private var context: Context
        /// The encapsulated key to hand the recipient with the ciphertexts: the ephemeral public
        /// key, 65 bytes uncompressed (§7.1.1 SerializePublicKey).
        public let encapsulatedKey: [UInt8]

        /// Encapsulates to `recipientKey` with a fresh ephemeral key from the system's secure
        /// random source (§4.1 Encap, or AuthEncap with the sender's key in `mode`) and runs the
        /// key schedule with `info` and `mode`.
        public init(recipientKey: ECDSAPublicKey, info: [UInt8], mode: SenderMode) throws(CipherError) {
            try self.init(recipientKey: recipientKey, info: info, mode: mode, ephemeralKey: ECDSAPrivateKey.generate(curve: .p256))
        }

        /// Encapsulates with the given ephemeral key: for reproducing published test vectors
        /// (RFC 9180 Appendix A derives it with ``HPKE/deriveKeyPair(inputKeyMaterial:)``). An
        /// ephemeral key must never be used twice.
        public init(recipientKey: ECDSAPublicKey, info: [UInt8], mode: SenderMode, ephemeralKey: ECDSAPrivateKey) throws(CipherError) {
            guard recipientKey.curve == .p256, ephemeralKey.curve == .p256, mode.sender?.curve ?? .p256 == .p256 else {
                throw CipherError(.invalidPeerKey, "HPKE's DHKEM(P-256, HKDF-SHA256) needs P-256 keys")
            }
            var dh = try HPKE.diffieHellman(ephemeralKey, [recipientKey])
            if let sender = mode.sender {
                // AuthEncap (§4.1): dh = DH(skE, pkR) ‖ DH(skS, pkR).
                var second = try HPKE.diffieHellman(sender, [recipientKey])
                defer { SecretMemory.wipe(&second) }
                var both = [UInt8](repeating: 0, count: dh.count + second.count)
                both.replaceSubrange(0..<dh.count, with: dh)
                both.replaceSubrange(dh.count..<both.count, with: second)
                SecretMemory.wipe(&dh)
                dh = both
            }
            defer { SecretMemory.wipe(&dh) }
            let encapsulated = ephemeralKey.publicKey.uncompressedRepresentation
            var kemContext = encapsulated + recipientKey.uncompressedRepresentation
            if let sender = mode.sender { kemContext += sender.publicKey.uncompressedRepresentation }
            var sharedSecret = HPKE.extractAndExpand(dh, kemContext: kemContext)
            defer { SecretMemory.wipe(&sharedSecret) }
            context = try Context(sharedSecret: sharedSecret, info: info, mode: mode.identifier, preSharedKey: mode.preSharedKey)
            encapsulatedKey = encapsulated
        }

        /// Seals the next message (§5.2 ContextS.Seal): the ciphertext followed by the 16-byte tag.
        public mutating func seal(_ plaintext: [UInt8], additionalData: [UInt8] = []) throws(CipherError) -> [UInt8] {
            let sealed = try context.aead.seal(plaintext, iv: context.nonce(), additionalData: additionalData)
            try context.advance()
            return sealed.ciphertext + sealed.tag
        }

        /// A secret exported from the context (§5.3): `length` bytes bound to `exporterContext`.
        public func exportSecret(context exporterContext: [UInt8], length: Int) throws(CipherError) -> [UInt8] {
            try context.exportSecret(exporterContext, length: length)
        }
    }

    /// Opens one message sealed to `privateKey` (§6.1 single-shot Open): the recipient context
    /// and its first message.
    public static func open(
        _ ciphertext: [UInt8], encapsulatedKey: [UInt8], privateKey: ECDSAPrivateKey, info: [UInt8], additionalData: [UInt8] = [],
        mode: RecipientMode
    ) throws(CipherError) -> [UInt8] {
        var recipient = try Recipient(privateKey: privateKey, encapsulatedKey: encapsulatedKey, info: info, mode: mode)
        return try recipient.open(ciphertext, additionalData: additionalData)
    }

    /// Seals one message to `recipientKey` (§6.1 single-shot Seal) with a fresh ephemeral key.
    public static func seal(
        _ plaintext: [UInt8], recipientKey: ECDSAPublicKey, info: [UInt8], additionalData: [UInt8] = [], mode: SenderMode
    ) throws(CipherError) -> (encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
        var sender = try Sender(recipientKey: recipientKey, info: info, mode: mode)
        return (sender.encapsulatedKey, try sender.seal(plaintext, additionalData: additionalData))
    }

    // MARK: - Modes (§5.1)

    /// A pre-shared key and its identifier (§5.1: `psk`, `psk_id`), for the PSK modes. Both are
    /// required (§5.1.2 VerifyPSKInputs); the key has at least 32 bytes (§9.5: the PSK "MUST have
    /// at least 32 bytes of entropy"). The key is kept in storage of its own, wiped when released.
    public struct PreSharedKey: Sendable {
        fileprivate let key: OwnedSecret
        /// The key's identifier, `psk_id`.
        public let identifier: [UInt8]

        /// Throws ``CipherError/Code/invalidKeyLength`` for a key shorter than 32 bytes or an empty
        /// identifier.
        public init(key: [UInt8], identifier: [UInt8]) throws(CipherError) {
            guard key.count >= 32, !identifier.isEmpty else {
                throw CipherError(
                    .invalidKeyLength, "an HPKE pre-shared key has at least 32 bytes and a non-empty identifier (RFC 9180 §5.1.2, §9.5)")
            }
            self.key = OwnedSecret(SecretMemory.ownedCopy(of: key))
            self.identifier = identifier
        }
    }

    /// The recipient's mode (§5.1): what besides its own key it checks the sender by.
    public enum RecipientMode: Sendable {
        /// mode_base: anyone holding the recipient's public key can seal (Annex C's mode).
        case base
        /// mode_psk: the sender also holds the pre-shared key.
        case psk(PreSharedKey)
        /// mode_auth: the sender holds the private key of `sender`.
        case auth(sender: ECDSAPublicKey)
        /// mode_auth_psk: both.
        case authPSK(sender: ECDSAPublicKey, PreSharedKey)

        var identifier: UInt8 {
            switch self {
            case .base: 0
            case .psk: 1
            case .auth: 2
            case .authPSK: 3
            }
        }
        var sender: ECDSAPublicKey? {
            switch self {
            case .auth(let sender), .authPSK(let sender, _): sender
            case .base, .psk: nil
            }
        }
        var preSharedKey: PreSharedKey? {
            switch self {
            case .psk(let key), .authPSK(_, let key): key
            case .base, .auth: nil
            }
        }
    }

    /// The sender's mode (§5.1), matching the recipient's.
    public enum SenderMode: Sendable {
        /// mode_base.
        case base
        /// mode_psk.
        case psk(PreSharedKey)
        /// mode_auth, with the sender's static private key.
        case auth(sender: ECDSAPrivateKey)
        /// mode_auth_psk.
        case authPSK(sender: ECDSAPrivateKey, PreSharedKey)

        var identifier: UInt8 {
            switch self {
            case .base: 0
            case .psk: 1
            case .auth: 2
            case .authPSK: 3
            }
        }
        var sender: ECDSAPrivateKey? {
            switch self {
            case .auth(let sender), .authPSK(let sender, _): sender
            case .base, .psk: nil
            }
        }
        var preSharedKey: PreSharedKey? {
            switch self {
            case .psk(let key), .authPSK(_, let key): key
            case .base, .auth: nil
            }
        }
    }

    /// DeriveKeyPair for P-256 (§7.1.3): the key a 32-byte-or-longer `inputKeyMaterial` gives, by
    /// rejection sampling over HKDF candidates. Throws ``CipherError/Code/invalidDerivationLength``
    /// for input keying material shorter than 32 bytes (§7.1.3: at least Nsk bytes), and
    /// ``CipherError/Code/invalidPrivateKey`` if 256 candidates all fall outside [1, n − 1]
    /// (probability about 2^−8192).
    public static func deriveKeyPair(inputKeyMaterial: [UInt8]) throws(CipherError) -> ECDSAPrivateKey {
        guard inputKeyMaterial.count >= 32 else {
            throw CipherError(
                .invalidDerivationLength, "DeriveKeyPair needs at least 32 bytes of input keying material, not \(inputKeyMaterial.count)")
        }
        var prk = labeledExtract(salt: [], label: "dkp_prk", inputKeyMaterial, suite: kemSuite)
        defer { SecretMemory.wipe(&prk) }
        for counter in 0...255 {
            var candidate = labeledExpand(prk, label: "candidate", info: [UInt8(counter)], length: 32, suite: kemSuite)
            defer { SecretMemory.wipe(&candidate) }
            // bitmask 0xFF for P-256: no bit cleared. Out of range [1, n − 1]: the next counter.
            if let key = try? ECDSAPrivateKey(rawRepresentation: candidate, curve: .p256) { return key }
        }
        throw CipherError(.invalidPrivateKey, "DeriveKeyPair found no P-256 scalar in 256 candidates (RFC 9180 §7.1.3)")
    }

    // MARK: - The KEM (§4.1, §7.1)

    /// "KEM" ‖ I2OSP(kem_id, 2).
    static let kemSuite: [UInt8] = Array("KEM".utf8) + [0x00, 0x10]
    /// "HPKE" ‖ I2OSP(kem_id, 2) ‖ I2OSP(kdf_id, 2) ‖ I2OSP(aead_id, 2).
    static let hpkeSuite: [UInt8] = Array("HPKE".utf8) + [0x00, 0x10, 0x00, 0x01, 0x00, 0x01]

    /// DeserializePublicKey (§7.1.1): exactly an uncompressed SEC 1 point on P-256.
    static func deserializePublicKey(_ bytes: [UInt8]) throws(CipherError) -> ECDSAPublicKey {
        guard bytes.count == encapsulatedKeyByteCount, bytes.first == 0x04 else {
            throw CipherError(
                .invalidPeerKey, "an HPKE encapsulated key is a 65-byte uncompressed P-256 point; this one has \(bytes.count) bytes")
        }
        do {
            return try ECDSAPublicKey(sec1Representation: bytes, curve: .p256)
        } catch {
            throw CipherError(.invalidPeerKey, "the HPKE encapsulated key is not a point on P-256")
        }
    }

    /// DH(sk, pk) for each public key, concatenated in one array of its final size (no copy of a
    /// secret left behind by growing it): each the x-coordinate of sk·pk, 32 bytes (§7.1.1).
    static func diffieHellman(_ privateKey: ECDSAPrivateKey, _ publicKeys: [ECDSAPublicKey]) throws(CipherError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32 * publicKeys.count)
        for (index, publicKey) in publicKeys.enumerated() {
            var secret: [UInt8]
            do {
                secret = try privateKey.sharedSecret(with: publicKey)
            } catch {
                SecretMemory.wipe(&output)
                throw CipherError(.invalidSharedSecret, "the Diffie–Hellman result is the identity")
            }
            output.replaceSubrange((32 * index)..<(32 * index + 32), with: secret)
            SecretMemory.wipe(&secret)
        }
        return output
    }

    /// ExtractAndExpand (§4.1): the KEM's shared secret, Nsecret = 32 bytes.
    static func extractAndExpand(_ dh: [UInt8], kemContext: [UInt8]) -> [UInt8] {
        var prk = labeledExtract(salt: [], label: "eae_prk", dh, suite: kemSuite)
        defer { SecretMemory.wipe(&prk) }
        return labeledExpand(prk, label: "shared_secret", info: kemContext, length: hashByteCount, suite: kemSuite)
    }

    // MARK: - Labeled HKDF (§4)

    /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" ‖ suite_id ‖ label ‖ ikm).
    static func labeledExtract(salt: [UInt8], label: String, _ material: [UInt8], suite: [UInt8]) -> [UInt8] {
        var labeled = Array("HPKE-v1".utf8) + suite + Array(label.utf8)
        labeled += material
        defer { SecretMemory.wipe(&labeled) }
        return HKDF<SHA256>.extract(salt: salt, inputKeyMaterial: labeled)
    }

    /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) ‖ "HPKE-v1" ‖ suite_id ‖ label ‖ info, L).
    /// Every length asked here is at most 255 · 32 and every key 32 bytes: Expand cannot refuse.
    static func labeledExpand(_ prk: [UInt8], label: String, info: [UInt8], length: Int, suite: [UInt8]) -> [UInt8] {
        let labeled = [UInt8(length >> 8), UInt8(length & 0xFF)] + Array("HPKE-v1".utf8) + suite + Array(label.utf8) + info
        return (try? HKDF<SHA256>.expand(pseudorandomKey: prk, info: labeled, outputByteCount: length)) ?? []
    }

    // MARK: - The key schedule and the context (§5.1, §5.2, §5.3)

    struct Context: Sendable {
        let aead: AESGCM
        private let baseNonce: OwnedSecret
        private let exporterSecret: OwnedSecret
        private var sequence: UInt64 = 0

        /// KeySchedule(mode, shared_secret, info, psk, psk_id) (§5.1); without a pre-shared key,
        /// psk and psk_id are empty.
        init(sharedSecret: [UInt8], info: [UInt8], mode: UInt8, preSharedKey: PreSharedKey?) throws(CipherError) {
            let pskIDHash = HPKE.labeledExtract(salt: [], label: "psk_id_hash", preSharedKey?.identifier ?? [], suite: HPKE.hpkeSuite)
            let infoHash = HPKE.labeledExtract(salt: [], label: "info_hash", info, suite: HPKE.hpkeSuite)
            let keyScheduleContext = [mode] + pskIDHash + infoHash
            var secret = HPKE.labeledExtract(salt: sharedSecret, label: "secret", preSharedKey?.key.bytes ?? [], suite: HPKE.hpkeSuite)
            defer { SecretMemory.wipe(&secret) }
            var key = HPKE.labeledExpand(secret, label: "key", info: keyScheduleContext, length: HPKE.keyByteCount, suite: HPKE.hpkeSuite)
            defer { SecretMemory.wipe(&key) }
            aead = try AESGCM(key: key)
            baseNonce = OwnedSecret(
                HPKE.labeledExpand(
                    secret, label: "base_nonce", info: keyScheduleContext, length: HPKE.nonceByteCount, suite: HPKE.hpkeSuite))
            exporterSecret = OwnedSecret(
                HPKE.labeledExpand(secret, label: "exp", info: keyScheduleContext, length: HPKE.hashByteCount, suite: HPKE.hpkeSuite))
        }

        /// ComputeNonce(seq) (§5.2): base_nonce XOR I2OSP(seq, Nn).
        func nonce() -> [UInt8] {
            var nonce = baseNonce.bytes
            for index in 0..<8 {
                nonce[HPKE.nonceByteCount - 1 - index] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(index)))
            }
            return nonce
        }

        /// IncrementSeq (§5.2): a context whose sequence number would wrap is spent.
        mutating func advance() throws(CipherError) {
            guard sequence < UInt64.max else {
                throw CipherError(
                    .inputTooLong, "the HPKE context's sequence number is exhausted (RFC 9180 §5.2, MessageLimitReachedError)")
            }
            sequence += 1
        }

        /// Export(exporter_context, L) (§5.3): L from 0 to 255 · Nh.
        func exportSecret(_ exporterContext: [UInt8], length: Int) throws(CipherError) -> [UInt8] {
            guard length >= 0, length <= 255 * HPKE.hashByteCount else {
                throw CipherError(.invalidDerivationLength, "an HPKE export is 0 to \(255 * HPKE.hashByteCount) bytes, not \(length)")
            }
            return HPKE.labeledExpand(exporterSecret.bytes, label: "sec", info: exporterContext, length: length, suite: HPKE.hpkeSuite)
        }
    }
}

/// Secret bytes of HPKE (a context's base nonce and exporter secret, a pre-shared key) in storage
/// of their own: fresh arrays, never handed out (readers copy them into new arrays), overwritten
/// with zeros when the last owner goes.
private final class OwnedSecret: @unchecked Sendable {
    private(set) var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    deinit { SecretMemory.wipe(&bytes) }
}
