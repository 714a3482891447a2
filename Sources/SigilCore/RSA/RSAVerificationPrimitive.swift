#if !hasFeature(Embedded)
import CGMP
#endif

/// RSAVP1 (RFC 8017 §5.2.2), m = s^e mod n, on GMP's `mpn` layer over limbs prepared once per
/// key: no `mpz_t`, no heap allocation per verification (every intermediate lives in one stack
/// buffer), no per-call conversion of n, −n⁻¹ mod 2^64 computed once. Left-to-right binary
/// exponentiation in Montgomery form: for e = 65537, 16 squarings and one multiplication, each
/// followed by a Montgomery reduction (n calls of `mpn_addmul_1`, what GMP's own `mpz_powm` does
/// internally). Measured with callgrind against `mpz_powm` and against plain division
/// (`mpn_tdiv_qr`) for the reduction: see the contract comments below.
///
/// Variable time: n, e and s are public.
///
/// The `mpn` operations come from GMP in the regular build and from ``PortableMPN`` (Swift) in
/// Embedded Swift, which links no C; both on limbs of the machine word (`UInt`: 64 bits on x86-64
/// and arm64, GMP's `mp_limb_t` there; 32 bits on wasm32, where a 64 × 64 → 128-bit product would
/// be a library call). Without GMP's division, s·R mod n is the Montgomery product of s and
/// R² mod n, which the key computes once (``rSquared``).
final class RSAModulusLimbs: @unchecked Sendable {
    /// One limb: the machine word.
    typealias Limb = UInt

    /// n as little-endian limbs, the top limb nonzero (`mpn_tdiv_qr` requires it).
    let modulus: UnsafeMutablePointer<Limb>
    /// e as little-endian limbs, the top limb nonzero.
    let exponent: UnsafeMutablePointer<Limb>
    let limbCount: Int
    let exponentLimbCount: Int
    /// The bit length of e (≥ 2, since e ≥ 3).
    let exponentBits: Int
    /// −n⁻¹ mod 2^64, for Montgomery reduction.
    let negativeInverse: Limb
    #if hasFeature(Embedded)
    /// R² mod n (R = 2^(limb width · limbCount)), for entering Montgomery form without a division.
    let rSquared: UnsafeMutablePointer<Limb>
    #endif

    /// n and e as minimal big-endian bytes (no leading zero byte; e ≥ 3 and odd, n odd and above e).
    init(modulus n: [UInt8], exponent e: [UInt8]) {
        limbCount = RSAModulusLimbs.limbCount(forBytes: n.count)
        exponentLimbCount = RSAModulusLimbs.limbCount(forBytes: e.count)
        // One allocation for all.
        #if hasFeature(Embedded)
        modulus = .allocate(capacity: 2 * limbCount + exponentLimbCount)
        rSquared = modulus + limbCount + exponentLimbCount
        #else
        modulus = .allocate(capacity: limbCount + exponentLimbCount)
        #endif
        exponent = modulus + limbCount
        RSAModulusLimbs.load(n, into: modulus, limbCount: limbCount)
        RSAModulusLimbs.load(e, into: exponent, limbCount: exponentLimbCount)
        let top = exponent[exponentLimbCount - 1]
        exponentBits = (exponentLimbCount - 1) * Limb.bitWidth + (Limb.bitWidth - top.leadingZeroBitCount)
        // n⁻¹ mod 2^64 by Newton's iteration (n is odd): n itself is an inverse mod 2^3, and each
        // step doubles the bits that are right.
        let low = modulus[0]
        var inverse = low
        for _ in 0..<5 { inverse = inverse &* (2 &- low &* inverse) }
        negativeInverse = 0 &- inverse
        #if hasFeature(Embedded)
        computeRSquared()
        #endif
    }

