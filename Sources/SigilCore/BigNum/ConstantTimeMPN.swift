// GMP: the regular build only (Embedded Swift links no C).
#if !hasFeature(Embedded)
import CGMP

/// One GMP limb: `mp_limb_t`, 64 bits on the platforms Sigil supports.
public typealias Limb = UInt

/// A thin, allocation-free wrapper over GMP's side-channel-silent `mpn` functions
/// (`mpn_sec_*`, `mpn_cnd_*`; GMP manual, "Low-level Functions").
///
/// Numbers are little-endian arrays of ``Limb`` (least significant limb first), passed as buffers
/// the caller owns; scratch space is passed in too, sized with the matching `…ScratchCount`
/// function, so nothing here allocates. GMP documents these functions as taking time and
/// memory-access patterns that depend only on the operand *sizes*, never on their values; the
/// sizes themselves are public. Conditions are limbs: zero means false, any other value true.
///
/// Size mismatches are programming errors and stop the program with a precondition message;
/// they never depend on secret data.
public enum ConstantTimeMPN {
    /// `result = condition ? a + b : a`; returns the carry out (0 or 1), which is 0 when the
    /// condition is false. All three buffers have the same count (aliasing allowed).
    @inlinable
    @discardableResult
    public static func conditionalAdd(
        _ condition: Limb,
        result: UnsafeMutableBufferPointer<Limb>,
        _ a: UnsafeBufferPointer<Limb>,
        _ b: UnsafeBufferPointer<Limb>
    ) -> Limb {
        precondition(result.count == a.count && a.count == b.count && a.count > 0, "operand sizes differ")
        return __gmpn_cnd_add_n(condition, result.baseAddress, a.baseAddress, b.baseAddress, a.count)
    }

    /// `result = condition ? a − b : a`; returns the borrow out (0 or 1).
    @inlinable
    @discardableResult
    public static func conditionalSubtract(
        _ condition: Limb,
        result: UnsafeMutableBufferPointer<Limb>,
        _ a: UnsafeBufferPointer<Limb>,
        _ b: UnsafeBufferPointer<Limb>
    ) -> Limb {
        precondition(result.count == a.count && a.count == b.count && a.count > 0, "operand sizes differ")
        return __gmpn_cnd_sub_n(condition, result.baseAddress, a.baseAddress, b.baseAddress, a.count)
    }

    /// Swaps `a` and `b` when `condition` is non-zero; otherwise leaves both unchanged.
    @inlinable
    public static func conditionalSwap(
        _ condition: Limb,
        _ a: UnsafeMutableBufferPointer<Limb>,
        _ b: UnsafeMutableBufferPointer<Limb>
    ) {
        precondition(a.count == b.count && a.count > 0, "operand sizes differ")
        __gmpn_cnd_swap(condition, a.baseAddress, b.baseAddress, a.count)
    }

    /// Scratch limbs needed by ``multiply(result:_:_:scratch:)``.
    @inlinable
    public static func multiplyScratchCount(_ aCount: Int, _ bCount: Int) -> Int {
        __gmpn_sec_mul_itch(aCount, bCount)
    }

    /// `result = a · b`. `result.count == a.count + b.count`, `a.count ≥ b.count ≥ 1`;
    /// `result` must not overlap the inputs.
    @inlinable
    public static func multiply(
        result: UnsafeMutableBufferPointer<Limb>,
        _ a: UnsafeBufferPointer<Limb>,
        _ b: UnsafeBufferPointer<Limb>,
        scratch: UnsafeMutableBufferPointer<Limb>
    ) {
        precondition(a.count >= b.count && b.count >= 1, "need a.count ≥ b.count ≥ 1")
        precondition(result.count == a.count + b.count, "result must hold a.count + b.count limbs")
        precondition(scratch.count >= multiplyScratchCount(a.count, b.count), "scratch too small")
        __gmpn_sec_mul(result.baseAddress, a.baseAddress, a.count, b.baseAddress, b.count, scratch.baseAddress)
    }

    /// Scratch limbs needed by ``square(result:_:scratch:)``.
    @inlinable
    public static func squareScratchCount(_ count: Int) -> Int { __gmpn_sec_sqr_itch(count) }

    /// `result = a²`. `result.count == 2 · a.count`; no overlap.
    @inlinable
    public static func square(
        result: UnsafeMutableBufferPointer<Limb>,
        _ a: UnsafeBufferPointer<Limb>,
        scratch: UnsafeMutableBufferPointer<Limb>
    ) {
        precondition(a.count >= 1 && result.count == 2 * a.count, "result must hold 2·a.count limbs")
        precondition(scratch.count >= squareScratchCount(a.count), "scratch too small")
        __gmpn_sec_sqr(result.baseAddress, a.baseAddress, a.count, scratch.baseAddress)
    }

    /// Scratch limbs needed by ``powerModulo(result:base:exponent:exponentBits:modulus:scratch:)``.
    @inlinable
    public static func powerScratchCount(baseCount: Int, exponentBits: Int, modulusCount: Int) -> Int {
        __gmpn_sec_powm_itch(baseCount, mp_bitcnt_t(exponentBits), modulusCount)
    }

