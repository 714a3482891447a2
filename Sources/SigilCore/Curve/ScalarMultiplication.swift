/// Scalar multiplication for secret scalars: a constant-time fixed-window method. (The
/// variable-time double multiplication of verification is in JacobianVartime.swift.)
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
}
