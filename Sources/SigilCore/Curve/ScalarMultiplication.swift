/// Scalar multiplication for secret scalars: a constant-time signed fixed-window method over
/// Jacobian coordinates. (The variable-time double multiplication of verification is in
/// JacobianVartime.swift.)
extension ProjectivePoint {
    /// Width of the signed windows: digits in [−16, 16], a table of 16 multiples of P.
    static var secretWindowWidth: Int { 5 }

    /// k·P for a secret scalar k, given as its canonical value (not Montgomery form, below n).
    ///
    /// Constant time in k (and in P). k is recoded into signed 5-bit windows (Booth's recoding:
    /// digit j is d_j = b_{5j−1} + b_{5j} + 2b_{5j+1} + 4b_{5j+2} + 8b_{5j+3} − 16b_{5j+4}, in
    /// [−16, 16], read straight from the bits with no carry chain, so k = Σ d_j·32^j), and
    /// evaluated from the top: every window performs five doublings and one addition of
    /// sign(d_j)·|d_j|·P, the entry fetched by reading all 16 multiples of the table with masks and
    /// its y negated by a masked select. Neither the sequence of operations nor any memory address
    /// depends on k. The table is on the stack.
    ///
    /// The doublings and additions are Jacobian (a = −3; `JacobianPoint.doubled`, 4M + 4S, and
    /// `adding(_:)`, 12M + 4S), not the complete projective formulas (8M + 3S + 2 multiplications
    /// by b for a doubling, 12M + 2 by b for an addition) and unsigned 4-bit windows (64
    /// additions, not 51): a P-256 ECDH went from 1.50M to 0.89M instructions (callgrind).
    /// They are not complete, and here is why no exceptional case reaches them with a wrong result
    /// (P ≠ O has prime order n, k < n):
    /// - the point at infinity on either side (a leading run of zero digits, d_j = 0) is handled
    ///   by masked selects around the addition;
    /// - doubling has no exception on a prime-order curve (no point of order 2; O doubles to O);
    /// - with M_j = Σ_{i≥j} d_i·32^(i−j) (the recoding's prefixes: M_j = ⌊k/32^j⌋ + b_{5j−1}, so
    ///   0 ≤ M_j ≤ ⌊(n − 1)/32⌋ + 1 for j ≥ 1), window j adds d_j·P to 32·M_{j+1}·P. For j ≥ 1
    ///   and M_{j+1} ≥ 1, 32·M_{j+1} ± d_j lies in [16, M_j + 32], inside (0, n): the two points
    ///   are neither equal nor opposite. The last window (j = 0), where M_0 = k may be close to n,
    ///   is added with the complete projective formula instead, as is any P (the identity
    ///   included, whose table is all Z = 0).
    /// - the table: 2i·P by doubling i·P, (2i + 1)·P = 2i·P + P with 2i ± 1 ≢ 0 (mod n).
    func multiplied(byCanonicalSecret k: C.Scalar) -> ProjectivePoint {
        let w = Self.secretWindowWidth
        let windowCount = (C.orderBits + w) / w  // ⌈(orderBits + 1)/w⌉: the top digit holds the last borrow
        // Every mask below goes through this opaque zero (see `Choice.hidden`).
        let opaque = ConstantTimeAudit.opaqueZero
        // (X : Y : Z) projective is (X·Z : Y·Z² : Z) Jacobian; the identity (0 : Y : 0) becomes
        // Z = 0, which every doubling and addition below keeps at Z = 0.
        let zz = z.squared
        let base = JacobianPoint<C>(x: x * z, y: y * zz, z: z)
        return withUnsafeTemporaryAllocation(of: JacobianPoint<C>.self, capacity: 16) { table in
            // table[i] = (i + 1)·P.
            table[0] = base
            for i in stride(from: 2, through: 16, by: 2) {
                table[i - 1] = table[i / 2 - 1].doubled
                if i < 16 { table[i] = table[i - 1].adding(base) }
            }
            // 64 bits of k from bit `start` (which may be −1: bit −1 is zero), public positions.
            @inline(__always) func bits(from start: Int) -> UInt64 {
                if start < 0 { return k.limb(0) << 1 }
                let index = start >> 6
                let shift = UInt64(start & 63)
                guard index < C.Scalar.limbCount else { return 0 }
                let low = k.limb(index) >> shift
                guard shift != 0, index + 1 < C.Scalar.limbCount else { return low }
                return low | (k.limb(index + 1) << (64 - shift))
            }
            // Digit j as (magnitude in [0, 16], negative mask), then the entry sign(d)·|d|·P, the
            // identity's stand-in (entry 1) when |d| = 0, which the caller masks.
            @inline(__always) func entry(_ j: Int) -> (JacobianPoint<C>, isZero: Choice) {
                let six = bits(from: w * j - 1) & 0x3F
                let negative = (six >> 5) & 1
                let negativeMask = (0 &- negative) | opaque
                let value = (six >> 1) &+ (six & 1)  // [0, 32]
                let magnitude = (value & ~negativeMask) | ((32 &- value) & negativeMask)  // [0, 16]
                var point = Self.scan(table, magnitude: magnitude, opaque: opaque)
                point.y = C.Field.select(Choice(mask: negativeMask), point.y.negated, point.y)
                return (point, Choice(isZero: magnitude).hidden(opaque))
            }
            // The top window: no doublings, the accumulator is the entry or the identity.
            let (top, topIsZero) = entry(windowCount - 1)
            var accumulator = JacobianPoint<C>.select(topIsZero, .identity, top)
            var atInfinity = topIsZero
            for j in stride(from: windowCount - 2, through: 1, by: -1) {
                for _ in 0..<w { accumulator = accumulator.doubled }
                let (point, isZero) = entry(j)
                let sum = accumulator.adding(point)
                let next = JacobianPoint<C>.select(atInfinity, point, sum)
                accumulator = JacobianPoint<C>.select(isZero, accumulator, next)
                atInfinity = atInfinity & isZero
            }
            for _ in 0..<w { accumulator = accumulator.doubled }
            // The last window by the complete formula (see above); its zero digit by a select.
            let (last, lastIsZero) = entry(0)
            let result = accumulator.projective
            return ProjectivePoint.select(lastIsZero, result, result + last.projective)
        }
    }