    #if hasFeature(Embedded)
    /// Fills ``rSquared`` with R² mod n: 2^(b−1) < n (b the bit length of n) doubled modulo n up to
    /// R mod n and once more to 2R mod n, the Montgomery form of 2; then 2 raised to the power
    /// W·limbCount (W the limb width) in Montgomery form by left-to-right square-and-double, which
    /// is 2^(W·limbCount)·R = R² mod n. A few dozen doublings and one squaring per bit of
    /// W·limbCount (at most 13 for 4,096 bits) per key.
    private func computeRSquared() {
        let n = limbCount
        let width = Limb.bitWidth
        let top = modulus[n - 1]
        let bits = (n - 1) * width + (width - top.leadingZeroBitCount)
        _ = RSAModulusLimbs.withScratch(limbs: n) { y, product, _, _ -> Bool? in
            y.update(repeating: 0, count: n)
            y[(bits - 1) / width] = 1 << Limb((bits - 1) % width)
            // 2^(b−1) → 2^(W·n) = R mod n → 2R mod n.
            for _ in 0..<(n * width - bits + 2) { doubleModN(y) }
            let power = n * width
            var bit = Limb.bitWidth - 1 - power.leadingZeroBitCount - 1  // below the top bit of W·n
            while bit >= 0 {
                // y < n, so y² < n² and REDC(y²) < 2n: one subtraction keeps y below n.
                PortableMPN.multiply(product, y, y, n)
                montgomeryReduce(product, into: y)
                if PortableMPN.compare(y, modulus, n) >= 0 { _ = PortableMPN.subtract(y, y, modulus, n) }
                if (power >> bit) & 1 == 1 { doubleModN(y) }
                bit -= 1
            }
            rSquared.update(from: y, count: n)
            return true
        }
    }

    /// x = 2x mod n for x < n (n limbs).
    private func doubleModN(_ x: UnsafeMutablePointer<Limb>) {
        let n = limbCount
        let carry = PortableMPN.add(x, x, x, n)
        if carry != 0 || PortableMPN.compare(x, modulus, n) >= 0 { _ = PortableMPN.subtract(x, x, modulus, n) }
    }
    #endif

    deinit { modulus.deallocate() }

    static func limbCount(forBytes count: Int) -> Int { (count + MemoryLayout<Limb>.size - 1) / MemoryLayout<Limb>.size }

