// GMP: the regular build only (Embedded Swift links no C).
#if !hasFeature(Embedded)
import CGMP

/// Variable-time `mpn` helpers for **public** values, on buffers the caller owns: no heap
/// allocation (GMP takes the scratch space of `mpn_gcdext` with `alloca` at these sizes).
enum VartimeMPN {
    /// a⁻¹ mod m by GMP's extended Euclid (`mpn_gcdext`), for a public a with 0 < a < m, m odd
    /// with a non-zero top limb, `count` limbs each (little-endian), count ≤ 8. Writes the
    /// inverse (count limbs, below m) into `result` and returns true; returns false, leaving
    /// `result` unspecified, when gcd(a, m) ≠ 1.
    ///
    /// `mpn_gcdext` wants its first operand at least as large as the second and returns the
    /// cofactor of the first, so it runs on U = a + m and V = m: G = U·S + V·T gives a·S ≡ G
    /// (mod m), and S (|S| < m, sign in `sn`) is the inverse once brought into [0, m).
    static func invert(
        _ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ m: UnsafePointer<UInt64>, count n: Int
    ) -> Bool {
        guard n > 0, n <= 8, m[n - 1] != 0 else { return false }
        return withUnsafeTemporaryAllocation(of: Limb.self, capacity: 5 * (n + 2)) { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            let u = base  // n + 1 limbs, room for n + 2
            let v = base + (n + 2)  // n limbs, room for n + 1
            let g = base + 2 * (n + 2)  // up to n limbs
            let s = base + 3 * (n + 2)  // up to un + 1 limbs
            var carry: Limb = 0
            for i in 0..<n {
                let (sum1, overflow1) = Limb(a[i]).addingReportingOverflow(Limb(m[i]))
                let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
                u[i] = sum2
                carry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
                v[i] = Limb(m[i])
            }
            u[n] = carry
            let uCount = carry == 0 ? n : n + 1
            var sCount: mp_size_t = 0
            let gCount = __gmpn_gcdext(g, s, &sCount, u, uCount, v, n)
            guard gCount == 1, g[0] == 1 else { return false }
            let magnitudeCount = Int(sCount.magnitude)
            guard magnitudeCount <= n else { return false }
            for i in 0..<n { result[i] = i < magnitudeCount ? UInt64(s[i]) : 0 }
            // |S| < m; a negative S becomes m − |S|.
            if sCount < 0 {
                var borrow: UInt64 = 0
                for i in 0..<n {
                    let (d1, o1) = m[i].subtractingReportingOverflow(result[i])
                    let (d2, o2) = d1.subtractingReportingOverflow(borrow)
                    result[i] = d2
                    borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
                }
            }
            return true
        }
    }
}
#endif