    /// `result = base^exponent mod modulus` (`mpn_sec_powm`). GMP requires an odd modulus and an
    /// exponent whose value is at least 1; the exponent is read as `exponentBits` bits (its public
    /// size, not its value's bit length). `result.count == modulus.count`.
    @inlinable
    public static func powerModulo(
        result: UnsafeMutableBufferPointer<Limb>,
        base: UnsafeBufferPointer<Limb>,
        exponent: UnsafeBufferPointer<Limb>,
        exponentBits: Int,
        modulus: UnsafeBufferPointer<Limb>,
        scratch: UnsafeMutableBufferPointer<Limb>
    ) {
        precondition(modulus.count >= 1 && result.count == modulus.count, "result must match modulus size")
        precondition(base.count >= 1, "base must have at least one limb")
        precondition(exponentBits >= 1 && exponent.count * Limb.bitWidth >= exponentBits, "exponent size")
        precondition(modulus[0] & 1 == 1, "modulus must be odd")
        precondition(
            scratch.count
                >= powerScratchCount(
                    baseCount: base.count, exponentBits: exponentBits,
                    modulusCount: modulus.count),
            "scratch too small")
        __gmpn_sec_powm(
            result.baseAddress, base.baseAddress, base.count, exponent.baseAddress,
            mp_bitcnt_t(exponentBits), modulus.baseAddress, modulus.count, scratch.baseAddress)
    }

    /// Scratch limbs needed by ``invert(result:value:modulus:bitCount:scratch:)``.
    @inlinable
    public static func invertScratchCount(_ count: Int) -> Int { __gmpn_sec_invert_itch(count) }

    /// `result = value⁻¹ mod modulus` (`mpn_sec_invert`); the modulus must be odd and
    /// `value < modulus`. `value` is destroyed (GMP uses it as work space). `bitCount` bounds the
    /// bit lengths of value plus modulus (2 · modulus bits is always enough). Returns 1 when the
    /// inverse exists, 0 otherwise (then `result` is undefined). The return value is the only
    /// data-dependent output; callers with secret inputs must treat it as a mask, not branch on it.
    @inlinable
    public static func invert(
        result: UnsafeMutableBufferPointer<Limb>,
        value: UnsafeMutableBufferPointer<Limb>,
        modulus: UnsafeBufferPointer<Limb>,
        bitCount: Int,
        scratch: UnsafeMutableBufferPointer<Limb>
    ) -> Limb {
        precondition(
            modulus.count >= 1 && result.count == modulus.count && value.count == modulus.count,
            "operand sizes differ")
        precondition(modulus[0] & 1 == 1, "modulus must be odd")
        precondition(scratch.count >= invertScratchCount(modulus.count), "scratch too small")
        return Limb(
            __gmpn_sec_invert(
                result.baseAddress, value.baseAddress, modulus.baseAddress,
                modulus.count, mp_bitcnt_t(bitCount), scratch.baseAddress))
    }

    /// Scratch limbs needed by ``remainder(_:divisor:scratch:)``.
    @inlinable
    public static func remainderScratchCount(dividendCount: Int, divisorCount: Int) -> Int {
        __gmpn_sec_div_r_itch(dividendCount, divisorCount)
    }

    /// Replaces the low `divisor.count` limbs of `dividend` with `dividend mod divisor`
    /// (`mpn_sec_div_r`); the divisor's top limb must be non-zero and `dividend.count ≥ divisor.count`.
    @inlinable
    public static func remainder(
        _ dividend: UnsafeMutableBufferPointer<Limb>,
        divisor: UnsafeBufferPointer<Limb>,
        scratch: UnsafeMutableBufferPointer<Limb>
    ) {
        precondition(divisor.count >= 1 && dividend.count >= divisor.count, "operand sizes")
        precondition(divisor[divisor.count - 1] != 0, "divisor's top limb must be non-zero")
        precondition(
            scratch.count
                >= remainderScratchCount(
                    dividendCount: dividend.count,
                    divisorCount: divisor.count), "scratch too small")
        __gmpn_sec_div_r(
            dividend.baseAddress, dividend.count, divisor.baseAddress, divisor.count,
            scratch.baseAddress)
    }

    /// Copies entry `index` of a table of `entryCount` entries, each `result.count` limbs long and
    /// stored one after the other, into `result`, reading every entry (`mpn_sec_tabselect`).
    @inlinable
    public static func tableSelect(
        result: UnsafeMutableBufferPointer<Limb>,
        table: UnsafeBufferPointer<Limb>,
        entryCount: Int,
        index: Int
    ) {
        precondition(result.count >= 1 && table.count == result.count * entryCount, "table size")
        precondition(index >= 0 && index < entryCount, "index out of range")
        __gmpn_sec_tabselect(result.baseAddress, table.baseAddress, result.count, entryCount, index)
    }
}

extension BigNum {
    /// The magnitude as exactly `count` little-endian limbs, for ``ConstantTimeMPN``.
    /// Throws when the value is negative or does not fit.
    public func limbs(count: Int) throws(SigilCoreError) -> [Limb] {
        let bytes = try self.bytes(width: count * MemoryLayout<Limb>.size)
        var limbs = [Limb](repeating: 0, count: count)
        for i in 0..<count {
            var word: Limb = 0
            let start = bytes.count - (i + 1) * MemoryLayout<Limb>.size
            for j in 0..<MemoryLayout<Limb>.size { word = (word << 8) | Limb(bytes[start + j]) }
            limbs[i] = word
        }
        return limbs
    }

    /// The non-negative value of little-endian limbs.
    public init<Limbs: Collection>(limbs: Limbs) where Limbs.Element == Limb {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limbs.count * MemoryLayout<Limb>.size)
        for limb in limbs.reversed() {
            for shift in stride(from: Limb.bitWidth - 8, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: limb >> Limb(shift)))
            }
        }
        self.init(magnitude: bytes)
    }
}
#endif
