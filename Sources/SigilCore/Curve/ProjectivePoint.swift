/// A point in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z; the point at
/// infinity is (0 : 1 : 0) (or any (0 : Y : 0)).
///
/// Addition and doubling are the complete formulas of Renes, Costello and Batina, "Complete
/// addition formulas for prime order elliptic curves" (EUROCRYPT 2016, ePrint 2015/1060),
/// Algorithms 4 (addition) and 6 (doubling) for a = −3. They are correct for every pair of
/// inputs, including P + P, P + (−P) and the point at infinity, with no branch: the same
/// sequence of field operations runs whatever the points are. The constant-time scalar
/// multiplications use them where an exceptional case could otherwise occur (the signing comb's
/// top rows, the last window of k·P in ScalarMultiplication.swift); elsewhere they run the
/// cheaper Jacobian formulas, with the cases that remain handled by masked selects.
/// Contract: coordinates in Montgomery form, reduced.
struct ProjectivePoint<C: WeierstrassCurve>: Sendable {
    var x: C.Field
    var y: C.Field
    var z: C.Field

    @inline(__always)
    init(x: C.Field, y: C.Field, z: C.Field) {
        self.x = x
        self.y = y
        self.z = z
    }

    static var identity: ProjectivePoint { ProjectivePoint(x: .zero, y: .one, z: .zero) }

    /// Whether this is the point at infinity (Z = 0), as a mask.
    var isIdentity: Choice { z.isZero }

    /// RCB Algorithm 4: P + Q, 12 multiplications, 2 by b, complete.
    @inline(never)
    static func + (p: ProjectivePoint, q: ProjectivePoint) -> ProjectivePoint {
        let b = C.b
        var t0 = p.x * q.x  // 1
        var t1 = p.y * q.y  // 2
        var t2 = p.z * q.z  // 3
        var t3 = p.x + p.y  // 4
        var t4 = q.x + q.y  // 5
        t3 = t3 * t4  // 6
        t4 = t0 + t1  // 7
        t3 = t3 - t4  // 8
        t4 = p.y + p.z  // 9
        var x3 = q.y + q.z  // 10
        t4 = t4 * x3  // 11
        x3 = t1 + t2  // 12
        t4 = t4 - x3  // 13
        x3 = p.x + p.z  // 14
        var y3 = q.x + q.z  // 15
        x3 = x3 * y3  // 16
        y3 = t0 + t2  // 17
        y3 = x3 - y3  // 18
        var z3 = b * t2  // 19
        x3 = y3 - z3  // 20
        z3 = x3 + x3  // 21
        x3 = x3 + z3  // 22
        z3 = t1 - x3  // 23
        x3 = t1 + x3  // 24
        y3 = b * y3  // 25
        t1 = t2 + t2  // 26
        t2 = t1 + t2  // 27
        y3 = y3 - t2  // 28
        y3 = y3 - t0  // 29
        t1 = y3 + y3  // 30
        y3 = t1 + y3  // 31
        t1 = t0 + t0  // 32
        t0 = t1 + t0  // 33
        t0 = t0 - t2  // 34
        t1 = t4 * y3  // 35
        t2 = t0 * y3  // 36
        y3 = x3 * z3  // 37
        y3 = y3 + t2  // 38
        x3 = t3 * x3  // 39
        x3 = x3 - t1  // 40
        z3 = t4 * z3  // 41
        t1 = t3 * t0  // 42
        z3 = z3 + t1  // 43
        return ProjectivePoint(x: x3, y: y3, z: z3)
    }

    /// RCB Algorithm 6: 2P, 8 multiplications, 3 squarings, 2 by b, complete.
    @inline(never)
    var doubled: ProjectivePoint {
        let b = C.b
        var t0 = x.squared  // 1
        let t1 = y.squared  // 2
        var t2 = z.squared  // 3
        var t3 = x * y  // 4
        t3 = t3 + t3  // 5
        var z3 = x * z  // 6
        z3 = z3 + z3  // 7
        var y3 = b * t2  // 8
        y3 = y3 - z3  // 9
        var x3 = y3 + y3  // 10
        y3 = x3 + y3  // 11
        x3 = t1 - y3  // 12
        y3 = t1 + y3  // 13
        y3 = x3 * y3  // 14
        x3 = x3 * t3  // 15
        t3 = t2 + t2  // 16
        t2 = t2 + t3  // 17
        z3 = b * z3  // 18
        z3 = z3 - t2  // 19
        z3 = z3 - t0  // 20
        t3 = z3 + z3  // 21
        z3 = z3 + t3  // 22
        t3 = t0 + t0  // 23
        t0 = t3 + t0  // 24
        t0 = t0 - t2  // 25
        t0 = t0 * z3  // 26
        y3 = y3 + t0  // 27
        t0 = y * z  // 28
        t0 = t0 + t0  // 29
        z3 = t0 * z3  // 30
        x3 = x3 - z3  // 31
        z3 = t0 * t1  // 32
        z3 = z3 + z3  // 33
        z3 = z3 + z3  // 34
        return ProjectivePoint(x: x3, y: y3, z: z3)
    }

    var negated: ProjectivePoint { ProjectivePoint(x: x, y: y.negated, z: z) }

    @inline(__always)
    static func select(_ choice: Choice, _ a: ProjectivePoint, _ b: ProjectivePoint) -> ProjectivePoint {
        ProjectivePoint(
            x: C.Field.select(choice, a.x, b.x), y: C.Field.select(choice, a.y, b.y),
            z: C.Field.select(choice, a.z, b.z))
    }

    /// Affine coordinates (x, y), or nil for the point at infinity. One inversion (constant-time
    /// safegcd); the nil result declassifies only "is the identity".
    var affine: (x: C.Field, y: C.Field)? {
        if isIdentity.isTrueVartime { return nil }
        let zInverse = z.invertedConstantTime
        return (x * zInverse, y * zInverse)
    }

    /// Projective equality: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1 (both identities are equal).
    static func equal(_ p: ProjectivePoint, _ q: ProjectivePoint) -> Choice {
        let sameX = C.Field.equal(p.x * q.z, q.x * p.z)
        let sameY = C.Field.equal(p.y * q.z, q.y * p.z)
        let bothIdentity = p.isIdentity & q.isIdentity
        let neitherIdentity = !p.isIdentity & !q.isIdentity
        return bothIdentity | (neitherIdentity & sameX & sameY)
    }

    /// Whether an affine (x, y) satisfies y² = x³ − 3x + b (SEC 1 §3.2.2.1 step 2).
    static func isOnCurve(x: C.Field, y: C.Field) -> Choice {
        let threeX = x + x + x
        let rhs = x.squared * x - threeX + C.b
        return C.Field.equal(y.squared, rhs)
    }
}
