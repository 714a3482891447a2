import Foundation
import SigilCore
import SigilTestSupport
import XCTest

final class BigNumTests: XCTestCase {
    /// Agreement with Swift's own integer arithmetic on random 64-bit values (products and sums in
    /// 128 bits via multipliedFullWidth / addingReportingOverflow, so nothing overflows unnoticed).
    func testAgreesWithSwiftIntegersOnRandom64BitValues() throws {
        var rng = SeededGenerator(seed: 64)
        for _ in 0..<20_000 {
            let a = Int64(bitPattern: rng.next()) >> Int64.random(in: 0...62, using: &rng)
            var b = Int64(bitPattern: rng.next()) >> Int64.random(in: 0...62, using: &rng)
            if b == 0 { b = 1 }
            let x = BigNum(Int(a))
            let y = BigNum(Int(b))
            let (sum, sumOverflow) = a.addingReportingOverflow(b)
            if !sumOverflow { XCTAssertEqual((x + y).intValue, Int(sum)) }
            let (difference, differenceOverflow) = a.subtractingReportingOverflow(b)
            if !differenceOverflow { XCTAssertEqual((x - y).intValue, Int(difference)) }
            let wide = a.multipliedFullWidth(by: b)
            let expectedProduct = (BigNum(Int(wide.high)) << 64) + BigNum(UInt(wide.low))
            XCTAssertEqual(x * y, expectedProduct)
            if !(a == .min && b == -1) {
                let (q, r) = try x.quotientAndRemainder(dividingBy: y)
                XCTAssertEqual(q.intValue, Int(a / b))
                XCTAssertEqual(r.intValue, Int(a % b))
            }
            let m = Int128(b).magnitude
            let residue = ((Int128(a) % Int128(m)) + Int128(m)) % Int128(m)
            XCTAssertEqual(try x.mod(y.magnitude).decimalString, String(residue))
            XCTAssertEqual(x < y, a < b)
            XCTAssertEqual(x == y, a == b)
            XCTAssertEqual(x.signum, a.signum() == 0 ? 0 : Int(a.signum()))
            XCTAssertEqual(x.bitLength, a == 0 ? 0 : 64 - a.magnitude.leadingZeroBitCount)
            XCTAssertEqual(x.decimalString, String(a))
            XCTAssertEqual(x.hexString, String(a, radix: 16))
            XCTAssertEqual(try BigNum(decimalString: String(a)), x)
            XCTAssertEqual(try BigNum(hexString: String(a, radix: 16)), x)
            if a >= 0 {
                var bigEndian = UInt64(a).bigEndian
                let bytes = withUnsafeBytes(of: &bigEndian) { Array($0) }
                XCTAssertEqual(try x.bytes(width: 8), bytes)
                XCTAssertEqual(BigNum(magnitude: bytes), x)
                XCTAssertEqual(x.magnitudeBytes, Array(bytes.drop { $0 == 0 }))
                let shift = Int.random(in: 0...63, using: &rng)
                XCTAssertEqual((x >> shift).intValue, Int(a >> Int64(shift)))
                XCTAssertEqual(x.testBit(shift), (a >> Int64(shift)) & 1 == 1)
            }
        }
    }

    func testEdgeValuesAndErrors() throws {
        XCTAssertEqual(BigNum().bitLength, 0)
        XCTAssertEqual(BigNum().magnitudeBytes, [])
        XCTAssertEqual(try BigNum().bytes(width: 0), [])
        XCTAssertEqual(BigNum(0).hexString, "0")
        XCTAssertEqual(BigNum(magnitude: [0, 0, 0]), BigNum(0))
        XCTAssertEqual(BigNum(magnitude: [UInt8]()), BigNum(0))
        XCTAssertEqual(BigNum(Int.min).decimalString, String(Int.min))
        XCTAssertNil((BigNum(Int.max) + BigNum(1)).intValue)
        XCTAssertThrowsError(try BigNum(256).bytes(width: 1)) {
            XCTAssertEqual($0 as? SigilCoreError, SigilCoreError(.valueDoesNotFit, ""))
        }
        XCTAssertThrowsError(try BigNum(-1).bytes(width: 8)) { XCTAssertEqual($0 as? SigilCoreError, SigilCoreError(.negativeValue, "")) }
        for bad in ["", "-", "0x10", " 1", "1 ", "+1", "1_000", "--1", "g", "12\u{0}3", "١٢"] {
            XCTAssertThrowsError(try BigNum(hexString: bad), "hex \(bad)")
            XCTAssertThrowsError(try BigNum(decimalString: bad), "decimal \(bad)")
        }
        XCTAssertThrowsError(try BigNum(decimalString: "12a"))
        XCTAssertThrowsError(try BigNum(5).mod(BigNum(0)))
        XCTAssertThrowsError(try BigNum(5).mod(BigNum(-3)))
        XCTAssertThrowsError(try BigNum(5).quotientAndRemainder(dividingBy: BigNum(0)))
        XCTAssertThrowsError(try BigNum(6).inverse(modulo: BigNum(9))) {
            XCTAssertEqual($0 as? SigilCoreError, SigilCoreError(.notInvertible, ""))
        }
        XCTAssertThrowsError(try BigNum(1).inverse(modulo: BigNum(1)))
        XCTAssertThrowsError(try BigNum(2).power(BigNum(-1), modulo: BigNum(7)))
        XCTAssertEqual(try BigNum(-3).mod(BigNum(7)), BigNum(4))
        XCTAssertEqual(try BigNum(-3).inverse(modulo: BigNum(7)), BigNum(2))
        XCTAssertEqual(try BigNum(12345).power(BigNum(0), modulo: BigNum(7)), BigNum(1))
        XCTAssertEqual(BigNum(-5).magnitude, BigNum(5))
        XCTAssertEqual(BigNum(12).gcd(BigNum(-18)), BigNum(6))
        XCTAssertEqual(Set([BigNum(3), BigNum(3), BigNum(-3)]).count, 2)
    }

