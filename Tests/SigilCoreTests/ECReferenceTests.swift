import SigilTestSupport
import XCTest

@testable import SigilCore

/// Every fast-path field, point and ECDSA operation against the GMP reference, on seeded random
/// inputs and edge values, for both curves.
final class ECReferenceTests: XCTestCase {
    private func randomBelow(_ m: BigNum, _ rng: inout SeededGenerator) -> BigNum {
        let bytes = rng.bytes((m.bitLength + 7) / 8 + 8)
        return (try? BigNum(magnitude: bytes).mod(m)) ?? BigNum()
    }

    private func edges(_ m: BigNum) -> [BigNum] {
        [
            BigNum(0), BigNum(1), BigNum(2), m - BigNum(1), m - BigNum(2), (m - BigNum(1)) >> 1, BigNum(1) << 64,
            (BigNum(1) << (m.bitLength - 1)), m - (BigNum(1) << 64),
        ]
    }

    private func checkField<F: MontgomeryFieldElement>(_ type: F.Type, modulus m: BigNum, seed: UInt64, squareRoots: Bool) {
        var rng = SeededGenerator(seed: seed)
        let values = edges(m) + (0..<2000).map { _ in randomBelow(m, &rng) }
        func el(_ v: BigNum) -> F { ECReference.element(v, as: F.self) }
        func val(_ e: F) -> BigNum { ECReference.value(e) }
        func mod(_ v: BigNum) -> BigNum { (try? v.mod(m)) ?? BigNum() }
        for (i, a) in values.enumerated() {
            let b = values[(i * 7 + 3) % values.count]
            XCTAssertEqual(val(el(a)), a, "round trip")
            XCTAssertEqual(val(el(a) * el(b)), mod(a * b), "mul \(a) \(b)")
            XCTAssertEqual(val(el(a) + el(b)), mod(a + b), "add")
            XCTAssertEqual(val(el(a) - el(b)), mod(a - b), "sub")
            XCTAssertEqual(val(el(a).squared), mod(a * a), "square")
            XCTAssertEqual(val(el(a).negated), mod(-a), "negate")
            // Halving (the doubling formula's 3/2·t): 2·(a/2) = a, and a/2 is reduced.
            let half = val(F.halve(el(a)))
            XCTAssertEqual(mod(half * BigNum(2)), a, "halve \(a)")
            XCTAssertTrue(half < m, "halve \(a) reduced")
            XCTAssertEqual(F.equal(el(a), el(b)).isTrueVartime, a == b)
            if i % 10 == 0 {
                let expected = a.isZero ? BigNum(0) : ((try? a.inverse(modulo: m)) ?? BigNum())
                XCTAssertEqual(val(el(a).inverted), expected, "inverse \(a)")
                if squareRoots {
                    let (root, exists) = el(a).squareRoot
                    // Euler's criterion via GMP: a is a square iff a^((m−1)/2) ∈ {0, 1}.
                    let euler = (try? a.power((m - BigNum(1)) >> 1, modulo: m)) ?? BigNum(-1)
                    XCTAssertEqual(exists.isTrueVartime, euler <= BigNum(1), "sqrt existence \(a)")
                    if exists.isTrueVartime { XCTAssertEqual(mod(val(root) * val(root)), a, "sqrt \(a)") }
                }
            }
        }
        // Range checks: m and above are rejected, m − 1 accepted.
        for v in [m, m + BigNum(1), (BigNum(1) << (8 * F.byteCount)) - BigNum(1)] {
            let bytes = (try? v.bytes(width: F.byteCount)) ?? []
            XCTAssertFalse(F.fromBigEndian(bytes).1.isTrueVartime, "\(v) must be out of range")
        }
        XCTAssertTrue(F.fromBigEndian((try? (m - BigNum(1)).bytes(width: F.byteCount)) ?? []).1.isTrueVartime)
    }

    func testFieldsAgainstGMP() {
        let p256 = ECReference(P256Curve.self)
        let p384 = ECReference(P384Curve.self)
        checkField(P256Field.self, modulus: p256.p, seed: 1, squareRoots: true)
        checkField(P256Scalar.self, modulus: p256.n, seed: 2, squareRoots: false)
        checkField(P384Field.self, modulus: p384.p, seed: 3, squareRoots: true)
        checkField(P384Scalar.self, modulus: p384.n, seed: 4, squareRoots: false)
    }

    private func affine<C>(_ point: ProjectivePoint<C>) -> ECReference.Point {
        point.affine.map { (ECReference.value($0.x), ECReference.value($0.y)) }
    }

    private func projective<C>(_ point: ECReference.Point, _ curve: C.Type) -> ProjectivePoint<C> {
        guard let (x, y) = point else { return .identity }
        return ProjectivePoint(x: ECReference.element(x, as: C.Field.self), y: ECReference.element(y, as: C.Field.self), z: .one)
    }

    private func affine<C>(_ point: JacobianPoint<C>) -> ECReference.Point {
        point.affineVartime.map { (ECReference.value($0.x), ECReference.value($0.y)) }
    }

