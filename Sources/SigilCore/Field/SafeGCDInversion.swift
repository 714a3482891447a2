/// Modular inversion by Bernstein–Yang "safegcd" divsteps (D. J. Bernstein and B.-Y. Yang, "Fast
/// constant-time gcd computation and modular inversion", TCHES 2019 issue 3), for the four prime
/// moduli of the Montgomery fields.
///
/// A divstep maps (δ, f, g), f odd, to (1 − δ, g, (g − f)/2) when δ > 0 and g is odd, to
/// (1 + δ, f, (g + f)/2) when only g is odd, and to (1 + δ, f, g/2) otherwise. Started from
/// (1, m, x), g reaches 0 and f reaches ±gcd(m, x) = ±1 within a bound that depends only on the
/// bit length (paper, Theorem 11.2: ⌊(49·d + 57)/17⌋ divsteps for d ≥ 46 bits: 741 for 256 bits,
/// 1,110 for 384). Sigil runs the "half-delta" variant (P. Wuille, "Bounds on divsteps iterations
/// in safegcd", github.com/sipa/safegcd-bounds): the same steps started from δ = 1/2, held here as
/// 2δ (start 1, updates 2 − 2δ and 2 + 2δ), whose computed bound for 0 ≤ g ≤ f ≤ M,
/// 2^23 ≤ M ≤ 2^3805, is ⌊(3787·log₂M + 2166)/1644⌋: 591 divsteps for 256 bits (10 batches
/// instead of 12) and 885 for 384 (15 instead of 18). The divsteps are run in batches of 62 on the low 64 bits of f and g, which is
/// all they look at; each batch yields a 2×2 matrix T with 2^62·(f′, g′) = T·(f, g) that is then
/// applied to the full f and g, and to (d, e), which track x⁻¹·f and x⁻¹·g modulo m (the
/// division by 2^62 is done mod m by first adding the multiple of m that clears the low 62
/// bits). At the end f = ±1 and d·f ≡ x⁻¹.
///
/// Numbers are held as signed 62-bit limbs (little-endian; limbs below the top in [0, 2^62), the
/// top limb signed), one more limb than the bits need so sums and the sign fit.
///
/// Two entry points: `invertedConstantTime` always runs the full bound of batches, with no
/// branch or memory index depending on the input (for k⁻¹ and the Z⁻¹ of signing: the nonce and
/// the point derived from it are secret). `invertedSafeGCDVartime` stops as soon as g is zero;
/// it is kept for comparison only: GMP's extended Euclid (`invertedVartime`, mpn_gcdext) takes
/// fewer instructions for public values (P-256: 10k against 32k by callgrind; the constant-time
/// safegcd takes 36k, Fermat 71k for p and 101k for n). Inputs and outputs are Montgomery form;
/// the inverse of zero is zero, as with the Fermat inversion.
enum SafeGCD {
    static let limbMask: Int64 = (1 << 62) - 1
    static let stepsPerBatch = 62

    /// The half-delta divstep bound (Wuille, see above) for a modulus below 2^bits, 0 ≤ g ≤ f,
    /// 23 ≤ bits ≤ 3805: ⌊(3787·bits + 2166)/1644⌋. This is what the constant-time inversion runs.
    static func halfDeltaDivstepBound(bits: Int) -> Int { (3787 * bits + 2166) / 1644 }

