// Compiled only with the `Benchmarks` package trait (Benchmarks/ enables it), so no user binary
// links benchmark-only code.
#if Benchmarks
/// Entry points for Benchmarks/ only (`@_spi(Benchmarks) import SigilCore`): chains of field and
/// point operations on internal types, so the benchmark can report per-operation costs and compare
/// the Swift-limb Montgomery fields with GMP `mpn` calls. Not API: no stability promise.
///
/// Each function runs `iterations` dependent operations (each result feeds the next, so the figure
/// is latency, as in a point formula) and returns a checksum the optimiser cannot drop.
@_spi(Benchmarks)
public enum Microbenchmarks {
    public enum Operation: String, CaseIterable, Sendable {
        case fieldMultiply = "field multiply (Swift limbs, Montgomery)"
        case fieldSquare = "field square (Swift limbs, Montgomery)"
        case gmpMultiplyVartime = "field multiply (GMP mpn_mul_n + mpn_tdiv_qr)"
        case gmpMultiplyConstantTime = "field multiply (GMP mpn_sec_mul + mpn_sec_div_r)"
        case fieldInversion = "field inversion (Fermat, constant time)"
        case completeAddition = "point add (RCB complete, projective)"
        case completeDoubling = "point double (RCB complete, projective)"
        case jacobianDoubling = "point double (Jacobian, variable time)"
        case jacobianMixedAddition = "point add (Jacobian + affine, variable time)"
    }

    public static func run(_ operation: Operation, curve: ECCurve, iterations: Int) -> UInt64 {
        switch curve {
        case .p256: return run(operation, P256Curve.self, iterations: iterations)
        case .p384: return run(operation, P384Curve.self, iterations: iterations)
        }
    }

    private static func run<C: WeierstrassCurve>(_ operation: Operation, _ curve: C.Type, iterations: Int) -> UInt64 {
        let a = C.generatorOddMultiples[5].x
        let b = C.generatorOddMultiples[9].y
        switch operation {
        case .fieldMultiply:
            var x = a
            for _ in 0..<iterations { x = x * b }
            return x.limb(0)
        case .fieldSquare:
            var x = a
            for _ in 0..<iterations { x = x.squared }
            return x.limb(0)
        case .gmpMultiplyVartime, .gmpMultiplyConstantTime:
            return gmpChain(a, b, constantTime: operation == .gmpMultiplyConstantTime, iterations: iterations)
        case .fieldInversion:
            var x = a
            for _ in 0..<iterations { x = x.inverted }
            return x.limb(0)
        case .completeAddition:
            var p = C.generator.doubled
            for _ in 0..<iterations { p = p + C.generator }
            return p.x.limb(0)
        case .completeDoubling:
            var p = C.generator
            for _ in 0..<iterations { p = p.doubled }
            return p.x.limb(0)
        case .jacobianDoubling:
            var p = JacobianPoint<C>(C.generatorOddMultiples[3])
            for _ in 0..<iterations { p = p.doubledVartime }
            return p.x.limb(0)
        case .jacobianMixedAddition:
            var p = JacobianPoint<C>(C.generatorOddMultiples[3]).doubledVartime
            let q = C.generatorOddMultiples[7]
            for _ in 0..<iterations { p = p.addingVartime(q) }
            return p.x.limb(0)
        }
    }

    /// The same dependent multiplication chain with plain residues (not Montgomery form: GMP
    /// reduces by division) through `mpn` calls, on stack buffers.
    private static func gmpChain<F: MontgomeryFieldElement>(_ a: F, _ b: F, constantTime: Bool, iterations: Int) -> UInt64 {
        let n = F.limbCount
        let scratchCount = MPNModularMultiply.constantTimeScratchCount(n)
        return withUnsafeTemporaryAllocation(of: UInt.self, capacity: 6 * n + 2 + scratchCount) { buffer in
            let base = buffer.baseAddress!
            let x = base
            let y = base + n
            let m = base + 2 * n
            let product = base + 3 * n
            let quotient = base + 5 * n
            let scratch = base + 6 * n + 2
            for i in 0..<n {
                x[i] = UInt(a.limb(i))
                y[i] = UInt(b.limb(i))
                m[i] = UInt(F.modulus.limb(i))
            }
            for _ in 0..<iterations {
                if constantTime {
                    MPNModularMultiply.multiplyConstantTime(x, x, y, modulus: m, count: n, product: product, scratch: scratch)
                } else {
                    MPNModularMultiply.multiplyVartime(x, x, y, modulus: m, count: n, product: product, quotient: quotient)
                }
            }
            return UInt64(x[0])
        }
    }
}
#endif
