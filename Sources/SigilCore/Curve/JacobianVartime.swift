/// The variable-time point arithmetic of verification, where every input is public.
///
/// Verification computes u1·G + u2·Q for public u1, u2, Q. Nothing here may ever see a private key
/// or a nonce: the formulas branch on the points (identity, equal inputs) and the wNAF digits
/// index tables directly. The constant-time paths (GeneratorTable.swift and
/// ScalarMultiplication.swift: straight-line formulas, masked selects and table scans) are the
/// only ones signing, key derivation and ECDH use.
///
/// Coordinates are Jacobian, (X : Y : Z) with x = X/Z², y = Y/Z³, the point at infinity having
/// Z = 0. Formulas (a = −3) from the Explicit-Formulas Database (Bernstein–Lange):
/// mixed addition "madd-2004-hmv" (8M + 3S) and addition "add-1998-cmo-2" (12M + 4S); the doubling
/// is "dbl-2001-b" (3M + 5S) rescaled by λ = 1/2 (4M + 4S and a halving): it trades one squaring for
/// a multiplication and nine modular additions for one halving, as the madd and add formulas
/// chosen trade one squaring for a multiplication and seven (six) additions against "madd-2007-bl"
/// ("add-2007-bl"); a modular addition costs about a fifth of a multiplication here. These formulas are
/// not complete; the exceptional cases (an input at infinity, P = ±Q) are detected and handled by
/// branches, which is sound because the inputs are public.

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

    /// 2P for a = −3: "dbl-2001-b" (M = 3(X − Z²)(X + Z²), S = 4XY², X3 = M² − 2S,
    /// Y3 = M(S − X3) − 8Y⁴, Z3 = 2YZ) with the result rescaled by λ = 1/2, the same point as
    /// (X3/4, Y3/8, Z3/2): with M' = M/2 = (3/2)(X − Z²)(X + Z²) and β = XY² = S/4,
    /// X3' = M'² − 2β, Y3' = M'(β − X3') − Y⁴, Z3' = YZ. 4M + 4S, one halving and seven additions.
    /// The identity doubles to itself (Z3 = Y·Z = 0); there are no points of order 2 on a
    /// prime-order curve, so Y ≠ 0 for every other point.
    /// (Straight-line: the constant-time path's `doubled`, ScalarMultiplication.swift, kept as one
    /// function of its own here.)
    @inline(never)
    var doubledVartime: JacobianPoint { doubled }

    /// P + A for an affine A, "madd-2004-hmv" (8M + 3S), with the exceptional cases handled by
    /// branches.
    @inline(never)
    func addingVartime(_ a: AffinePoint<C>) -> JacobianPoint {
        if isIdentityVartime { return JacobianPoint(a) }
        let z1z1 = z.squared
        let u2 = a.x * z1z1
        let s2 = a.y * (z * z1z1)
        let h = u2 - x
        let r = s2 - y
        if h.isZeroVartime {
            // Same x: P = A (double) or P = −A (the sum is the identity).
            return r.isZeroVartime ? doubledVartime : .identity
        }
        let hh = h.squared
        let hhh = h * hh
        let v = x * hh
        let x3 = r.squared - hhh - (v + v)
        let y3 = r * (v - x3) - y * hhh
        let z3 = z * h
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q, "add-1998-cmo-2" (12M + 4S), with the exceptional cases handled by branches.
    @inline(never)
    func addingVartime(_ q: JacobianPoint) -> JacobianPoint {
        if isIdentityVartime { return q }
        if q.isIdentityVartime { return self }
        let z1z1 = z.squared
        let z2z2 = q.z.squared
        let u1 = x * z2z2
        let u2 = q.x * z1z1
        let s1 = y * (q.z * z2z2)
        let s2 = q.y * (z * z1z1)
        let h = u2 - u1
        let r = s2 - s1
        if h.isZeroVartime {
            return r.isZeroVartime ? doubledVartime : .identity
        }
        let hh = h.squared
        let hhh = h * hh
        let v = u1 * hh
        let x3 = r.squared - hhh - (v + v)
        let y3 = r * (v - x3) - s1 * hhh
        let z3 = z * q.z * h
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
/// Whole windows are read from the limbs (one or two limb reads and shifts per nonzero digit), and
/// runs of bits equal to the carry are skipped a limb at a time.
@inline(__always)
func wNAF<S: MontgomeryFieldElement>(_ k: S, width w: Int, bits: Int, into digits: UnsafeMutableBufferPointer<Int8>) -> Int {
    let length = bits + 1
    for i in 0..<length { digits[i] = 0 }
    // The limbs of k (zero past the top, so a window may read one limb beyond).
    @inline(__always) func bitsAt(_ i: Int) -> UInt64 {
        // 64 bits starting at bit i (k's bits at and above `bits` are zero).
        let index = i >> 6
        let shift = UInt64(i & 63)
        let low = k.limb(index) >> shift
        return shift == 0 ? low : low | (k.limb(index + 1) << (64 - shift))
    }
    let mask = (1 << w) - 1
    var carry: UInt64 = 0
    var i = 0
    var top = -1
    while i < length {
        // Skip the bits equal to the carry: with carry 0 the zeros, with carry 1 the ones.
        let ahead = bitsAt(i) ^ (0 &- carry)
        if ahead == 0 {
            i += 64
            continue
        }
        i += ahead.trailingZeroBitCount
        if i >= length { break }
        var word = Int(bitsAt(i) & UInt64(mask))
        word += Int(carry)
        carry = UInt64((word >> (w - 1)) & 1)
        word -= Int(carry) << w
        digits[i] = Int8(truncatingIfNeeded: word)
        top = i
        i += w
    }
    return top
}

extension JacobianPoint {
    /// Width of the wNAF window for the public-key operand Q: 2^(w−2) = 8 precomputed odd multiples.
    static var publicPointWindow: Int { 5 }

    /// (2i + 1)·Q for i = 0 … table.count − 1, affine: built in Jacobian coordinates, then all
    /// converted with one inversion (Montgomery's simultaneous inversion: prefix products of the
    /// Z, one inverse, then each Z⁻¹ peeled off backwards). Costs the inversion and about seven
    /// multiplications a point, and turns each later addition of a Q digit from 12M + 4S into
    /// 8M + 3S. Variable time, public Q. Q has prime order n > 2·count, so no multiple is the
    /// point at infinity and every Z is non-zero. The Jacobian X and Y wait in `table` itself and
    /// the Z in a buffer of their own: no scratch buffer of whole Jacobian points, which for P-384
    /// (8 × 144 bytes) would exceed what `withUnsafeTemporaryAllocation` keeps on the stack.
    static func oddMultiplesAffineVartime(of q: AffinePoint<C>, into table: UnsafeMutableBufferPointer<AffinePoint<C>>) {
        let count = table.count
        withUnsafeTemporaryAllocation(of: C.Field.self, capacity: count) { zs in
            withUnsafeTemporaryAllocation(of: C.Field.self, capacity: count) { prefix in
                let qJacobian = JacobianPoint(q)
                let twoQ = qJacobian.doubledVartime
                table[0] = q
                zs[0] = .one
                var point = qJacobian
                for i in 1..<count {
                    point = point.addingVartime(twoQ)
                    table[i] = AffinePoint(x: point.x, y: point.y)
                    zs[i] = point.z
                }
                // prefix[i] = Z0 · … · Zi (Z0 = 1).
                prefix[0] = zs[0]
                for i in 1..<count { prefix[i] = prefix[i - 1] * zs[i] }
                var inverse = prefix[count - 1].invertedVartime  // (Z0 · … · Z(count−1))⁻¹
                var i = count - 1
                while i >= 0 {
                    // inverse = (Z0 · … · Zi)⁻¹ here, so Zi⁻¹ = inverse · (Z0 · … · Z(i−1)).
                    let zInverse = i > 0 ? inverse * prefix[i - 1] : inverse
                    if i > 0 { inverse = inverse * zs[i] }
                    let zInverse2 = zInverse.squared
                    table[i] = AffinePoint(x: table[i].x * zInverse2, y: table[i].y * zInverse2 * zInverse)
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
