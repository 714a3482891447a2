/// The variable-time point arithmetic of verification, where every input is public.
///
/// Verification computes u1·G + u2·Q for public u1, u2, Q. Nothing here may ever see a private key
/// or a nonce: the formulas branch on the points (identity, equal inputs) and the wNAF digits
/// index tables directly. The constant-time path (ProjectivePoint with complete formulas) is the
/// only one signing and key derivation use.
///
/// Coordinates are Jacobian, (X : Y : Z) with x = X/Z², y = Y/Z³, the point at infinity having
/// Z = 0. Formulas (a = −3) from the Explicit-Formulas Database (Bernstein–Lange):
/// doubling "dbl-2001-b" (3M + 5S), mixed addition "madd-2007-bl" (7M + 4S) and addition
/// "add-2007-bl" (11M + 5S). These formulas are not complete; the exceptional cases (an input at
/// infinity, P = ±Q) are detected and handled by branches, which is sound because the inputs are public.

/// An affine point (x, y), coordinates in Montgomery form; never the point at infinity.
struct AffinePoint<C: WeierstrassCurve>: Sendable {
    var x: C.Field
    var y: C.Field

    @inline(__always)
    init(x: C.Field, y: C.Field) {
        self.x = x
        self.y = y
    }

    @inline(__always)
    var negated: AffinePoint { AffinePoint(x: x, y: y.negated) }
}

extension MontgomeryFieldElement {
    /// Whether the element is zero, by an early-exit comparison: for public values only.
    @inline(__always)
    var isZeroVartime: Bool {
        for i in 0..<Self.limbCount where limb(i) != 0 { return false }
        return true
    }

    /// Equality with an early exit: for public values only.
    @inline(__always)
    static func equalVartime(_ a: Self, _ b: Self) -> Bool {
        for i in 0..<limbCount where a.limb(i) != b.limb(i) { return false }
        return true
    }
}

struct JacobianPoint<C: WeierstrassCurve>: Sendable {
    var x: C.Field
    var y: C.Field
    var z: C.Field

    @inline(__always)
    init(x: C.Field, y: C.Field, z: C.Field) {
        self.x = x
        self.y = y
        self.z = z
    }

    @inline(__always)
    init(_ affine: AffinePoint<C>) {
        self.init(x: affine.x, y: affine.y, z: .one)
    }

