/// x · y as a 128-bit value: the limb product of the generated field arithmetic (Generated/*.swift)
/// on 64-bit targets, where LLVM compiles it to one widening multiply (`mul`/`mulx` on x86-64,
/// `mul` + `umulh` on arm64); inlined, the generated code is what it was before this function
/// existed. Straight-line: constant time in x and y.
///
/// wasm32 does not use it: WebAssembly has a 64-bit multiply but no high half, so LLVM lowers a
/// 128-bit product to a call of compiler-rt's `__multi3`. The generated fields multiply on 32-bit
/// words there instead (`montgomeryMultiply32`), each word product one 64-bit multiply. (The
/// safegcd inversion's signed 128-bit products still compile to `__multi3` on wasm32: a few
/// inversions per verification. PortableMPN runs on 32-bit limbs there, with 64-bit products.)
@inline(__always)
func mulWide(_ x: UInt64, _ y: UInt64) -> UInt128 {
    UInt128(x) &* UInt128(y)
}
