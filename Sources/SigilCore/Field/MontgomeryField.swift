/// What the generated field types (Generated/P256Field.swift, …) provide, and the operations
/// built on top of them once for all four moduli.
///
/// Contract for every function: elements are in Montgomery form and fully reduced into [0, m);
/// everything is constant time in the element values unless its name ends in `Vartime`.
protocol MontgomeryFieldElement: Sendable {
    static var limbCount: Int { get }
    static var byteCount: Int { get }
    static var modulus: Self { get }
    static var rSquared: Self { get }
    static var inverseExponent: Self { get }
    static var squareRootExponent: Self { get }
    static var zero: Self { get }
    static var one: Self { get }

    static func montgomeryMultiply(_ a: Self, _ b: Self) -> Self
    static func montgomerySquare(_ a: Self) -> Self
    static func add(_ a: Self, _ b: Self) -> Self
    static func reduceOnce(_ raw: Self) -> Self
    static func subtract(_ a: Self, _ b: Self) -> Self
    static func halve(_ a: Self) -> Self
    static func select(_ choice: Choice, _ a: Self, _ b: Self) -> Self
    static func equal(_ a: Self, _ b: Self) -> Choice
    func limb(_ index: Int) -> UInt64
    init(rawLimbs: UnsafeBufferPointer<UInt64>)
}

extension MontgomeryFieldElement {
    @inline(__always) static func * (a: Self, b: Self) -> Self { montgomeryMultiply(a, b) }
    @inline(__always) static func + (a: Self, b: Self) -> Self { add(a, b) }
    @inline(__always) static func - (a: Self, b: Self) -> Self { subtract(a, b) }

    @inline(__always) var squared: Self { Self.montgomerySquare(self) }
    @inline(__always) var negated: Self { Self.subtract(.zero, self) }
    @inline(__always) var isZero: Choice { Self.equal(self, .zero) }

