/// A secret boolean as a mask: all ones for true, zero for false (ARCHITECTURE.md, Conventions 5).
///
/// Code that handles secrets combines `Choice` values with `&`, `|` and `!` and selects with masks;
/// it never branches on one. ``isTrueVartime`` declassifies a choice (turns it into a `Bool` that
/// may be branched on) and is only called where the result is public, e.g. "the signature is
/// valid" or "this candidate nonce was rejected".
public struct Choice: Sendable {
    /// 0xFFFF_FFFF_FFFF_FFFF for true, 0 for false.
    public let mask: UInt64

    @inline(__always)
    init(mask: UInt64) { self.mask = mask }

    /// True when `value` is zero, computed without a branch.
    @inline(__always)
    public init(isZero value: UInt64) {
        // (value | −value) has its top bit set exactly when value ≠ 0.
        let nonZeroBit = (value | (0 &- value)) >> 63
        mask = nonZeroBit &- 1
    }

    /// From a bit that is 0 or 1.
    @inline(__always)
    public init(bit: UInt64) { mask = 0 &- (bit & 1) }

    /// The same choice, with its mask OR-ed with `opaqueZero` (``ConstantTimeAudit/opaqueZero``,
    /// read once by the caller): the optimiser then cannot tell that the mask is all zeros or all
    /// ones, and keeps the selects that use it as bitwise operations.
    @inline(__always)
    func hidden(_ opaqueZero: UInt64) -> Choice { Choice(mask: mask | opaqueZero) }

    /// All ones: true.
    public static let `true` = Choice(mask: .max)
    /// All zeros: false.
    public static let `false` = Choice(mask: 0)

    /// Both true, computed on the masks without a branch.
    @inline(__always) public static func & (a: Choice, b: Choice) -> Choice { Choice(mask: a.mask & b.mask) }
    /// Either true, computed on the masks without a branch.
    @inline(__always) public static func | (a: Choice, b: Choice) -> Choice { Choice(mask: a.mask | b.mask) }
    /// The opposite, computed on the mask without a branch.
    @inline(__always) public static prefix func ! (a: Choice) -> Choice { Choice(mask: ~a.mask) }

    /// Declassifies: the caller states the result is public (see ``ConstantTimeAudit``).
    @inline(__always)
    public var isTrueVartime: Bool {
        var value = mask
        ConstantTimeAudit.declassify(&value)
        return value != 0
    }
}

extension Choice {
    /// a < b for little-endian limb sequences of equal length, by the borrow of a − b; no branch.
    @inline(__always)
    static func lessThan(_ a: (Int) -> UInt64, _ b: (Int) -> UInt64, count: Int) -> Choice {
        var borrow: UInt64 = 0
        for i in 0..<count {
            let d = UInt128(a(i)) &- UInt128(b(i)) &- UInt128(borrow)
            borrow = UInt64(truncatingIfNeeded: d &>> 64) & 1
        }
        return Choice(bit: borrow)
    }
}
