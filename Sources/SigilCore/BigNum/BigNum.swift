// GMP: the regular build only (Embedded Swift links no C).
#if !hasFeature(Embedded)
import CGMP

/// An arbitrary-precision signed integer backed by GNU MP's `mpz_t`.
///
/// **Variable time.** Every operation here runs in time that depends on the values: use `BigNum`
/// only for public inputs (RSA public keys and signatures, certificate serials, reference
/// arithmetic in tests). Secrets go through ``ConstantTimeMPN`` or the fixed-width field code.
///
/// `BigNum` is a value type. Each value owns one `mpz_t` in a private, immutable storage object:
/// operations never mutate an existing value, they produce a new one, so copies can share storage
/// safely. The `mpz_t` is cleared and freed when the last copy goes away (ARC, deterministic). No
/// pointer to GMP memory ever leaves this file.
public struct BigNum: Sendable {
    @usableFromInline let storage: MPZStorage

    init(storage: MPZStorage) { self.storage = storage }

    /// Zero.
    public init() { storage = MPZStorage() }

    /// The value of a machine integer.
    public init(_ value: Int) {
        storage = MPZStorage()
        __gmpz_set_si(storage.pointer, value)
    }

    /// The value of an unsigned machine integer.
    public init(_ value: UInt) {
        storage = MPZStorage()
        __gmpz_set_ui(storage.pointer, value)
    }

    /// The non-negative integer whose big-endian unsigned representation is `bytes`.
    /// Leading zero bytes are allowed; an empty collection is zero.
    public init<Bytes: Collection>(magnitude bytes: Bytes) where Bytes.Element == UInt8 {
        storage = MPZStorage()
        let count = bytes.count
        guard count > 0 else { return }
        let importInto = storage.pointer
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            // order 1: most significant word first; size 1 byte; endian irrelevant; nails 0.
            __gmpz_import(importInto, buffer.count, 1, 1, 1, 0, buffer.baseAddress)
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { buffer in
                __gmpz_import(importInto, buffer.count, 1, 1, 1, 0, buffer.baseAddress)
            }
        }
    }

    /// Parses a hexadecimal string: an optional leading `-`, then one or more of `0-9a-fA-F`.
    /// No prefix, whitespace or separators are accepted.
    public init(hexString: String) throws(SigilCoreError) {
        try self.init(parsing: hexString, base: 16)
    }

    /// Parses a decimal string: an optional leading `-`, then one or more of `0-9`.
    public init(decimalString: String) throws(SigilCoreError) {
        try self.init(parsing: decimalString, base: 10)
    }

    private init(parsing text: String, base: Int32) throws(SigilCoreError) {
        let utf8 = Array(text.utf8)
        var digits = utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty else {
            throw SigilCoreError(.invalidNumberString, "number string has no digits")
        }
        for (offset, byte) in digits.enumerated() {
            guard BigNum.digitValue(byte).map({ $0 < base }) == true else {
                throw SigilCoreError(
                    .invalidNumberString,
                    "character at offset \(offset + (utf8.count - digits.count)) is not a base-\(base) digit")
            }
        }
        storage = MPZStorage()
        let target = storage.pointer
        // Every byte was checked to be a digit or the leading sign, so there is no embedded NUL.
        let status = text.withCString { __gmpz_set_str(target, $0, base) }
        // Every character was validated above, so GMP cannot refuse it; keep the check anyway.
        guard status == 0 else {
            throw SigilCoreError(.invalidNumberString, "GMP rejected the base-\(base) string")
        }
    }

    private static func digitValue(_ byte: UInt8) -> Int32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    // MARK: - Properties

    /// -1, 0 or 1.
    public var signum: Int {
        let size = storage.pointer.pointee._mp_size
        return size > 0 ? 1 : (size < 0 ? -1 : 0)
    }

    /// Whether the value is zero.
    public var isZero: Bool { storage.pointer.pointee._mp_size == 0 }
    /// Whether the value is below zero.
    public var isNegative: Bool { storage.pointer.pointee._mp_size < 0 }

    /// The number of bits in the magnitude: 0 for zero, otherwise ⌊log2 |x|⌋ + 1.
    public var bitLength: Int {
        isZero ? 0 : Int(__gmpz_sizeinbase(storage.pointer, 2))
    }

    /// Whether bit `index` of the two's-complement value is set (index 0 is the least significant).
    public func testBit(_ index: Int) -> Bool {
        precondition(index >= 0, "bit index must be non-negative")
        return __gmpz_tstbit(storage.pointer, mp_bitcnt_t(index)) != 0
    }

    /// The value as an `Int`, or nil when it does not fit.
    public var intValue: Int? {
        __gmpz_fits_slong_p(storage.pointer) != 0 ? __gmpz_get_si(storage.pointer) : nil
    }

    /// The magnitude as minimal big-endian bytes (empty for zero). The sign is not encoded.
    public var magnitudeBytes: [UInt8] {
        let byteCount = (bitLength + 7) / 8
        guard byteCount > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: byteCount)
        var written = 0
        let source = storage.pointer
        out.withUnsafeMutableBytes { buffer in
            _ = __gmpz_export(buffer.baseAddress, &written, 1, 1, 1, 0, source)
        }
        return out
    }

    /// The value as exactly `width` big-endian bytes, left-padded with zeros.
    /// Throws when the value is negative or needs more than `width` bytes.
    public func bytes(width: Int) throws(SigilCoreError) -> [UInt8] {
        guard !isNegative else {
            throw SigilCoreError(.negativeValue, "a negative value has no unsigned encoding")
        }
        let minimal = magnitudeBytes
        guard width >= 0, minimal.count <= width else {
            throw SigilCoreError(.valueDoesNotFit, "value needs \(minimal.count) bytes, width is \(width)")
        }
        return [UInt8](repeating: 0, count: width - minimal.count) + minimal
    }

    /// Lower-case hexadecimal, with a leading `-` for negative values; "0" for zero.
    public var hexString: String { string(base: 16) }

    /// Decimal, with a leading `-` for negative values.
    public var decimalString: String { string(base: 10) }

    private func string(base: Int32) -> String {
        // mpz_sizeinbase may overstate by one; add room for the sign and the terminator.
        let capacity = Int(__gmpz_sizeinbase(storage.pointer, base)) + 2
        var buffer = [CChar](repeating: 0, count: capacity)
        let source = storage.pointer
        buffer.withUnsafeMutableBufferPointer { _ = __gmpz_get_str($0.baseAddress, base, source) }
        let digits = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: digits, as: UTF8.self)
    }
}

