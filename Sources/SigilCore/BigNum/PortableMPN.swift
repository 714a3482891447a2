/// The few `mpn` operations RSA verification needs (RFC 8017 §5.2.2, RSAVP1 in Montgomery form),
/// in Swift: what GMP's `mpn_cmp`, `mpn_add_n`, `mpn_sub_n`, `mpn_addmul_1` and `mpn_mul_n` do, on
/// little-endian limbs of the machine word (`UInt`) in buffers the caller owns (no allocation). The backend of builds
/// without GMP (Embedded Swift: WebAssembly, the small native verifier).
///
/// Variable time in the lengths only; every operation here runs on public values (n, e, s).
enum PortableMPN {
    /// One limb.
    typealias Limb = UInt

    /// The sign of a − b for two n-limb numbers: −1, 0 or 1 (as `mpn_cmp`).
    @inline(__always)
    static func compare(_ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Int {
        var i = n - 1
        while i >= 0 {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i -= 1
        }
        return 0
    }

    /// r = a + b over n limbs; returns the carry out (0 or 1). r may be a or b.
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

    /// r = a − b over n limbs; returns the borrow out (0 or 1). r may be a or b.
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

    /// r += a · q over n limbs; returns the limb carried out of r[n − 1] (as `mpn_addmul_1`).
    @inline(__always)
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        var carry: Limb = 0
        for i in 0..<n {
            let (high, low) = a[i].multipliedFullWidth(by: q)
            let (s1, c1) = low.addingReportingOverflow(r[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            r[i] = s2
            // high ≤ 2^W − 2, so adding the two carries never overflows.
            carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
        }
        return carry
    }

    /// product (2n limbs) = a · b (n limbs each), schoolbook; product must not overlap a or b.
    @inline(__always)
    static func multiply(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) {
        product.update(repeating: 0, count: 2 * n)
        for i in 0..<n {
            product[n + i] = addMultiple(product + i, a, n, b[i])
        }
    }
}
