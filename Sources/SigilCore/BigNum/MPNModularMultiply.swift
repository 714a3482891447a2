// GMP: the regular build only (Embedded Swift links no C).
#if !hasFeature(Embedded)
import CGMP

// Compiled only with the `Benchmarks` package trait (Benchmarks/ enables it), so no user binary
// links benchmark-only code.
#if Benchmarks

/// Modular multiplication of fixed-width operands through GMP's `mpn` layer, kept only so the
/// benchmarks can compare it with the generated Swift-limb Montgomery fields (issue 3 asks for
/// both figures). Not used by any curve operation.
///
/// Two variants over caller-provided buffers (no allocation): `mpn_mul_n` + `mpn_tdiv_qr`
/// (variable time) and `mpn_sec_mul` + `mpn_sec_div_r` (GMP's side-channel-silent functions).
/// Operands and modulus have `count` limbs, little-endian; the modulus's top limb is nonzero.
enum MPNModularMultiply {
    /// Scratch limbs the constant-time variant needs.
    static func constantTimeScratchCount(_ count: Int) -> Int {
        max(Int(__gmpn_sec_mul_itch(count, count)), Int(__gmpn_sec_div_r_itch(2 * count, count)))
    }

    /// result = a·b mod m, variable time. `product` holds 2·count limbs, `quotient` count + 1.
    @inline(__always)
    static func multiplyVartime(
        _ result: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>,
        _ b: UnsafePointer<UInt>, modulus: UnsafePointer<UInt>, count: Int,
        product: UnsafeMutablePointer<UInt>, quotient: UnsafeMutablePointer<UInt>
    ) {
        __gmpn_mul_n(product, a, b, count)
        __gmpn_tdiv_qr(quotient, result, 0, product, 2 * count, modulus, count)
    }

    /// result = a·b mod m with GMP's constant-time functions. `product` holds 2·count limbs.
    @inline(__always)
    static func multiplyConstantTime(
        _ result: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>,
        _ b: UnsafePointer<UInt>, modulus: UnsafePointer<UInt>, count: Int,
        product: UnsafeMutablePointer<UInt>, scratch: UnsafeMutablePointer<UInt>
    ) {
        __gmpn_sec_mul(product, a, count, b, count, scratch)
        __gmpn_sec_div_r(product, 2 * count, modulus, count, scratch)
        result.update(from: product, count: count)
    }
}
#endif
#endif
