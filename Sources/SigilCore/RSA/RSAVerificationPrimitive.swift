/// RSAVP1 (RFC 8017 §5.2.2), m = s^e mod n, on `mpn` operations over limbs prepared once per
/// key: no `mpz_t`, no heap allocation per verification (every intermediate lives in stack
/// buffers), no per-call conversion of n, −n⁻¹ mod 2^W computed once. Left-to-right binary
/// exponentiation in Montgomery form: for e = 65537, 16 squarings and one multiplication, each
/// followed by a Montgomery reduction (n calls of `mpn_addmul_1`, what GMP's own `mpz_powm` does
/// internally). Measured with callgrind against `mpz_powm` and against plain division
/// (`mpn_tdiv_qr`) for the reduction: see the contract comments below.
///
/// Variable time: n, e and s are public.
///
/// The exponentiation is written once over ``MPNOperations`` and runs on the backend
/// ``MPNBackend`` selects: GMP's `mpn` functions (``GMPMPN``, the regular build's default) or
/// ``PortableMPN`` (Swift; the only one in Embedded Swift, which links no C). Keys use limbs of the
/// machine word (`UInt`: 64 bits on x86-64 and arm64, GMP's `mp_limb_t` there; 32 bits on wasm32,
/// where a 64 × 64 → 128-bit product would be a library call); the tests also run other limb
/// widths through the portable path on x86-64. Both backends enter Montgomery form by one
/// division per verification, so a key holds nothing backend-specific.
final class RSAModulusLimbs<Limb: FixedWidthInteger & UnsignedInteger>: @unchecked Sendable {
    /// n as little-endian limbs, the top limb nonzero (`mpn_tdiv_qr` requires it).
    let modulus: UnsafeMutablePointer<Limb>
    /// e as little-endian limbs, the top limb nonzero.
    let exponent: UnsafeMutablePointer<Limb>
    let limbCount: Int
    let exponentLimbCount: Int
    /// The bit length of e (≥ 2, since e ≥ 3).
    let exponentBits: Int
    /// −n⁻¹ mod 2^W (W the limb width), for Montgomery reduction.
    let negativeInverse: Limb

    /// n and e as minimal big-endian bytes (no leading zero byte; e ≥ 3 and odd, n odd).
    init(modulus n: [UInt8], exponent e: [UInt8]) {
        limbCount = RSAModulusLimbs.limbCount(forBytes: n.count)
        exponentLimbCount = RSAModulusLimbs.limbCount(forBytes: e.count)
        // One allocation for both.
        modulus = .allocate(capacity: limbCount + exponentLimbCount)
        exponent = modulus + limbCount
        RSAModulusLimbs.load(n, into: modulus, limbCount: limbCount)
        RSAModulusLimbs.load(e, into: exponent, limbCount: exponentLimbCount)
        let top = exponent[exponentLimbCount - 1]
        exponentBits = (exponentLimbCount - 1) * Limb.bitWidth + (Limb.bitWidth - top.leadingZeroBitCount)
        // n⁻¹ mod 2^W by Newton's iteration (n is odd): n itself is an inverse mod 2^3, and each
        // step doubles the bits that are right (5 steps: 96 ≥ 64).
        let low = modulus[0]
        var inverse = low
        for _ in 0..<5 { inverse = inverse &* (2 &- low &* inverse) }
        negativeInverse = 0 &- inverse
    }

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

    /// Runs `body` with m = s^e mod n as `limbCount` little-endian limbs, computed with
    /// `Operations`, for a signature of exactly k = ⌈bits(n) / 8⌉ bytes; nil (and `body` not
    /// called) when s ≥ n (RFC 8017 §5.2.2 step 1).
    func withPowerVartime<Operations: MPNOperations, Result>(
        of signature: [UInt8], using _: Operations.Type, _ body: (UnsafePointer<Limb>) -> Result
    ) -> Result? where Operations.Limb == Limb {
        withPowerVartime(of: signature, { self.powerVartime($0, $1, $2, $3, using: Operations.self) }, body)
    }

    /// Loads the signature into scratch buffers, runs `exponentiate` (a ``powerVartime(_:_:_:_:using:)``)
    /// and, when s < n, `body` on the result: the part generic over `Result`, small, so each
    /// caller's specialization holds no copy of the exponentiation.
    @inline(__always)
    func withPowerVartime<Result>(
        of signature: [UInt8],
        _ exponentiate: (
            UnsafePointer<Limb>, UnsafeMutablePointer<Limb>, UnsafeMutablePointer<Limb>, UnsafeMutablePointer<Limb>
        ) -> Bool,
        _ body: (UnsafePointer<Limb>) -> Result
    ) -> Result? {
        let n = limbCount
        guard RSAModulusLimbs.limbCount(forBytes: signature.count) <= n else { return nil }
        // s (n limbs); sR | x (n + n); product (2n); division scratch (n + 1).
        return RSAModulusLimbs.withScratch(limbs: n) { base, product, scratch, s -> Result? in
            RSAModulusLimbs.load(signature, into: s, limbCount: n)
            guard exponentiate(s, base, product, scratch) else { return nil }
            return body(base + n)
        }
    }

