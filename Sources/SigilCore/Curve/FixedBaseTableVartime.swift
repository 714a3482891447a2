/// Precomputed fixed-base tables for **verification** (variable time; every input is public).
///
/// A table for a point P and a window width w holds, for each row i (one per w-bit window of a
/// scalar, `rowCount` = ⌈(orderBits + 1) / w⌉ rows) the affine points j·2^(w·i)·P for
/// j = 1 … 2^(w−1). A public scalar k < n is recoded into signed digits d_i in
/// [−(2^(w−1) − 1), 2^(w−1)] with k = Σ d_i·2^(w·i); then k·P = Σ ±table[i][|d_i|] needs one mixed
/// addition per nonzero digit and no doublings at all. u1·G + u2·Q with a table for G and one for
/// Q costs about (bits/w_G + bits/w_Q) mixed additions instead of `orderBits` doublings plus the
/// wNAF additions (FIPS 186-5 §6.4.2 step 6; the method is the fixed-base windowing of
/// Brickell–Gordon–McCurley–Wilson with signed digits).
///
/// The generator's table is built once per process on first use (`C.verificationGeneratorTable`);
/// tables for public keys are built and kept by `VerificationKeyTables` (a bounded cache) for
/// keys that verify repeatedly — Apple's roots, intermediates and signing leaves are a handful of
/// long-lived keys. Everything here branches on and indexes by public values only; it must never
/// see a private key or a nonce.
final class FixedBaseTable<C: WeierstrassCurve>: @unchecked Sendable {
    let width: Int
    let rowCount: Int
    /// 2^(w−1): entries per row (multiples 1 … 2^(w−1)).
    let entriesPerRow: Int
    /// rowCount × entriesPerRow affine points, row-major: points[i·entriesPerRow + j − 1] = j·2^(w·i)·P.
    /// Immutable after init.
    let points: [AffinePoint<C>]

    /// Builds the table for a public affine point (never the identity; P-256 and P-384 have
    /// prime order, so no multiple j·2^(w·i)·P with j < n is the identity either).
    init(base: AffinePoint<C>, width: Int) {
        precondition((2...12).contains(width), "window width must be 2…12")
        self.width = width
        self.rowCount = (C.orderBits + width) / width
        self.entriesPerRow = 1 << (width - 1)
        var jacobian: [JacobianPoint<C>] = []
        jacobian.reserveCapacity(rowCount * entriesPerRow)
        // Wide rows (2^(w−1) ≥ 64 entries, the verification tables) first make their base
        // B = 2^(w·i)·P affine (one inversion a row, through normalizedVartime: the conversion
        // verification already links), so that the row's 2^(w−1) − 2 additions of B are mixed
        // ones (8M + 3S instead of 12M + 4S). Narrow rows (signing's w = 6, ECDH's w = 2) would
        // spend more on the inversion than it saves and add B in Jacobian form.
        let affineRows = entriesPerRow >= 64
        var rowBase = JacobianPoint<C>(base)
        for row in 0..<rowCount {
            let affineBase: AffinePoint<C>? =
                affineRows ? (row == 0 ? base : JacobianPoint<C>.normalizedVartime([rowBase])[0]) : nil
            let rowBaseJacobian = affineBase.map { JacobianPoint<C>($0) } ?? rowBase
            var multiple = rowBaseJacobian
            jacobian.append(multiple)
            for j in 1..<entriesPerRow {
                // 2·B by doubling: the vartime addition of a point to itself finds the equality
                // only after most of an addition's work, then doubles anyway.
                if j == 1 {
                    multiple = rowBaseJacobian.doubledVartime
                } else if let affineBase {
                    multiple = multiple.addingVartime(affineBase)
                } else {
                    multiple = multiple.addingVartime(rowBaseJacobian)
                }
                jacobian.append(multiple)
            }
            // 2^(w−1)·B doubled is 2^w·B, the next row's base (never the identity: see above).
            rowBase = multiple.doubledVartime
        }
        self.points = JacobianPoint<C>.normalizedVartime(jacobian)
    }

    /// result + k·P for a public canonical scalar k < 2^orderBits (one mixed addition per nonzero
    /// signed digit).
    @inline(__always)
    func accumulate(_ k: C.Scalar, into result: inout JacobianPoint<C>) {
        let w = width
        let half = entriesPerRow
        let mask = (1 << w) - 1
        points.withUnsafeBufferPointer { table in
            var carry = 0
            for row in 0..<rowCount {
                let value = publicBits(k, from: row * w, width: w, mask: mask) + carry
                // Digits in [−(half − 1), half]; the top window holds at most w − 1 bits of k
                // (rowCount·w ≥ orderBits + 1), so the last carry is always zero.
                let digit: Int
                if value > half {
                    digit = value - (1 << w)
                    carry = 1
                } else {
                    digit = value
                    carry = 0
                }
                if digit > 0 {
                    result = result.addingVartime(table[row * half + digit - 1])
                } else if digit < 0 {
                    result = result.addingVartime(table[row * half - digit - 1].negated)
                }
            }
        }
    }

    /// The `width` bits of a public scalar from `start` (`mask` selecting them), bits at or above
    /// 64·limbCount reading as zero.
    @inline(__always)
    private func publicBits(_ k: C.Scalar, from start: Int, width: Int, mask: Int) -> Int {
        let limbIndex = start >> 6
        let shift = start & 63
        guard limbIndex < C.Scalar.limbCount else { return 0 }
        var word = k.limb(limbIndex) >> UInt64(shift)
        if shift + width > 64, limbIndex + 1 < C.Scalar.limbCount {
            word |= k.limb(limbIndex + 1) << UInt64(64 - shift)
        }
        return Int(truncatingIfNeeded: word) & mask
    }

    /// Bytes of point storage, for documentation and the cache's accounting.
    var byteCount: Int { points.count * MemoryLayout<AffinePoint<C>>.stride }
}

extension JacobianPoint {
    /// Affine forms of many non-identity points with one field inversion (Montgomery's trick:
    /// prefix products of the Z coordinates, one inversion, then a backward pass). Public inputs.
    static func normalizedVartime(_ points: [JacobianPoint]) -> [AffinePoint<C>] {
        guard !points.isEmpty else { return [] }
        var prefix: [C.Field] = []
        prefix.reserveCapacity(points.count)
        var product = C.Field.one
        for point in points {
            product = product * point.z
            prefix.append(product)
        }
        var inverse = product.invertedConstantTime
        var result = [AffinePoint<C>](repeating: AffinePoint(x: .zero, y: .zero), count: points.count)
        var index = points.count - 1
        while index >= 0 {
            // inverse = (z_0 ⋯ z_index)⁻¹ here.
            let zInverse = index > 0 ? inverse * prefix[index - 1] : inverse
            inverse = inverse * points[index].z
            let zInverse2 = zInverse.squared
            result[index] = AffinePoint(x: points[index].x * zInverse2, y: points[index].y * zInverse2 * zInverse)
            index -= 1
        }
        return result
    }

    /// u1·G + u2·Q for public canonical scalars with a precomputed table for Q: no doublings,
    /// one mixed addition per nonzero digit of each scalar. Variable time (verification only).
    static func doubleMultiplyVartime(_ u1: C.Scalar, _ u2: C.Scalar, table: FixedBaseTable<C>) -> JacobianPoint {
        var result = JacobianPoint.identity
        C.verificationGeneratorTable.accumulate(u1, into: &result)
        table.accumulate(u2, into: &result)
        return result
    }
}
