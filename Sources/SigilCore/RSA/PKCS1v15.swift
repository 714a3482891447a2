/// RSASSA-PKCS1-v1_5 verification (RFC 8017 §8.2.2 with EMSA-PKCS1-v1_5, §9.2).
///
/// Strict: the encoded message is rebuilt from the digest and compared byte for byte with what
/// the signature opens to, so there is no parser to be lenient (no BER in the DigestInfo, no
/// missing NULL parameters, no garbage after the digest, no short padding).
extension RSAPublicKey {
    /// RFC 8017 §8.2.2 for a message digest computed by the caller with `hash`.
    /// Variable time (public inputs). False for any signature that is not exactly k bytes.
    public func isValidPKCS1v15SignatureVartime(_ signature: [UInt8], digest: [UInt8], hash: HashAlgorithm) -> Bool {
        let k = modulusByteCount
        // Step 1: length checking.
        guard signature.count == k, digest.count == hash.digestByteCount else { return false }
        // Step 3 first (it depends on k and the hash only): EM' = EMSA-PKCS1-V1_5-ENCODE(M, k) is
        // 0x00 0x01 PS 0x00 T with T = prefix ‖ digest; k < tLen + 11 is an error.
        let prefix = hash.digestInfoPrefix
        let tLength = prefix.count + digest.count
        guard k >= tLength + 11 else { return false }
        // Step 2: s = OS2IP(S); m = RSAVP1((n, e), s) (rejects s ≥ n); EM = I2OSP(m, k).
        // Step 4: EM = EM', compared in place (no EM' array is built).
        let count = limbs.limbCount
        let matches: Bool?? = limbs.withPowerVartime(of: signature) { m in
            RSAModulusLimbs.withBigEndianBytes(m, limbCount: count, width: k) { em in
                let separator = k - tLength - 1
                guard em[0] == 0x00, em[1] == 0x01, em[separator] == 0x00 else { return false }
                for i in 2..<separator where em[i] != 0xFF { return false }
                for i in 0..<prefix.count where em[separator + 1 + i] != prefix[i] { return false }
                let digestStart = separator + 1 + prefix.count
                for i in 0..<digest.count where em[digestStart + i] != digest[i] { return false }
                return true
            }
        }
        return matches == true
    }

    /// RSASSA-PKCS1-v1_5 verification of a message (hashed here with `hash`). Variable time.
    public func isValidPKCS1v15SignatureVartime<Message: Sequence>(
        _ signature: [UInt8], for message: Message,
        hash: HashAlgorithm
    ) -> Bool
    where Message.Element == UInt8 {
        isValidPKCS1v15SignatureVartime(signature, digest: hash.hash(message), hash: hash)
    }
}

extension HashAlgorithm {
    /// The DER encoding of DigestInfo up to the digest value (RFC 8017 §9.2 Note 1): SEQUENCE {
    /// AlgorithmIdentifier { hash OID, NULL }, OCTET STRING of the digest length }.
    var digestInfoPrefix: [UInt8] {
        switch self {
        case .sha1: HashAlgorithm.sha1DigestInfoPrefix
        case .sha256: HashAlgorithm.sha256DigestInfoPrefix
        case .sha384: HashAlgorithm.sha384DigestInfoPrefix
        case .sha512: HashAlgorithm.sha512DigestInfoPrefix
        }
    }

    // Constants, so the verification path copies no array literal per call.
    private static let sha1DigestInfoPrefix: [UInt8] = [
        0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00, 0x04, 0x14,
    ]
    private static let sha256DigestInfoPrefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
    ]
    private static let sha384DigestInfoPrefix: [UInt8] = [
        0x30, 0x41, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30,
    ]
    private static let sha512DigestInfoPrefix: [UInt8] = [
        0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40,
    ]
}
