import SigilTestSupport
import XCTest

@testable import SigilCore

/// The portable multi-precision backend (PortableMPN, the exponentiation of RSAModulusLimbs on it)
/// against GMP, with both limb widths Embedded builds use (UInt32 on wasm32, UInt64 on 64-bit
/// hosts) run on this machine: every limb operation on random and extreme limbs at every length up
/// to 4,096 bits, the long division that enters Montgomery form (also on 8- and 16-bit limbs, where
/// its rare corrections happen often), and RSAVP1 s^e mod n against mpz_powm and the GMP backend.
// The limb widths the tests run besides the machine word (the library conforms only `UInt`).
extension UInt8: PortableLimb { public typealias Wide = UInt16 }
extension UInt16: PortableLimb { public typealias Wide = UInt32 }
extension UInt32: PortableLimb { public typealias Wide = UInt64 }
extension UInt64: PortableLimb { public typealias Wide = UInt128 }

final class PortableMPNTests: XCTestCase {
    // MARK: - Conversions (little-endian limbs of any width ↔ BigNum)

    private func limbs<L: PortableLimb>(_ value: BigNum, count: Int, as _: L.Type) throws -> [L] {
        let size = L.bitWidth / 8
        let bytes = try value.bytes(width: count * size)
        return (0..<count).map { i in
            let start = (count - 1 - i) * size
            return bytes[start..<(start + size)].reduce(L(0)) { $0 << 8 | L($1) }
        }
    }

