/// An RSA public key (n, e) for signature verification (RFC 8017 §3.1).
///
/// Everything about an RSA public key is public, so every function here is variable time.
/// Accepted: an odd modulus of `minimumModulusBits` (2048 by default; 1024 at the lowest, for
/// legacy data and PKITS when the caller asks) to 8192 bits, and an odd exponent with
/// 3 ≤ e < n (RFC 8017 §3.1). The numbers are kept as given, without leading zero bytes.
public struct RSAPublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The largest modulus accepted, in bits.
    public static let maximumModulusBits = 8192
    /// The smallest modulus a caller may allow, in bits.
    public static let smallestAllowedModulusBits = 1024
    /// The default lower bound, in bits.
    public static let defaultMinimumModulusBits = 2048

    /// n, big-endian, no leading zero bytes.
    public let modulus: [UInt8]
    /// e, big-endian, no leading zero bytes.
    public let exponent: [UInt8]
    /// The bit length of n.
    public let modulusBits: Int
    /// n and e as machine-word limbs, made once here so verification converts nothing per call.
    let limbs: RSAModulusLimbs<UInt>

    /// k, the length of n in bytes (RFC 8017 §2): every PKCS#1 v1.5 signature has exactly k bytes.
    public var modulusByteCount: Int { (modulusBits + 7) / 8 }

    /// Builds a key from big-endian unsigned n and e (leading zero bytes are allowed and dropped).
    /// Throws `invalidKey` naming the rule broken: modulus size outside
    /// [minimumModulusBits, 8192], even modulus, exponent even, below 3 or not below n.
    public init<M: Collection, E: Collection>(
        modulus: M, exponent: E,
        minimumModulusBits: Int = RSAPublicKey.defaultMinimumModulusBits
    )
        throws(SigilCoreError) where M.Element == UInt8, E.Element == UInt8
    {
        guard minimumModulusBits >= RSAPublicKey.smallestAllowedModulusBits,
            minimumModulusBits <= RSAPublicKey.maximumModulusBits
        else {
            throw SigilCoreError(.invalidLength, "the minimum modulus size must be between 1024 and 8192 bits, not \(minimumModulusBits)")
        }
        // Size checks on the byte counts first, so a huge input is refused before any other work.
        let modulusBytes = Array(modulus.drop { $0 == 0 })
        let exponentBytes = Array(exponent.drop { $0 == 0 })
        guard modulusBytes.count <= RSAPublicKey.maximumModulusBits / 8 else {
            throw SigilCoreError(.invalidKey, "RSA modulus of \(modulusBytes.count) bytes is larger than 8192 bits")
        }
        guard exponentBytes.count <= modulusBytes.count else {
            throw SigilCoreError(.invalidKey, "RSA exponent is not smaller than the modulus")
        }
        // The rules on the bytes themselves (no bignum is made; both are minimal big-endian).
        let bits = modulusBytes.first.map { (modulusBytes.count - 1) * 8 + (8 - $0.leadingZeroBitCount) } ?? 0
        guard bits >= minimumModulusBits else {
            throw SigilCoreError(.invalidKey, "RSA modulus of \(bits) bits is below the minimum of \(minimumModulusBits)")
        }
        guard let nLow = modulusBytes.last, nLow & 1 == 1 else { throw SigilCoreError(.invalidKey, "RSA modulus is even") }
        guard let eLow = exponentBytes.last, eLow & 1 == 1 else { throw SigilCoreError(.invalidKey, "RSA exponent is even") }
        guard exponentBytes.count > 1 || eLow >= 3 else { throw SigilCoreError(.invalidKey, "RSA exponent is below 3") }
        guard exponentBytes.count < modulusBytes.count || exponentBytes.lexicographicallyPrecedes(modulusBytes) else {
            throw SigilCoreError(.invalidKey, "RSA exponent is not smaller than the modulus")
        }
        self.modulus = modulusBytes
        self.exponent = exponentBytes
        self.modulusBits = bits
        self.limbs = RSAModulusLimbs(modulus: modulusBytes, exponent: exponentBytes)
    }

    /// RSAVP1 (RFC 8017 §5.2.2) on a signature given as exactly `byteCount` big-endian bytes:
    /// s must be below n; returns m = s^e mod n as `byteCount` big-endian bytes (I2OSP), or nil when
    /// s ≥ n or m does not fit. Variable time (public inputs).
    func verificationPrimitiveVartime(_ signature: [UInt8], outputByteCount: Int) -> [UInt8]? {
        let count = limbs.limbCount
        let result: [UInt8]?? = limbs.withPowerVartime(of: signature) { m in
            RSAModulusLimbs.withBigEndianBytes(m, limbCount: count, width: outputByteCount) { Array($0) }
        }
        return result ?? nil
    }

    /// Whether both keys have the same modulus and exponent.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent
    }

    /// Hashes the modulus and exponent.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(modulus)
        hasher.combine(exponent)
    }

    /// The key's size and exponent, for people.
    public var description: String {
        let e = exponent.count <= 8 ? String(exponent.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) : "\(exponent.count * 8)-bit"
        return "RSAPublicKey(\(modulusBits) bits, e = \(e))"
    }
}