    private func jacobian<C>(_ point: ECReference.Point, _ curve: C.Type) -> JacobianPoint<C> {
        guard let (x, y) = point else { return .identity }
        // A Jacobian representative with Z ≠ 1: (x·Z², y·Z³, Z) for Z = 7.
        let z = C.Field.constant(7)
        let z2 = z.squared
        return JacobianPoint(
            x: ECReference.element(x, as: C.Field.self) * z2,
            y: ECReference.element(y, as: C.Field.self) * z2 * z, z: z)
    }

    private func equal(_ a: ECReference.Point, _ b: ECReference.Point) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (.some(x), .some(y)): return x.x == y.x && x.y == y.y
        default: return false
        }
    }

    private func checkPoints<C: WeierstrassCurve>(_ curve: C.Type, seed: UInt64, count: Int) {
        let ref = ECReference(curve)
        var rng = SeededGenerator(seed: seed)
        XCTAssertTrue(ref.isOnCurve(ref.g))
        let scalars =
            [BigNum(0), BigNum(1), BigNum(2), ref.n - BigNum(1), ref.n - BigNum(2)] + (0..<count).map { _ in randomBelow(ref.n, &rng) }
        for (i, k1) in scalars.enumerated() {
            let k2 = scalars[(i * 5 + 1) % scalars.count]
            let p1 = ref.multiply(k1, ref.g)
            let p2 = ref.multiply(k2, ref.g)
            let q1 = projective(p1, curve)
            let q2 = projective(p2, curve)
            // Constant-time scalar multiplication against double-and-add.
            let scalar = ECReference.element(k1, as: C.Scalar.self).canonical
            XCTAssertTrue(equal(affine(C.generator.multiplied(byCanonicalSecret: scalar)), p1), "k·G for \(k1)")
            XCTAssertTrue(equal(affine(ProjectivePoint<C>.generatorMultiplied(byCanonicalSecret: scalar)), p1), "table k·G for \(k1)")
            // The generic ladder on an arbitrary point: k1·(k2·G).
            XCTAssertTrue(equal(affine(q2.multiplied(byCanonicalSecret: scalar)), ref.multiply(k1, p2)), "k·P")
            // Complete addition and doubling against SEC 1 §2.2.1, including P + P through add.
            XCTAssertTrue(equal(affine(q1 + q2), ref.add(p1, p2)), "add")
            XCTAssertTrue(equal(affine(q1 + q1), ref.double(p1)), "P + P via the addition formula")
            XCTAssertTrue(equal(affine(q1.doubled), ref.double(p1)), "double")
            XCTAssertTrue(equal(affine(q1 + q1.negated), nil), "P + (−P)")
            XCTAssertTrue(equal(affine(q1 + .identity), p1), "P + O")
            XCTAssertTrue(equal(affine(ProjectivePoint<C>.identity + q1), p1), "O + P")
            if let (x, y) = p1 {
                XCTAssertTrue(
                    ProjectivePoint<C>.isOnCurve(
                        x: ECReference.element(x, as: C.Field.self),
                        y: ECReference.element(y, as: C.Field.self)
                    ).isTrueVartime)
            }
            // Variable-time Jacobian formulas and the wNAF double multiplication (verification).
            if let (x2, y2) = p2 {
                let a2 = AffinePoint<C>(x: ECReference.element(x2, as: C.Field.self), y: ECReference.element(y2, as: C.Field.self))
                let j1 = jacobian(p1, curve)
                let j2 = JacobianPoint<C>(a2)
                XCTAssertTrue(equal(affine(j1.addingVartime(a2)), ref.add(p1, p2)), "mixed add")
                // Runs of doublings (the wNAF loop's shape): k doublings in a row equal 2^k·P, from a
                // Z ≠ 1 representative (j1) and from Z = 1 (j2).
                var repeated1 = j1
                var repeated2 = j2
                for k in 1...9 {
                    repeated1 = repeated1.doubledVartime
                    repeated2 = repeated2.doubledVartime
                    XCTAssertTrue(equal(affine(repeated1), ref.multiply(BigNum(1) << k, p1)), "2^\(k)·P (Z = 7)")
                    XCTAssertTrue(equal(affine(repeated2), ref.multiply(BigNum(1) << k, p2)), "2^\(k)·P (Z = 1)")
                }
                XCTAssertTrue(JacobianPoint<C>.identity.doubledVartime.isIdentityVartime, "2·O")
                XCTAssertTrue(equal(affine(j1.doubledVartime.negated), ref.double(ref.negate(p1))), "2·(−P)")
                XCTAssertTrue(
                    equal(affine(j1.doubledVartime.addingVartime(j2.doubledVartime)), ref.add(ref.double(p1), ref.double(p2))),
                    "Jacobian add")
                XCTAssertTrue(equal(affine(j2.doubledVartime.addingVartime(a2)), ref.multiply(BigNum(3), p2)), "2P + P mixed")
                XCTAssertTrue(equal(affine(j2.doubledVartime.addingVartime(a2.negated)), p2), "2P − P mixed")
                XCTAssertTrue(equal(affine(j2.addingVartime(a2)), ref.double(p2)), "P + P through mixed add")
                XCTAssertTrue(
                    equal(affine(j2.doubledVartime.addingVartime(j2.doubledVartime)), ref.multiply(BigNum(4), p2)), "P + P through add")
                XCTAssertTrue(equal(affine(j2.addingVartime(a2.negated)), nil), "P + (−P) mixed")
                XCTAssertTrue(equal(affine(j2.doubledVartime.addingVartime(j2.doubledVartime.negated)), nil), "P + (−P)")
                XCTAssertTrue(equal(affine(JacobianPoint<C>.identity.addingVartime(a2)), p2), "O + A")
                XCTAssertTrue(equal(affine(j2.addingVartime(JacobianPoint<C>.identity)), p2), "P + O")
                for (u1Value, u2Value) in [
                    (k2, k1), (BigNum(0), k1), (k2, BigNum(0)), (BigNum(0), BigNum(0)),
                    (ref.n - BigNum(1), BigNum(1)), (k2, ref.n - BigNum(1)),
                ] {
                    let u1 = ECReference.element(u1Value, as: C.Scalar.self).canonical
                    let u2 = ECReference.element(u2Value, as: C.Scalar.self).canonical
                    let combined = JacobianPoint<C>.doubleMultiplyVartime(u1, u2, a2)
                    XCTAssertTrue(
                        equal(affine(combined), ref.add(ref.multiply(u1Value, ref.g), ref.multiply(u2Value, p2))),
                        "u1·G + u2·Q for \(u1Value), \(u2Value)")
                }
                // Q = G: u1 = −u2 gives the identity, u1 = u2 passes through P + P in the additions.
                let gAffine = C.generatorOddMultiples[0]
                let u = ECReference.element(k1, as: C.Scalar.self)
                let cancelling = JacobianPoint<C>.doubleMultiplyVartime(u.canonical, u.negated.canonical, gAffine)
                XCTAssertNil(affine(cancelling))
                let same = JacobianPoint<C>.doubleMultiplyVartime(u.canonical, u.canonical, gAffine)
                XCTAssertTrue(equal(affine(same), ref.multiply(ref.mod(BigNum(2) * k1, ref.n), ref.g)), "u·G + u·G")
            }
        }
        // n·G = O and (n + 1)·G = G via the reference; the fast path takes scalars below n only.
        XCTAssertNil(ref.multiply(ref.n, ref.g))
        XCTAssertTrue(equal(ref.multiply(ref.n + BigNum(1), ref.g), ref.g))
        XCTAssertTrue(ProjectivePoint<C>.identity.isIdentity.isTrueVartime)
        XCTAssertTrue(ProjectivePoint<C>.identity.doubled.isIdentity.isTrueVartime)
        XCTAssertTrue((ProjectivePoint<C>.identity + .identity).isIdentity.isTrueVartime)
    }

    /// The generated table of odd multiples of G, and wNAF recoding.
    /// The safegcd inversions (constant-time and variable-time) against GMP's mpz_invert, on all
    /// four moduli: edge values (0 defined as 0, 1, 2, m − 1, m − 2, (m − 1)/2, powers of two,
    /// values with long runs of ones or zeros) and seeded random values; and against the Fermat
    /// inversion they replace.
    func testSafeGCDInversionsAgainstGMP() {
        func check<F: MontgomeryFieldElement>(_ type: F.Type, modulus m: BigNum, seed: UInt64) {
            var rng = SeededGenerator(seed: seed)
            let bits = 64 * F.limbCount
            var values =
                edges(m) + [
                    BigNum(3), m - BigNum(3), (m + BigNum(1)) >> 1, m >> 2, (BigNum(1) << (bits - 2)) - BigNum(1),
                    (BigNum(1) << 128) - BigNum(1), (BigNum(1) << 62), (BigNum(1) << 124),
                ]
            values += (0..<150).map { _ in randomBelow(m, &rng) }
            for a in values {
                let expected = a.isZero ? BigNum(0) : ((try? a.inverse(modulo: m)) ?? BigNum(-1))
                let element = ECReference.element(a, as: F.self)
                XCTAssertEqual(ECReference.value(element.invertedConstantTime), expected, "constant-time inverse of \(a) mod \(m)")
                XCTAssertEqual(
                    ECReference.value(element.invertedSafeGCDVartime), expected, "variable-time safegcd inverse of \(a) mod \(m)")
                XCTAssertEqual(ECReference.value(element.invertedVartime), expected, "GMP inverse of \(a) mod \(m)")
            }
            // x·x⁻¹ = 1 through the field's own multiplication, on random elements.
            for _ in 0..<200 {
                let element = ECReference.element(randomBelow(m, &rng), as: F.self)
                if element.isZero.isTrueVartime { continue }
                XCTAssertTrue(F.equal(element * element.invertedConstantTime, .one).isTrueVartime)
                XCTAssertTrue(F.equal(element.inverted, element.invertedSafeGCDVartime).isTrueVartime)
            }
        }
        let p256 = ECReference(P256Curve.self)
        let p384 = ECReference(P384Curve.self)
        check(P256Field.self, modulus: p256.p, seed: 11)
        check(P256Scalar.self, modulus: p256.n, seed: 12)
        check(P384Field.self, modulus: p384.p, seed: 13)
        check(P384Scalar.self, modulus: p384.n, seed: 14)
    }

    /// The signed comb for k·G (signing and key derivation) against the GMP reference, at every
    /// width the benchmark compares (4…7) and at the one in use: random scalars and edges (0, 1,
    /// 2, n − 1, n − 2, (n − 1)/2, scalars whose every window is 2^(w−1) or 2^(w−1) + 1 — the
    /// boundary of the signed recoding, with carries rippling through every row — powers of two
    /// and all-ones runs). Then RCB's mixed addition on its own edge cases (O + Q, P + P, P − P).
    func testSigningCombAgainstGMP() {
        func check<C: WeierstrassCurve>(_ curve: C.Type, seed: UInt64) {
            let ref = ECReference(curve)
            var rng = SeededGenerator(seed: seed)
            func pattern(_ window: Int, width: Int) -> BigNum {
                var v = BigNum(0)
                for row in 0..<((C.orderBits + width) / width) { v = v + (BigNum(window) << (row * width)) }
                return ref.mod(v, ref.n)
            }
            for width in [4, 5, 6, 7, VerificationTableWidth.signingGenerator] {
                let table =
                    width == VerificationTableWidth.signingGenerator
                    ? C.signingGeneratorTable : FixedBaseTable<C>(base: C.generatorOddMultiples[0], width: width)
                let half = 1 << (width - 1)
                var scalars = [
                    BigNum(0), BigNum(1), BigNum(2), ref.n - BigNum(1), ref.n - BigNum(2), (ref.n - BigNum(1)) >> 1,
                    BigNum(half), BigNum(half + 1), BigNum(1) << (C.orderBits - 1), (BigNum(1) << 128) - BigNum(1),
                    pattern(half, width: width), pattern(half + 1, width: width), pattern((1 << width) - 1, width: width),
                ]
                scalars += (0..<(width == VerificationTableWidth.signingGenerator ? 24 : 4)).map { _ in randomBelow(ref.n, &rng) }
                for k in scalars {
                    let scalar = ECReference.element(k, as: C.Scalar.self).canonical
                    let point = ProjectivePoint<C>.generatorMultiplied(byCanonicalSecret: scalar, table: table)
                    XCTAssertTrue(equal(affine(point), ref.multiply(k, ref.g)), "comb w = \(width): \(k)·G")
                }
            }
            // Mixed addition edges.
            let k = randomBelow(ref.n, &rng)
            guard let (x, y) = ref.multiply(k, ref.g) else { return XCTFail("k·G is the identity") }
            let q = AffinePoint<C>(x: ECReference.element(x, as: C.Field.self), y: ECReference.element(y, as: C.Field.self))
            let p = ProjectivePoint<C>(x: q.x, y: q.y, z: .one)
            XCTAssertTrue(equal(affine(ProjectivePoint<C>.identity + q), (x, y)), "O + Q")
            XCTAssertTrue(equal(affine(p + q), ref.double((x, y))), "Q + Q")
            XCTAssertNil(affine(p + q.negated), "Q − Q")
            XCTAssertTrue(equal(affine(p.doubled + q), ref.multiply(BigNum(3), (x, y))), "2Q + Q")
        }
        check(P256Curve.self, seed: 81)
        check(P384Curve.self, seed: 82)
    }

    func testGeneratorTableAndWNAF() {
        func check<C: WeierstrassCurve>(_ curve: C.Type) {
            let ref = ECReference(curve)
            let table = C.generatorOddMultiples
            XCTAssertEqual(table.count, 1 << (C.generatorWNAFWidth - 2))
            for (i, entry) in table.enumerated() {
                let expected = ref.multiply(BigNum(2 * i + 1), ref.g)
                XCTAssertTrue(equal((ECReference.value(entry.x), ECReference.value(entry.y)), expected), "table entry \(i)")
            }
            var rng = SeededGenerator(seed: 41)
            let values =
                [BigNum(0), BigNum(1), ref.n - BigNum(1), (BigNum(1) << C.orderBits) - BigNum(1)]
                + (0..<500).map { _ in randomBelow(ref.n, &rng) }
            for width in [2, 3, 4, 5, 6, 7, 8] {
                for v in values {
                    let bytes = (try? v.bytes(width: C.Scalar.byteCount)) ?? []
                    let raw = C.Scalar.fromLimbs { i in
                        var word: UInt64 = 0
                        for j in (bytes.count - 8 * (i + 1))..<(bytes.count - 8 * i) { word = word << 8 | UInt64(bytes[j]) }
                        return word
                    }
                    var digits = [Int8](repeating: 99, count: C.orderBits + 1)
                    let top = digits.withUnsafeMutableBufferPointer { wNAF(raw, width: width, bits: C.orderBits, into: $0) }
                    var sum = BigNum(0)
                    var lastNonzero = -width
                    for (i, d) in digits.enumerated() where d != 0 {
                        XCTAssertEqual(Int(d) & 1, 1, "odd digit")
                        XCTAssertLessThan(abs(Int(d)), 1 << (width - 1))
                        XCTAssertGreaterThanOrEqual(i - lastNonzero, width, "non-adjacent")
                        lastNonzero = i
                        sum = sum + (d > 0 ? BigNum(Int(d)) << i : BigNum(0) - (BigNum(-Int(d)) << i))
                    }
                    XCTAssertEqual(sum, v, "wNAF(\(v), w = \(width)) reconstructs")
                    XCTAssertEqual(top, digits.lastIndex { $0 != 0 } ?? -1)
                }
            }
        }
        check(P256Curve.self)
        check(P384Curve.self)
    }

    /// The fixed-base verification tables (generator and per-key) against the GMP reference:
    /// every entry of a small-width table, u1·G + u2·Q through two tables for random and edge
    /// scalars (including the top digit's carry and Q = ±G cancellations), and every width.
    func testFixedBaseVerificationTables() {
        func check<C: WeierstrassCurve>(_ curve: C.Type, seed: UInt64) {
            let ref = ECReference(curve)
            var rng = SeededGenerator(seed: seed)
            let k = randomBelow(ref.n, &rng)
            guard let (qx, qy) = ref.multiply(k, ref.g) else { return XCTFail("k·G is the identity") }
            let q = AffinePoint<C>(x: ECReference.element(qx, as: C.Field.self), y: ECReference.element(qy, as: C.Field.self))
            // Every entry of a w = 3 table: j·2^(3i)·Q.
            let small = FixedBaseTable<C>(base: q, width: 3)
            XCTAssertEqual(small.rowCount, (C.orderBits + 3) / 3)
            XCTAssertGreaterThanOrEqual(small.rowCount * 3, C.orderBits + 1)
            for row in 0..<small.rowCount {
                for j in 1...4 {
                    let entry = small.points[row * 4 + j - 1]
                    let expected = ref.multiply(ref.mod(BigNum(j) << (3 * row), ref.n), (qx, qy))
                    XCTAssertTrue(equal((ECReference.value(entry.x), ECReference.value(entry.y)), expected), "entry \(row), \(j)")
                }
            }
            // Scalars: edges (top bits all ones, alternating digits around the carry threshold) and random.
            let top = BigNum(1) << (C.orderBits - 1)
            let scalars =
                [
                    BigNum(0), BigNum(1), BigNum(2), ref.n - BigNum(1), ref.n - BigNum(2), top, top - BigNum(1),
                    ref.n - top, BigNum(32), BigNum(33), BigNum(31), (BigNum(1) << 70) - BigNum(1),
                ] + (0..<60).map { _ in randomBelow(ref.n, &rng) }
            // Widths past 8 read windows that straddle two limbs more often (the verification
            // tables use 9 and 11).
            for width in 2...12 {
                let table = FixedBaseTable<C>(base: q, width: width)
                for (i, u2) in scalars.enumerated() where width == 6 || i % 6 == 0 {
                    let u1 = scalars[(i * 7 + 3) % scalars.count]
                    var sum = JacobianPoint<C>.identity
                    table.accumulate(ECReference.element(u2, as: C.Scalar.self).canonical, into: &sum)
                    XCTAssertTrue(equal(affine(sum), ref.multiply(u2, (qx, qy))), "w = \(width): \(u2)·Q")
                    if width == 6 {
                        let combined = JacobianPoint<C>.doubleMultiplyVartime(
                            ECReference.element(u1, as: C.Scalar.self).canonical,
                            ECReference.element(u2, as: C.Scalar.self).canonical,
                            table: table)
                        XCTAssertTrue(
                            equal(affine(combined), ref.add(ref.multiply(u1, ref.g), ref.multiply(u2, (qx, qy)))),
                            "u1·G + u2·Q for \(u1), \(u2)")
                    }
                }
            }
            // The generator's own table: u·G + (−u)·G through both tables is the identity, u·G + u·G doubles.
            let gTable = FixedBaseTable<C>(base: C.generatorOddMultiples[0], width: 6)
            let u = ECReference.element(k, as: C.Scalar.self)
            XCTAssertNil(affine(JacobianPoint<C>.doubleMultiplyVartime(u.canonical, u.negated.canonical, table: gTable)))
            XCTAssertTrue(
                equal(
                    affine(JacobianPoint<C>.doubleMultiplyVartime(u.canonical, u.canonical, table: gTable)),
                    ref.multiply(ref.mod(BigNum(2) * k, ref.n), ref.g)), "u·G + u·G")
            // Variable-time inversion agrees with Fermat's.
            for v in [BigNum(0), BigNum(1), ref.n - BigNum(1), k] {
                let element = ECReference.element(v, as: C.Scalar.self)
                XCTAssertTrue(C.Scalar.equal(element.invertedVartime, element.inverted).isTrueVartime, "inverse of \(v)")
            }
        }
        check(P256Curve.self, seed: 71)
        check(P384Curve.self, seed: 72)
    }

    /// The per-key table cache: nothing on first sight, a table from the second, the same table
    /// afterwards, least-recently-used eviction at capacity, and verification results unchanged
    /// whichever path runs.
    func testVerificationKeyTableCachePolicy() throws {
        let cache = VerificationKeyTableCache<P256Curve>(capacity: 2, width: 4, sightingLimit: 8)
        var rng = SeededGenerator(seed: 90)
        let ref = ECReference(P256Curve.self)
        let points: [AffinePoint<P256Curve>] = (0..<3).compactMap { _ in
            guard let (x, y) = ref.multiply(randomBelow(ref.n, &rng), ref.g) else { return nil }
            return AffinePoint(x: ECReference.element(x, as: P256Field.self), y: ECReference.element(y, as: P256Field.self))
        }
        XCTAssertEqual(points.count, 3)
        XCTAssertNil(cache.table(for: points[0]), "first sighting builds nothing")
        let first = cache.table(for: points[0])
        XCTAssertNotNil(first, "second sighting builds the table")
        XCTAssertTrue(cache.table(for: points[0]) === first, "later calls reuse it")
        XCTAssertNotNil(cache.table(for: points[1], force: true), "forced build")
        XCTAssertEqual(cache.count, 2)
        _ = cache.table(for: points[0])  // points[1] is now the least recently used
        XCTAssertNotNil(cache.table(for: points[2], force: true))
        XCTAssertEqual(cache.count, 2)
        XCTAssertNotNil(cache.table(for: points[0]), "recently used key kept")
        XCTAssertNil(cache.table(for: points[1]), "least recently used key evicted (and now only sighted)")
        cache.isEnabled = false
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(cache.table(for: points[0], force: true), "disabled cache builds nothing")

        // Public API: the same signatures verify (and tampered ones fail) cold, on the second
        // sighting, and after prepareForRepeatedVerification, on both curves.
        ECDSAVerificationTables.removeAll()
        defer { ECDSAVerificationTables.isEnabled = true }
        for curve in ECCurve.allCases {
            let key = ECDSAPrivateKey.generate(curve: curve, using: &rng)
            let message = Array("fixed-base tables".utf8)
            let signature = key.signature(for: message, hash: curve.defaultHash)
            var tampered = signature.rawRepresentation
            tampered[3] ^= 1
            let bad = try ECDSASignature(rawRepresentation: tampered, curve: curve)
            for round in 0..<4 {
                if round == 3 {
                    ECDSAVerificationTables.isEnabled = false
                }
                // Round 0's first call is the key's first sighting (wNAF path, no table); its
                // second call builds the table; rounds 1–2 use it; round 3 runs with tables off.
                XCTAssertTrue(key.publicKey.isValidSignatureVartime(signature, for: message, hash: curve.defaultHash), "round \(round)")
                if round == 0 { XCTAssertEqual(ECDSAVerificationTables.count(for: curve), 0, "first sighting") }
                XCTAssertFalse(key.publicKey.isValidSignatureVartime(bad, for: message, hash: curve.defaultHash), "round \(round)")
                XCTAssertEqual(ECDSAVerificationTables.count(for: curve), round == 3 ? 0 : 1)
            }
            ECDSAVerificationTables.isEnabled = true
            let other = ECDSAPrivateKey.generate(curve: curve, using: &rng).publicKey
            other.prepareForRepeatedVerification()
            XCTAssertEqual(ECDSAVerificationTables.count(for: curve), 1)
            XCTAssertFalse(other.isValidSignatureVartime(signature, for: message, hash: curve.defaultHash))
        }
    }

    /// The process-wide per-key tables (the ones an App Store chain's root and intermediate keys
    /// get): filled past their bound on P-384, the count stays at the bound; each table is the
    /// table of its own key (its first entry is the key's point), so another key never verifies
    /// with it; and keys whose tables were evicted still verify, and refuse, correctly.
    func testProcessWideKeyTablesAreBoundedAndPerKey() throws {
        ECDSAVerificationTables.removeAll()
        defer { ECDSAVerificationTables.removeAll() }
        var rng = SeededGenerator(seed: 91)
        let bound = VerificationTableWidth.cachedKeysPerCurve
        let message = Array("per-key tables".utf8)
        let keys = (0..<(bound + 3)).map { _ in ECDSAPrivateKey.generate(curve: .p384, using: &rng) }
        let signatures = keys.map { $0.signature(for: message, hash: .sha384) }
        for (i, key) in keys.enumerated() {
            key.publicKey.prepareForRepeatedVerification()
            XCTAssertEqual(ECDSAVerificationTables.count(for: .p384), min(i + 1, bound), "after \(i + 1) keys")
        }
        XCTAssertEqual(ECDSAVerificationTables.count(for: .p384), bound)
        for (i, key) in keys.enumerated() {
            guard let point = ECDSAEngine<P384Curve>.publicPoint(x: key.publicKey.x, y: key.publicKey.y) else {
                return XCTFail("key \(i) has no point")
            }
            let affine = AffinePoint<P384Curve>(x: point.x, y: point.y)
            let table = try XCTUnwrap(P384Curve.keyTables.table(for: affine, force: true))
            XCTAssertTrue(
                P384Field.equalVartime(table.points[0].x, point.x) && P384Field.equalVartime(table.points[0].y, point.y),
                "key \(i)'s table is built on its own point")
            XCTAssertTrue(key.publicKey.isValidSignatureVartime(signatures[i], for: message, hash: .sha384), "key \(i)")
            let other = signatures[(i + 1) % keys.count]
            XCTAssertFalse(key.publicKey.isValidSignatureVartime(other, for: message, hash: .sha384), "key \(i) with another's signature")
        }
        XCTAssertEqual(ECDSAVerificationTables.count(for: .p384), bound, "still bounded after every key was used again")
    }

    /// Verification's final comparison accepts x_R = r + n (x_R ≥ n), which random tests never
    /// reach (probability ~2^-32 for P-256): build a key for which the only solution is that case.
    func testVerificationWithXAboveOrder() throws {
        func check<C: WeierstrassCurve>(_ curve: C.Type, _ ecCurve: ECCurve) throws {
            let ref = ECReference(curve)
            var rng = SeededGenerator(seed: 51)
            // A point R with x_R in [n, p).
            var point: ECReference.Point = nil
            var x = ref.n + BigNum(1)  // r = x − n must not be 0
            while point == nil {
                let rhs = ref.mod(x * x * x - BigNum(3) * x + ref.b, ref.p)
                let y = (try? rhs.power((ref.p + BigNum(1)) >> 2, modulo: ref.p)) ?? BigNum()
                if ref.mod(y * y, ref.p) == rhs { point = (x, y) } else { x = x + BigNum(1) }
            }
            XCTAssertGreaterThanOrEqual(x, ref.n)
            XCTAssertLessThan(x, ref.p)
            let r = ref.mod(x, ref.n)
            let s = randomBelow(ref.n - BigNum(1), &rng) + BigNum(1)
            let digest = rng.bytes(ecCurve.byteCount)
            let e = ref.mod(BigNum(magnitude: digest), ref.n)
            let w = ref.inverse(s, ref.n)
            let u1 = ref.mod(e * w, ref.n)
            let u2 = ref.mod(r * w, ref.n)
            // Q = u2⁻¹·(R − u1·G), so that u1·G + u2·Q = R.
            let q = ref.multiply(ref.inverse(u2, ref.n), ref.add(point, ref.negate(ref.multiply(u1, ref.g))))
            guard let (qx, qy) = q else { return XCTFail("degenerate key") }
            let key = try ECDSAPublicKey(x: qx.bytes(width: ecCurve.byteCount), y: qy.bytes(width: ecCurve.byteCount), curve: ecCurve)
            let signature = try ECDSASignature(r: r.bytes(width: ecCurve.byteCount), s: s.bytes(width: ecCurve.byteCount), curve: ecCurve)
            XCTAssertTrue(ref.verify(q: q, r: r, s: s, e: e), "reference accepts")
            XCTAssertTrue(key.isValidSignatureVartime(signature, digest: digest), "x_R = r + n accepted")
            var other = digest
            other[0] ^= 0x80
            XCTAssertFalse(key.isValidSignatureVartime(signature, digest: other))
        }
        try check(P256Curve.self, .p256)
        try check(P384Curve.self, .p384)
    }

    func testPointsAgainstGMP() {
        checkPoints(P256Curve.self, seed: 11, count: 150)
        checkPoints(P384Curve.self, seed: 12, count: 100)
    }

    private func checkECDSA<C: WeierstrassCurve>(_ curve: C.Type, ecCurve: ECCurve, seed: UInt64, count: Int) throws {
        let ref = ECReference(curve)
        var rng = SeededGenerator(seed: seed)
        for i in 0..<count {
            let d = randomBelow(ref.n - BigNum(1), &rng) + BigNum(1)
            let k = randomBelow(ref.n - BigNum(1), &rng) + BigNum(1)
            let digest = rng.bytes([20, 32, 48, 64][i % 4])
            let e = ECReference.value(ECDSAEngine<C>.digestScalar(digest))
            // bits2int mod n, independently: the leftmost bits of the digest.
            let width = ecCurve.byteCount
            let leftmost = BigNum(magnitude: digest.prefix(width))
            XCTAssertEqual(e, (try? leftmost.mod(ref.n)) ?? BigNum(-1))
            let dBytes = try d.bytes(width: width)
            let kBytes = try k.bytes(width: width)
            let ours = ECDSAVectorTests.signWithNonce(ECDSAEngine<C>.self, dBytes, kBytes, digest)
            let theirs = ref.sign(d: d, k: k, e: e)
            XCTAssertEqual(ours.map { BigNum(magnitude: $0.r) }, theirs?.0)
            XCTAssertEqual(ours.map { BigNum(magnitude: $0.s) }, theirs?.1)
            let key = try ECDSAPrivateKey(rawRepresentation: dBytes, curve: ecCurve)
            let q = ref.multiply(d, ref.g)
            XCTAssertEqual(BigNum(magnitude: key.publicKey.x), q?.x)
            // Our RFC 6979 signatures verify under the reference, and tampered ones fail under both.
            let signature = key.signature(forDigest: digest, hash: .sha256)
            XCTAssertTrue(ref.verify(q: q, r: BigNum(magnitude: signature.r), s: BigNum(magnitude: signature.s), e: e))
            XCTAssertTrue(key.publicKey.isValidSignatureVartime(signature, digest: digest))
            var tampered = digest
            tampered[i % min(tampered.count, width)] ^= 0x01  // within the bits that bits2int keeps
            let tamperedE = ECReference.value(ECDSAEngine<C>.digestScalar(tampered))
            XCTAssertFalse(ref.verify(q: q, r: BigNum(magnitude: signature.r), s: BigNum(magnitude: signature.s), e: tamperedE))
            XCTAssertFalse(key.publicKey.isValidSignatureVartime(signature, digest: tampered))
            // Edge scalars for r and s: 0, n, n + 1 are rejected; high-s (n − s) is accepted (no low-s rule).
            let sValue = BigNum(magnitude: signature.s)
            let highS = try ECDSASignature(r: signature.r, s: (ref.n - sValue).bytes(width: width), curve: ecCurve)
            XCTAssertTrue(key.publicKey.isValidSignatureVartime(highS, digest: digest))
            for bad in [BigNum(0), ref.n, ref.n + BigNum(1)] {
                let badBytes = try bad.bytes(width: width)
                XCTAssertFalse(
                    key.publicKey.isValidSignatureVartime(try ECDSASignature(r: badBytes, s: signature.s, curve: ecCurve), digest: digest))
                XCTAssertFalse(
                    key.publicKey.isValidSignatureVartime(try ECDSASignature(r: signature.r, s: badBytes, curve: ecCurve), digest: digest))
            }
        }
        // Private keys 0 and n are refused; n − 1 is accepted.
        XCTAssertThrowsError(try ECDSAPrivateKey(rawRepresentation: BigNum(0).bytes(width: ecCurve.byteCount), curve: ecCurve))
        XCTAssertThrowsError(try ECDSAPrivateKey(rawRepresentation: ref.n.bytes(width: ecCurve.byteCount), curve: ecCurve))
        XCTAssertNoThrow(try ECDSAPrivateKey(rawRepresentation: (ref.n - BigNum(1)).bytes(width: ecCurve.byteCount), curve: ecCurve))
    }

    func testECDSAAgainstGMP() throws {
        try checkECDSA(P256Curve.self, ecCurve: .p256, seed: 21, count: 100)
        try checkECDSA(P384Curve.self, ecCurve: .p384, seed: 22, count: 60)
    }

    func testPointEncodings() throws {
        var rng = SeededGenerator(seed: 31)
        for curve in ECCurve.allCases {
            for _ in 0..<50 {
                let key = ECDSAPrivateKey.generate(curve: curve, using: &rng).publicKey
                XCTAssertEqual(try ECDSAPublicKey(sec1Representation: key.uncompressedRepresentation, curve: curve), key)
                XCTAssertEqual(try ECDSAPublicKey(sec1Representation: key.compressedRepresentation, curve: curve), key)
                var offCurve = key.uncompressedRepresentation
                offCurve[offCurve.count - 1] ^= 1
                XCTAssertThrowsError(try ECDSAPublicKey(sec1Representation: offCurve, curve: curve))
            }
            XCTAssertThrowsError(try ECDSAPublicKey(sec1Representation: [0x00], curve: curve))
            XCTAssertThrowsError(try ECDSAPublicKey(sec1Representation: [UInt8](), curve: curve))
            XCTAssertThrowsError(
                try ECDSAPublicKey(sec1Representation: [0x05] + [UInt8](repeating: 1, count: curve.byteCount), curve: curve))
            // x = p (out of range) is refused, even compressed.
            let p = curve == .p256 ? ECReference(P256Curve.self).p : ECReference(P384Curve.self).p
            XCTAssertThrowsError(try ECDSAPublicKey(sec1Representation: [0x02] + p.bytes(width: curve.byteCount), curve: curve))
        }
    }
}