    /// Runs 62 half-delta divsteps on the low 64 bits of f and g from `delta` (= 2δ, odd); returns
    /// the transition matrix (u, v, q, r), with 2^62·f′ = u·f + v·g and 2^62·g′ = q·f + r·g, and
    /// updates `delta`.
    ///
    /// Branch-free: the case is chosen by masks. Entries stay within ±2^62 (each step doubles
    /// u, v and adds u, v into q, r: |u| + |v| and |q| + |r| at most 2^i after i steps).
    @inline(__always)
    static func divsteps(_ delta: inout Int64, _ f0: UInt64, _ g0: UInt64) -> (u: Int64, v: Int64, q: Int64, r: Int64) {
        var f = f0
        var g = g0
        var u: Int64 = 1
        var v: Int64 = 0
        var q: Int64 = 0
        var r: Int64 = 1
        var d = delta
        for _ in 0..<stepsPerBatch {
            // All ones when g is odd; all ones when δ > 0 (−δ negative; |δ| stays far below 2^62).
            let odd = 0 &- Int64(bitPattern: g & 1)
            let swap = odd & ((0 &- d) >> 63)
            let swapBits = UInt64(bitPattern: swap)
            // When swapping: (2δ, f, g, u, v, q, r) ← (−2δ, g, −f, q, r, −u, −v).
            d = (d ^ swap) &- swap
            let tf = (f ^ g) & swapBits
            f ^= tf
            g = ((g ^ tf) ^ swapBits) &- swapBits
            let tu = (u ^ q) & swap
            u ^= tu
            q = ((q ^ tu) ^ swap) &- swap
            let tv = (v ^ r) & swap
            v ^= tv
            r = ((r ^ tv) ^ swap) &- swap
            // g odd: g ← g + f (so (g − f_old)/2 after a swap, (g + f)/2 otherwise), then halve.
            // Halving g is tracked by doubling u and v instead of halving q and r.
            g = g &+ (f & UInt64(bitPattern: odd))
            q = q &+ (u & odd)
            r = r &+ (v & odd)
            g >>= 1
            u = u &<< 1
            v = v &<< 1
            // δ ← 1 ± δ, that is 2δ ← 2 ± 2δ (the sign already applied by the swap).
            d = d &+ 2
        }
        delta = d
        return (u, v, q, r)
    }

    /// (f, g) ← (u·f + v·g, q·f + r·g) / 2^62 over `count` signed 62-bit limbs (the divisions are
    /// exact: the divsteps cleared the low 62 bits).
    @inline(__always)
    static func updateFG(
        _ f: UnsafeMutablePointer<Int64>, _ g: UnsafeMutablePointer<Int64>, count: Int,
        _ t: (u: Int64, v: Int64, q: Int64, r: Int64)
    ) {
        let u = Int128(t.u)
        let v = Int128(t.v)
        let q = Int128(t.q)
        let r = Int128(t.r)
        // |u|, |v| ≤ 2^62 and |limb| < 2^63: each product is below 2^125 and the sums below 2^127,
        // so the wrapping operators never wrap.
        var cf = u &* Int128(f[0]) &+ v &* Int128(g[0])
        var cg = q &* Int128(f[0]) &+ r &* Int128(g[0])
        cf >>= 62
        cg >>= 62
        for i in 1..<count {
            cf = cf &+ u &* Int128(f[i]) &+ v &* Int128(g[i])
            cg = cg &+ q &* Int128(f[i]) &+ r &* Int128(g[i])
            f[i - 1] = Int64(truncatingIfNeeded: cf) & limbMask
            g[i - 1] = Int64(truncatingIfNeeded: cg) & limbMask
            cf >>= 62
            cg >>= 62
        }
        f[count - 1] = Int64(truncatingIfNeeded: cf)
        g[count - 1] = Int64(truncatingIfNeeded: cg)
    }