    /// Builds a value from little-endian limbs given as a closure over the (public) index.
    @inline(__always)
    static func fromLimbs(_ limb: (Int) -> UInt64) -> Self {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: limbCount) { buffer in
            for i in 0..<limbCount { buffer[i] = limb(i) }
            return Self(rawLimbs: UnsafeBufferPointer(buffer))
        }
    }

    /// The plain value 1 (not Montgomery form): multiplying by it leaves Montgomery form.
    @inline(__always)
    static var rawOne: Self { fromLimbs { $0 == 0 ? 1 : 0 } }

    /// Converts a canonical value x in [0, m) into Montgomery form (x·R mod m).
    @inline(__always)
    static func fromCanonical(_ x: Self) -> Self { montgomeryMultiply(x, rSquared) }

    /// Leaves Montgomery form: the canonical value in [0, m), as raw limbs.
    @inline(__always)
    var canonical: Self { Self.montgomeryMultiply(self, Self.rawOne) }

    /// A small constant in Montgomery form (for 2, 3, 4, 8 in point formulas and tests).
    static func constant(_ value: UInt64) -> Self {
        fromCanonical(fromLimbs { $0 == 0 ? value : 0 })
    }

    /// Reads big-endian bytes (exactly `byteCount` of them). Returns the element in Montgomery
    /// form and whether the value was below m (SEC 1 §2.3.6 range check), without branching on the
    /// value; when it was not (or the length is wrong, a public fact), the element returned is zero.
    static func fromBigEndian<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> (Self, Choice)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        // Callers pass exactly byteCount bytes; any other length is reported as out of range
        // rather than trapping, so no input can crash this.
        guard bytes.count == byteCount else { return (.zero, .false) }
        let start = bytes.startIndex
        let raw = fromLimbs { i in
            var word: UInt64 = 0
            let end = start + byteCount - 8 * i
            for j in (end - 8)..<end { word = (word << 8) | UInt64(bytes[j]) }
            return word
        }
        let inRange = Choice.lessThan(raw.limb, modulus.limb, count: limbCount)
        return (select(inRange, fromCanonical(raw), .zero), inRange)
    }

    /// The canonical value as big-endian bytes (`byteCount` of them).
    var bigEndianBytes: [UInt8] { canonical.rawBigEndianBytes }

    /// The limbs as stored (no conversion out of Montgomery form), big-endian, `byteCount` bytes.
    var rawBigEndianBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.byteCount)
        out.withUnsafeMutableBytes { writeRawBigEndian(into: $0) }
        return out
    }

    /// Writes the limbs as stored, big-endian, into the first `byteCount` bytes of `out` (the
    /// caller provides at least that many; a shorter buffer gets nothing). No allocation.
    func writeRawBigEndian(into out: UnsafeMutableRawBufferPointer) {
        guard out.count >= Self.byteCount else { return }
        for i in 0..<Self.limbCount {
            let word = limb(i)
            for j in 0..<8 { out[Self.byteCount - 1 - (8 * i + j)] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(j))) }
        }
    }

    /// self^e where the exponent `e` is a **public** value given as raw little-endian limbs (not
    /// Montgomery form): left-to-right 4-bit fixed windows, so the sequence of operations depends
    /// only on the exponent. The window table lives on the stack; nothing is allocated.
    func power(publicExponent exponent: Self) -> Self {
        withUnsafeTemporaryAllocation(of: Self.self, capacity: 16) { table in
            table[0] = .one
            for i in 1..<16 { table[i] = table[i - 1] * self }
            var result = Self.one
            for limbIndex in stride(from: Self.limbCount - 1, through: 0, by: -1) {
                let word = exponent.limb(limbIndex)
                for shift in stride(from: 60, through: 0, by: -4) {
                    result = result.squared.squared.squared.squared
                    // The exponent is public (m − 2, (p + 1)/4): indexing by it leaks nothing secret.
                    result = result * table[Int((word >> UInt64(shift)) & 0xF)]
                }
            }
            return result
        }
    }

    /// The multiplicative inverse by Fermat's little theorem: self^(m−2) (m is prime). Constant
    /// time. The inverse of zero is zero.
    var inverted: Self { power(publicExponent: Self.inverseExponent) }

    /// The multiplicative inverse of a **public** element through GMP's extended Euclid
    /// (`mpn_gcdext` on stack buffers: variable time, no heap allocation; fewer instructions
    /// than the variable-time safegcd of SafeGCDInversion.swift). Only for values that are
    /// public, such as a signature's s in verification. The inverse of zero is zero.
    var invertedVartime: Self {
        #if hasFeature(Embedded)
        // No GMP in Embedded Swift: the variable-time safegcd (SafeGCDInversion.swift).
        return invertedSafeGCDVartime
        #else
        // The stored limbs are x·R; GMP inverts them as a plain number, giving (x·R)⁻¹, and
        // montgomeryMultiply((x·R)⁻¹, R³) = x⁻¹·R is the Montgomery form of x⁻¹.
        let n = Self.limbCount
        let raw = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 3 * n) { buffer -> Self? in
            guard let base = buffer.baseAddress else { return nil }
            for i in 0..<n {
                base[i] = limb(i)
                base[n + i] = Self.modulus.limb(i)
            }
            guard VartimeMPN.invert(base + 2 * n, base, base + n, count: n) else { return nil }
            return Self.fromLimbs { base[2 * n + $0] }
        }
        guard let raw else { return .zero }  // only zero has no inverse modulo a prime
        return Self.montgomeryMultiply(raw, Self.montgomeryMultiply(Self.rSquared, Self.rSquared))
        #endif
    }
}

/// Square roots in the base fields. Both P-256 and P-384 have p ≡ 3 (mod 4), so a square root
/// of a quadratic residue a is a^((p+1)/4) (SEC 1 §2.3.4 decompression relies on it).
extension MontgomeryFieldElement {
    /// A square root if one exists (`Choice` false otherwise). Used for point decompression,
    /// whose input is public.
    var squareRoot: (Self, Choice) {
        let candidate = power(publicExponent: Self.squareRootExponent)
        return (candidate, Self.equal(candidate.squared, self))
    }
}