    static var identity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }

    @inline(__always)
    var isIdentityVartime: Bool { z.isZeroVartime }

    @inline(__always)
    var negated: JacobianPoint { JacobianPoint(x: x, y: y.negated, z: z) }

    /// 2P, "dbl-2001-b" for a = −3. The identity doubles to itself (Z3 = 2·Y·Z = 0); there are no
    /// points of order 2 on a prime-order curve, so Y ≠ 0 for every other point.
    @inline(never)
    var doubledVartime: JacobianPoint {
        let delta = z.squared
        let gamma = y.squared
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t + t + t
        let beta2 = beta + beta
        let beta4 = beta2 + beta2
        let x3 = alpha.squared - (beta4 + beta4)
        let yz = y + z
        let z3 = yz.squared - gamma - delta
        let gamma2 = gamma.squared
        let g2 = gamma2 + gamma2
        let g4 = g2 + g2
        let y3 = alpha * (beta4 - x3) - (g4 + g4)
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + A for an affine A, "madd-2007-bl", with the exceptional cases handled by branches.
    @inline(never)
    func addingVartime(_ a: AffinePoint<C>) -> JacobianPoint {
        if isIdentityVartime { return JacobianPoint(a) }
        let z1z1 = z.squared
        let u2 = a.x * z1z1
        let s2 = a.y * z * z1z1
        let h = u2 - x
        let sDiff = s2 - y
        if h.isZeroVartime {
            // Same x: P = A (double) or P = −A (the sum is the identity).
            return sDiff.isZeroVartime ? doubledVartime : .identity
        }
        let r = sDiff + sDiff
        let hh = h.squared
        let hh2 = hh + hh
        let i = hh2 + hh2
        let j = h * i
        let v = x * i
        let x3 = r.squared - j - (v + v)
        let yj = y * j
        let y3 = r * (v - x3) - (yj + yj)
        let zh = z + h
        let z3 = zh.squared - z1z1 - hh
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q, "add-2007-bl", with the exceptional cases handled by branches.
    @inline(never)
    func addingVartime(_ q: JacobianPoint) -> JacobianPoint {
        if isIdentityVartime { return q }
        if q.isIdentityVartime { return self }
        let z1z1 = z.squared
        let z2z2 = q.z.squared
        let u1 = x * z2z2
        let u2 = q.x * z1z1
        let s1 = y * q.z * z2z2
        let s2 = q.y * z * z1z1
        let h = u2 - u1
        let sDiff = s2 - s1
        if h.isZeroVartime {
            return sDiff.isZeroVartime ? doubledVartime : .identity
        }
        let h2 = h + h
        let i = h2.squared
        let j = h * i
        let r = sDiff + sDiff
        let v = u1 * i
        let x3 = r.squared - j - (v + v)
        let s1j = s1 * j
        let y3 = r * (v - x3) - (s1j + s1j)
        let zz = z + q.z
        let z3 = (zz.squared - z1z1 - z2z2) * h
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// Affine coordinates, or nil for the identity (one Fermat inversion).
    var affineVartime: AffinePoint<C>? {
        if isIdentityVartime { return nil }
        let zInverse = z.invertedConstantTime
        let zInverse2 = zInverse.squared
        return AffinePoint(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }

    /// Whether the affine x-coordinate of this (non-identity) point equals `candidate` (a base
    /// field element in Montgomery form): X = candidate·Z², no inversion.
    @inline(__always)
    func hasAffineXVartime(_ candidate: C.Field) -> Bool {
        C.Field.equalVartime(x, candidate * z.squared)
    }
}

/// Width-w non-adjacent form of a public scalar: digits d_i, each zero or odd with
/// |d_i| < 2^(w−1), such that k = Σ d_i·2^i, and any w consecutive digits hold at most one nonzero.
///
/// Writes `C.orderBits + 1` digits (k < 2^orderBits, and the recoding may carry one position
/// past the top) into `digits` and returns the index of the highest nonzero digit, or −1 for k = 0.
/// Variable time: for public scalars only.
@inline(__always)
func wNAF<S: MontgomeryFieldElement>(_ k: S, width w: Int, bits: Int, into digits: UnsafeMutableBufferPointer<Int8>) -> Int {
    @inline(__always) func bit(_ i: Int) -> Int {
        i >= bits ? 0 : Int((k.limb(i >> 6) >> UInt64(i & 63)) & 1)
    }
    @inline(__always) func bitsAt(_ i: Int, _ count: Int) -> Int {
        // count ≤ 8 bits starting at i, possibly straddling two limbs.
        var value = 0
        for j in 0..<count { value |= bit(i + j) << j }
        return value
    }
    let length = bits + 1
    for i in 0..<length { digits[i] = 0 }
    var carry = 0
    var i = 0
    var top = -1
    while i < length {
        if bit(i) == carry {
            i += 1
            continue
        }
        let now = min(w, length - i)
        var word = bitsAt(i, now) + carry
        carry = (word >> (w - 1)) & 1
        word -= carry << w
        digits[i] = Int8(truncatingIfNeeded: word)
        top = i
        i += now
    }
    return top
}

extension JacobianPoint {
    /// Width of the wNAF window for the public-key operand Q: 2^(w−2) = 8 precomputed odd multiples.
    static var publicPointWindow: Int { 5 }

    /// (2i + 1)·Q for i = 0 … table.count − 1, affine: built in Jacobian coordinates, then all
    /// converted with one inversion (Montgomery's simultaneous inversion: prefix products of the
    /// Z, one inverse, then each Z⁻¹ peeled off backwards). Costs the inversion and about seven
    /// multiplications a point, and turns each later addition of a Q digit from 11M + 5S into
    /// 7M + 4S. Variable time, public Q. Q has prime order n > 2·count, so no multiple is the
    /// point at infinity and every Z is non-zero.
    static func oddMultiplesAffineVartime(of q: AffinePoint<C>, into table: UnsafeMutableBufferPointer<AffinePoint<C>>) {
        let count = table.count
        withUnsafeTemporaryAllocation(of: JacobianPoint.self, capacity: count) { points in
            withUnsafeTemporaryAllocation(of: C.Field.self, capacity: count) { prefix in
                let qJacobian = JacobianPoint(q)
                let twoQ = qJacobian.doubledVartime
                points[0] = qJacobian
                for i in 1..<count { points[i] = points[i - 1].addingVartime(twoQ) }
                // prefix[i] = Z0 · … · Zi (Z0 = 1).
                prefix[0] = points[0].z
                for i in 1..<count { prefix[i] = prefix[i - 1] * points[i].z }
                var inverse = prefix[count - 1].invertedVartime  // (Z0 · … · Z(count−1))⁻¹
                var i = count - 1
                while i >= 0 {
                    // inverse = (Z0 · … · Zi)⁻¹ here, so Zi⁻¹ = inverse · (Z0 · … · Z(i−1)).
                    let zInverse = i > 0 ? inverse * prefix[i - 1] : inverse
                    if i > 0 { inverse = inverse * points[i].z }
                    let zInverse2 = zInverse.squared
                    table[i] = AffinePoint(x: points[i].x * zInverse2, y: points[i].y * zInverse2 * zInverse)
                    i -= 1
                }
            }
        }
    }

    /// u1·G + u2·Q for **public** scalars (canonical values, below n) and a public affine point Q.
    /// Variable time (FIPS 186-5 §6.4.2 step 6 for verification only).
    ///
    /// Strauss–Shamir with wNAF digits: one shared chain of doublings from the top nonzero digit;
    /// each nonzero digit of u1 adds ±(odd multiple of G) from the generated affine table
    /// (`C.generatorOddMultiples`, width `C.generatorWNAFWidth`) by a mixed addition, each nonzero
    /// digit of u2 adds ±(odd multiple of Q) from a table of 8 Jacobian points built here.
    static func doubleMultiplyVartime(_ u1: C.Scalar, _ u2: C.Scalar, _ q: AffinePoint<C>) -> JacobianPoint {
        let length = C.orderBits + 1
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * length) { digits in
            let d1 = UnsafeMutableBufferPointer(rebasing: digits[0..<length])
            let d2 = UnsafeMutableBufferPointer(rebasing: digits[length..<(2 * length)])
            let top1 = wNAF(u1, width: C.generatorWNAFWidth, bits: C.orderBits, into: d1)
            let top2 = wNAF(u2, width: publicPointWindow, bits: C.orderBits, into: d2)
            return withUnsafeTemporaryAllocation(of: AffinePoint<C>.self, capacity: 8) { qTable in
                // qTable[i] = (2i + 1)·Q, affine, so that every addition of a Q digit is a mixed one.
                qTable.initialize(repeating: q)
                if top2 >= 0 { oddMultiplesAffineVartime(of: q, into: qTable) }
                return C.generatorOddMultiples.withUnsafeBufferPointer { gTable in
                    var result = JacobianPoint.identity
                    var i = max(top1, top2)
                    while i >= 0 {
                        result = result.doubledVartime
                        let a = Int(d1[i])
                        let b = Int(d2[i])
                        if a > 0 {
                            result = result.addingVartime(gTable[a >> 1])
                        } else if a < 0 {
                            result = result.addingVartime(gTable[(-a) >> 1].negated)
                        }
                        if b > 0 {
                            result = result.addingVartime(qTable[b >> 1])
                        } else if b < 0 {
                            result = result.addingVartime(qTable[(-b) >> 1].negated)
                        }
                        i -= 1
                    }
                    return result
                }
            }
        }
    }
}