// MARK: - Arithmetic

extension BigNum {
    /// Applies a GMP operation that writes a fresh result from the receiver's inputs.
    @inline(__always)
    private static func make(_ body: (UnsafeMutablePointer<__mpz_struct>) -> Void) -> BigNum {
        let result = MPZStorage()
        body(result.pointer)
        return BigNum(storage: result)
    }

    /// The sum. Variable time: public values only.
    public static func + (lhs: BigNum, rhs: BigNum) -> BigNum {
        make { __gmpz_add($0, lhs.storage.pointer, rhs.storage.pointer) }
    }

    /// The difference. Variable time: public values only.
    public static func - (lhs: BigNum, rhs: BigNum) -> BigNum {
        make { __gmpz_sub($0, lhs.storage.pointer, rhs.storage.pointer) }
    }

    /// The product. Variable time: public values only.
    public static func * (lhs: BigNum, rhs: BigNum) -> BigNum {
        make { __gmpz_mul($0, lhs.storage.pointer, rhs.storage.pointer) }
    }

    /// The negation.
    public static prefix func - (value: BigNum) -> BigNum {
        make { __gmpz_neg($0, value.storage.pointer) }
    }

    /// |x|.
    public var magnitude: BigNum { BigNum.make { __gmpz_abs($0, storage.pointer) } }

    /// `self · 2^count`.
    public static func << (lhs: BigNum, count: Int) -> BigNum {
        precondition(count >= 0, "shift count must be non-negative")
        return make { __gmpz_mul_2exp($0, lhs.storage.pointer, mp_bitcnt_t(count)) }
    }

    /// `⌊self / 2^count⌋` (floor, so negative values round toward −∞).
    public static func >> (lhs: BigNum, count: Int) -> BigNum {
        precondition(count >= 0, "shift count must be non-negative")
        return make { __gmpz_fdiv_q_2exp($0, lhs.storage.pointer, mp_bitcnt_t(count)) }
    }