    /// (d, e) ← (u·d + v·e, q·d + r·e) / 2^62 mod m, keeping both in (−2m, m): a negative input
    /// first has m added (folded into the multiple of m), then the multiple of m that clears the
    /// low 62 bits is added before the exact shift. `mInverse` is m⁻¹ mod 2^62.
    @inline(__always)
    static func updateDE(
        _ d: UnsafeMutablePointer<Int64>, _ e: UnsafeMutablePointer<Int64>, modulus m: UnsafePointer<Int64>,
        mInverse: Int64, count: Int, _ t: (u: Int64, v: Int64, q: Int64, r: Int64)
    ) {
        let signD = d[count - 1] >> 63
        let signE = e[count - 1] >> 63
        // |md|, |me| ≤ 2^62 before the correction, in (−2^63, 2^62] after it.
        var md = (t.u & signD) &+ (t.v & signE)
        var me = (t.q & signD) &+ (t.r & signE)
        let u = Int128(t.u)
        let v = Int128(t.v)
        let q = Int128(t.q)
        let r = Int128(t.r)
        var cd = u &* Int128(d[0]) &+ v &* Int128(e[0])
        var ce = q &* Int128(d[0]) &+ r &* Int128(e[0])
        md = md &- ((mInverse &* Int64(truncatingIfNeeded: cd) &+ md) & limbMask)
        me = me &- ((mInverse &* Int64(truncatingIfNeeded: ce) &+ me) & limbMask)
        let bigMD = Int128(md)
        let bigME = Int128(me)
        // Bounded as in updateFG, with a third product of the same size.
        cd = cd &+ Int128(m[0]) &* bigMD
        ce = ce &+ Int128(m[0]) &* bigME
        cd >>= 62
        ce >>= 62
        for i in 1..<count {
            cd = cd &+ u &* Int128(d[i]) &+ v &* Int128(e[i]) &+ Int128(m[i]) &* bigMD
            ce = ce &+ q &* Int128(d[i]) &+ r &* Int128(e[i]) &+ Int128(m[i]) &* bigME
            d[i - 1] = Int64(truncatingIfNeeded: cd) & limbMask
            e[i - 1] = Int64(truncatingIfNeeded: ce) & limbMask
            cd >>= 62
            ce >>= 62
        }
        d[count - 1] = Int64(truncatingIfNeeded: cd)
        e[count - 1] = Int64(truncatingIfNeeded: ce)
    }

    /// Propagates carries so limbs below the top are in [0, 2^62) (the top limb keeps the sign).
    @inline(__always)
    static func normalize(_ x: UnsafeMutablePointer<Int64>, count: Int) {
        for i in 0..<(count - 1) {
            x[i + 1] = x[i + 1] &+ (x[i] >> 62)
            x[i] &= limbMask
        }
    }

    /// x ← x + m when `mask` is all ones (constant time).
    @inline(__always)
    static func addModulus(_ x: UnsafeMutablePointer<Int64>, _ m: UnsafePointer<Int64>, mask: Int64, count: Int) {
        for i in 0..<count { x[i] = x[i] &+ (m[i] & mask) }
        normalize(x, count: count)
    }

    /// x ← −x when `mask` is all ones (constant time).
    @inline(__always)
    static func negate(_ x: UnsafeMutablePointer<Int64>, mask: Int64, count: Int) {
        for i in 0..<count { x[i] = (x[i] ^ mask) &- mask }
        normalize(x, count: count)
    }
}

extension MontgomeryFieldElement {
    /// Signed 62-bit limbs needed for the modulus plus sign and headroom: 5 for 256 bits (310),
    /// 7 for 384 bits (434).
    @inline(__always)
    static var safeGCDLimbCount: Int { (64 * limbCount) / 62 + 1 }

    /// The inverse by safegcd, always running the full divstep bound: constant time in the value.
    /// The inverse of zero is zero.
    var invertedConstantTime: Self { safeGCDInverse(variableTime: false) }

    /// The inverse by safegcd, stopping as soon as the gcd is found: **variable time**, for public
    /// values only. Not used on any path (GMP's is faster, see above); kept for the benchmark's
    /// comparison and cross-checked by the tests. The inverse of zero is zero.
    var invertedSafeGCDVartime: Self { safeGCDInverse(variableTime: true) }

