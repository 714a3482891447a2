import SigilBase
import SigilCore

/// n, e and d as little-endian GMP limbs in memory of its own, wiped (`SecretMemory.wipe`, which
/// the optimizer keeps) when released, as is every limb buffer a private operation uses; the blinded,
/// constant-time private operation over them (SigilCore's `ConstantTimeMPN`: `mpn_sec_powm`,
/// `mpn_sec_mul`, `mpn_sec_div_r`, `mpn_sec_invert`).
final class RSASecretLimbs: @unchecked Sendable {
    /// Limbs of the modulus (its top limb is non-zero).
    let count: Int
    /// The modulus's bit length (public).
    let modulusBits: Int
    let n: UnsafeMutableBufferPointer<Limb>
    let e: UnsafeMutableBufferPointer<Limb>
    let d: UnsafeMutableBufferPointer<Limb>
    let eBits: Int

    init(modulus: [UInt8], exponent: [UInt8], privateExponent: [UInt8]) {
        let nBytes = Array(modulus.drop { $0 == 0 })
        count = (nBytes.count + 7) / 8
        modulusBits = (nBytes.count - 1) * 8 + (8 - nBytes[0].leadingZeroBitCount)
        n = Self.limbs(nBytes, count: count)
        e = Self.limbs(exponent, count: count)
        d = Self.limbs(privateExponent, count: count)
        let eBytes = Array(exponent.drop { $0 == 0 })
        eBits = (eBytes.count - 1) * 8 + (8 - eBytes[0].leadingZeroBitCount)
    }

    deinit {
        for buffer in [n, e, d] {
            Self.wipe(buffer)
            buffer.deallocate()
        }
    }

    /// The address of d's limbs (tests watch them being wiped when the key is released).
    var privateExponentAddress: UInt { UInt(bitPattern: d.baseAddress) }

    /// Overwrites `limbs` with zeros in a way the optimizer keeps.
    static func wipe(_ limbs: UnsafeMutableBufferPointer<Limb>) {
        SecretMemory.wipe(UnsafeMutableRawBufferPointer(limbs))
    }

    /// Big-endian bytes (at most count · 8 of them) as `count` little-endian limbs.
    static func limbs(_ bytes: [UInt8], count: Int) -> UnsafeMutableBufferPointer<Limb> {
        let buffer = UnsafeMutableBufferPointer<Limb>.allocate(capacity: count)
        buffer.initialize(repeating: 0)
        for (i, byte) in bytes.reversed().enumerated() where i < count * 8 {
            buffer[i / 8] |= Limb(byte) << Limb(8 * (i % 8))
        }
        return buffer
    }

    /// x^(e·d) = x mod n for x = 2 (a check of the key when it is loaded).
    func isConsistent() -> Bool {
        var x = [UInt8](repeating: 0, count: count * 8)
        x[x.count - 1] = 2
        let n = UnsafeBufferPointer(self.n)
        guard let y = power(x, exponent: UnsafeBufferPointer(e), exponentBits: eBits, modulus: n),
            let z = power(y, exponent: UnsafeBufferPointer(d), exponentBits: modulusBits, modulus: n)
        else { return false }
        var result = [UInt8(truncatingIfNeeded: ConstantTime.equals(z, x) ? 1 : 0)]
        ConstantTimeAudit.declassify(contentsOf: result)
        defer { result[0] = 0 }
        return result[0] == 1
    }

    /// base^exponent mod n for a big-endian base of `count` limbs' bytes, as big-endian bytes of the
    /// same width; nil when the base is not below n.
    private func power(
        _ base: [UInt8], exponent: UnsafeBufferPointer<Limb>, exponentBits: Int, modulus: UnsafeBufferPointer<Limb>
    ) -> [UInt8]? {
        let b = Self.limbs(base, count: count)
        let r = UnsafeMutableBufferPointer<Limb>.allocate(capacity: count)
        defer {
            Self.wipe(b)
            b.deallocate()
            Self.wipe(r)
            r.deallocate()
        }
        let scratchCount = ConstantTimeMPN.powerScratchCount(baseCount: count, exponentBits: exponentBits, modulusCount: count)
        let scratch = UnsafeMutableBufferPointer<Limb>.allocate(capacity: scratchCount)
        defer {
            Self.wipe(scratch)
            scratch.deallocate()
        }
        ConstantTimeMPN.powerModulo(
            result: r, base: UnsafeBufferPointer(b), exponent: exponent, exponentBits: exponentBits, modulus: modulus,
            scratch: scratch)
        return Self.bytes(UnsafeBufferPointer(r), width: count * 8)
    }

