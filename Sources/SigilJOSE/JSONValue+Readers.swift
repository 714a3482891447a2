// What the direct model readers (SigilAppStore's models, and any reader of a JSON document that
// does not go through `Decodable`) share: the name of a value's kind, as refusals word it, and a
// JSON number's nearest Double computed in Swift — `Double(text)` calls the C library's strtod,
// which Embedded Swift does not have.

extension JSONValue {
    /// The kind of value, as a refusal names what it found ("a string", "null", …).
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The Double nearest to the JSON number `text` (RFC 8259 §6 grammar), ties to even — the
    /// value `Double(text)` gives: ±infinity beyond the largest finite Double, ±0 below half the
    /// smallest subnormal, the sign of a zero kept. Nil when `text` is not a JSON number.
    ///
    /// Clinger's fast path when the significant digits fit in 2⁵³ and the power of ten is exact
    /// (one correctly rounded multiplication or division: every number Apple's data carries);
    /// otherwise exact: the quotient of two big integers to 58 bits and a sticky bit, rounded
    /// once to the Double's precision (or to the subnormal grid). Every step is bounded: a
    /// decimal exponent beyond ±400 saturates (the value is then 0 or infinite whatever the
    /// digits), and the big integers stay under 1,400 bits for the parser's 64-character numbers.
    package static func nearestDouble(toNumber text: String) -> Double? {
        if let value = text.utf8.withContiguousStorageIfAvailable({ nearestDouble(toNumber: $0) }) { return value }
        return Array(text.utf8).withUnsafeBufferPointer { nearestDouble(toNumber: $0) }
    }

    private static func nearestDouble(toNumber bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var scan = DecimalScan()
        guard scan.read(bytes) else { return nil }
        if let fast = scan.fastPathValue { return scan.negative ? -fast : fast }
        return DecimalScan.exactValue(bytes, negative: scan.negative)
    }
}

/// One pass over a JSON number's text: the grammar checked, the significant digits gathered into
/// a UInt64 while they fit, and the decimal exponent of the last digit.
private struct DecimalScan {
    var negative = false
    /// The digits read so far as an integer (leading zeros add nothing); valid while `!overflow`.
    var significand: UInt64 = 0
    var overflow = false
    /// Digits after the decimal point.
    var fractionDigits = 0
    /// The exponent's value, saturated at ±100,000.
    var exponent = 0

    /// Whether `bytes` is a JSON number; fills the fields.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let end = bytes.count
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if i < end, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < end, isDigit(bytes[i]) else { return false }
        let leadingZero = bytes[i] == 0x30
        var integerDigits = 0
        while i < end, isDigit(bytes[i]) {
            add(bytes[i])
            integerDigits += 1
            i += 1
        }
        if leadingZero && integerDigits > 1 { return false }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, isDigit(bytes[i]) else { return false }
            while i < end, isDigit(bytes[i]) {
                add(bytes[i])
                fractionDigits += 1
                i += 1
            }
        }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, isDigit(bytes[i]) else { return false }
            while i < end, isDigit(bytes[i]) {
                exponent = min(exponent * 10 + Int(bytes[i] - 0x30), 100_000)
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        return i == end
    }

    private mutating func add(_ digit: UInt8) {
        guard !overflow else { return }
        let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(digit - 0x30))
        if o1 || o2 { overflow = true } else { significand = sum }
    }

    /// Exact powers of ten as Doubles (10²² is the largest).
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Clinger's fast path: the significand exact in a Double and 10^|e| exact, so one IEEE
    /// multiplication or division rounds correctly. Nil when it does not apply.
    var fastPathValue: Double? {
        guard !overflow, significand <= 1 << 53 else { return nil }
        let decimalExponent = exponent - fractionDigits
        guard decimalExponent >= -22 && decimalExponent <= 22 else { return significand == 0 ? 0 : nil }
        let value = Double(significand)
        return decimalExponent >= 0
            ? value * Self.powersOfTen[decimalExponent] : value / Self.powersOfTen[-decimalExponent]
    }

    /// The slow path: `bytes` (a valid JSON number) as digits × 10^e, converted exactly.
    static func exactValue(_ bytes: UnsafeBufferPointer<UInt8>, negative: Bool) -> Double {
        var digits: [UInt8] = []
        var fraction = 0
        var exponent = 0
        var inFraction = false
        var index = 0
        while index < bytes.count {
            let b = bytes[index]
            index += 1
            if b >= 0x30 && b <= 0x39 {
                if !(digits.isEmpty && b == 0x30) { digits.append(b - 0x30) }
                if inFraction { fraction += 1 }
            } else if b == UInt8(ascii: ".") {
                inFraction = true
            } else if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                var sign = 1
                var value = 0
                while index < bytes.count {
                    let c = bytes[index]
                    index += 1
                    if c == UInt8(ascii: "-") {
                        sign = -1
                    } else if c >= 0x30 && c <= 0x39 {
                        value = min(value * 10 + Int(c - 0x30), 100_000)
                    }
                }
                exponent = sign * value
            }
        }
        var decimalExponent = exponent - fraction
        while let last = digits.last, last == 0 {
            digits.removeLast()
            decimalExponent += 1
        }
        let signBit: UInt64 = negative ? 1 << 63 : 0
        // value < 10^(count + e): 0 below 10^-324 (< half the smallest subnormal), infinite from 10^309 up.
        let magnitude = digits.count + decimalExponent
        if digits.isEmpty || magnitude <= -324 { return Double(bitPattern: signBit) }
        if magnitude > 310 { return Double(bitPattern: signBit | 0x7FF0_0000_0000_0000) }

        var numerator = BigNatural(digits: digits)
        var denominator = BigNatural(1)
        if decimalExponent >= 0 {
            numerator.multiply(byPowerOfTen: decimalExponent)
        } else {
            denominator.multiply(byPowerOfTen: -decimalExponent)
        }
        // Scale so that the quotient has 57 or 58 bits: n/d ∈ (2^(ln-ld-1), 2^(ln-ld+1)).
        let shift = 57 - (numerator.bitWidth - denominator.bitWidth)
        if shift >= 0 { numerator.shiftLeft(shift) } else { denominator.shiftLeft(-shift) }
        var step = denominator
        step.shiftLeft(57)
        var quotient: UInt64 = 0
        for bit in stride(from: 57, through: 0, by: -1) {
            if !numerator.isLess(than: step) {
                numerator.subtract(step)
                quotient |= 1 << UInt64(bit)
            }
            step.shiftRightOne()
        }
        let sticky = !numerator.isZero
        // value = (quotient + sticky fraction) × 2^-shift; the leading bit's weight is 2^lead.
        let bits = 64 - quotient.leadingZeroBitCount
        let lead = bits - 1 - shift
        if lead > 1023 { return Double(bitPattern: signBit | 0x7FF0_0000_0000_0000) }
        let kept = lead >= -1022 ? 53 : lead + 1075
        if kept < 0 { return Double(bitPattern: signBit) }
        let dropped = bits - kept
        var significand = quotient >> UInt64(dropped)
        let rest = quotient & ((1 << UInt64(dropped)) - 1)
        let half: UInt64 = 1 << UInt64(dropped - 1)
        if rest > half || (rest == half && (sticky || significand & 1 == 1)) { significand += 1 }
        guard kept == 53 else {
            // Subnormal: the grid is 2^-1074, the pattern is the significand (2^52 is the least normal).
            return Double(bitPattern: signBit | significand)
        }
        var biased = lead + 1023
        if significand == 1 << 53 {
            significand >>= 1
            biased += 1
        }
        if biased >= 2047 { return Double(bitPattern: signBit | 0x7FF0_0000_0000_0000) }
        return Double(bitPattern: signBit | UInt64(biased) << 52 | (significand & ((1 << 52) - 1)))
    }
}

