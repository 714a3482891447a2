/// RSASSA-PSS verification (RFC 8017 §8.1.2 with EMSA-PSS-VERIFY, §9.1.2) and MGF1 (§B.2.1).
extension RSAPublicKey {
    /// The parameters of RSASSA-PSS (RFC 8017 §A.2.3): the message hash, MGF1's hash, and the
    /// salt length in bytes. X.509 and CMS carry them in RSASSA-PSS-params (default SHA-1, MGF1
    /// with SHA-1, salt 20, trailer field 1); JOSE's PS256/PS384/PS512 use the hash for both and a
    /// salt as long as the digest.
    public struct PSSParameters: Sendable, Hashable {
        /// The hash of the message.
        public var hash: HashAlgorithm
        /// The hash MGF1 uses.
        public var maskGenerationHash: HashAlgorithm
        /// The salt length in bytes.
        public var saltLength: Int

        /// Parameters with `hash`; MGF1's hash defaults to `hash` and the salt length to the digest length (JOSE's choice).
        public init(hash: HashAlgorithm, maskGenerationHash: HashAlgorithm? = nil, saltLength: Int? = nil) {
            self.hash = hash
            self.maskGenerationHash = maskGenerationHash ?? hash
            self.saltLength = saltLength ?? hash.digestByteCount
        }
    }

    /// RFC 8017 §8.1.2 for a message digest computed by the caller with `parameters.hash`.
    /// Variable time (public inputs).
    public func isValidPSSSignatureVartime(_ signature: [UInt8], digest mHash: [UInt8], parameters: PSSParameters) -> Bool {
        let k = modulusByteCount
        // §8.1.2 step 1: length checking.
        guard signature.count == k, mHash.count == parameters.hash.digestByteCount,
            parameters.saltLength >= 0, parameters.saltLength <= k
        else { return false }
        // Step 2: m = RSAVP1(s) (rejects s ≥ n); EM = I2OSP(m, emLen) with emBits = modBits − 1;
        // "integer too large" (m ≥ 256^emLen) is an invalid signature.
        let emBits = modulusBits - 1
        let emLen = (emBits + 7) / 8
        guard let em = verificationPrimitiveVartime(signature, outputByteCount: emLen) else { return false }
        // Step 3: EMSA-PSS-VERIFY (§9.1.2).
        let hLen = parameters.hash.digestByteCount
        let sLen = parameters.saltLength
        // §9.1.2 step 3: emLen ≥ hLen + sLen + 2.
        guard emLen >= hLen + sLen + 2 else { return false }
        // Step 4: the rightmost octet is 0xbc.
        guard em[emLen - 1] == 0xBC else { return false }
        // Step 5: maskedDB is the leftmost emLen − hLen − 1 octets, H the next hLen.
        let dbLen = emLen - hLen - 1
        let maskedDB = em[0..<dbLen]
        let h = Array(em[dbLen..<(dbLen + hLen)])
        // Step 6: the leftmost 8·emLen − emBits bits of maskedDB are zero.
        let unusedBits = 8 * emLen - emBits
        let topMask: UInt8 = unusedBits == 0 ? 0xFF : UInt8(0xFF >> unusedBits)
        guard maskedDB[0] & ~topMask == 0 else { return false }
        // Steps 7–9: DB = maskedDB ⊕ MGF1(H, dbLen), with the unused top bits cleared.
        let dbMask = RSAPublicKey.mgf1(seed: h, length: dbLen, hash: parameters.maskGenerationHash)
        var db = [UInt8](repeating: 0, count: dbLen)
        for i in 0..<dbLen { db[i] = maskedDB[i] ^ dbMask[i] }
        db[0] &= topMask
        // Step 10: the leftmost emLen − hLen − sLen − 2 octets of DB are zero, the next is 0x01.
        let psLen = emLen - hLen - sLen - 2
        for i in 0..<psLen where db[i] != 0 { return false }
        guard db[psLen] == 0x01 else { return false }
        // Step 11: salt is the last sLen octets of DB.
        let salt = db[(dbLen - sLen)...]
        // Steps 12–14: H' = Hash(0x00 × 8 ‖ mHash ‖ salt); valid iff H = H'.
        let hPrime = parameters.hash.hash([UInt8](repeating: 0, count: 8) + mHash + salt)
        return h == hPrime
    }

    /// RSASSA-PSS verification of a message (hashed here with `parameters.hash`). Variable time.
    public func isValidPSSSignatureVartime<Message: Sequence>(
        _ signature: [UInt8], for message: Message,
        parameters: PSSParameters
    ) -> Bool
    where Message.Element == UInt8 {
        isValidPSSSignatureVartime(signature, digest: parameters.hash.hash(message), parameters: parameters)
    }

    /// MGF1 (RFC 8017 §B.2.1): Hash(seed ‖ C) for the counters C = 0, 1, … as 4-byte big-endian
    /// integers, concatenated and cut to `length` bytes.
    static func mgf1(seed: [UInt8], length: Int, hash: HashAlgorithm) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.digestByteCount)
        var counter: UInt32 = 0
        while output.count < length {
            let c = [UInt8(counter >> 24), UInt8((counter >> 16) & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8(counter & 0xFF)]
            output += hash.hash(seed + c)
            counter += 1
        }
        return Array(output.prefix(length))
    }
}
