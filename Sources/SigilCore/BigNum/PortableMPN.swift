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
    /// m's top limb nonzero): the entry into Montgomery form, by one division (`mpn_tdiv_qr`).
    /// `numerator` (2n limbs) and `scratch` (n + 1 limbs) are the division's working space.
    static func shiftedRemainder(
        _ remainder: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, modulus m: UnsafePointer<Limb>, _ n: Int,
        numerator: UnsafeMutablePointer<Limb>, scratch: UnsafeMutablePointer<Limb>
    )
}

/// A limb of ``PortableMPN``: an unsigned integer with one of twice its width (``Wide``) that
/// holds a limb product plus two limbs, a · b + c + d ≤ (2^W − 1)² + 2(2^W − 1) = 2^(2W) − 1, so
/// every carry is a plain shift (no overflow flags, no branches on carries).
protocol PortableLimb: FixedWidthInteger & UnsignedInteger {
    /// The unsigned integer of twice the width.
    associatedtype Wide: FixedWidthInteger & UnsignedInteger
}

/// The machine word, what builds run on: products in `UInt128` on 64-bit targets, in `UInt64` on
/// 32-bit ones (wasm32). The tests add `UInt8`, `UInt16`, `UInt32` and `UInt64` (no build links
/// their conformances).
extension UInt: PortableLimb {
    #if _pointerBitWidth(_64)
    typealias Wide = UInt128
    #else
    typealias Wide = UInt64
    #endif
}