    /// Modular inverse and power identities on random 2048-bit numbers.
    func testIdentitiesOnRandom2048BitNumbers() throws {
        var rng = SeededGenerator(seed: 2048)
        // A 2048-bit odd modulus and a 1024-bit prime found with GMP's test, for Fermat checks.
        var prime = BigNum(magnitude: [0x80] + rng.bytes(127)) + BigNum(1)
        while !prime.isProbablePrime() { prime = prime + BigNum(2) }
        let one = BigNum(1)
        for _ in 0..<40 {
            let modulus = BigNum(magnitude: [0x80] + rng.bytes(255)) + BigNum(1)
            let a = try BigNum(magnitude: rng.bytes(256)).mod(modulus)
            let b = BigNum(magnitude: rng.bytes(256))
            let c = BigNum(magnitude: rng.bytes(200))
            if a.gcd(modulus) == one {
                let inverse = try a.inverse(modulo: modulus)
                XCTAssertEqual(try (a * inverse).mod(modulus), one)
                XCTAssertTrue(inverse < modulus && !inverse.isNegative)
            }
            // a^(b+c) = a^b · a^c and (a^b)^c = a^(b·c), mod m.
            XCTAssertEqual(
                try a.power(b + c, modulo: modulus),
                try (a.power(b, modulo: modulus) * a.power(c, modulo: modulus)).mod(modulus))
            XCTAssertEqual(
                try a.power(b, modulo: modulus).power(c, modulo: modulus),
                try a.power(b * c, modulo: modulus))
            // Fermat: x^(p−1) ≡ 1 (mod p) for p prime and x not divisible by p.
            let x = try BigNum(magnitude: rng.bytes(100)).mod(prime)
            if !x.isZero { XCTAssertEqual(try x.power(prime - one, modulo: prime), one) }
            // Division identity: a = q·d + r with |r| < |d|.
            let (q, r) = try b.quotientAndRemainder(dividingBy: c)
            XCTAssertEqual(q * c + r, b)
            XCTAssertTrue(r.magnitude < c.magnitude)
            // Byte and string round trips.
            XCTAssertEqual(BigNum(magnitude: try b.bytes(width: 300)), b)
            XCTAssertEqual(try BigNum(hexString: b.hexString), b)
            XCTAssertEqual(try BigNum(decimalString: (-b).decimalString), -b)
        }
    }

    /// The same big computations against Python's integers, an independent implementation.
    func testAgreesWithPythonOnBigValues() throws {
        let python = try Subprocess.require("python3")
        var rng = SeededGenerator(seed: 4096)
        var lines: [String] = []
        var ours: [String] = []
        for _ in 0..<30 {
            let m = BigNum(magnitude: [0xC0] + rng.bytes(255)) + BigNum(1)
            let a = BigNum(magnitude: rng.bytes(256))
            let e = BigNum(magnitude: rng.bytes(256))
            lines.append("\(a.hexString) \(e.hexString) \(m.hexString)")
            let inverse = (try? a.inverse(modulo: m))?.hexString ?? "none"
            ours.append("\(try a.power(e, modulo: m).hexString) \(inverse) \((a * e).hexString) \(try a.mod(m).hexString)")
        }
        let script = """
            import sys
            for line in sys.stdin:
                a, e, m = (int(x, 16) for x in line.split())
                try: inv = format(pow(a, -1, m), 'x')
                except ValueError: inv = 'none'
                print(format(pow(a, e, m), 'x'), inv, format(a * e, 'x'), format(a % m, 'x'))
            """
        let result = try Subprocess.run(python, ["-c", script], stdin: Data(lines.joined(separator: "\n").utf8))
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdoutString.split(separator: "\n").map(String.init), ours)
    }
}
