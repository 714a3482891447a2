/// A fixed-base table for the generator G: row i holds j·16^i·G for j = 0…15, one row per 4-bit
/// window of a scalar (64 rows for P-256, 96 for P-384; 96 KiB and 221 KiB).
///
/// k·G is then the sum over windows of one entry per row — no doublings at all — which is what
/// makes signing and key derivation fast. The table is computed once, on first use (Swift's lazy
/// `static let` initialisation is thread-safe), from G with the same complete formulas as
/// everything else, and it depends only on public constants. Tests check it against the GMP
/// reference through k·G for random and edge scalars.
final class GeneratorTable<C: WeierstrassCurve>: @unchecked Sendable {
    static var rowCount: Int { C.orderBits / 4 }

    /// rowCount × 16 points, row-major. Immutable after init.
    let points: [ProjectivePoint<C>]

    init() {
        var points: [ProjectivePoint<C>] = []
        points.reserveCapacity(GeneratorTable.rowCount * 16)
        var base = C.generator
        for _ in 0..<GeneratorTable.rowCount {
            var multiple = ProjectivePoint<C>.identity
            for _ in 0..<16 {
                points.append(multiple)
                multiple = multiple + base
            }
            base = base.doubled.doubled.doubled.doubled
        }
        self.points = points
    }
}

extension ProjectivePoint {
    /// k·G for a secret scalar k (canonical value), with the fixed-base table.
    ///
    /// Constant time in k: every row is visited, all 16 entries of each row are read and one is
    /// kept with masks (the row index is the public loop counter, the entry index the secret
    /// window), and each row costs one complete addition whatever the window is (entry 0 is the
    /// identity, which the complete formulas add like any other point).
    static func generatorMultiplied(byCanonicalSecret k: C.Scalar) -> ProjectivePoint {
        C.generatorTable.points.withUnsafeBufferPointer { table in
            var result = ProjectivePoint.identity
            for row in 0..<GeneratorTable<C>.rowCount {
                let window = (k.limb(row >> 4) >> UInt64(4 * (row & 15))) & 0xF
                var entry = ProjectivePoint.identity
                let rowStart = 16 * row
                for j in 0..<16 {
                    entry = ProjectivePoint.select(Choice(isZero: UInt64(j) ^ window), table[rowStart + j], entry)
                }
                result = result + entry
            }
            return result
        }
    }
}