    /// Truncated division, as Swift's `/` and `%` on integers: the quotient rounds toward zero and
    /// the remainder has the sign of the dividend.
    public func quotientAndRemainder(dividingBy divisor: BigNum) throws(SigilCoreError)
        -> (quotient: BigNum, remainder: BigNum)
    {
        guard !divisor.isZero else { throw SigilCoreError(.invalidModulus, "division by zero") }
        let q = MPZStorage()
        let r = MPZStorage()
        __gmpz_tdiv_qr(q.pointer, r.pointer, storage.pointer, divisor.storage.pointer)
        return (BigNum(storage: q), BigNum(storage: r))
    }

    /// The least non-negative residue of `self` modulo `modulus`, in `[0, modulus)`.
    /// `modulus` must be positive.
    public func mod(_ modulus: BigNum) throws(SigilCoreError) -> BigNum {
        guard modulus.signum > 0 else {
            throw SigilCoreError(.invalidModulus, "modulus must be positive")
        }
        return BigNum.make { __gmpz_fdiv_r($0, storage.pointer, modulus.storage.pointer) }
    }

    /// The inverse of `self` modulo `modulus`, in `[0, modulus)`.
    /// Throws ``SigilCoreError/Code/notInvertible`` when gcd(self, modulus) ≠ 1.
    public func inverse(modulo modulus: BigNum) throws(SigilCoreError) -> BigNum {
        guard modulus.signum > 0 else {
            throw SigilCoreError(.invalidModulus, "modulus must be positive")
        }
        let result = MPZStorage()
        let ok = __gmpz_invert(result.pointer, storage.pointer, modulus.storage.pointer)
        // GMP returns 1 with result 0 for modulus 1 (every value is 0 mod 1); no inverse exists there.
        guard ok != 0, !(modulus == BigNum(1)) else {
            throw SigilCoreError(.notInvertible, "value is not invertible modulo the given modulus")
        }
        return BigNum(storage: result)
    }

    /// `self^exponent mod modulus`, in `[0, modulus)`. `exponent ≥ 0`, `modulus > 0`.
    /// Variable time: for public exponents (RSA verification) and reference checks only.
    public func power(_ exponent: BigNum, modulo modulus: BigNum) throws(SigilCoreError) -> BigNum {
        guard modulus.signum > 0 else {
            throw SigilCoreError(.invalidModulus, "modulus must be positive")
        }
        guard !exponent.isNegative else {
            throw SigilCoreError(.negativeValue, "exponent must be non-negative")
        }
        return BigNum.make { __gmpz_powm($0, storage.pointer, exponent.storage.pointer, modulus.storage.pointer) }
    }

    /// The greatest common divisor (always non-negative).
    public func gcd(_ other: BigNum) -> BigNum {
        BigNum.make { __gmpz_gcd($0, storage.pointer, other.storage.pointer) }
    }

    /// GMP's probabilistic primality test (Baillie–PSW plus `rounds` Miller–Rabin rounds).
    /// Returns false for composites with certainty, true for primes and for composites with
    /// probability below 4^-rounds. For tests and key checks on public values.
    public func isProbablePrime(rounds: Int = 25) -> Bool {
        __gmpz_probab_prime_p(storage.pointer, Int32(clamping: rounds)) != 0
    }
}

// MARK: - Comparison and description

extension BigNum: Comparable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The integer `value`.
    public init(integerLiteral value: Int) { self.init(value) }

    /// Whether the two values are equal.
    public static func == (lhs: BigNum, rhs: BigNum) -> Bool {
        __gmpz_cmp(lhs.storage.pointer, rhs.storage.pointer) == 0
    }

    /// Whether `lhs` is smaller than `rhs`.
    public static func < (lhs: BigNum, rhs: BigNum) -> Bool {
        __gmpz_cmp(lhs.storage.pointer, rhs.storage.pointer) < 0
    }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(signum)
        hasher.combine(magnitudeBytes)
    }

    /// The value in decimal.
    public var description: String { decimalString }
}

/// Owns exactly one initialised `mpz_t`. Created only by `BigNum`, written only while a new
/// value is being computed (before it is wrapped in a `BigNum`), then never mutated again; that
/// is what makes sharing it between copies and threads sound.
@usableFromInline
final class MPZStorage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<__mpz_struct>

    init() {
        pointer = .allocate(capacity: 1)
        __gmpz_init(pointer)
    }

    deinit {
        __gmpz_clear(pointer)
        pointer.deallocate()
    }
}
#endif
