/// x · y as a 128-bit value: the limb product of the generated field arithmetic (Generated/*.swift).
/// (The safegcd inversion's signed 128-bit products still compile to `__multi3` on wasm32: a few
/// inversions per verification. PortableMPN runs on 32-bit limbs there, with 64-bit products.)
///
/// On 64-bit targets this is `UInt128(x) &* UInt128(y)`, which LLVM compiles to one widening
/// multiply (`mul`/`mulx` on x86-64, `mul` + `umulh` on arm64); inlined, the generated code is
/// what it was before this function existed. On wasm32 LLVM lowers any 128-bit multiply to a call
/// of compiler-rt's `__multi3` (a full 128 × 128 product through memory); here it is four 32 × 32
/// → 64-bit products inline instead (WebAssembly has a 64-bit multiply but no high half). Both are
/// straight-line code: constant time in x and y.
@inline(__always)
func mulWide(_ x: UInt64, _ y: UInt64) -> UInt128 {
    #if arch(wasm32)
    let x0 = x & 0xFFFF_FFFF
    let x1 = x >> 32
    let y0 = y & 0xFFFF_FFFF
    let y1 = y >> 32
    let p00 = x0 &* y0
    let p01 = x0 &* y1
    let p10 = x1 &* y0
    let p11 = x1 &* y1
    // Each of the three terms is below 2^32, so the sum cannot overflow 64 bits.
    let middle = (p00 >> 32) &+ (p01 & 0xFFFF_FFFF) &+ (p10 & 0xFFFF_FFFF)
    let low = (middle << 32) | (p00 & 0xFFFF_FFFF)
    let high = p11 &+ (p01 >> 32) &+ (p10 >> 32) &+ (middle >> 32)
    return UInt128(high) << 64 | UInt128(low)
    #else
    return UInt128(x) &* UInt128(y)
    #endif
}
