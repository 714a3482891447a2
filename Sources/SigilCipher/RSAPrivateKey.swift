import SigilASN1
import SigilBase
import SigilCore
import SigilKeys

/// An RSA private key for decryption: the modulus n, the public exponent e and the private
/// exponent d, held as GMP limbs and wiped when released (`SecretMemory.wipe`, which the optimizer
/// keeps).
///
/// Loading wipes the copies it makes: d's bytes, and p, q, dP, dQ and qInv of a PKCS#1 key (read
/// into storage of their own, then wiped unused: only d is kept), the PKCS#1 bytes inside a PKCS#8
/// key and the DER decoded from PEM. The bytes passed in are the caller's to wipe.
///
/// Loaded from PKCS#1 `RSAPrivateKey` (RFC 8017 §A.1.2, two primes) or PKCS#8 `PrivateKeyInfo`
/// with rsaEncryption (RFC 5208), PEM or DER. Every private operation is constant time and
/// blinded: c·rᵉ mod n, then (c·rᵉ)ᵈ mod n, then times r⁻¹ — all with GMP's `mpn_sec_*`
/// functions (SigilCore's `ConstantTimeMPN`), whose time and memory accesses depend only on the
/// operand sizes; r is fresh for every operation. The key is checked once when loaded: the
/// modulus is odd and between 2048 and 8192 bits (1024 with `minimumModulusBits`), and xᵉᵈ = x mod n
/// for a fixed x (a wrong d is refused).
///
/// ```
/// RSAPrivateKey ::= SEQUENCE {
///     version           Version,          -- two-prime(0)
///     modulus           INTEGER,  -- n
///     publicExponent    INTEGER,  -- e
///     privateExponent   INTEGER,  -- d
///     prime1            INTEGER,  -- p
///     prime2            INTEGER,  -- q
///     exponent1         INTEGER,  -- d mod (p-1)
///     exponent2         INTEGER,  -- d mod (q-1)
///     coefficient       INTEGER,  -- (inverse of q) mod p
///     otherPrimeInfos   OtherPrimeInfos OPTIONAL }
/// ```
public struct RSAPrivateKey: Sendable, CustomStringConvertible {
    /// The public half.
    public let publicKey: RSAPublicKey
    private let secret: RSASecretLimbs

