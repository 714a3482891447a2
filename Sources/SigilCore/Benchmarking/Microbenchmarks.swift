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

    /// The operands of the field chains of ``run(_:curve:iterations:)`` (x starts at `a`, the
    /// multiplier is `b`), little-endian limbs in Montgomery form: for the same chains written in
    /// other languages (Benchmarks/'s C ceiling targets), whose results must match.
    public static func fieldOperands(curve: ECCurve) -> (a: [UInt64], b: [UInt64]) {
        switch curve {
        case .p256: (P256Curve.generatorOddMultiples[5].x.limbs, P256Curve.generatorOddMultiples[9].y.limbs)
        case .p384: (P384Curve.generatorOddMultiples[5].x.limbs, P384Curve.generatorOddMultiples[9].y.limbs)
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

/// The stages of ECDSA signing and of verification with a cold key (no per-key table), one
/// entry point each, so the benchmark and a callgrind driver can report a breakdown in µs or
/// instructions. Fixed, valid inputs (a key, a digest, a nonce); not API.
@_spi(Benchmarks)
extension Microbenchmarks {
    public enum Stage: String, CaseIterable, Sendable {
        case signTotal = "sign (total, SHA-2 digest given)"
        case signNonce = "sign: RFC 6979 nonce"
        case signGeneratorMultiply = "sign: k·G (projective)"
        case signAffine = "sign: Z⁻¹ and x (constant time)"
        case signScalarInversion = "sign: k⁻¹ mod n (constant time)"
        case verifyColdTotal = "verify, cold key (total, digest given)"
        case verifyScalarInversion = "verify: s⁻¹ mod n (variable time)"
        case verifyDoubleMultiply = "verify: u1·G + u2·Q, no table"
        case fieldInverseFermat = "field inverse: Fermat (constant time)"
        case fieldInverseSafeGCD = "field inverse: safegcd (constant time)"
        case fieldInverseSafeGCDVartime = "field inverse: safegcd (variable time)"
        case fieldInverseGMP = "field inverse: GMP mpz_invert (variable time)"
        case scalarInverseFermat = "scalar inverse: Fermat (constant time)"
        case scalarInverseSafeGCD = "scalar inverse: safegcd (constant time)"
        case scalarInverseSafeGCDVartime = "scalar inverse: safegcd (variable time)"
        case scalarInverseGMP = "scalar inverse: GMP mpz_invert (variable time)"
        case combWidth4 = "k·G comb, w = 4 (8 affine points a row)"
        case combWidth5 = "k·G comb, w = 5 (16 a row)"
        case combWidth6 = "k·G comb, w = 6 (32 a row)"
        case combWidth7 = "k·G comb, w = 7 (64 a row)"
    }

    public static func run(_ stage: Stage, curve: ECCurve, iterations: Int) -> UInt64 {
        switch curve {
        case .p256: return run(stage, P256Curve.self, curve: curve, iterations: iterations)
        case .p384: return run(stage, P384Curve.self, curve: curve, iterations: iterations)
        }
    }

    private static func run<C: WeierstrassCurve>(_ stage: Stage, _ curveType: C.Type, curve: ECCurve, iterations: Int) -> UInt64 {
        let width = C.Scalar.byteCount
        let keyBytes = (0..<width).map { UInt8(truncatingIfNeeded: 0x3C &+ $0 &* 17) }
        let digest = (0..<width).map { UInt8(truncatingIfNeeded: 0x71 &+ $0 &* 13) }
        let hash: HashAlgorithm = curve == .p256 ? .sha256 : .sha384
        let engine = ECDSAEngine<C>.self
        let (d, _) = C.Scalar.fromBigEndian(keyBytes)
        let e = engine.digestScalar(digest)
        // A fixed nonce: the RFC 6979 one for this key and digest.
        var generator = RFC6979Generator(
            hash: hash, byteCount: width, privateKey: keyBytes,
            hashedMessage: e.bigEndianBytes, extraData: [])
        let (k, _) = C.Scalar.fromBigEndian(generator.nextCandidate())
        var checksum: UInt64 = 0
        switch stage {
        case .signTotal:
            for _ in 0..<iterations {
                let (r, _) = engine.sign(privateKey: d, privateKeyBytes: keyBytes, digest: digest, hash: hash, extraEntropy: [])
                checksum &+= UInt64(r[0])
            }
        case .signNonce:
            for _ in 0..<iterations {
                var nonces = RFC6979Generator(
                    hash: hash, byteCount: width, privateKey: keyBytes,
                    hashedMessage: e.bigEndianBytes, extraData: [])
                checksum &+= UInt64(nonces.nextCandidate()[0])
                nonces.wipe()
            }
        case .signGeneratorMultiply:
            let canonical = k.canonical
            for _ in 0..<iterations {
                checksum &+= ProjectivePoint<C>.generatorMultiplied(byCanonicalSecret: canonical).x.limb(0)
            }
        case .combWidth4, .combWidth5, .combWidth6, .combWidth7:
            let width = [Stage.combWidth4, .combWidth5, .combWidth6, .combWidth7].firstIndex(of: stage).map { $0 + 4 } ?? 5
            let table = FixedBaseTable<C>(base: C.generatorOddMultiples[0], width: width)
            let canonical = k.canonical
            for _ in 0..<iterations {
                checksum &+= ProjectivePoint<C>.generatorMultiplied(byCanonicalSecret: canonical, table: table).x.limb(0)
            }
        case .signAffine:
            let point = ProjectivePoint<C>.generatorMultiplied(byCanonicalSecret: k.canonical)
            for _ in 0..<iterations { checksum &+= point.affine?.x.limb(0) ?? 0 }
        case .signScalarInversion:
            for _ in 0..<iterations { checksum &+= k.invertedConstantTime.limb(0) }
        case .fieldInverseFermat, .fieldInverseSafeGCD, .fieldInverseSafeGCDVartime, .fieldInverseGMP:
            // A dependent chain: each inverse feeds the next.
            var x = ProjectivePoint<C>.generatorMultiplied(byCanonicalSecret: k.canonical).z
            for _ in 0..<iterations {
                switch stage {
                case .fieldInverseFermat: x = x.inverted
                case .fieldInverseSafeGCD: x = x.invertedConstantTime
                case .fieldInverseSafeGCDVartime: x = x.invertedSafeGCDVartime
                default: x = x.invertedVartime
                }
            }
            checksum = x.limb(0)
        case .scalarInverseFermat, .scalarInverseSafeGCD, .scalarInverseSafeGCDVartime, .scalarInverseGMP:
            var x = k
            for _ in 0..<iterations {
                switch stage {
                case .scalarInverseFermat: x = x.inverted
                case .scalarInverseSafeGCD: x = x.invertedConstantTime
                case .scalarInverseSafeGCDVartime: x = x.invertedSafeGCDVartime
                default: x = x.invertedVartime
                }
            }
            checksum = x.limb(0)
        case .verifyColdTotal, .verifyDoubleMultiply, .verifyScalarInversion:
            guard let (r, s) = engine.sign(privateKey: d, nonce: k, digestScalar: e),
                let q = engine.publicPoint(privateKey: d)
            else { return 0 }
            let (sScalar, _) = C.Scalar.fromBigEndian(s)
            let (rScalar, _) = C.Scalar.fromBigEndian(r)
            let wasEnabled = ECDSAVerificationTables.isEnabled
            ECDSAVerificationTables.isEnabled = false
            defer { ECDSAVerificationTables.isEnabled = wasEnabled }
            switch stage {
            case .verifyColdTotal:
                for _ in 0..<iterations {
                    checksum &+= engine.verifyVartime(qx: q.x, qy: q.y, r: r, s: s, digest: digest) ? 1 : 0
                }
            case .verifyScalarInversion:
                for _ in 0..<iterations { checksum &+= sScalar.invertedVartime.limb(0) }
            default:
                let w = sScalar.invertedVartime
                let u1 = (e * w).canonical
                let u2 = (rScalar * w).canonical
                let point = AffinePoint<C>(x: q.x, y: q.y)
                for _ in 0..<iterations {
                    checksum &+= JacobianPoint<C>.doubleMultiplyVartime(u1, u2, point).x.limb(0)
                }
            }
        }
        return checksum
    }
}
#endif