    @inline(__always)
    private func safeGCDInverse(variableTime: Bool) -> Self {
        let n = Self.safeGCDLimbCount
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: 5 * n) { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            let f = base
            let g = base + n
            let d = base + 2 * n
            let e = base + 3 * n
            let m = base + 4 * n
            // m and f = m; g = the stored (Montgomery-form) value x·R; d = 0, e = 1.
            Self.modulus.toSigned62(m, count: n)
            Self.modulus.toSigned62(f, count: n)
            toSigned62(g, count: n)
            for i in 0..<n {
                d[i] = 0
                e[i] = 0
            }
            e[0] = 1
            // m⁻¹ mod 2^64 by Newton's iteration (each step doubles the correct low bits; m odd,
            // and m·m ≡ 1 mod 8 gives 3 bits to start).
            let m0 = Self.modulus.limb(0)
            var mInverse = m0
            for _ in 0..<5 { mInverse = mInverse &* (2 &- m0 &* mInverse) }
            let mInverse62 = Int64(bitPattern: mInverse) & SafeGCD.limbMask
            var delta: Int64 = 1  // 2δ with δ = 1/2
            let steps = SafeGCD.halfDeltaDivstepBound(bits: 64 * Self.limbCount)
            let batches = (steps + SafeGCD.stepsPerBatch - 1) / SafeGCD.stepsPerBatch
            for _ in 0..<batches {
                let low = { (x: UnsafeMutablePointer<Int64>) -> UInt64 in
                    UInt64(bitPattern: x[0]) | (UInt64(bitPattern: x[1]) &<< 62)
                }
                let t = SafeGCD.divsteps(&delta, low(f), low(g))
                SafeGCD.updateDE(d, e, modulus: m, mInverse: mInverse62, count: n, t)
                SafeGCD.updateFG(f, g, count: n, t)
                if variableTime {
                    var any: Int64 = 0
                    for i in 0..<n { any |= g[i] }
                    if any == 0 { break }
                }
            }
            // f = ±1 (or f = ±m when the input was zero, with d = 0): d·f is the inverse of x·R.
            // d ∈ (−2m, m): bring it into [0, m) with masked additions, never a branch.
            let fSign = f[n - 1] >> 63
            SafeGCD.addModulus(d, m, mask: d[n - 1] >> 63, count: n)
            SafeGCD.negate(d, mask: fSign, count: n)
            SafeGCD.addModulus(d, m, mask: d[n - 1] >> 63, count: n)
            let raw = Self.fromSigned62(d, count: n)
            // raw = (x·R)⁻¹; the Montgomery form of x⁻¹ is x⁻¹·R = raw·R², which is
            // montgomeryMultiply(raw, R³) with R³ = montgomeryMultiply(R², R²).
            let rCubed = Self.montgomeryMultiply(Self.rSquared, Self.rSquared)
            return Self.montgomeryMultiply(raw, rCubed)
        }
    }

    /// The stored limbs (as raw bits) as signed 62-bit limbs.
    @inline(__always)
    fileprivate func toSigned62(_ out: UnsafeMutablePointer<Int64>, count: Int) {
        for i in 0..<count {
            let bit = 62 * i
            let index = bit >> 6
            let shift = bit & 63
            var word: UInt64 = index < Self.limbCount ? limb(index) >> UInt64(shift) : 0
            if shift > 2, index + 1 < Self.limbCount {
                word |= limb(index + 1) &<< UInt64(64 - shift)
            }
            out[i] = Int64(bitPattern: word) & SafeGCD.limbMask
        }
    }

    /// A value in [0, m) from normalised non-negative signed 62-bit limbs.
    @inline(__always)
    fileprivate static func fromSigned62(_ x: UnsafeMutablePointer<Int64>, count: Int) -> Self {
        fromLimbs { i in
            let bit = 64 * i
            let index = bit / 62
            let shift = bit % 62
            var word = UInt64(bitPattern: x[index]) >> UInt64(shift)
            var taken = 62 - shift
            var next = index + 1
            while taken < 64, next < count {
                word |= UInt64(bitPattern: x[next]) &<< UInt64(taken)
                taken += 62
                next += 1
            }
            return word
        }
    }
}
