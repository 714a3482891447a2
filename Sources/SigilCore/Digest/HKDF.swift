import SigilBase

/// HKDF (RFC 5869): key derivation from HMAC, in its two steps.
///
/// `HKDF<SHA256>.extract(salt:inputKeyMaterial:)` condenses input keying material (a
/// Diffie–Hellman result, say) into a pseudorandom key of one digest's length (§2.2);
/// `HKDF<SHA256>.expand(pseudorandomKey:info:outputByteCount:)` stretches that key into as many
/// bytes as asked, bound to `info` (§2.3); `deriveKey` runs both. HPKE (RFC 9180), COSE and the
/// ISO 18013-5 device MAC key are built on it.
///
/// The work depends on the lengths only, never on the bytes: HMAC's, and the counter's. The
/// intermediate blocks of `expand` are wiped; what is returned is the caller's to wipe.
public enum HKDF<H: HashFunction> {
    /// HKDF-Extract (§2.2): HMAC-Hash(salt, IKM), `H.digestByteCount` bytes. An empty salt is a
    /// digest's length of zeros (§2.2), which HMAC's zero padding makes the same key.
    public static func extract<Salt: Collection, Material: Collection>(
        salt: Salt, inputKeyMaterial: Material
    ) -> [UInt8] where Salt.Element == UInt8, Material.Element == UInt8 {
        HMAC<H>.authenticationCode(key: salt, message: inputKeyMaterial)
    }

    /// HKDF-Expand (§2.3): the first `outputByteCount` bytes of T(1) ‖ T(2) ‖ …, where
    /// T(i) = HMAC-Hash(PRK, T(i − 1) ‖ info ‖ i).
    ///
    /// Throws ``SigilCoreError/Code/invalidLength`` when `outputByteCount` is negative or over
    /// 255 digests (§2.3), or when `pseudorandomKey` is shorter than one digest (§2.3: "a
    /// pseudorandom key of at least HashLen octets").
    public static func expand<Info: Collection>(
        pseudorandomKey: [UInt8], info: Info, outputByteCount: Int
    ) throws(SigilCoreError) -> [UInt8] where Info.Element == UInt8 {
        let digestLength = H.digestByteCount
        guard outputByteCount >= 0, outputByteCount <= 255 * digestLength else {
            throw SigilCoreError(
                .invalidLength, "HKDF-Expand gives 0 to \(255 * digestLength) bytes with this hash, not \(outputByteCount) (RFC 5869 §2.3)")
        }
        guard pseudorandomKey.count >= digestLength else {
            throw SigilCoreError(
                .invalidLength,
                "an HKDF pseudorandom key has at least \(digestLength) bytes with this hash, not \(pseudorandomKey.count) (RFC 5869 §2.3)")
        }
        let key = HMACKey<H>(pseudorandomKey)
        let infoBytes = Array(info)
        var output: [UInt8] = []
        output.reserveCapacity(outputByteCount + digestLength)
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < outputByteCount {
            var mac = HMAC<H>(key: key)
            mac.update(block)
            mac.update(infoBytes)
            mac.update(CollectionOfOne(counter))
            SecretMemory.wipe(&block)
            block = mac.finalize()
            output += block
            counter &+= 1
        }
        SecretMemory.wipe(&block)
        if output.count > outputByteCount {
            // The tail of the last block is derived key material too: wiped where it is (removeLast
            // leaves it in the array's capacity).
            output.withUnsafeMutableBytes { SecretMemory.wipe(UnsafeMutableRawBufferPointer(rebasing: $0[outputByteCount...])) }
            output.removeLast(output.count - outputByteCount)
        }
        return output
    }

    /// Extract, then expand (§2): `outputByteCount` bytes of key derived from `inputKeyMaterial`.
    /// The pseudorandom key between the two steps is wiped.
    public static func deriveKey<Salt: Collection, Material: Collection, Info: Collection>(
        inputKeyMaterial: Material, salt: Salt, info: Info, outputByteCount: Int
    ) throws(SigilCoreError) -> [UInt8] where Salt.Element == UInt8, Material.Element == UInt8, Info.Element == UInt8 {
        var pseudorandomKey = extract(salt: salt, inputKeyMaterial: inputKeyMaterial)
        defer { SecretMemory.wipe(&pseudorandomKey) }
        return try expand(pseudorandomKey: pseudorandomKey, info: info, outputByteCount: outputByteCount)
    }
}