    private func value<L: PortableLimb>(_ limbs: UnsafePointer<L>, count: Int) -> BigNum {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * L.bitWidth / 8)
        for i in stride(from: count - 1, through: 0, by: -1) {
            for shift in stride(from: L.bitWidth - 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: limbs[i] >> shift)) }
        }
        return BigNum(magnitude: bytes)
    }

    private func value<L: PortableLimb>(_ limbs: [L]) -> BigNum {
        limbs.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return BigNum(0) }
            return value(base, count: buffer.count)
        }
    }

    /// A random value of `count` limbs whose limbs are drawn from random, all ones, zero and one,
    /// so carries run the whole length as often as they stop.
    private func operand<L: PortableLimb>(count: Int, _ rng: inout SeededGenerator, as _: L.Type) -> [L] {
        let shape = rng.next() % 4
        return (0..<count).map { _ in
            switch shape {
            case 0: L.max
            case 1: rng.next() % 3 == 0 ? L.max : L(truncatingIfNeeded: rng.next())
            case 2: rng.next() % 3 == 0 ? L(rng.next() % 2) : L(truncatingIfNeeded: rng.next())
            default: L(truncatingIfNeeded: rng.next())
            }
        }
    }

    // MARK: - Limb operations

    /// compare, add, subtract (also in place, as doubling modulo n runs them), addMultiple,
    /// multiply and square against BigNum (mpz) at every length of 1…64 limbs of 64 bits and
    /// 1…128 limbs of 32 bits.
    func testLimbOperationsAgainstGMP() throws {
        try limbOperations(UInt64.self, maximumCount: 64, seed: 0x4D50_4E01)
        try limbOperations(UInt32.self, maximumCount: 128, seed: 0x4D50_4E02)
    }

    private func limbOperations<L: PortableLimb>(_ type: L.Type, maximumCount: Int, seed: UInt64) throws {
        typealias P = PortableMPN<L>
        var rng = SeededGenerator(seed: seed)
        for count in 1...maximumCount {
            let radix = BigNum(1) << (L.bitWidth * count)
            for round in 0..<4 {
                let label = "\(L.bitWidth)-bit limbs, \(count) limbs, round \(round)"
                let a = operand(count: count, &rng, as: L.self)
                let b = round == 3 ? a : operand(count: count, &rng, as: L.self)
                let q = round == 0 ? L.max : L(truncatingIfNeeded: rng.next())
                let (x, y) = (value(a), value(b))
                var r = [L](repeating: 0, count: count)
                var product = [L](repeating: 0, count: 2 * count)
                let expectedSign = x < y ? -1 : (x == y ? 0 : 1)
                XCTAssertEqual(P.compare(a, b, count), expectedSign, label)
                let carry = P.add(&r, a, b, count)
                XCTAssertEqual(value(r) + BigNum(UInt(carry)) * radix, x + y, "add, \(label)")
                let borrow = P.subtract(&r, a, b, count)
                XCTAssertEqual(value(r) - BigNum(UInt(borrow)) * radix, x - y, "subtract, \(label)")
                // In place: r = r + r, r = r − b.
                r = a
                let doubled = r.withUnsafeMutableBufferPointer { buffer -> L in
                    guard let base = buffer.baseAddress else { return 0 }
                    return P.add(base, base, base, count)
                }
                XCTAssertEqual(value(r) + BigNum(UInt(doubled)) * radix, x + x, "add in place, \(label)")
                r = a
                let inPlaceBorrow = r.withUnsafeMutableBufferPointer { buffer -> L in
                    guard let base = buffer.baseAddress else { return 0 }
                    return P.subtract(base, base, b, count)
                }
                XCTAssertEqual(value(r) - BigNum(UInt(inPlaceBorrow)) * radix, x - y, "subtract in place, \(label)")
                r = b
                let high = P.addMultiple(&r, a, count, q)
                XCTAssertEqual(value(r) + BigNum(UInt(high)) * radix, y + x * BigNum(UInt(q)), "addMultiple, \(label)")
                P.multiply(&product, a, b, count)
                XCTAssertEqual(value(product), x * y, "multiply, \(label)")
                P.square(&product, a, count)
                XCTAssertEqual(value(product), x * x, "square, \(label)")
            }
        }
    }

    // MARK: - Division

    /// shiftedRemainder (a·R mod m, Knuth's Algorithm D) against BigNum: every length of 1…64
    /// limbs of 64 bits and 1…128 of 32 bits, and on 16- and 8-bit limbs (where a quotient
    /// estimate one or two too large, and the add-back after a negative row, happen once in a few
    /// hundred limbs instead of once in 2^31 or 2^63) many random divisions. Moduli with top limbs
    /// 1, 0x80…0, all ones and random, second limbs zero, all ones and random; a = 0, 1, m − 1 and
    /// random.
    func testShiftedRemainderAgainstGMP() throws {
        try shiftedRemainders(UInt64.self, counts: Array(1...64), rounds: 3, seed: 0x4D50_4E05)
        try shiftedRemainders(UInt32.self, counts: Array(1...128), rounds: 2, seed: 0x4D50_4E06)
        try shiftedRemainders(UInt16.self, counts: Array(1...40) + [64, 127, 256], rounds: 24, seed: 0x4D50_4E07)
        try shiftedRemainders(UInt8.self, counts: Array(1...40) + [64, 128, 255, 512], rounds: 48, seed: 0x4D50_4E08)
    }

    private func shiftedRemainders<L: PortableLimb>(
        _ type: L.Type, counts: [Int], rounds: Int, seed: UInt64
    ) throws {
        var rng = SeededGenerator(seed: seed)
        for count in counts {
            for round in 0..<rounds {
                var m = operand(count: count, &rng, as: L.self)
                switch round % 4 {
                case 0: m[count - 1] = 1
                case 1: m[count - 1] = 1 << (L.bitWidth - 1)
                case 2: m[count - 1] = L.max
                default: if m[count - 1] == 0 { m[count - 1] = L(truncatingIfNeeded: rng.next()) | 1 }
                }
                if count >= 2 && round % 3 == 1 { m[count - 2] = round % 2 == 0 ? 0 : L.max }
                let modulus = value(m)
                let radix = BigNum(1) << (L.bitWidth * count)
                var values = [BigNum(0), BigNum(1), modulus - BigNum(1)]
                values += (0..<2).map { _ in (try? value(operand(count: count, &rng, as: L.self)).mod(modulus)) ?? BigNum(0) }
                for a in values where a < modulus {
                    let limbsOfA = try limbs(a, count: count, as: L.self)
                    var remainder = [L](repeating: 0, count: count)
                    var numerator = [L](repeating: 0, count: 2 * count)
                    var scratch = [L](repeating: 0, count: count + 1)
                    PortableMPN<L>.shiftedRemainder(&remainder, limbsOfA, modulus: m, count, numerator: &numerator, scratch: &scratch)
                    XCTAssertEqual(
                        value(remainder), try (a * radix).mod(modulus), "\(L.bitWidth)-bit limbs, \(count) limbs, m = \(modulus), a = \(a)")
                }
            }
        }
    }

    // MARK: - RSAVP1

    /// A modulus of exactly `bits` bits: random, odd, its top bit set, as minimal big-endian bytes.
    private func modulus(bits: Int, _ rng: inout SeededGenerator) -> [UInt8] {
        let byteCount = (bits + 7) / 8
        var bytes = rng.bytes(byteCount)
        let topBits = bits - 8 * (byteCount - 1)
        bytes[0] = bytes[0] & UInt8(truncatingIfNeeded: (1 << topBits) - 1) | UInt8(truncatingIfNeeded: 1 << (topBits - 1))
        bytes[byteCount - 1] |= 1
        return bytes
    }

    /// s^e mod n through the portable path with `L` limbs; nil when refused (s ≥ n).
    private func portablePower<L: PortableLimb>(
        _ limbs: RSAModulusLimbs<L>, _ signature: [UInt8], width: Int
    ) -> [UInt8]? {
        let result: [UInt8]?? = limbs.withPowerVartime(of: signature, using: PortableMPN<L>.self) { m in
            RSAModulusLimbs<L>.withBigEndianBytes(m, limbCount: limbs.limbCount, width: width) { Array($0) }
        }
        return result ?? nil
    }

    /// s^e mod n for one modulus and exponent through the portable path with `L` limbs, against
    /// the expected values (nil: refused).
    private func checkPortable<L: PortableLimb>(
        _ type: L.Type, modulus: [UInt8], exponent: [UInt8], inputs: [(BigNum, [UInt8]?)], label: String
    ) throws {
        let limbs = RSAModulusLimbs<L>(modulus: modulus, exponent: exponent)
        for (index, (s, expected)) in inputs.enumerated() {
            XCTAssertEqual(
                portablePower(limbs, try s.bytes(width: modulus.count), width: modulus.count), expected,
                "\(L.bitWidth)-bit limbs, s #\(index), \(label)")
        }
    }

    /// The expected s^e mod n (mpz_powm) for each value, and nil for n, n + 1 and 2^(8k) − 1.
    private func expectations(_ values: [BigNum], e: BigNum, n: BigNum, k: Int) throws -> [(BigNum, [UInt8]?)] {
        let refused = [n, n + BigNum(1), (BigNum(1) << (8 * k)) - BigNum(1)].filter { $0.bitLength <= 8 * k }
        return try values.map { s in (s, try s.power(e, modulo: n).bytes(width: k)) } + refused.map { ($0, nil) }
    }

    /// RSAVP1 through the portable path with 32- and 64-bit limbs and through the GMP backend,
    /// against mpz_powm, for every length of 1…64 limbs of 64 bits (up to 4,096 bits): moduli whose
    /// top 64-bit limb holds 1 to 8 bits, 32 bits (an odd count of 32-bit limbs, the top one full)
    /// or 64 bits. At every length and shape: e = 3 with s = 0, 1, n − 1 and a random value below
    /// n, e = 65537 with n − 1 and a random s, a large odd e (72 bits: two 64-bit limbs, three
    /// 32-bit ones; below n where n allows) with a random s; n, n + 1 and 2^(8k) − 1 refused.
    func testRSAVP1AgainstGMPAtEveryLength() throws {
        var rng = SeededGenerator(seed: 0x4D50_4E03)
        for count in 1...64 {
            let small = 64 * (count - 1) + (count == 1 ? 2 : 1) + Int(rng.next() % 7)
            for bits in [small, 64 * count - 32, 64 * count] {
                let modulus = modulus(bits: bits, &rng)
                let n = BigNum(magnitude: modulus)
                let k = modulus.count
                // At least 2 bits (e ≥ 3), at most 72; below n when n has 3 bits or more.
                let largeBits = max(2, min(bits - 1, 72))
                var large = rng.bytes((largeBits + 7) / 8)
                large[0] &= UInt8(truncatingIfNeeded: (1 << (largeBits - 8 * (large.count - 1))) - 1)
                large[0] |= UInt8(truncatingIfNeeded: 1 << (largeBits - 8 * (large.count - 1) - 1))
                large[large.count - 1] |= 1
                func random() -> BigNum { (try? BigNum(magnitude: rng.bytes(k + 8)).mod(n)) ?? BigNum(0) }
                let cases: [([UInt8], [BigNum])] = [
                    ([3], [n - BigNum(1), BigNum(0), BigNum(1), random()]), ([1, 0, 1], [n - BigNum(1), random()]), (large, [random()]),
                ]
                for (exponent, values) in cases {
                    let e = BigNum(magnitude: exponent)
                    let label = "\(bits)-bit n, e of \(e.bitLength) bits"
                    let inputs = try expectations(values, e: e, n: n, k: k)
                    try checkPortable(UInt64.self, modulus: modulus, exponent: exponent, inputs: inputs, label: label)
                    try checkPortable(UInt32.self, modulus: modulus, exponent: exponent, inputs: inputs, label: label)
                    // The GMP backend on the machine word, the same inputs.
                    let gmp = RSAModulusLimbs<UInt>(modulus: modulus, exponent: exponent)
                    for (index, (s, expected)) in inputs.enumerated() {
                        let result: [UInt8]?? = gmp.withPowerVartime(of: try s.bytes(width: k), using: GMPMPN.self) { m in
                            RSAModulusLimbs<UInt>.withBigEndianBytes(m, limbCount: gmp.limbCount, width: k) { Array($0) }
                        }
                        XCTAssertEqual(result ?? nil, expected, "GMP backend, s #\(index), \(label)")
                    }
                }
            }
        }
    }

    /// RSAVP1 on 8- and 16-bit limbs (the division's corrections run often there) against
    /// mpz_powm, at lengths of 9 bits to 2,048.
    func testRSAVP1OnNarrowLimbsAgainstGMP() throws {
        var rng = SeededGenerator(seed: 0x4D50_4E09)
        for bits in [9, 17, 31, 64, 100, 521, 1024, 2048] {
            let modulus = modulus(bits: bits, &rng)
            let n = BigNum(magnitude: modulus)
            let k = modulus.count
            func random() -> BigNum { (try? BigNum(magnitude: rng.bytes(k + 8)).mod(n)) ?? BigNum(0) }
            for (exponent, values) in [([3], [BigNum(0), BigNum(1), random()]), ([1, 0, 1], [n - BigNum(1), random()])]
                as [([UInt8], [BigNum])]
            {
                let inputs = try expectations(values, e: BigNum(magnitude: exponent), n: n, k: k)
                let label = "\(bits)-bit n, e = \(BigNum(magnitude: exponent))"
                try checkPortable(UInt16.self, modulus: modulus, exponent: exponent, inputs: inputs, label: label)
                try checkPortable(UInt8.self, modulus: modulus, exponent: exponent, inputs: inputs, label: label)
            }
        }
    }

    /// A longer signature than the modulus needs, in the same number of limbs, is refused when
    /// its value reaches n and read as its value otherwise; one that needs more limbs is refused.
    func testSignatureLengthsAgainstLimbCount() throws {
        var rng = SeededGenerator(seed: 0x4D50_4E04)
        let modulus = modulus(bits: 2040, &rng)  // 255 bytes: 32 limbs of 64 bits, 64 of 32
        let n = BigNum(magnitude: modulus)
        let s = try BigNum(magnitude: rng.bytes(300)).mod(n)
        let expected = try s.power(BigNum(65537), modulo: n).bytes(width: 255)
        let wide = RSAModulusLimbs<UInt64>(modulus: modulus, exponent: [1, 0, 1])
        let narrow = RSAModulusLimbs<UInt32>(modulus: modulus, exponent: [1, 0, 1])
        XCTAssertEqual(portablePower(wide, try s.bytes(width: 256), width: 255), expected)
        XCTAssertEqual(portablePower(narrow, try s.bytes(width: 256), width: 255), expected)
        XCTAssertNil(portablePower(wide, try (n + BigNum(2)).bytes(width: 256), width: 255))
        XCTAssertNil(portablePower(narrow, try (n + BigNum(2)).bytes(width: 256), width: 255))
        XCTAssertNil(portablePower(wide, try s.bytes(width: 257), width: 255), "257 bytes need a 33rd limb")
        XCTAssertNil(portablePower(narrow, try s.bytes(width: 257), width: 255), "257 bytes need a 65th limb")
    }
}
