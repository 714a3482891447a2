/// Scalar multiplication: a constant-time fixed-window method for secret scalars, and a
/// variable-time Strauss–Shamir double multiplication for verification (public inputs).
extension ProjectivePoint {
    /// k·P for a secret scalar k, given as its canonical value (not Montgomery form).
    ///
    /// Constant time in k (and in P): 4-bit fixed windows from the top; every window performs
    /// four doublings and one complete addition of a table entry, and the entry is fetched by
    /// reading all 16 entries and keeping one with masks, so neither the sequence of operations
    /// nor any memory address depends on k. The window table is on the stack.
    func multiplied(byCanonicalSecret k: C.Scalar) -> ProjectivePoint {
        withUnsafeTemporaryAllocation(of: ProjectivePoint.self, capacity: 16) { table in
            table[0] = .identity
            table[1] = self
            for i in 2..<16 { table[i] = table[i - 1] + self }
            var result = ProjectivePoint.identity
            for limbIndex in stride(from: C.Scalar.limbCount - 1, through: 0, by: -1) {
                let word = k.limb(limbIndex)
                for shift in stride(from: 60, through: 0, by: -4) {
                    result = result.doubled.doubled.doubled.doubled
                    let window = (word >> UInt64(shift)) & 0xF
                    var entry = ProjectivePoint.identity
                    for i in 0..<16 {
                        entry = ProjectivePoint.select(Choice(isZero: UInt64(i) ^ window), table[i], entry)
                    }
                    result = result + entry
                }
            }
            return result
        }
    }

    /// u1·G + u2·Q for **public** scalars (canonical values), variable time: Strauss–Shamir with
    /// 4-bit windows, one shared chain of doublings, additions skipped for zero windows.
    static func doubleMultiplyVartime(_ u1: C.Scalar, _ g: ProjectivePoint, _ u2: C.Scalar, _ q: ProjectivePoint)
        -> ProjectivePoint
    {
        withUnsafeTemporaryAllocation(of: ProjectivePoint.self, capacity: 32) { table in
            table[0] = .identity
            table[16] = .identity
            table[1] = g
            table[17] = q
            for i in 2..<16 {
                table[i] = table[i - 1] + g
                table[16 + i] = table[16 + i - 1] + q
            }
            var result = ProjectivePoint.identity
            var started = false
            for limbIndex in stride(from: C.Scalar.limbCount - 1, through: 0, by: -1) {
                let w1 = u1.limb(limbIndex), w2 = u2.limb(limbIndex)
                for shift in stride(from: 60, through: 0, by: -4) {
                    if started { result = result.doubled.doubled.doubled.doubled }
                    let a = Int((w1 >> UInt64(shift)) & 0xF), b = Int((w2 >> UInt64(shift)) & 0xF)
                    if a != 0 { result = result + table[a]; started = true }
                    if b != 0 { result = result + table[16 + b]; started = true }
                }
            }
            return result
        }
    }
}