    /// `count` limbs as big-endian bytes, `width` of them.
    static func bytes(_ limbs: UnsafeBufferPointer<Limb>, width: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width)
        for i in 0..<min(width, limbs.count * 8) {
            out[width - 1 - i] = UInt8(truncatingIfNeeded: limbs[i / 8] >> Limb(8 * (i % 8)))
        }
        return out
    }

    /// Whether the public big-endian c (as limbs) is below n. Variable time: c is public.
    private func isBelowModulus(_ c: UnsafeBufferPointer<Limb>) -> Bool {
        for i in stride(from: count - 1, through: 0, by: -1) where c[i] != n[i] {
            return c[i] < n[i]
        }
        return false
    }

    /// cᵈ mod n, blinded (RFC 8017 §5.1.2 with the blinding of its §5.1.2 note): a fresh random r
    /// in [1, n − 1] with an inverse, c′ = c·rᵉ mod n, m′ = c′ᵈ mod n, m = m′·r⁻¹ mod n. The result
    /// is `byteCount` big-endian bytes; nil when c ≥ n.
    func decrypt(_ ciphertext: [UInt8], byteCount: Int) -> [UInt8]? {
        let c = Self.limbs(ciphertext, count: count)
        defer { c.deallocate() }
        guard isBelowModulus(UnsafeBufferPointer(c)) else { return nil }
        let nb = UnsafeBufferPointer(n)
        var scratchCount = ConstantTimeMPN.powerScratchCount(baseCount: count, exponentBits: modulusBits, modulusCount: count)
        scratchCount = max(scratchCount, ConstantTimeMPN.multiplyScratchCount(count, count))
        scratchCount = max(scratchCount, ConstantTimeMPN.remainderScratchCount(dividendCount: 2 * count, divisorCount: count))
        scratchCount = max(scratchCount, ConstantTimeMPN.invertScratchCount(count))
        let scratch = UnsafeMutableBufferPointer<Limb>.allocate(capacity: scratchCount)
        let r = UnsafeMutableBufferPointer<Limb>.allocate(capacity: count)
        let rInverse = UnsafeMutableBufferPointer<Limb>.allocate(capacity: count)
        let work = UnsafeMutableBufferPointer<Limb>.allocate(capacity: count)
        let t = UnsafeMutableBufferPointer<Limb>.allocate(capacity: count)
        let wide = UnsafeMutableBufferPointer<Limb>.allocate(capacity: 2 * count)
        defer {
            for buffer in [scratch, r, rInverse, work, t, wide] {
                Self.wipe(buffer)
                buffer.deallocate()
            }
        }
        // r: random limbs reduced mod n, with an inverse (retried otherwise: public, negligible).
        var generator = SystemRandomNumberGenerator()
        while true {
            for i in 0..<count { wide[i] = generator.next() }
            for i in count..<(2 * count) { wide[i] = 0 }
            ConstantTimeMPN.remainder(wide, divisor: nb, scratch: scratch)
            for i in 0..<count {
                r[i] = wide[i]
                work[i] = wide[i]
            }
            let invertible = ConstantTimeMPN.invert(
                result: rInverse, value: work, modulus: nb, bitCount: 2 * modulusBits, scratch: scratch)
            var flag = [UInt8(truncatingIfNeeded: invertible)]
            ConstantTimeAudit.declassify(contentsOf: flag)
            if flag[0] != 0 { break }
            flag[0] = 0
        }
        // t = rᵉ mod n; work = c·t mod n.
        ConstantTimeMPN.powerModulo(
            result: t, base: UnsafeBufferPointer(r), exponent: UnsafeBufferPointer(e), exponentBits: eBits, modulus: nb,
            scratch: scratch)
        multiplyModulo(wide: wide, UnsafeBufferPointer(c), UnsafeBufferPointer(t), into: work, scratch: scratch)
        // t = workᵈ mod n.
        ConstantTimeMPN.powerModulo(
            result: t, base: UnsafeBufferPointer(work), exponent: UnsafeBufferPointer(d), exponentBits: modulusBits,
            modulus: nb, scratch: scratch)
        // work = t·r⁻¹ mod n.
        multiplyModulo(wide: wide, UnsafeBufferPointer(t), UnsafeBufferPointer(rInverse), into: work, scratch: scratch)
        return Self.bytes(UnsafeBufferPointer(work), width: byteCount)
    }

    /// into = a·b mod n, through the 2·count-limb buffer `wide`.
    private func multiplyModulo(
        wide: UnsafeMutableBufferPointer<Limb>, _ a: UnsafeBufferPointer<Limb>, _ b: UnsafeBufferPointer<Limb>,
        into: UnsafeMutableBufferPointer<Limb>, scratch: UnsafeMutableBufferPointer<Limb>
    ) {
        ConstantTimeMPN.multiply(result: wide, a, b, scratch: scratch)
        ConstantTimeMPN.remainder(wide, divisor: UnsafeBufferPointer(n), scratch: scratch)
        for i in 0..<count { into[i] = wide[i] }
    }
}
