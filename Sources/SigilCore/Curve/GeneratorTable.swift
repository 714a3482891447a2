/// k·G for secret scalars: a signed fixed-base comb over the generator's table of affine points.
///
/// The table is a `FixedBaseTable` for G of width w (`VerificationTableWidth.signingGenerator`,
/// chosen by measurement): row i holds j·2^(w·i)·G for j = 1 … 2^(w−1), affine, built once per
/// process on first use from public constants. A secret scalar k < n is recoded into signed
/// digits d_i ∈ [−(2^(w−1) − 1), 2^(w−1)] with k = Σ d_i·2^(w·i); then k·G = Σ d_i·2^(w·i)·G is
/// one mixed addition per row and no doublings at all.
///
/// Rows are added in two kinds of coordinates. The low rows — those with w·(i + 1) ≤ bits(n) − 1,
/// all but the top one (P-256) or two (P-384) at w = 6 — go into a Jacobian accumulator by the
/// mixed addition "madd-2007-bl" (7M + 4S, against 11M + 2 multiplications by b for the complete
/// formula), whose exceptional cases cannot occur there: with a = Σ_{j<i} d_j·2^(w·j) the
/// accumulated multiple and d = d_i ≠ 0, the recoding keeps |a| < 2^(w·i) ≤ |d|·2^(w·i), so
/// d·2^(w·i) ∓ a is a non-zero integer of magnitude below 2^(w·(i+1)) ≤ 2^(bits(n)−1) < n, hence
/// not a multiple of n: the accumulator is never ±(the row's point). The one remaining case, an
/// accumulator still at infinity (every digit so far zero), is handled by a mask that takes the
/// row's point instead. The accumulator then becomes projective (X·Z, Y, Z³) and the top rows use
/// the complete mixed addition (RCB Algorithm 5), where the bound above no longer holds.
///
/// Constant time in k: every row is visited; the recoding uses masks, not branches; every entry
/// of a row is read and one is kept with masks (the row index is the public loop counter, the
/// entry the secret digit); the sign is applied by a masked negation; and every row costs one
/// mixed addition, whose result is discarded by a mask when the digit is zero. Every mask is
/// OR-ed with an opaque zero so that the optimiser keeps the selects as bitwise operations.
extension ProjectivePoint {
    /// RCB Algorithm 5 (Renes–Costello–Batina, ePrint 2015/1060, a = −3): P + Q for an affine Q
    /// (Algorithm 4 with Z2 = 1), 11 multiplications, 2 by b. Complete for every P, including
    /// the point at infinity, P = Q and P = −Q; Q itself is never the identity (it has no
    /// affine form).
    @inline(never)
    static func + (p: ProjectivePoint, q: AffinePoint<C>) -> ProjectivePoint {
        let b = C.b
        var t0 = p.x * q.x  // 1
        var t1 = p.y * q.y  // 2
        var t3 = q.x + q.y  // 3
        var t4 = p.x + p.y  // 4
        t3 = t3 * t4  // 5
        t4 = t0 + t1  // 6
        t3 = t3 - t4  // 7
        t4 = q.y * p.z  // 8
        t4 = t4 + p.y  // 9
        var y3 = q.x * p.z  // 10
        y3 = y3 + p.x  // 11
        var z3 = b * p.z  // 12
        var x3 = y3 - z3  // 13
        z3 = x3 + x3  // 14
        x3 = x3 + z3  // 15
        z3 = t1 - x3  // 16
        x3 = t1 + x3  // 17
        y3 = b * y3  // 18
        t1 = p.z + p.z  // 19
        var t2 = t1 + p.z  // 20
        y3 = y3 - t2  // 21
        y3 = y3 - t0  // 22
        t1 = y3 + y3  // 23
        y3 = t1 + y3  // 24
        t1 = t0 + t0  // 25
        t0 = t1 + t0  // 26
        t0 = t0 - t2  // 27
        t1 = t4 * y3  // 28
        t2 = t0 * y3  // 29
        y3 = x3 * z3  // 30
        y3 = y3 + t2  // 31
        x3 = t3 * x3  // 32
        x3 = x3 - t1  // 33
        z3 = t4 * z3  // 34
        t1 = t3 * t0  // 35
        z3 = z3 + t1  // 36
        return ProjectivePoint(x: x3, y: y3, z: z3)
    }

