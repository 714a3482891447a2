/// The portable AES encryption of FIPS 197, constant time without tables.
///
/// No step reads memory at an address that depends on the key or the data. The S-box of FIPS 197
/// §5.1.1 is computed, not looked up: the multiplicative inverse in GF(2⁸) as b²⁵⁴ (an addition
/// chain of four multiplications and seven squarings), each multiplication a fixed sequence of
/// masked XORs and shifts over all sixteen bytes of the state at once (`SIMD16<UInt8>`, which the
/// compiler maps to vector registers), then the affine map with byte rotations. ShiftRows is a fixed
/// byte permutation and MixColumns a fixed combination of rotations and `xtime`, again without a
/// branch on data. The state is the FIPS 197 §3.4 column-major order: byte `r + 4c` is row `r`,
/// column `c`, which is the order of the input bytes.
enum AESPortable {
    typealias State = SIMD16<UInt8>

    /// `xtime` (FIPS 197 §4.2.1) on every byte: multiplication by x modulo x⁸ + x⁴ + x³ + x + 1.
    @inline(__always)
    static func xtime(_ a: State) -> State {
        (a &<< 1) ^ ((a &>> 7) &* 0x1b)
    }

    /// Multiplication in GF(2⁸) of each byte of `a` by the matching byte of `b` (FIPS 197 §4.2):
    /// eight rounds of "add a when the bit of b is set" with a mask, and `xtime`.
    @inline(__always)
    static func multiply(_ a: State, _ b: State) -> State {
        var a = a
        var product = State(repeating: 0)
        for bit in 0..<8 {
            let mask = State(repeating: 0) &- ((b &>> UInt8(bit)) & 1)
            product ^= a & mask
            a = xtime(a)
        }
        return product
    }

    /// The inverse of each byte in GF(2⁸), with 0 mapped to 0: b²⁵⁴ = b⁻¹ for b ≠ 0.
    @inline(__always)
    static func invert(_ b: State) -> State {
        let b2 = multiply(b, b)
        let b3 = multiply(b2, b)
        let b6 = multiply(b3, b3)
        let b12 = multiply(b6, b6)
        let b15 = multiply(b12, b3)
        var b240 = b15
        for _ in 0..<4 { b240 = multiply(b240, b240) }
        let b252 = multiply(b240, b12)
        return multiply(b252, b2)
    }

    @inline(__always)
    static func rotateLeft(_ b: State, _ n: UInt8) -> State {
        (b &<< n) | (b &>> (8 - n))
    }

    /// SubBytes (FIPS 197 §5.1.1) on every byte: the inverse, then the affine map
    /// bᵢ ⊕ bᵢ₊₄ ⊕ bᵢ₊₅ ⊕ bᵢ₊₆ ⊕ bᵢ₊₇ ⊕ cᵢ with c = 0x63, written as rotations of the byte.
    static func subBytes(_ state: State) -> State {
        let b = invert(state)
        return b ^ rotateLeft(b, 1) ^ rotateLeft(b, 2) ^ rotateLeft(b, 3) ^ rotateLeft(b, 4)
            ^ State(repeating: 0x63)
    }

    /// ShiftRows (FIPS 197 §5.1.2): row r moves r columns to the left.
    @inline(__always)
    static func shiftRows(_ s: State) -> State {
        State(
            s[0], s[5], s[10], s[15], s[4], s[9], s[14], s[3],
            s[8], s[13], s[2], s[7], s[12], s[1], s[6], s[11])
    }

    /// Each column's bytes rotated up by one row: byte r of a column becomes byte r + 1's value.
    @inline(__always)
    static func rotateColumns(_ s: State) -> State {
        State(
            s[1], s[2], s[3], s[0], s[5], s[6], s[7], s[4],
            s[9], s[10], s[11], s[8], s[13], s[14], s[15], s[12])
    }

    /// MixColumns (FIPS 197 §5.1.3): s′ᵣ = 2·sᵣ ⊕ 3·sᵣ₊₁ ⊕ sᵣ₊₂ ⊕ sᵣ₊₃ in each column.
    @inline(__always)
    static func mixColumns(_ s: State) -> State {
        let r1 = rotateColumns(s)
        let r2 = rotateColumns(r1)
        let r3 = rotateColumns(r2)
        return xtime(s ^ r1) ^ r1 ^ r2 ^ r3
    }

    /// KeyExpansion (FIPS 197 §5.2) for a 16- or 32-byte key: the round keys, 16 bytes each,
    /// rounds + 1 of them, concatenated. SubWord runs through ``subBytes(_:)``.
    static func expandKey(_ key: [UInt8]) -> [UInt8] {
        let nk = key.count / 4
        let rounds = nk + 6
        let totalWords = 4 * (rounds + 1)
        var words = [UInt8](repeating: 0, count: 4 * totalWords)
        for i in 0..<key.count { words[i] = key[i] }
        var rcon: UInt8 = 1
        for i in nk..<totalWords {
            var t = (words[4 * (i - 1)], words[4 * (i - 1) + 1], words[4 * (i - 1) + 2], words[4 * (i - 1) + 3])
            if i % nk == 0 || (nk > 6 && i % nk == 4) {
                if i % nk == 0 { t = (t.1, t.2, t.3, t.0) }
                let substituted = subBytes(State(t.0, t.1, t.2, t.3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
                t = (substituted[0], substituted[1], substituted[2], substituted[3])
                if i % nk == 0 {
                    t.0 ^= rcon
                    rcon = (rcon << 1) ^ ((rcon >> 7) &* 0x1b)
                }
            }
            words[4 * i] = words[4 * (i - nk)] ^ t.0
            words[4 * i + 1] = words[4 * (i - nk) + 1] ^ t.1
            words[4 * i + 2] = words[4 * (i - nk) + 2] ^ t.2
            words[4 * i + 3] = words[4 * (i - nk) + 3] ^ t.3
        }
        return words
    }

    /// Loads 16 bytes at `offset` of `bytes` as a state.
    @inline(__always)
    static func load(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> State {
        var s = State()
        for i in 0..<16 { s[i] = bytes[offset + i] }
        return s
    }

    /// Cipher (FIPS 197 §5.1): encrypts one block under `roundKeys` (from ``expandKey(_:)``).
    static func encrypt(_ input: State, roundKeys: UnsafeRawBufferPointer, rounds: Int) -> State {
        var s = input ^ load(roundKeys, 0)
        for round in 1..<rounds {
            s = mixColumns(shiftRows(subBytes(s))) ^ load(roundKeys, 16 * round)
        }
        return shiftRows(subBytes(s)) ^ load(roundKeys, 16 * rounds)
    }
}