    /// Entry `magnitude` (1-based; 0 reads entry 1) of the 16-entry window table: every entry is
    /// read, AND-ed with its all-ones-or-zero mask and OR-ed into the result; addresses are
    /// fixed. For P-256 (96 bytes an entry) 32 bytes at a time (SIMD8 + SIMD4 of UInt64, SSE2 or
    /// AVX on x86-64, NEON on arm64), as the signing comb's scan; other layouts one field element
    /// at a time.
    @inline(__always)
    private static func scan(
        _ table: UnsafeMutableBufferPointer<JacobianPoint<C>>, magnitude: UInt64, opaque: UInt64
    ) -> JacobianPoint<C> {
        let bytes = MemoryLayout<JacobianPoint<C>>.size
        guard bytes == 3 * C.Field.byteCount, bytes == 96, MemoryLayout<JacobianPoint<C>>.stride == bytes,
            let base = table.baseAddress
        else {
            var x = table[0].x
            var y = table[0].y
            var z = table[0].z
            for j in 1..<table.count {
                let hit = Choice(isZero: UInt64(j + 1) ^ magnitude).hidden(opaque)
                x = C.Field.select(hit, table[j].x, x)
                y = C.Field.select(hit, table[j].y, y)
                z = C.Field.select(hit, table[j].z, z)
            }
            return JacobianPoint(x: x, y: y, z: z)
        }
        let start = UnsafeRawPointer(base)
        var low = SIMD8<UInt64>(repeating: 0)
        var high = SIMD4<UInt64>(repeating: 0)
        for j in 0..<table.count {
            // Entry j + 1 is wanted when magnitude = j + 1; entry 1 also when magnitude = 0.
            var hit = Choice(isZero: UInt64(j + 1) ^ magnitude).mask
            if j == 0 { hit |= Choice(isZero: magnitude).mask }
            hit |= opaque
            let entry = start + j * bytes
            low |= entry.loadUnaligned(as: SIMD8<UInt64>.self) & SIMD8(repeating: hit)
            high |= entry.loadUnaligned(fromByteOffset: 64, as: SIMD4<UInt64>.self) & SIMD4(repeating: hit)
        }
        var result = table[0]
        withUnsafeMutableBytes(of: &result) { out in
            out.storeBytes(of: low, as: SIMD8<UInt64>.self)
            out.storeBytes(of: high, toByteOffset: 64, as: SIMD4<UInt64>.self)
        }
        return result
    }
}

/// The Jacobian formulas of the constant-time path: straight-line, no branch on the points.
extension JacobianPoint {
    /// 2P for a = −3, the formula of `doubledVartime` (which calls this): "dbl-2001-b" rescaled by
    /// λ = 1/2, 4M + 4S, one halving and seven additions. Straight-line; the identity doubles to
    /// itself (Z3 = Y·Z = 0), and a prime-order curve has no point of order 2, so it is exact for
    /// every point.
    @inline(__always)
    var doubled: JacobianPoint {
        let delta = z.squared
        let gamma = y.squared
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let m = t + C.Field.halve(t)
        let x3 = m.squared - (beta + beta)
        let y3 = m * (beta - x3) - gamma.squared
        let z3 = y * z
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q, "add-1998-cmo-2" (12M + 4S), straight-line. Not complete: exact when neither input
    /// is the point at infinity and P ≠ ±Q. With P = −Q it gives Z3 = 0 (the identity, exact);
    /// with P = Q, or an input at infinity, Z3 = 0 too, which is wrong, so callers rule those cases
    /// out or replace the result by a masked select.
    @inline(never)
    func adding(_ q: JacobianPoint) -> JacobianPoint {
        let z1z1 = z.squared
        let z2z2 = q.z.squared
        let u1 = x * z2z2
        let u2 = q.x * z1z1
        let s1 = y * (q.z * z2z2)
        let s2 = q.y * (z * z1z1)
        let h = u2 - u1
        let r = s2 - s1
        let hh = h.squared
        let hhh = h * hh
        let v = u1 * hh
        let x3 = r.squared - hhh - (v + v)
        let y3 = r * (v - x3) - s1 * hhh
        let z3 = z * q.z * h
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// `choice` true → a, false → b, without branching.
    @inline(__always)
    static func select(_ choice: Choice, _ a: JacobianPoint, _ b: JacobianPoint) -> JacobianPoint {
        JacobianPoint(
            x: C.Field.select(choice, a.x, b.x), y: C.Field.select(choice, a.y, b.y),
            z: C.Field.select(choice, a.z, b.z))
    }

    /// The same point in homogeneous projective coordinates: (X : Y : Z) Jacobian is
    /// (X·Z : Y : Z³). The point at infinity (Z = 0) becomes (0 : 1 : 0), by a masked select on
    /// Y (the complete formulas need a Y ≠ 0 there).
    @inline(__always)
    var projective: ProjectivePoint<C> {
        let zz = z.squared
        return ProjectivePoint(x: x * z, y: C.Field.select(z.isZero, .one, y), z: zz * z)
    }
}
