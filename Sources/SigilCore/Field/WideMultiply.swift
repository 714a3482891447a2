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
@_transparent
func mulWide(_ x: UInt64, _ y: UInt64) -> UInt128 {
    u128(x) &* u128(y)
}

// The word conversions of the generated code. Each is what `UInt128(x)`,
// `UInt64(truncatingIfNeeded: x)` and `UInt64(truncatingIfNeeded: x &>> 64)` compute. On 64-bit
// targets they are written with UInt128's concrete halves and inlined even without optimization
// (@_transparent): the generic forms are calls through BinaryInteger's witness table in an
// unoptimized build, where they made a debug build's P-256 verification with a cold key take
// 72 ms (2.4 ms now; debug is what `swift test` builds by default). Optimized, both forms compile
// to the same instructions there (the object code of the fields was compared before and after).
// On wasm32, which is only ever built size-optimized (sigil.wasm), the generic forms stay: there
// the halves made -Osize's output 29 KB larger.

/// x as a 128-bit value (high half zero).
@_transparent
func u128(_ x: UInt64) -> UInt128 {
    #if arch(wasm32)
    UInt128(x)
    #else
    UInt128(_low: x, _high: 0)
    #endif
}

/// The low 64 bits of x.
@_transparent
func lo64(_ x: UInt128) -> UInt64 {
    #if arch(wasm32)
    UInt64(truncatingIfNeeded: x)
    #else
    x._low
    #endif
}

/// The high 64 bits of x.
@_transparent
func hi64(_ x: UInt128) -> UInt64 {
    #if arch(wasm32)
    UInt64(truncatingIfNeeded: x &>> 64)
    #else
    x._high
    #endif
}

/// x − y − borrow for a borrow of 0 or 1: the difference and the borrow out (0 or 1). Written with
/// `subtractingReportingOverflow`, which LLVM chains into `sub`/`sbb` on x86-64 (`subs`/`sbcs` on
/// arm64); the same chain through UInt128 (`hi64(d) & 1`) compiled to four or five instructions a
/// limb. The Bool→integer conversions are bit casts: no branch in any build. WebAssembly has no
/// carry flag: there the UInt128 form stays (the overflow form made sigil.wasm 14 KB larger and
/// its uncached verification 8 % slower in Node).
@_transparent
func subtractBorrowing(_ x: UInt64, _ y: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
    #if arch(wasm32)
    let d = u128(x) &- u128(y) &- u128(borrow)
    return (lo64(d), hi64(d) & 1)
    #else
    let (d0, b0) = x.subtractingReportingOverflow(y)
    let (d1, b1) = d0.subtractingReportingOverflow(borrow)
    return (d1, UInt64(unsafeBitCast(b0, to: UInt8.self) | unsafeBitCast(b1, to: UInt8.self)))
    #endif
}

/// x + y + carry for a carry of 0 or 1: the sum and the carry out (0 or 1), as `adc` chains
/// (through UInt128 on WebAssembly, as ``subtractBorrowing(_:_:_:)`` says).
@_transparent
func addCarrying(_ x: UInt64, _ y: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
    #if arch(wasm32)
    let s = u128(x) &+ u128(y) &+ u128(carry)
    return (lo64(s), hi64(s))
    #else
    let (s0, c0) = x.addingReportingOverflow(y)
    let (s1, c1) = s0.addingReportingOverflow(carry)
    return (s1, UInt64(unsafeBitCast(c0, to: UInt8.self) | unsafeBitCast(c1, to: UInt8.self)))
    #endif
}
