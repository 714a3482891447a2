/// Constant-time comparisons for secret or attacker-probed bytes (MACs, key material).
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Runs in time that depends only on the lengths
    /// (which are public): every byte is read, no early exit, no data-dependent branch.
    @inline(never)
    public static func equals<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        // Fold to one bit without a branch on `difference`.
        let isZero = (UInt16(difference) &- 1) >> 8
        return isZero & 1 == 1
    }
}
