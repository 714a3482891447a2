import CGMP

/// RSAVP1 (RFC 8017 §5.2.2), m = s^e mod n, on GMP's `mpn` layer over limbs prepared once per
/// key: no `mpz_t`, no heap allocation per verification (every intermediate lives in one stack
/// buffer), no per-call conversion of n, −n⁻¹ mod 2^64 computed once. Left-to-right binary
/// exponentiation in Montgomery form: for e = 65537, 16 squarings and one multiplication, each
/// followed by a Montgomery reduction (n calls of `mpn_addmul_1`, what GMP's own `mpz_powm` does
/// internally). Measured with callgrind against `mpz_powm` and against plain division
/// (`mpn_tdiv_qr`) for the reduction: see the contract comments below.
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
    /// −n⁻¹ mod 2^64, for Montgomery reduction.
    let negativeInverse: mp_limb_t

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
        // n⁻¹ mod 2^64 by Newton's iteration (n is odd): n itself is an inverse mod 2^3, and each
        // step doubles the bits that are right.
        let low = modulus[0]
        var inverse = low
        for _ in 0..<5 { inverse = inverse &* (2 &- low &* inverse) }
        negativeInverse = 0 &- inverse
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
    ///
    /// Montgomery form with R = 2^(64·limbCount): s·R mod n by one division, then left-to-right
    /// binary exponentiation where each product is reduced by `montgomeryReduce` (values stay
    /// below R, "almost reduced"). The multiplication of the last bit (e is odd) takes s itself
    /// instead of s·R, so its reduction leaves Montgomery form at once (REDC(x·s) = s^e for
    /// x = s^(e−1)·R): no separate reduction out, then one conditional subtraction.
    func withPowerVartime<Result>(of signature: [UInt8], _ body: (UnsafePointer<mp_limb_t>) -> Result) -> Result? {
        let n = limbCount
        guard RSAModulusLimbs.limbCount(forBytes: signature.count) <= n else { return nil }
        // sR (n limbs) | x (n); product (2n); quotient (n + 1); s (n).
        return RSAModulusLimbs.withScratch(limbs: n) { base, product, quotient, s -> Result? in
            let sR = base
            let x = base + n
            RSAModulusLimbs.load(signature, into: s, limbCount: n)
            guard __gmpn_cmp(s, modulus, n) < 0 else { return nil }
            // sR = s · R mod n: divide s · R (s in the high half of a 2n-limb number) by n.
            product.update(repeating: 0, count: n)
            (product + n).update(from: s, count: n)
            __gmpn_tdiv_qr(quotient, sR, 0, product, 2 * n, modulus, n)
            x.update(from: sR, count: n)
            // The top bit of e is the x = sR above; the rest from the most significant down, the
            // last (bit 0) after the loop.
            var bit = exponentBits - 2
            while bit >= 1 {
                __gmpn_sqr(product, x, n)
                montgomeryReduce(product, into: x)
                let limb = exponent[bit / mp_limb_t.bitWidth]
                if (limb >> mp_limb_t(bit % mp_limb_t.bitWidth)) & 1 == 1 {
                    __gmpn_mul_n(product, x, sR, n)
                    montgomeryReduce(product, into: x)
                }
                bit -= 1
            }
            __gmpn_sqr(product, x, n)
            montgomeryReduce(product, into: x)
            if exponent[0] & 1 == 1 {
                // x < R and s < n, so x·s < R·n and REDC(x·s) = s^e mod n up to one n.
                __gmpn_mul_n(product, x, s, n)
            } else {
                // An even e (not an RSA key; kept general): REDC(x) leaves Montgomery form.
                product.update(from: x, count: n)
                (product + n).update(repeating: 0, count: n)
            }
            montgomeryReduce(product, into: x)
            if __gmpn_cmp(x, modulus, n) >= 0 { _ = __gmpn_sub_n(x, x, modulus, n) }
            return body(x)
        }
    }

    /// Runs `body` with four scratch buffers of 2n, 2n, n + 1 and n limbs. Each is its own
    /// `withUnsafeTemporaryAllocation` of at most 1 KiB for a modulus of up to 4,096 bits, which
    /// the standard library keeps on the stack (it puts one larger block, such as the 1,544 bytes
    /// a 2,048-bit modulus needs in one piece, on the heap): a verification allocates nothing.
    @inline(__always)
    static func withScratch<Result>(
        limbs n: Int,
        _ body: (
            UnsafeMutablePointer<mp_limb_t>, UnsafeMutablePointer<mp_limb_t>, UnsafeMutablePointer<mp_limb_t>,
            UnsafeMutablePointer<mp_limb_t>
        ) -> Result?
    ) -> Result? {
        withUnsafeTemporaryAllocation(of: mp_limb_t.self, capacity: 2 * n) { first -> Result? in
            withUnsafeTemporaryAllocation(of: mp_limb_t.self, capacity: 2 * n) { second -> Result? in
                withUnsafeTemporaryAllocation(of: mp_limb_t.self, capacity: n + 1) { third -> Result? in
                    withUnsafeTemporaryAllocation(of: mp_limb_t.self, capacity: n) { fourth -> Result? in
                        guard let a = first.baseAddress, let b = second.baseAddress, let c = third.baseAddress, let d = fourth.baseAddress
                        else { return nil }
                        return body(a, b, c, d)
                    }
                }
            }
        }
    }

    /// REDC: `result` = t · R⁻¹ mod n up to one multiple of n (below R), for t (2·limbCount
    /// limbs, destroyed) below R·n. Each step adds q·n with q = t[i] · (−n⁻¹) mod 2^64, which
    /// clears limb i; the carry of that step is kept in the cleared limb and all are added at the end.
    @inline(__always)
    private func montgomeryReduce(_ t: UnsafeMutablePointer<mp_limb_t>, into result: UnsafeMutablePointer<mp_limb_t>) {
        let n = limbCount
        for i in 0..<n {
            let q = t[i] &* negativeInverse
            t[i] = __gmpn_addmul_1(t + i, modulus, n, q)
        }
        if __gmpn_add_n(result, t + n, t, n) != 0 { _ = __gmpn_sub_n(result, result, modulus, n) }
    }

    /// Runs `body` with the `width`-byte big-endian form of `limbs` (`limbCount` limbs, in a
    /// stack buffer); nil when the value needs more than `width` bytes (I2OSP's "integer too large").
    static func withBigEndianBytes<Result>(
        _ limbs: UnsafePointer<mp_limb_t>, limbCount: Int, width: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
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