    /// P + A for a Jacobian P and an affine A, "madd-2007-bl" (Explicit-Formulas Database,
    /// 7M + 4S), straight-line: no branch on the inputs. Correct only when P is not the point at
    /// infinity and P ≠ ±A; the comb guarantees both (see above) or discards the result by mask.
    @inline(never)
    static func combAddition(_ p: JacobianPoint<C>, _ a: AffinePoint<C>) -> JacobianPoint<C> {
        let z1z1 = p.z.squared
        let u2 = a.x * z1z1
        let s2 = a.y * p.z * z1z1
        let h = u2 - p.x
        let hh = h.squared
        let hh2 = hh + hh
        let i = hh2 + hh2
        let j = h * i
        let sDiff = s2 - p.y
        let r = sDiff + sDiff
        let v = p.x * i
        let x3 = r.squared - j - (v + v)
        let yj = p.y * j
        let y3 = r * (v - x3) - (yj + yj)
        let zh = p.z + h
        let z3 = zh.squared - z1z1 - hh
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// Entry `magnitude` (1-based; 0 reads entry 1) of comb row `row`: every entry of the row is
    /// read, AND-ed with its all-ones-or-zero mask and OR-ed into the result, 16 bytes at a time
    /// (SIMD2<UInt64>: SSE2 on x86-64, NEON on arm64). Addresses depend only on the public row.
    @inline(__always)
    static func scan(
        _ points: UnsafeBufferPointer<AffinePoint<C>>, row: Int, entries: Int, magnitude: UInt64, opaque: UInt64
    ) -> AffinePoint<C> {
        let rowStart = row * entries
        let bytes = MemoryLayout<AffinePoint<C>>.size
        guard bytes == 2 * C.Field.byteCount, bytes == 64 || bytes == 96, MemoryLayout<AffinePoint<C>>.stride == bytes,
            let base = points.baseAddress
        else {
            // Layout not the packed limbs assumed below: the same scan, one field element at a time.
            var x = points[rowStart].x
            var y = points[rowStart].y
            for j in 1..<entries {
                let hit = Choice(isZero: UInt64(j + 1) ^ magnitude).hidden(opaque)
                x = C.Field.select(hit, points[rowStart + j].x, x)
                y = C.Field.select(hit, points[rowStart + j].y, y)
            }
            return AffinePoint(x: x, y: y)
        }
        // 64 bytes an entry for P-256 (one SIMD8<UInt64>), 96 for P-384 (SIMD8 + SIMD4).
        let rowBase = UnsafeRawPointer(base + rowStart)
        var low = SIMD8<UInt64>(repeating: 0)
        var high = SIMD4<UInt64>(repeating: 0)
        let hasHigh = bytes == 96
        for j in 0..<entries {
            // Entry j + 1 is wanted when magnitude = j + 1; entry 1 also when magnitude = 0.
            var hit = Choice(isZero: UInt64(j + 1) ^ magnitude).mask
            if j == 0 { hit |= Choice(isZero: magnitude).mask }
            hit |= opaque
            let entry = rowBase + j * bytes
            low |= entry.loadUnaligned(as: SIMD8<UInt64>.self) & SIMD8(repeating: hit)
            if hasHigh {
                high |= entry.loadUnaligned(fromByteOffset: 64, as: SIMD4<UInt64>.self) & SIMD4(repeating: hit)
            }
        }
        var result = points[rowStart]
        withUnsafeMutableBytes(of: &result) { out in
            out.storeBytes(of: low, as: SIMD8<UInt64>.self)
            if hasHigh { out.storeBytes(of: high, toByteOffset: 64, as: SIMD4<UInt64>.self) }
        }
        return result
    }

    /// k·G for a secret scalar k (canonical value, below n), with the signing comb table.
    static func generatorMultiplied(byCanonicalSecret k: C.Scalar) -> ProjectivePoint {
        generatorMultiplied(byCanonicalSecret: k, table: C.signingGeneratorTable)
    }

    /// k·G with a given fixed-base table of G (any width; the benchmark compares widths).
    static func generatorMultiplied(byCanonicalSecret k: C.Scalar, table: FixedBaseTable<C>) -> ProjectivePoint {
        let w = table.width
        let half = UInt64(table.entriesPerRow)
        let rowCount = table.rowCount
        let full = UInt64(1) << UInt64(w)
        let windowMask = full - 1
        // Every mask below goes through this opaque zero (see `Choice.hidden`).
        let opaque = ConstantTimeAudit.opaqueZero
        // Rows below `jacobianRows` use the Jacobian mixed addition (see the type's comment).
        let jacobianRows = min(rowCount, (C.orderBits - 1) / w)
        return table.points.withUnsafeBufferPointer { points in
            var accumulator = JacobianPoint<C>(x: .one, y: .one, z: .zero)
            var atInfinity = Choice(mask: .max).hidden(opaque)
            var result = ProjectivePoint.identity
            var carry: UInt64 = 0
            for row in 0..<rowCount {
                if row == jacobianRows {
                    // (X : Y : Z) Jacobian is (X·Z : Y : Z³) projective; infinity (Z = 0) becomes
                    // (0 : Y : 0), the projective point at infinity.
                    let z = accumulator.z
                    result = ProjectivePoint(x: accumulator.x * z, y: accumulator.y, z: z.squared * z)
                }
                // The window's bits (its position is public), plus the carry from the window below.
                let start = row * w
                let limbIndex = start >> 6
                let shift = UInt64(start & 63)
                var word = limbIndex < C.Scalar.limbCount ? k.limb(limbIndex) >> shift : 0
                if shift > 64 - UInt64(w), limbIndex + 1 < C.Scalar.limbCount {
                    word |= k.limb(limbIndex + 1) &<< (64 - shift)
                }
                let value = (word & windowMask) &+ carry  // [0, 2^w]
                // Above half: the digit is value − 2^w (negative) and 1 carries into the next
                // window. rowCount·w ≥ orderBits + 1, so the top window never carries out.
                let negative = (half &- value) >> 63
                carry = negative
                let negativeMask = (0 &- negative) | opaque
                let magnitude = (value & ~negativeMask) | ((full &- value) & negativeMask)  // [0, half]
                // Entry `magnitude` (1-based) by a full masked scan; entry 1 stands in for zero.
                var entry = scan(points, row: row, entries: Int(half), magnitude: magnitude, opaque: opaque)
                entry.y = C.Field.select(Choice(mask: negativeMask), entry.y.negated, entry.y)
                let digitIsZero = Choice(isZero: magnitude).hidden(opaque)
                if row < jacobianRows {
                    let sum = combAddition(accumulator, entry)
                    let next = JacobianPoint<C>(
                        x: C.Field.select(atInfinity, entry.x, sum.x),
                        y: C.Field.select(atInfinity, entry.y, sum.y),
                        z: C.Field.select(atInfinity, .one, sum.z))
                    accumulator = JacobianPoint(
                        x: C.Field.select(digitIsZero, accumulator.x, next.x),
                        y: C.Field.select(digitIsZero, accumulator.y, next.y),
                        z: C.Field.select(digitIsZero, accumulator.z, next.z))
                    atInfinity = atInfinity & digitIsZero
                } else {
                    let sum = result + entry
                    result = ProjectivePoint.select(digitIsZero, result, sum)
                }
            }
            if rowCount == jacobianRows {
                let z = accumulator.z
                result = ProjectivePoint(x: accumulator.x * z, y: accumulator.y, z: z.squared * z)
            }
            return result
        }
    }
}