/// A natural number as 32-bit limbs, least significant first, no zero limb at the top: just what
/// the exact conversion needs.
private struct BigNatural {
    private var limbs: [UInt32]

    init(_ value: UInt32) { limbs = value == 0 ? [] : [value] }

    /// The number the decimal digits (most significant first) write.
    init(digits: [UInt8]) {
        limbs = []
        var chunk: UInt32 = 0
        var chunkLength = 0
        for digit in digits {
            chunk = chunk * 10 + UInt32(digit)
            chunkLength += 1
            if chunkLength == 9 {
                multiply(by: 1_000_000_000, adding: chunk)
                chunk = 0
                chunkLength = 0
            }
        }
        if chunkLength > 0 {
            var scale: UInt32 = 1
            for _ in 0..<chunkLength { scale *= 10 }
            multiply(by: scale, adding: chunk)
        }
    }

    var isZero: Bool { limbs.isEmpty }

    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 32 - top.leadingZeroBitCount
    }

    mutating func multiply(by factor: UInt32, adding addend: UInt32 = 0) {
        var carry = UInt64(addend)
        for i in limbs.indices {
            let product = UInt64(limbs[i]) * UInt64(factor) + carry
            limbs[i] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func multiply(byPowerOfTen count: Int) {
        var remaining = count
        while remaining >= 9 {
            multiply(by: 1_000_000_000)
            remaining -= 9
        }
        var scale: UInt32 = 1
        for _ in 0..<remaining { scale *= 10 }
        if scale > 1 { multiply(by: scale) }
    }

    mutating func shiftLeft(_ count: Int) {
        guard !limbs.isEmpty, count > 0 else { return }
        let whole = count / 32
        let part = UInt32(count % 32)
        if part > 0 {
            var carry: UInt32 = 0
            for i in limbs.indices {
                let limb = limbs[i]
                limbs[i] = limb << part | carry
                carry = limb >> (32 - part)
            }
            if carry != 0 { limbs.append(carry) }
        }
        if whole > 0 { limbs.insert(contentsOf: repeatElement(0, count: whole), at: 0) }
    }

    mutating func shiftRightOne() {
        guard !limbs.isEmpty else { return }
        for i in 0..<(limbs.count - 1) { limbs[i] = limbs[i] >> 1 | limbs[i + 1] << 31 }
        limbs[limbs.count - 1] >>= 1
        if limbs.last == 0 { limbs.removeLast() }
    }

    func isLess(than other: BigNatural) -> Bool {
        if limbs.count != other.limbs.count { return limbs.count < other.limbs.count }
        for i in limbs.indices.reversed() where limbs[i] != other.limbs[i] { return limbs[i] < other.limbs[i] }
        return false
    }

    /// self − other, for other ≤ self.
    mutating func subtract(_ other: BigNatural) {
        var borrow: UInt32 = 0
        for i in limbs.indices {
            let subtrahend = i < other.limbs.count ? other.limbs[i] : 0
            let (d1, o1) = limbs[i].subtractingReportingOverflow(subtrahend)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            limbs[i] = d2
            borrow = o1 || o2 ? 1 : 0
        }
        while limbs.last == 0 { limbs.removeLast() }
    }
}
