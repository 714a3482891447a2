@testable import SigilCore

/// The auditor's second opinion: P-256/P-384 arithmetic written the plain way on GMP `mpz`
/// (through BigNum), affine coordinates, textbook formulas (SEC 1 §2.2.1), no tricks and no
/// constant-time concerns. Used only by tests, to check every fast-path operation.
struct ECReference {
    let p: BigNum
    let n: BigNum
    let b: BigNum
    let g: Point

    /// An affine point, or nil for the point at infinity.
    typealias Point = (x: BigNum, y: BigNum)?

    init<C: WeierstrassCurve>(_ curve: C.Type) {
        p = BigNum(limbs: (0..<C.Field.limbCount).map { UInt(C.Field.modulus.limb($0)) })
        n = BigNum(limbs: (0..<C.Scalar.limbCount).map { UInt(C.Scalar.modulus.limb($0)) })
        b = ECReference.value(C.b)
        let gx = ECReference.value(C.generator.x)
        let gy = ECReference.value(C.generator.y)
        g = (gx, gy)
    }

    /// The canonical value of a Montgomery-form element.
    static func value<F: MontgomeryFieldElement>(_ element: F) -> BigNum {
        BigNum(magnitude: element.bigEndianBytes)
    }

    /// A Montgomery-form element from a canonical value (must be in range).
    static func element<F: MontgomeryFieldElement>(_ value: BigNum, as: F.Type) -> F {
        let bytes = (try? value.bytes(width: F.byteCount)) ?? []
        return F.fromBigEndian(bytes).0
    }

    func mod(_ x: BigNum, _ m: BigNum) -> BigNum { (try? x.mod(m)) ?? BigNum() }
    func inverse(_ x: BigNum, _ m: BigNum) -> BigNum { (try? x.inverse(modulo: m)) ?? BigNum() }

    func isOnCurve(_ point: Point) -> Bool {
        guard let (x, y) = point else { return true }
        return mod(y * y - (x * x * x - BigNum(3) * x + b), p).isZero
    }

    /// SEC 1 §2.2.1 point addition, every case spelled out.
    func add(_ a: Point, _ c: Point) -> Point {
        guard let (x1, y1) = a else { return c }
        guard let (x2, y2) = c else { return a }
        if x1 == x2 {
            if mod(y1 + y2, p).isZero { return nil }
            return double(a)
        }
        let lambda = mod((y2 - y1) * inverse(mod(x2 - x1, p), p), p)
        let x3 = mod(lambda * lambda - x1 - x2, p)
        return (x3, mod(lambda * (x1 - x3) - y1, p))
    }

    func double(_ a: Point) -> Point {
        guard let (x, y) = a else { return nil }
        if y.isZero { return nil }
        let lambda = mod((BigNum(3) * x * x - BigNum(3)) * inverse(mod(BigNum(2) * y, p), p), p)
        let x3 = mod(lambda * lambda - BigNum(2) * x, p)
        return (x3, mod(lambda * (x - x3) - y, p))
    }

    func negate(_ a: Point) -> Point {
        guard let (x, y) = a else { return nil }
        return (x, mod(-y, p))
    }

    /// Double-and-add from the top bit.
    func multiply(_ k: BigNum, _ point: Point) -> Point {
        var result: Point = nil
        let bits = k.bitLength
        for i in stride(from: bits - 1, through: 0, by: -1) {
            result = double(result)
            if k.testBit(i) { result = add(result, point) }
        }
        return result
    }

    /// FIPS 186-5 §6.4.1 with a given nonce; e is the already-truncated digest value.
    func sign(d: BigNum, k: BigNum, e: BigNum) -> (BigNum, BigNum)? {
        guard let (x, _) = multiply(k, g) else { return nil }
        let r = mod(x, n)
        let s = mod(inverse(k, n) * (e + r * d), n)
        return r.isZero || s.isZero ? nil : (r, s)
    }

    /// FIPS 186-5 §6.4.2.
    func verify(q: Point, r: BigNum, s: BigNum, e: BigNum) -> Bool {
        guard r.signum > 0, r < n, s.signum > 0, s < n else { return false }
        let w = inverse(s, n)
        guard let (x, _) = add(multiply(mod(e * w, n), g), multiply(mod(r * w, n), q)) else { return false }
        return mod(x, n) == r
    }
}