/// The ``MPNOperations`` in Swift, generic over the limb: what GMP's `mpn_cmp`, `mpn_add_n`,
/// `mpn_sub_n`, `mpn_addmul_1`, `mpn_submul_1`, `mpn_mul_n`, `mpn_sqr` and `mpn_tdiv_qr` do
/// (schoolbook products, Knuth's long division). The backend of builds without GMP (Embedded
/// Swift: WebAssembly, the small native verifier) and ``MPNBackend/portable`` in the regular build.
///
/// Builds run it on the machine word (`UInt`: 64 bits on x86-64 and arm64, products in `UInt128`;
/// 32 bits on wasm32, whose 64 × 64 → 128-bit product would be a library call, `__multi3`, and
/// whose 32 × 32 → 64-bit product is one instruction); the tests run `UInt32` and `UInt64` limbs
/// against GMP on x86-64, and `UInt8` and `UInt16` limbs for the division's rare corrections.
///
/// Variable time; every operation here runs on public values (n, e, s).
enum PortableMPN<Limb: PortableLimb>: MPNOperations {
    typealias Wide = Limb.Wide

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
        var carry: Wide = 0
        for i in 0..<n {
            let sum = Wide(a[i]) &+ Wide(b[i]) &+ carry
            r[i] = Limb(truncatingIfNeeded: sum)
            carry = sum &>> Limb.bitWidth
        }
        return Limb(truncatingIfNeeded: carry)
    }

    @inline(__always)
    static func subtract(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        var borrow: Wide = 0
        for i in 0..<n {
            // Wide wrap-around: a borrow leaves all ones in the upper half, whose low bit is the borrow.
            let difference = Wide(a[i]) &- Wide(b[i]) &- borrow
            r[i] = Limb(truncatingIfNeeded: difference)
            borrow = (difference &>> Limb.bitWidth) & 1
        }
        return Limb(truncatingIfNeeded: borrow)
    }

    @inline(__always)
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        let factor = Wide(q)
        var carry: Wide = 0
        for i in 0..<n {
            let t = Wide(a[i]) &* factor &+ Wide(r[i]) &+ carry
            r[i] = Limb(truncatingIfNeeded: t)
            carry = t &>> Limb.bitWidth
        }
        return Limb(truncatingIfNeeded: carry)
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
        // below 2^(2Wn), so the last carry is zero. Per limb pair: the doubled pair (two limbs
        // with the bit shifted in from below) plus aⱼ² plus the carry, in two wide sums.
        let topShift = Limb.bitWidth - 1
        var shifted: Limb = 0  // the bit shifted out of the limb below
        var carry: Wide = 0
        for j in 0..<n {
            let square = Wide(a[j]) &* Wide(a[j])
            let p0 = product[2 * j]
            let p1 = product[2 * j + 1]
            let low = Wide(p0 &<< 1 | shifted) &+ Wide(Limb(truncatingIfNeeded: square)) &+ carry
            let high = Wide(p1 &<< 1 | p0 &>> topShift) &+ (square &>> Limb.bitWidth) &+ (low &>> Limb.bitWidth)
            shifted = p1 &>> topShift
            product[2 * j] = Limb(truncatingIfNeeded: low)
            product[2 * j + 1] = Limb(truncatingIfNeeded: high)
            carry = high &>> Limb.bitWidth
        }
    }

    /// r −= a · q over n limbs; returns the limb borrowed out of r[n − 1] (as `mpn_submul_1`).
    @inline(__always)
    static func subtractMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        let factor = Wide(q)
        var borrow: Limb = 0
        for i in 0..<n {
            // a[i]·q + borrow < 2^(2W); its high limb plus the borrow of the subtraction is the
            // borrow out (the subtracted amount less r[i], over 2^W), which fits one limb.
            let t = Wide(a[i]) &* factor &+ Wide(borrow)
            let (difference, borrowed) = r[i].subtractingReportingOverflow(Limb(truncatingIfNeeded: t))
            r[i] = difference
            borrow = Limb(truncatingIfNeeded: t &>> Limb.bitWidth) &+ (borrowed ? 1 : 0)
        }
        return borrow
    }

    /// Schoolbook long division (Knuth, TAOCP vol. 2, §4.3.1, Algorithm D), the remainder only: m
    /// and the numerator a·R shifted left until m's top bit is set; each of the n quotient limbs
    /// estimated from the numerator's top two limbs and m's top limb (one W-bit division of a
    /// 2W-bit number, `dividingFullWidth`), corrected with m's second limb (at most twice), then
    /// q̂·m subtracted, and m added back once in the rare case q̂ was still one too large; the
    /// remainder shifted back. n rows of ``subtractMultiple(_:_:_:_:)``: about n² limb products,
    /// less than a Montgomery multiplication. Since a < m, a shifted still fits n limbs and the
    /// quotient has n limbs (not n + 1), so the numerator needs no extra top limb.
    ///
    /// The division never traps: it runs only when the top limb is below m's, so the quotient
    /// fits one limb.
    @inline(__always)
    static func shiftedRemainder(
        _ remainder: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, modulus m: UnsafePointer<Limb>, _ n: Int,
        numerator u: UnsafeMutablePointer<Limb>, scratch v: UnsafeMutablePointer<Limb>
    ) {
        let width = Limb.bitWidth
        let shift = m[n - 1].leadingZeroBitCount
        // v = m << shift (n limbs; its top bit set). u = (a·R) << shift: n zero limbs, then a << shift
        // (n limbs: a < m, so a << shift < v < 2^(W·n)). Smart shifts: a shift by the full width
        // gives zero.
        for i in stride(from: n - 1, through: 1, by: -1) { v[i] = m[i] << shift | m[i - 1] >> (width - shift) }
        v[0] = m[0] << shift
        u.update(repeating: 0, count: n)
        for i in stride(from: n - 1, through: 1, by: -1) { u[n + i] = a[i] << shift | a[i - 1] >> (width - shift) }
        u[n] = a[0] << shift
        let top = v[n - 1]
        // Quotient limbs n − 1 … 0; u[j..j+n] < 2^W·v at each step (first: u[n..2n−1] < v).
        var j = n - 1
        while j >= 0 {
            // q̂ = ⌊(u[j+n]·2^W + u[j+n−1]) / v[n−1]⌋, capped at 2^W − 1; r̂ the remainder.
            let high = u[j + n]
            let next = u[j + n - 1]
            var quotient: Limb
            var rest: Limb
            var restOverflowed = false
            if high >= top {
                // high = top (u[j..j+n] < 2^W·v): the cap; r̂ = high·2^W + next − (2^W − 1)·top = next + top.
                quotient = Limb.max
                (rest, restOverflowed) = next.addingReportingOverflow(top)
            } else {
                (quotient, rest) = top.dividingFullWidth((high: high, low: Limb.Magnitude(truncatingIfNeeded: next)))
            }
            // While q̂·v[n−2] > r̂·2^W + u[j+n−2], q̂ is too large (at most twice); with one limb, q̂ is exact.
            if n >= 2 {
                let second = v[n - 2]
                let below = u[j + n - 2]
                while !restOverflowed {
                    let (productHigh, productLow) = quotient.multipliedFullWidth(by: second)
                    let low = Limb(truncatingIfNeeded: productLow)
                    guard productHigh > rest || (productHigh == rest && low > below) else { break }
                    quotient -= 1
                    (rest, restOverflowed) = rest.addingReportingOverflow(top)
                }
            }
            // u[j..j+n] −= q̂·v; below zero means q̂ was one too large: add v back once.
            let borrow = subtractMultiple(u + j, v, n, quotient)
            let (difference, negative) = u[j + n].subtractingReportingOverflow(borrow)
            u[j + n] = difference
            if negative { u[j + n] &+= add(u + j, u + j, v, n) }
            j -= 1
        }
        // The remainder is u[0..n−1] (u[n] is zero), shifted back.
        for i in 0..<n { remainder[i] = u[i] >> shift | u[i + 1] << (width - shift) }
    }
}
