import CGMP

/// RSAVP1 (RFC 8017 §5.2.2), m = s^e mod n, on GMP's `mpn` layer over limbs prepared once per
/// key: no `mpz_t`, no heap allocation per verification (every intermediate lives in one stack
/// buffer), no per-call conversion of n. Left-to-right binary exponentiation with plain division
/// for the reduction: for e = 65537 that is 16 squarings and one multiplication, each followed by
/// `mpn_tdiv_qr` (measured with callgrind against `mpz_powm`, whose per-call Montgomery set-up —
/// the inverse of n and the conversions into and out of Montgomery form — costs more than it
/// saves over 17 steps; see the rsa-cert notes).
///
/// Variable time: n, e and s are public.
final class RSAModulusLimbs: @unchecked Sendable {
    /// n as little-endian limbs, the top limb nonzero (`mpn_tdiv_qr` requires it).
    let modulus: UnsafeMutablePointer<mp_limb_t>
    /// e as little-endian limbs, the top limb nonzero.
    let exponent: UnsafeMutablePointer<mp_limb_t>
    let limbCount: Int
    let exponentLimbCount: Int
    /// The bit length of e (≥ 2, since e ≥ 3).
    let exponentBits: Int

    /// n and e as minimal big-endian bytes (no leading zero byte; e ≥ 3 and odd, n odd and above e).
    init(modulus n: [UInt8], exponent e: [UInt8]) {
        limbCount = RSAModulusLimbs.limbCount(forBytes: n.count)
        exponentLimbCount = RSAModulusLimbs.limbCount(forBytes: e.count)
        // One allocation for both.
        modulus = .allocate(capacity: limbCount + exponentLimbCount)
        exponent = modulus + limbCount
        RSAModulusLimbs.load(n, into: modulus, limbCount: limbCount)
        RSAModulusLimbs.load(e, into: exponent, limbCount: exponentLimbCount)
        let top = exponent[exponentLimbCount - 1]
        exponentBits = (exponentLimbCount - 1) * mp_limb_t.bitWidth + (mp_limb_t.bitWidth - top.leadingZeroBitCount)
    }

    deinit { modulus.deallocate() }

    static func limbCount(forBytes count: Int) -> Int { (count + MemoryLayout<mp_limb_t>.size - 1) / MemoryLayout<mp_limb_t>.size }

    /// Big-endian bytes (at most limbCount limbs' worth) into little-endian limbs, zero-filled.
    static func load(_ bytes: [UInt8], into limbs: UnsafeMutablePointer<mp_limb_t>, limbCount: Int) {
        let width = MemoryLayout<mp_limb_t>.size
        bytes.withUnsafeBufferPointer { source in
            var position = source.count  // one past the least significant byte not yet read
            for i in 0..<limbCount {
                var limb: mp_limb_t = 0
                let low = max(0, position - width)
                for j in low..<position { limb = limb << 8 | mp_limb_t(source[j]) }
                limbs[i] = limb
                position = low
            }
        }
    }

    /// Runs `body` with m = s^e mod n as `limbCount` little-endian limbs, for a signature of
    /// exactly k = ⌈bits(n) / 8⌉ bytes; nil (and `body` not called) when s ≥ n (RFC 8017 §5.2.2 step 1).
    func withPowerVartime<Result>(of signature: [UInt8], _ body: (UnsafePointer<mp_limb_t>) -> Result) -> Result? {
        let n = limbCount
        guard RSAModulusLimbs.limbCount(forBytes: signature.count) <= n else { return nil }
        // s (n limbs) | x (n) | product (2n) | quotient (n + 1).
        return withUnsafeTemporaryAllocation(of: mp_limb_t.self, capacity: 5 * n + 1) { buffer -> Result? in
            guard let base = buffer.baseAddress else { return nil }
            let s = base, x = base + n, product = base + 2 * n, quotient = base + 4 * n
            RSAModulusLimbs.load(signature, into: s, limbCount: n)
            guard __gmpn_cmp(s, modulus, n) < 0 else { return nil }
            x.update(from: s, count: n)
            // The top bit of e is the x = s above; the rest from the most significant down.
            var bit = exponentBits - 2
            while bit >= 0 {
                __gmpn_sqr(product, x, n)
                __gmpn_tdiv_qr(quotient, x, 0, product, 2 * n, modulus, n)
                let limb = exponent[bit / mp_limb_t.bitWidth]
                if (limb >> mp_limb_t(bit % mp_limb_t.bitWidth)) & 1 == 1 {
                    __gmpn_mul_n(product, x, s, n)
                    __gmpn_tdiv_qr(quotient, x, 0, product, 2 * n, modulus, n)
                }
                bit -= 1
            }
            return body(x)
        }
    }

    /// Runs `body` with the `width`-byte big-endian form of `limbs` (`limbCount` limbs, in a
    /// stack buffer); nil when the value needs more than `width` bytes (I2OSP's "integer too large").
    static func withBigEndianBytes<Result>(_ limbs: UnsafePointer<mp_limb_t>, limbCount: Int, width: Int,
                                           _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let size = MemoryLayout<mp_limb_t>.size
        let total = limbCount * size
        guard width >= 0, width <= total else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer -> Result? in
            guard let base = buffer.baseAddress else { return nil }
            let raw = UnsafeMutableRawPointer(base)
            for i in 0..<limbCount {
                raw.storeBytes(of: limbs[i].bigEndian, toByteOffset: (limbCount - 1 - i) * size, as: mp_limb_t.self)
            }
            for i in 0..<(total - width) where base[i] != 0 { return nil }
            return body(UnsafeBufferPointer(start: base + (total - width), count: width))
        }
    }
}
