// GMP: the regular build only (Embedded Swift links no C).
#if !hasFeature(Embedded)
import CGMP

/// The ``MPNOperations`` from GMP's `mpn` layer, on GMP's limb (`mp_limb_t`, the 64-bit machine
/// word): ``MPNBackend/gmp``, the regular build's default.
enum GMPMPN: MPNOperations {
    typealias Limb = UInt

    @inline(__always)
    static func compare(_ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Int { Int(__gmpn_cmp(a, b, n)) }

    @inline(__always)
    static func add(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        __gmpn_add_n(r, a, b, n)
    }

    @inline(__always)
    static func subtract(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) -> Limb {
        __gmpn_sub_n(r, a, b, n)
    }

    @inline(__always)
    static func addMultiple(_ r: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int, _ q: Limb) -> Limb {
        __gmpn_addmul_1(r, a, n, q)
    }

    @inline(__always)
    static func multiply(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ b: UnsafePointer<Limb>, _ n: Int) {
        __gmpn_mul_n(product, a, b, n)
    }

    @inline(__always)
    static func square(_ product: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, _ n: Int) { __gmpn_sqr(product, a, n) }

    /// a · R mod m: a in the high half of a 2n-limb numerator, divided by m (the quotient, n + 1
    /// limbs, in `scratch`).
    @inline(__always)
    static func shiftedRemainder(
        _ remainder: UnsafeMutablePointer<Limb>, _ a: UnsafePointer<Limb>, modulus m: UnsafePointer<Limb>, _ n: Int,
        numerator: UnsafeMutablePointer<Limb>, scratch quotient: UnsafeMutablePointer<Limb>
    ) {
        numerator.update(repeating: 0, count: n)
        (numerator + n).update(from: a, count: n)
        __gmpn_tdiv_qr(quotient, remainder, 0, numerator, 2 * n, m, n)
    }
}
#endif