    /// From big-endian n, e and d (as in published test vectors). `minimumModulusBits` as for
    /// `RSAPublicKey` (2048 by default, at least 1024).
    public init(
        modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8],
        minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits
    ) throws(CipherError) {
        do {
            publicKey = try RSAPublicKey(modulus: modulus, exponent: publicExponent, minimumModulusBits: minimumModulusBits)
        } catch {
            throw CipherError(.invalidPrivateKey, "the RSA public part is not usable: \(error.reason)")
        }
        // d is secret: its bytes are folded with masks (no branch, no stripping of leading zeros);
        // only "d is zero or does not fit beside n" is declassified. Its encoded length is public.
        let k = publicKey.modulusByteCount
        guard privateExponent.count <= k + 8 else {
            throw CipherError(.invalidPrivateKey, "the RSA private exponent is longer than the modulus")
        }
        var any: UInt8 = 0
        var overflow: UInt8 = 0
        for (i, byte) in privateExponent.enumerated() {
            any |= byte
            if i < privateExponent.count - k { overflow |= byte }  // a public position
        }
        var defect = [UInt8(truncatingIfNeeded: ((UInt16(any) &- 1) >> 8) & 1) | (overflow | (0 &- overflow)) >> 7]
        ConstantTimeAudit.declassify(contentsOf: defect)
        guard defect[0] == 0 else {
            throw CipherError(.invalidPrivateKey, "the RSA private exponent is zero or longer than the modulus")
        }
        defect[0] = 0
        var d = SecretMemory.ownedCopy(of: privateExponent.suffix(k))
        defer { SecretMemory.wipe(&d) }
        secret = RSASecretLimbs(modulus: publicKey.modulus, exponent: publicKey.exponent, privateExponent: d)
        guard secret.isConsistent() else {
            throw CipherError(.invalidPrivateKey, "the RSA private exponent does not invert the public one (x^(e·d) ≠ x mod n)")
        }
    }

    /// From DER PKCS#1 `RSAPrivateKey` (two primes; a multi-prime key is refused).
    public init(pkcs1DER bytes: [UInt8], minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits) throws(CipherError) {
        var numbers = try Self.numbers(pkcs1DER: bytes)
        defer { SecretMemory.wipe(&numbers.d) }
        try self.init(modulus: numbers.n, publicExponent: numbers.e, privateExponent: numbers.d, minimumModulusBits: minimumModulusBits)
    }

    /// n, e and d of a DER PKCS#1 `RSAPrivateKey`: n, e, then the six secret numbers (d, p, q, dP,
    /// dQ, qInv), each read into storage of its own; only d is returned, the others are wiped here
    /// (and d too when the key is refused).
    private static func numbers(pkcs1DER bytes: [UInt8]) throws(CipherError) -> (n: [UInt8], e: [UInt8], d: [UInt8]) {
        func refuse(_ error: ASN1Error) -> CipherError {
            CipherError(wrapping: error, as: .invalidPrivateKey, context: "RSAPrivateKey (PKCS#1)")
        }
        var reader: ASN1SequenceReader
        let version: ASN1Integer
        do throws(ASN1Error) {
            reader = try ASN1SequenceReader(checking: DER.parse(bytes), identifier: .sequence)
            version = try ASN1Integer(node: reader.next(.integer))
        } catch {
            throw refuse(error)
        }
        guard version.int64Value == 0 else {
            throw CipherError(.invalidPrivateKey, "only two-prime RSAPrivateKey (version 0) is supported")
        }
        var values: [[UInt8]] = []
        var complete = false
        defer {
            for i in values.indices where i >= 3 || !complete { SecretMemory.wipe(&values[i]) }
        }
        for _ in 0..<8 {
            let node: ASN1Node
            do { node = try reader.next(.integer) } catch { throw refuse(error) }
            values.append(try magnitude(node))
        }
        do { try reader.finish() } catch { throw refuse(error) }
        complete = true
        return (values[0], values[1], values[2])
    }

    /// The magnitude of a non-negative DER INTEGER in storage of its own, leading zeros dropped:
    /// read from the content octets directly, so no `ASN1Integer` copy of a secret number is left
    /// in memory unwiped. The checks are `ASN1Integer`'s (primitive, not empty, fewest octets).
    private static func magnitude(_ node: ASN1Node) throws(CipherError) -> [UInt8] {
        do { try ASN1.expect(node, .integer, constructed: false) } catch {
            throw CipherError(wrapping: error, as: .invalidPrivateKey, context: "RSAPrivateKey (PKCS#1)")
        }
        let content = node.contentBytes
        guard let first = content.first else {
            throw CipherError(.invalidPrivateKey, "an RSAPrivateKey number has no content octets")
        }
        guard first & 0x80 == 0 else { throw CipherError(.invalidPrivateKey, "an RSAPrivateKey number is negative") }
        if content.count > 1, first == 0, content[content.startIndex + 1] & 0x80 == 0 {
            throw CipherError(.invalidPrivateKey, "an RSAPrivateKey number is not in its fewest octets")
        }
        return SecretMemory.ownedCopy(of: content.drop { $0 == 0 })
    }

    /// From DER PKCS#8 `PrivateKeyInfo` whose algorithm is rsaEncryption.
    public init(pkcs8DER bytes: [UInt8], minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits) throws(CipherError) {
        let context = "PrivateKeyInfo (PKCS#8)"
        let version: ASN1Integer
        let algorithmNode: ASN1Node
        let keyNode: ASN1Node
        do throws(ASN1Error) {
            var reader = try ASN1SequenceReader(checking: DER.parse(bytes), identifier: .sequence)
            version = try ASN1Integer(node: reader.next(.integer))
            algorithmNode = try reader.next(.sequence)
            keyNode = try reader.next(.octetString)
            try ASN1.expect(keyNode, .octetString, constructed: false)
            _ = reader.nextIfPresent(.contextSpecific(0))
            _ = reader.nextIfPresent(.contextSpecific(1))
            try reader.finish()
        } catch {
            throw CipherError(wrapping: error, as: .invalidPrivateKey, context: context)
        }
        guard version.int64Value == 0 || version.int64Value == 1 else {
            throw CipherError(.invalidPrivateKey, "PKCS#8 version must be 0 or 1")
        }
        let algorithm: AlgorithmIdentifier
        do { algorithm = try AlgorithmIdentifier(node: algorithmNode) } catch {
            throw CipherError(wrapping: error, as: .invalidPrivateKey, context: context)
        }
        guard algorithm.algorithm == KeyOIDs.rsaEncryption else {
            throw CipherError(.invalidPrivateKey, "the PKCS#8 key's algorithm \(algorithm.algorithm) is not rsaEncryption")
        }
        // The PKCS#1 bytes in storage of their own (an ASN1OctetString would keep a copy).
        var inner = SecretMemory.ownedCopy(of: keyNode.contentBytes)
        defer { SecretMemory.wipe(&inner) }
        try self.init(pkcs1DER: inner, minimumModulusBits: minimumModulusBits)
    }

    /// From PEM text ("RSA PRIVATE KEY" or "PRIVATE KEY"; text before the first boundary line, such
    /// as the "Bag Attributes" `openssl pkcs12` writes, is skipped) or DER of either form. The PEM
    /// body is decoded with SigilKeys' constant-time `SecretPEM`.
    public init(loading bytes: [UInt8], minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits) throws(CipherError) {
        if bytes.first == 0x30 {
            if (try? RSAPrivateKey(pkcs8DER: bytes, minimumModulusBits: minimumModulusBits)) != nil {
                try self.init(pkcs8DER: bytes, minimumModulusBits: minimumModulusBits)
            } else {
                try self.init(pkcs1DER: bytes, minimumModulusBits: minimumModulusBits)
            }
            return
        }
        var blocks: [SecretPEM.Block]
        do { blocks = try SecretPEM.decode(bytes) } catch {
            throw CipherError(wrapping: error, as: .invalidPrivateKey, context: "PEM")
        }
        // Every decoded block's DER wiped once read (SecretPEM.Block keeps it in a `let`: the
        // blocks are taken apart into arrays this initializer owns).
        var ders = blocks.map { $0.der }
        let labels = blocks.map { $0.label }
        blocks = []
        defer { for i in ders.indices { SecretMemory.wipe(&ders[i]) } }
        let keys = labels.indices.filter { labels[$0] == "RSA PRIVATE KEY" || labels[$0] == "PRIVATE KEY" }
        guard keys.count == 1, let index = keys.first else {
            throw CipherError(.invalidPrivateKey, "the PEM text holds \(keys.count) RSA private key blocks, not one")
        }
        if labels[index] == "RSA PRIVATE KEY" {
            try self.init(pkcs1DER: ders[index], minimumModulusBits: minimumModulusBits)
        } else {
            try self.init(pkcs8DER: ders[index], minimumModulusBits: minimumModulusBits)
        }
    }

    /// The address and length of d's limbs, the key's own memory (tests watch it being wiped when
    /// the key is released).
    package var privateExponentStorage: (address: UInt, count: Int) {
        (secret.privateExponentAddress, secret.count * MemoryLayout<Limb>.stride)
    }

    /// Never shows the key.
    public var description: String { "RSAPrivateKey(\(publicKey.modulusBits) bits, redacted)" }

    /// RSAES-OAEP decryption (RFC 8017 §7.1.2) with `hash` for the label and `mgf1Hash` for MGF1
    /// (the same as `hash` when nil): Apple Pay's RSA_v1 uses SHA-256 for both.
    ///
    /// The ciphertext must be exactly k bytes (k = the modulus's length) and below n. The padding is
    /// checked in constant time — the leading byte, the label hash and the 0x01 separator are all
    /// read and folded into one mask before the one branch on the result — and every defect throws
    /// the same ``CipherError/Code/decryptionFailed`` with the same reason (Manger's attack needs
    /// them told apart).
    public func decryptOAEP(
        _ ciphertext: [UInt8], hash: HashAlgorithm = .sha256, mgf1Hash: HashAlgorithm? = nil, label: [UInt8] = []
    ) throws(CipherError) -> [UInt8] {
        let k = publicKey.modulusByteCount
        let hLen = hash.digestByteCount
        guard ciphertext.count == k, k >= 2 * hLen + 2 else {
            throw CipherError(.decryptionFailed, "RSA-OAEP decryption failed (§7.1.2 step 1: a ciphertext of \(k) bytes is needed)")
        }
        guard var em = secret.decrypt(ciphertext, byteCount: k) else {
            throw CipherError(.decryptionFailed, "RSA-OAEP decryption failed (§7.1.2 step 2: the ciphertext is not below n)")
        }
        defer { zero(&em) }
        let mgf = mgf1Hash ?? hash
        // Step 3b: EM = Y ‖ maskedSeed ‖ maskedDB.
        var maskedDB = SecretMemory.ownedCopy(of: em[(1 + hLen)...])
        defer { zero(&maskedDB) }
        var seed = SecretMemory.ownedCopy(of: em[1...hLen])
        var seedMask = Self.mgf1(maskedDB, length: hLen, hash: mgf)
        for i in 0..<hLen { seed[i] ^= seedMask[i] }
        zero(&seedMask)
        var db = Self.mgf1(seed, length: k - hLen - 1, hash: mgf)
        zero(&seed)
        for i in 0..<db.count { db[i] ^= maskedDB[i] }
        defer { zero(&db) }
        // Step 3g, in constant time: Y = 0, lHash′ = lHash, then zero or more 0x00 and one 0x01.
        let lHash = hash.hash(label)
        var bad: UInt32 = UInt32(em[0])
        for i in 0..<hLen { bad |= UInt32(db[i] ^ lHash[i]) }
        var found: UInt32 = 0  // all ones once the separator has been seen
        var separator: UInt32 = 0
        for i in hLen..<db.count {
            let byte = UInt32(db[i])
            let isOne = Self.isZeroMask(byte ^ 1)
            let isZero = Self.isZeroMask(byte)
            let first = isOne & ~found
            separator |= first & UInt32(i)
            // A byte before the separator that is neither 0x00 nor 0x01 is a defect.
            bad |= ~found & ~isOne & ~isZero
            found |= isOne
        }
        bad |= ~found
        var verdict = [UInt8(truncatingIfNeeded: Self.isZeroMask(bad) & 1)]
        ConstantTimeAudit.declassify(contentsOf: verdict)
        guard verdict[0] == 1 else {
            throw CipherError(.decryptionFailed, "RSA-OAEP decryption failed (§7.1.2 step 3g)")
        }
        verdict[0] = 0
        // The message's length is public once decryption has succeeded.
        var start = [UInt8(truncatingIfNeeded: separator >> 8), UInt8(truncatingIfNeeded: separator)]
        ConstantTimeAudit.declassify(contentsOf: start)
        let index = Int(start[0]) << 8 | Int(start[1])
        start = [0, 0]
        return Array(db[(index + 1)...])
    }

    /// 0xFFFFFFFF when `x` is zero, else 0, without a branch.
    @inline(__always)
    static func isZeroMask(_ x: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: (UInt64(x) &- 1) >> 32)
    }

    /// MGF1 (RFC 8017 §B.2.1).
    static func mgf1(_ seed: [UInt8], length: Int, hash: HashAlgorithm) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.digestByteCount)
        var input = seed + [0, 0, 0, 0]
        var counter: UInt32 = 0
        while output.count < length {
            input[seed.count] = UInt8(counter >> 24)
            input[seed.count + 1] = UInt8(truncatingIfNeeded: counter >> 16)
            input[seed.count + 2] = UInt8(truncatingIfNeeded: counter >> 8)
            input[seed.count + 3] = UInt8(truncatingIfNeeded: counter)
            output += hash.hash(input)
            counter += 1
        }
        zero(&input)
        defer { zero(&output) }
        return SecretMemory.ownedCopy(of: output.prefix(length))
    }
}

#if !hasFeature(Embedded)
extension RSAPrivateKey: CustomDebugStringConvertible, CustomReflectable {
    /// Never shows the secret.
    public var debugDescription: String { description }
    /// The public key only: `dump` and debuggers that walk a mirror never reach the secret limbs.
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
#endif