    /// Big-endian bytes (at most limbCount limbs' worth) into little-endian limbs, zero-filled.
    static func load(_ bytes: [UInt8], into limbs: UnsafeMutablePointer<Limb>, limbCount: Int) {
        let width = MemoryLayout<Limb>.size
        bytes.withUnsafeBufferPointer { source in
            var position = source.count  // one past the least significant byte not yet read
            for i in 0..<limbCount {
                var limb: Limb = 0
                let low = max(0, position - width)
                for j in low..<position { limb = limb << 8 | Limb(source[j]) }
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
    func withPowerVartime<Result>(of signature: [UInt8], _ body: (UnsafePointer<Limb>) -> Result) -> Result? {
        let n = limbCount
        guard RSAModulusLimbs.limbCount(forBytes: signature.count) <= n else { return nil }
        // sR (n limbs) | x (n); product (2n); quotient (n + 1); s (n).
        return RSAModulusLimbs.withScratch(limbs: n) { base, product, quotient, s -> Result? in
            let sR = base
            let x = base + n
            RSAModulusLimbs.load(signature, into: s, limbCount: n)
            guard RSAModulusLimbs.compare(s, modulus, n) < 0 else { return nil }
            #if hasFeature(Embedded)
            // sR = s · R mod n as the Montgomery product of s and R² mod n (then fully reduced).
            PortableMPN.multiply(product, s, rSquared, n)
            montgomeryReduce(product, into: sR)
            if PortableMPN.compare(sR, modulus, n) >= 0 { _ = PortableMPN.subtract(sR, sR, modulus, n) }
            _ = quotient
            #else
            // sR = s · R mod n: divide s · R (s in the high half of a 2n-limb number) by n.
            product.update(repeating: 0, count: n)
            (product + n).update(from: s, count: n)
            __gmpn_tdiv_qr(quotient, sR, 0, product, 2 * n, modulus, n)
            #endif
            x.update(from: sR, count: n)
            // The top bit of e is the x = sR above; the rest from the most significant down, the
            // last (bit 0) after the loop.
            var bit = exponentBits - 2
            while bit >= 1 {
                RSAModulusLimbs.square(product, x, n)
                montgomeryReduce(product, into: x)
                let limb = exponent[bit / Limb.bitWidth]
                if (limb >> Limb(bit % Limb.bitWidth)) & 1 == 1 {
                    RSAModulusLimbs.multiply(product, x, sR, n)
                    montgomeryReduce(product, into: x)
                }
                bit -= 1
            }
            RSAModulusLimbs.square(product, x, n)
            montgomeryReduce(product, into: x)
            if exponent[0] & 1 == 1 {
                // x < R and s < n, so x·s < R·n and REDC(x·s) = s^e mod n up to one n.
                RSAModulusLimbs.multiply(product, x, s, n)
            } else {
                // An even e (not an RSA key; kept general): REDC(x) leaves Montgomery form.
                product.update(from: x, count: n)
                (product + n).update(repeating: 0, count: n)
            }
            montgomeryReduce(product, into: x)
            if RSAModulusLimbs.compare(x, modulus, n) >= 0 { _ = RSAModulusLimbs.subtract(x, x, modulus, n) }
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
            UnsafeMutablePointer<Limb>, UnsafeMutablePointer<Limb>, UnsafeMutablePointer<Limb>,
            UnsafeMutablePointer<Limb>
        ) -> Result?
    ) -> Result? {
        withUnsafeTemporaryAllocation(of: Limb.self, capacity: 2 * n) { first -> Result? in
            withUnsafeTemporaryAllocation(of: Limb.self, capacity: 2 * n) { second -> Result? in
                withUnsafeTemporaryAllocation(of: Limb.self, capacity: n + 1) { third -> Result? in
                    withUnsafeTemporaryAllocation(of: Limb.self, capacity: n) { fourth -> Result? in
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
    private func montgomeryReduce(_ t: UnsafeMutablePointer<Limb>, into result: UnsafeMutablePointer<Limb>) {
        let n = limbCount
        for i in 0..<n {
            let q = t[i] &* negativeInverse
            t[i] = RSAModulusLimbs.addMultiple(t + i, modulus, n, q)
        }
        if RSAModulusLimbs.add(result, t + n, t, n) != 0 { _ = RSAModulusLimbs.subtract(result, result, modulus, n) }
    }

    /// Runs `body` with the `width`-byte big-endian form of `limbs` (`limbCount` limbs, in a
    /// stack buffer); nil when the value needs more than `width` bytes (I2OSP's "integer too large").
    static func withBigEndianBytes<Result>(
        _ limbs: UnsafePointer<Limb>, limbCount: Int, width: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        let size = MemoryLayout<Limb>.size
        let total = limbCount * size
        guard width >= 0, width <= total else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer -> Result? in
            guard let base = buffer.baseAddress else { return nil }
            let raw = UnsafeMutableRawPointer(base)
            for i in 0..<limbCount {
                raw.storeBytes(of: limbs[i].bigEndian, toByteOffset: (limbCount - 1 - i) * size, as: Limb.self)
            }
            for i in 0..<(total - width) where base[i] != 0 { return nil }
            return body(UnsafeBufferPointer(start: base + (total - width), count: width))
        }
    }
}

/// The `mpn` operations of ``RSAModulusLimbs``: GMP's in the regular build, ``PortableMPN``'s in
/// Embedded Swift.
extension RSAModulusLimbs {
    #if hasFeature(Embedded)
    @inline(__always)
    static func compare(_ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Int { PortableMPN.compare(a, b, n) }
    @inline(__always)
    static func add(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        PortableMPN.add(r, a, b, n)
    }
    @inline(__always)
    static func subtract(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        PortableMPN.subtract(r, a, b, n)
    }
    @inline(__always)
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        PortableMPN.addMultiple(r, a, n, q)
    }
    @inline(__always)
    static func multiply(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) {
        PortableMPN.multiply(product, a, b, n)
    }
    @inline(__always)
    static func square(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int) {
        PortableMPN.multiply(product, a, a, n)
    }
    #else
    @inline(__always)
    static func compare(_ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Int { Int(__gmpn_cmp(a, b, n)) }
    @inline(__always)
    static func add(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        __gmpn_add_n(r, a, b, n)
    }
    @inline(__always)
    static func subtract(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        __gmpn_sub_n(r, a, b, n)
    }
    @inline(__always)
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        __gmpn_addmul_1(r, a, n, q)
    }
    @inline(__always)
    static func multiply(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) {
        __gmpn_mul_n(product, a, b, n)
    }
    @inline(__always)
    static func square(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int) { __gmpn_sqr(product, a, n) }
    #endif
}