    /// x = s^e mod n into `base + n` (n limbs), with `base` (its first n limbs: s·R mod n),
    /// `product` (2n limbs) and `scratch` (n + 1 limbs) as working space; false (nothing
    /// computed) when s ≥ n. One copy per backend (never inlined into callers).
    ///
    /// Montgomery form with R = 2^(W·limbCount): s·R mod n by one division, then left-to-right
    /// binary exponentiation where each product is reduced by `montgomeryReduce` (values stay
    /// below R, "almost reduced"). The multiplication of the last bit (e is odd) takes s itself
    /// instead of s·R, so its reduction leaves Montgomery form at once (REDC(x·s) = s^e for
    /// x = s^(e−1)·R): no separate reduction out, then one conditional subtraction.
    @inline(never)
    func powerVartime<Operations: MPNOperations>(
        _ s: UnsafePointer<Limb>, _ base: UnsafeMutablePointer<Limb>, _ product: UnsafeMutablePointer<Limb>,
        _ scratch: UnsafeMutablePointer<Limb>, using _: Operations.Type
    ) -> Bool where Operations.Limb == Limb {
        let n = limbCount
        let sR = base
        let x = base + n
        guard Operations.compare(s, modulus, n) < 0 else { return false }
        // sR = s · R mod n, by division.
        Operations.shiftedRemainder(sR, s, modulus: modulus, n, numerator: product, scratch: scratch)
        x.update(from: sR, count: n)
        // The top bit of e is the x = sR above; then the bits from the most significant down:
        // after the squaring for bit b, x = s^(2·⌊e / 2^(b+1)⌋)·R, and a set bit above bit 0
        // multiplies by sR. Bit 0 is taken by leaving Montgomery form below.
        var bit = exponentBits - 2
        while true {
            Operations.square(product, x, n)
            montgomeryReduce(product, into: x, Operations.self)
            if bit == 0 { break }
            if (exponent[bit / Limb.bitWidth] >> Limb(bit % Limb.bitWidth)) & 1 == 1 {
                Operations.multiply(product, x, sR, n)
                montgomeryReduce(product, into: x, Operations.self)
            }
            bit -= 1
        }
        if exponent[0] & 1 == 1 {
            // x < R and s < n, so x·s < R·n and REDC(x·s) = s^e mod n up to one n.
            Operations.multiply(product, x, s, n)
        } else {
            // An even e (not an RSA key; kept general): REDC(x) leaves Montgomery form.
            product.update(from: x, count: n)
            (product + n).update(repeating: 0, count: n)
        }
        montgomeryReduce(product, into: x, Operations.self)
        if Operations.compare(x, modulus, n) >= 0 { _ = Operations.subtract(x, x, modulus, n) }
        return true
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
    /// limbs, destroyed) below R·n. Each step adds q·n with q = t[i] · (−n⁻¹) mod 2^W, which
    /// clears limb i; the carry of that step is kept in the cleared limb and all are added at the end.
    @inline(__always)
    private func montgomeryReduce<Operations: MPNOperations>(
        _ t: UnsafeMutablePointer<Limb>, into result: UnsafeMutablePointer<Limb>, _: Operations.Type
    ) where Operations.Limb == Limb {
        let n = limbCount
        for i in 0..<n {
            let q = t[i] &* negativeInverse
            t[i] = Operations.addMultiple(t + i, modulus, n, q)
        }
        if Operations.add(result, t + n, t, n) != 0 { _ = Operations.subtract(result, result, modulus, n) }
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

/// The machine-word key's RSAVP1 on the backend selected now (``MPNBackend``).
extension RSAModulusLimbs where Limb == UInt {
    /// ``withPowerVartime(of:using:_:)`` on GMP's `mpn` functions or on ``PortableMPN``, as
    /// ``MPNBackend/current`` says (read once per call); ``PortableMPN`` alone in Embedded Swift.
    func withPowerVartime<Result>(of signature: [UInt8], _ body: (UnsafePointer<Limb>) -> Result) -> Result? {
        withPowerVartime(
            of: signature,
            { s, base, product, scratch in
                #if hasFeature(Embedded)
                return powerVartime(s, base, product, scratch, using: PortableMPN<UInt>.self)
                #else
                if mpnSelection.usesPortable { return powerVartime(s, base, product, scratch, using: PortableMPN<UInt>.self) }
                return powerVartime(s, base, product, scratch, using: GMPMPN.self)
                #endif
            }, body)
    }
}
