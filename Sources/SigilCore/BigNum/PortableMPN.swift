/// The `mpn` operations RSA verification runs (RFC 8017 §5.2.2, RSAVP1 in Montgomery form), named
/// after GMP's: one conformer per backend (``MPNBackend``), so the exponentiation of
/// ``RSAModulusLimbs`` is written once and specialized for each. Numbers are little-endian limbs in
/// buffers the caller owns; nothing allocates.
protocol MPNOperations {
    /// One limb.
    associatedtype Limb: FixedWidthInteger & UnsignedInteger

    /// The sign of a − b for two n-limb numbers: −1, 0 or 1 (`mpn_cmp`).
    static func compare(_ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Int

    /// r = a + b over n limbs; returns the carry out, 0 or 1 (`mpn_add_n`). r may be a or b.
    static func add(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb

    /// r = a − b over n limbs; returns the borrow out, 0 or 1 (`mpn_sub_n`). r may be a or b.
    static func subtract(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb

    /// r += a · q over n limbs; returns the limb carried out of r[n − 1] (`mpn_addmul_1`).
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb

    /// product (2n limbs) = a · b (n limbs each); product overlaps neither (`mpn_mul_n`).
    static func multiply(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int)

    /// product (2n limbs) = a² (n limbs); product does not overlap a (`mpn_sqr`).
    static func square(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int)

    /// remainder (n limbs) = a · R mod m, R = 2^(W·n) (W the limb width), for a < m (n limbs each,
    /// m's top limb nonzero), by one division (`mpn_tdiv_qr`), with `numerator` (2n limbs) and
    /// `quotient` (n + 1 limbs) as scratch; returns false and writes nothing when the backend has no
    /// division (the caller then takes the Montgomery product of a and R² mod m).
    static func shiftedRemainder(
        _ remainder: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, modulus m: UnsafePointer<Limb>, _ n: Int,
        numerator: UnsafeMutablePointer<Limb>, quotient: UnsafeMutablePointer<Limb>
    ) -> Bool
}

/// The ``MPNOperations`` in Swift, generic over the limb: what GMP's `mpn_cmp`, `mpn_add_n`,
/// `mpn_sub_n`, `mpn_addmul_1`, `mpn_mul_n` and `mpn_sqr` do (schoolbook products), and no
/// division. The backend of builds without GMP (Embedded Swift: WebAssembly, the small native
/// verifier) and ``MPNBackend/portable`` in the regular build.
///
/// Builds run it on the machine word (`UInt`: 64 bits on x86-64 and arm64; 32 bits on wasm32,
/// whose 64 × 64 → 128-bit product would be a library call, `__multi3`); the tests run both
/// `UInt32` and `UInt64` limbs against GMP on x86-64.
///
/// Variable time in the lengths only; every operation here runs on public values (n, e, s).
enum PortableMPN<Limb: FixedWidthInteger & UnsignedInteger>: MPNOperations {
    @inline(__always)
    static func compare(_ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Int {
        var i = n - 1
        while i >= 0 {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i -= 1
        }
        return 0
    }

    @inline(__always)
    static func add(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        var carry: Limb = 0
        for i in 0..<n {
            let (s1, c1) = a[i].addingReportingOverflow(b[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            r[i] = s2
            carry = (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
        }
        return carry
    }

    @inline(__always)
    static func subtract(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        var borrow: Limb = 0
        for i in 0..<n {
            let (d1, b1) = a[i].subtractingReportingOverflow(b[i])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            r[i] = d2
            borrow = (b1 ? 1 : 0) &+ (b2 ? 1 : 0)
        }
        return borrow
    }

    @inline(__always)
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        var carry: Limb = 0
        for i in 0..<n {
            let (high, low) = a[i].multipliedFullWidth(by: q)
            let (s1, c1) = Limb(truncatingIfNeeded: low).addingReportingOverflow(r[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            r[i] = s2
            // high ≤ 2^W − 2, so adding the two carries never overflows.
            carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
        }
        return carry
    }

    /// Schoolbook: one ``addMultiple(_:_:_:_:)`` row per limb of b.
    @inline(__always)
    static func multiply(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) {
        product.update(repeating: 0, count: 2 * n)
        for i in 0..<n {
            product[n + i] = addMultiple(product + i, a, n, b[i])
        }
    }

    /// The products aᵢ·aⱼ with i < j once (n(n − 1)/2 limb products instead of n²), doubled by a
    /// one-bit shift, then the squares aᵢ² added on the diagonal, in the same pass as the shift.
    @inline(__always)
    static func square(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int) {
        product.update(repeating: 0, count: 2 * n)
        // Row i adds aᵢ·(aᵢ₊₁ … aₙ₋₁) at limb 2i + 1; its carry lands in limb n + i, which no
        // earlier row reached.
        var i = 0
        while i < n - 1 {
            product[n + i] = addMultiple(product + (2 * i + 1), a + (i + 1), n - i - 1, a[i])
            i += 1
        }
        // The off-diagonal sum is below a²/2 < 2^(2Wn − 1), so its double fits in 2n limbs; a² is
        // below 2^(2Wn), so the last carry is zero.
        let topShift = Limb(Limb.bitWidth - 1)
        var shifted: Limb = 0  // the bit shifted out of the limb below
        // The carry into the next pair is 0 or 1: a sum that overflows leaves at most 2^W − 2,
        // to which a carry of 1 cannot overflow again.
        var carry: Limb = 0
        for j in 0..<n {
            let (high, low) = a[j].multipliedFullWidth(by: a[j])
            let p0 = product[2 * j]
            let p1 = product[2 * j + 1]
            let d0 = p0 << 1 | shifted
            let d1 = p1 << 1 | p0 >> topShift
            shifted = p1 >> topShift
            let (s0, c0) = d0.addingReportingOverflow(Limb(truncatingIfNeeded: low))
            let (t0, e0) = s0.addingReportingOverflow(carry)
            let (s1, c1) = d1.addingReportingOverflow(high)
            let (t1, e1) = s1.addingReportingOverflow((c0 ? 1 : 0) &+ (e0 ? 1 : 0))
            product[2 * j] = t0
            product[2 * j + 1] = t1
            carry = (c1 ? 1 : 0) &+ (e1 ? 1 : 0)
        }
    }

    /// No division in Swift: RSA verification enters Montgomery form through R² mod n instead.
    @inline(__always)
    static func shiftedRemainder(
        _ remainder: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, modulus m: UnsafePointer<Limb>, _ n: Int,
        numerator: UnsafeMutablePointer<Limb>, quotient: UnsafeMutablePointer<Limb>
    ) -> Bool { false }
}
