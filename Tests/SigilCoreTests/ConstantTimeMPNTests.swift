import SigilCore
import SigilTestSupport
import XCTest

/// The mpn_sec_* / mpn_cnd_* wrappers against BigNum (mpz) on random inputs.
final class ConstantTimeMPNTests: XCTestCase {
    private var rng = SeededGenerator(seed: 0xC7)

    private func randomOdd(limbs: Int) -> BigNum {
        var bytes = rng.bytes(limbs * 8)
        bytes[0] |= 0x80
        bytes[bytes.count - 1] |= 1
        return BigNum(magnitude: bytes)
    }

    func testConditionalAddSubtractSwap() throws {
        for _ in 0..<500 {
            let n = Int.random(in: 1...6, using: &rng)
            let a = BigNum(magnitude: rng.bytes(n * 8))
            let b = BigNum(magnitude: rng.bytes(n * 8))
            let modulus = BigNum(1) << (64 * n)
            var la = try a.limbs(count: n)
            var lb = try b.limbs(count: n)
            var out = [Limb](repeating: 0, count: n)
            for condition: Limb in [0, 1, 0xFFFF_FFFF_FFFF_FFFF] {
                let carry = out.withUnsafeMutableBufferPointer { o in
                    la.withUnsafeBufferPointer { x in
                        lb.withUnsafeBufferPointer { y in
                            ConstantTimeMPN.conditionalAdd(condition, result: o, x, y)
                        }
                    }
                }
                let expected = condition == 0 ? a : a + b
                XCTAssertEqual(BigNum(limbs: out), try expected.mod(modulus))
                XCTAssertEqual(carry, condition == 0 ? 0 : (a + b >= modulus ? 1 : 0))
                let borrow = out.withUnsafeMutableBufferPointer { o in
                    la.withUnsafeBufferPointer { x in
                        lb.withUnsafeBufferPointer { y in
                            ConstantTimeMPN.conditionalSubtract(condition, result: o, x, y)
                        }
                    }
                }
                XCTAssertEqual(BigNum(limbs: out), try (condition == 0 ? a : a - b).mod(modulus))
                XCTAssertEqual(borrow, condition != 0 && a < b ? 1 : 0)
            }
            la.withUnsafeMutableBufferPointer { x in
                lb.withUnsafeMutableBufferPointer { y in
                    ConstantTimeMPN.conditionalSwap(1, x, y)
                }
            }
            XCTAssertEqual(BigNum(limbs: la), b)
            la.withUnsafeMutableBufferPointer { x in
                lb.withUnsafeMutableBufferPointer { y in
                    ConstantTimeMPN.conditionalSwap(0, x, y)
                }
            }
            XCTAssertEqual(BigNum(limbs: la), b)
        }
    }

    func testMultiplySquareRemainder() throws {
        for _ in 0..<300 {
            let an = Int.random(in: 1...8, using: &rng)
            let bn = Int.random(in: 1...an, using: &rng)
            let a = BigNum(magnitude: rng.bytes(an * 8))
            let b = BigNum(magnitude: rng.bytes(bn * 8))
            let la = try a.limbs(count: an)
            let lb = try b.limbs(count: bn)
            var product = [Limb](repeating: 0, count: an + bn)
            var scratch = [Limb](repeating: 0, count: ConstantTimeMPN.multiplyScratchCount(an, bn))
            product.withUnsafeMutableBufferPointer { p in
                scratch.withUnsafeMutableBufferPointer { s in
                    la.withUnsafeBufferPointer { x in
                        lb.withUnsafeBufferPointer { y in
                            ConstantTimeMPN.multiply(result: p, x, y, scratch: s)
                        }
                    }
                }
            }
            XCTAssertEqual(BigNum(limbs: product), a * b)

            var square = [Limb](repeating: 0, count: 2 * an)
            scratch = [Limb](repeating: 0, count: ConstantTimeMPN.squareScratchCount(an))
            square.withUnsafeMutableBufferPointer { p in
                scratch.withUnsafeMutableBufferPointer { s in
                    la.withUnsafeBufferPointer { ConstantTimeMPN.square(result: p, $0, scratch: s) }
                }
            }
            XCTAssertEqual(BigNum(limbs: square), a * a)

            let divisor = randomOdd(limbs: bn)
            let ld = try divisor.limbs(count: bn)
            var dividend = product
            scratch = [Limb](repeating: 0, count: ConstantTimeMPN.remainderScratchCount(dividendCount: an + bn, divisorCount: bn))
            dividend.withUnsafeMutableBufferPointer { d in
                scratch.withUnsafeMutableBufferPointer { s in
                    ld.withUnsafeBufferPointer { ConstantTimeMPN.remainder(d, divisor: $0, scratch: s) }
                }
            }
            XCTAssertEqual(BigNum(limbs: dividend.prefix(bn)), try (a * b).mod(divisor))
        }
    }

    func testPowerInvertTableSelect() throws {
        for _ in 0..<100 {
            let n = Int.random(in: 1...8, using: &rng)
            let modulus = randomOdd(limbs: n)
            let base = try BigNum(magnitude: rng.bytes(n * 8)).mod(modulus)
            let exponent = BigNum(magnitude: rng.bytes(n * 8)) + BigNum(1)
            let lm = try modulus.limbs(count: n)
            let lb = try base.limbs(count: n)
            let le = try exponent.limbs(count: n + 1)
            let bits = (n + 1) * 64
            var result = [Limb](repeating: 0, count: n)
            var scratch = [Limb](repeating: 0, count: ConstantTimeMPN.powerScratchCount(baseCount: n, exponentBits: bits, modulusCount: n))
            result.withUnsafeMutableBufferPointer { r in
                scratch.withUnsafeMutableBufferPointer { s in
                    lb.withUnsafeBufferPointer { b in
                        le.withUnsafeBufferPointer { e in
                            lm.withUnsafeBufferPointer { m in
                                ConstantTimeMPN.powerModulo(result: r, base: b, exponent: e, exponentBits: bits, modulus: m, scratch: s)
                            }
                        }
                    }
                }
            }
            XCTAssertEqual(BigNum(limbs: result), try base.power(exponent, modulo: modulus))

            var value = lb
            scratch = [Limb](repeating: 0, count: ConstantTimeMPN.invertScratchCount(n))
            let ok = result.withUnsafeMutableBufferPointer { r in
                scratch.withUnsafeMutableBufferPointer { s in
                    value.withUnsafeMutableBufferPointer { v in
                        lm.withUnsafeBufferPointer { m in
                            ConstantTimeMPN.invert(result: r, value: v, modulus: m, bitCount: 2 * n * 64, scratch: s)
                        }
                    }
                }
            }
            if let inverse = try? base.inverse(modulo: modulus) {
                XCTAssertEqual(ok, 1)
                XCTAssertEqual(BigNum(limbs: result), inverse)
            } else {
                XCTAssertEqual(ok, 0)
            }

            let entries = Int.random(in: 1...16, using: &rng)
            let table = (0..<(entries * n)).map { _ in Limb(truncatingIfNeeded: rng.next()) }
            let pick = Int.random(in: 0..<entries, using: &rng)
            var selected = [Limb](repeating: 0, count: n)
            selected.withUnsafeMutableBufferPointer { r in
                table.withUnsafeBufferPointer { t in
                    ConstantTimeMPN.tableSelect(result: r, table: t, entryCount: entries, index: pick)
                }
            }
            XCTAssertEqual(selected, Array(table[(pick * n)..<((pick + 1) * n)]))
        }
    }
}
