import CSigilCipherIntrinsics
import SigilBase
import SigilCore

/// The expanded key of AES-128 or AES-256 (FIPS 197 §5.2), held once in memory of its own and
/// wiped (`SecretMemory.wipe`, which the optimizer keeps) when released. The array the expansion
/// is built in is wiped as soon as it is copied; the key the caller passed in is the caller's.
final class AESRoundKeys: @unchecked Sendable {
    let rounds: Int
    let bytes: UnsafeMutableRawBufferPointer

    init(key: [UInt8]) {
        var expanded = AESPortable.expandKey(key)
        rounds = key.count / 4 + 6
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: expanded.count, alignment: 16)
        bytes.copyBytes(from: expanded)
        SecretMemory.wipe(&expanded)
    }

    deinit {
        SecretMemory.wipe(bytes)
        bytes.deallocate()
    }

    /// Encrypts the block `input` with the given backend.
    func encrypt(_ input: (UInt64, UInt64), aesni: Bool) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 16)
        GCMBlock.store(input, into: &block)
        #if arch(x86_64)
        if aesni {
            block.withUnsafeMutableBufferPointer { b in
                sigil_aesni_encrypt_block(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(rounds), b.baseAddress!,
                    b.baseAddress!)
            }
            return block
        }
        #endif
        let state = block.withUnsafeBytes { AESPortable.load($0, 0) }
        let out = AESPortable.encrypt(state, roundKeys: UnsafeRawBufferPointer(bytes), rounds: rounds)
        for i in 0..<16 { block[i] = out[i] }
        return block
    }
}

/// 128-bit blocks as two big-endian words, the form GHASH works on.
enum GCMBlock {
    static func load(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> (UInt64, UInt64) {
        var hi: UInt64 = 0
        var lo: UInt64 = 0
        for i in 0..<8 {
            hi = hi << 8 | UInt64(bytes[offset + i])
            lo = lo << 8 | UInt64(bytes[offset + 8 + i])
        }
        return (hi, lo)
    }

    static func store(_ value: (UInt64, UInt64), into bytes: inout [UInt8], at offset: Int = 0) {
        for i in 0..<8 {
            bytes[offset + i] = UInt8(truncatingIfNeeded: value.0 >> UInt64(56 - 8 * i))
            bytes[offset + 8 + i] = UInt8(truncatingIfNeeded: value.1 >> UInt64(56 - 8 * i))
        }
    }

    /// X · Y in GF(2¹²⁸) (NIST SP 800-38D §6.3, Algorithm 1), constant time: each of the 128 steps
    /// adds V under a mask made from the bit of X and reduces V under a mask made from its last bit.
    static func multiply(_ x: (UInt64, UInt64), _ y: (UInt64, UInt64)) -> (UInt64, UInt64) {
        var z: (UInt64, UInt64) = (0, 0)
        var v = y
        for i in 0..<128 {
            let word = i < 64 ? x.0 : x.1
            let bit = (word >> UInt64(63 - (i & 63))) & 1
            let mask = 0 &- bit
            z.0 ^= v.0 & mask
            z.1 ^= v.1 & mask
            let reduce = 0 &- (v.1 & 1)
            v.1 = (v.1 >> 1) | (v.0 << 63)
            v.0 = (v.0 >> 1) ^ (0xE100_0000_0000_0000 & reduce)
        }
        return z
    }
}

/// AES-GCM (NIST SP 800-38D) with a 128- or 256-bit key: authenticated encryption and decryption.
///
/// The IV may have any length from 1 byte up (§7.1 step 2: a 12-byte IV is used directly, any other
/// length is hashed with GHASH into the pre-counter block J₀) — Apple Pay's tokens use a 16-byte IV.
/// Tags may be 16, 15, 14, 13, 12, 8 or 4 bytes long (§5.2.1.2).
///
/// Constant time in the key, the IV, the data and the tag on either ``CipherBackend`` path; the tag
/// is compared in constant time and, when it does not match, no plaintext is returned. The expanded
/// key is zeroed when the last copy of the value is released.
public struct AESGCM: Sendable {
    private let roundKeys: AESRoundKeys

    /// The address and length of the expanded key's own memory (tests watch it being wiped when
    /// the value is released).
    package var keyScheduleStorage: (address: UInt, count: Int) {
        (UInt(bitPattern: roundKeys.bytes.baseAddress), roundKeys.bytes.count)
    }

    /// Prepares `key` (16 bytes for AES-128, 32 for AES-256). Throws ``CipherError/Code/invalidKeyLength``
    /// for any other length.
    public init(key: [UInt8]) throws(CipherError) {
        guard key.count == 16 || key.count == 32 else {
            throw CipherError(.invalidKeyLength, "an AES key has 16 or 32 bytes, not \(key.count)")
        }
        roundKeys = AESRoundKeys(key: key)
    }

    /// Encrypts `plaintext` and authenticates it with `additionalData` (§7.1): the ciphertext (as
    /// long as the plaintext) and the tag (`tagLength` bytes).
    public func seal(
        _ plaintext: [UInt8], iv: [UInt8], additionalData: [UInt8] = [], tagLength: Int = 16
    ) throws(CipherError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        try Self.checkLengths(iv: iv, text: plaintext.count, additionalData: additionalData.count, tagLength: tagLength)
        let aesni = CipherBackend.current == .x86AESNI
        let h = hashSubkey(aesni: aesni)
        let j0 = preCounterBlock(iv: iv, h: h, aesni: aesni)
        let ciphertext = gctr(initial: increment32(j0), plaintext, aesni: aesni)
        let tag = makeTag(j0: j0, h: h, additionalData: additionalData, ciphertext: ciphertext, aesni: aesni)
        return (ciphertext, Array(tag.prefix(tagLength)))
    }

    /// Checks `tag` over `ciphertext` and `additionalData` and, when it matches, returns the
    /// plaintext (§7.2). A mismatch throws ``CipherError/Code/authenticationFailed`` and releases
    /// nothing decrypted.
    public func open(
        _ ciphertext: [UInt8], iv: [UInt8], additionalData: [UInt8] = [], tag: [UInt8]
    ) throws(CipherError) -> [UInt8] {
        try Self.checkLengths(iv: iv, text: ciphertext.count, additionalData: additionalData.count, tagLength: tag.count)
        let aesni = CipherBackend.current == .x86AESNI
        let h = hashSubkey(aesni: aesni)
        let j0 = preCounterBlock(iv: iv, h: h, aesni: aesni)
        var expected = makeTag(j0: j0, h: h, additionalData: additionalData, ciphertext: ciphertext, aesni: aesni)
        // Whether the tag matches is public (it decides whether anything is returned): declassified
        // for the constant-time audit before the one branch on it.
        var verdict = [Self.matchBit(expected, tag)]
        // The expected tag is a forgery when the given one is wrong: not left in memory.
        zero(&expected)
        ConstantTimeAudit.declassify(contentsOf: verdict)
        defer { verdict[0] = 0 }
        guard verdict[0] == 1 else {
            throw CipherError(.authenticationFailed, "the GCM tag does not match (SP 800-38D §7.2 step 8)")
        }
        return gctr(initial: increment32(j0), ciphertext, aesni: aesni)
    }

    /// The hash subkey H = CIPH_K(0¹²⁸) (§6.4), secret as the key is; its block array is wiped.
    private func hashSubkey(aesni: Bool) -> (UInt64, UInt64) {
        var block = roundKeys.encrypt((0, 0), aesni: aesni)
        defer { zero(&block) }
        return block.withUnsafeBytes { GCMBlock.load($0, 0) }
    }

    /// 1 when the first `tag.count` bytes of `expected` equal `tag`, else 0, without a branch.
    private static func matchBit(_ expected: [UInt8], _ tag: [UInt8]) -> UInt8 {
        var difference: UInt8 = 0
        for i in 0..<tag.count { difference |= expected[i] ^ tag[i] }
        return UInt8(truncatingIfNeeded: ((UInt16(difference) &- 1) >> 8) & 1)
    }

    private static func checkLengths(iv: [UInt8], text: Int, additionalData: Int, tagLength: Int) throws(CipherError) {
        guard !iv.isEmpty, iv.count <= 1 << 20 else {
            throw CipherError(.invalidIVLength, "a GCM IV has 1 to 2^20 bytes, not \(iv.count)")
        }
        guard [16, 15, 14, 13, 12, 8, 4].contains(tagLength) else {
            throw CipherError(.invalidTagLength, "a GCM tag has 16, 15, 14, 13, 12, 8 or 4 bytes, not \(tagLength)")
        }
        // §5.2.1.1: at most 2^39 − 256 bits of text, 2^64 − 1 bits of additional data.
        guard UInt64(text) <= (1 << 36) - 32, UInt64(additionalData) < (1 << 61) else {
            throw CipherError(.inputTooLong, "a GCM input is longer than SP 800-38D §5.2.1.1 allows")
        }
    }

    private func increment32(_ block: (UInt64, UInt64)) -> (UInt64, UInt64) {
        let low = UInt32(truncatingIfNeeded: block.1) &+ 1
        return (block.0, (block.1 & 0xFFFF_FFFF_0000_0000) | UInt64(low))
    }

    /// J₀ (§7.1 step 2).
    private func preCounterBlock(iv: [UInt8], h: (UInt64, UInt64), aesni: Bool) -> (UInt64, UInt64) {
        if iv.count == 12 {
            var bytes = iv + [0, 0, 0, 1]
            defer { zero(&bytes) }
            return bytes.withUnsafeBytes { GCMBlock.load($0, 0) }
        }
        var y: (UInt64, UInt64) = (0, 0)
        ghash(&y, h: h, iv, aesni: aesni)
        return ghashBlock(y, h: h, (0, UInt64(iv.count) * 8), aesni: aesni)
    }

    /// The full tag T = GCTR(J₀, S) with S = GHASH(A ‖ pad ‖ C ‖ pad ‖ [len(A)]₆₄ ‖ [len(C)]₆₄).
    private func makeTag(
        j0: (UInt64, UInt64), h: (UInt64, UInt64), additionalData: [UInt8], ciphertext: [UInt8], aesni: Bool
    ) -> [UInt8] {
        var y: (UInt64, UInt64) = (0, 0)
        ghash(&y, h: h, additionalData, aesni: aesni)
        ghash(&y, h: h, ciphertext, aesni: aesni)
        let s = ghashBlock(y, h: h, (UInt64(additionalData.count) * 8, UInt64(ciphertext.count) * 8), aesni: aesni)
        var mask = roundKeys.encrypt(j0, aesni: aesni)
        defer { zero(&mask) }
        var tag = [UInt8](repeating: 0, count: 16)
        GCMBlock.store(s, into: &tag)
        for i in 0..<16 { tag[i] ^= mask[i] }
        return tag
    }

    /// y = (y ⊕ block) · H for one block.
    private func ghashBlock(
        _ y: (UInt64, UInt64), h: (UInt64, UInt64), _ block: (UInt64, UInt64), aesni: Bool
    ) -> (UInt64, UInt64) {
        var bytes = [UInt8](repeating: 0, count: 16)
        GCMBlock.store(block, into: &bytes)
        var result = y
        ghash(&result, h: h, bytes, aesni: aesni)
        return result
    }

    /// GHASH over `data` padded with zeros to whole blocks, continuing from `y`.
    private func ghash(_ y: inout (UInt64, UInt64), h: (UInt64, UInt64), _ data: [UInt8], aesni: Bool) {
        let whole = data.count / 16
        let rest = data.count % 16
        var last = [UInt8](repeating: 0, count: 16)
        for i in 0..<rest { last[i] = data[16 * whole + i] }
        defer { zero(&last) }
        #if arch(x86_64)
        if aesni {
            var yBytes = [UInt8](repeating: 0, count: 16)
            var hBytes = [UInt8](repeating: 0, count: 16)
            GCMBlock.store(y, into: &yBytes)
            GCMBlock.store(h, into: &hBytes)
            data.withUnsafeBufferPointer { d in
                if whole > 0 { sigil_pclmul_ghash(&yBytes, hBytes, d.baseAddress!, whole) }
            }
            if rest > 0 { sigil_pclmul_ghash(&yBytes, hBytes, last, 1) }
            y = yBytes.withUnsafeBytes { GCMBlock.load($0, 0) }
            zero(&hBytes)
            return
        }
        #endif
        data.withUnsafeBytes { d in
            for i in 0..<whole {
                let x = GCMBlock.load(d, 16 * i)
                y = GCMBlock.multiply((y.0 ^ x.0, y.1 ^ x.1), h)
            }
        }
        if rest > 0 {
            let x = last.withUnsafeBytes { GCMBlock.load($0, 0) }
            y = GCMBlock.multiply((y.0 ^ x.0, y.1 ^ x.1), h)
        }
    }

    /// GCTR (§6.5) from the counter block `initial`.
    private func gctr(initial: (UInt64, UInt64), _ input: [UInt8], aesni: Bool) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count)
        guard !input.isEmpty else { return output }
        var counter = [UInt8](repeating: 0, count: 16)
        GCMBlock.store(initial, into: &counter)
        defer { zero(&counter) }
        #if arch(x86_64)
        if aesni {
            input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    sigil_aesni_gctr(
                        roundKeys.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(roundKeys.rounds),
                        &counter, i.baseAddress!, o.baseAddress!, input.count)
                }
            }
            return output
        }
        #endif
        let keys = UnsafeRawBufferPointer(roundKeys.bytes)
        var block = initial
        var offset = 0
        var counterState = AESPortable.State()
        while offset < input.count {
            GCMBlock.store(block, into: &counter)
            for i in 0..<16 { counterState[i] = counter[i] }
            let keystream = AESPortable.encrypt(counterState, roundKeys: keys, rounds: roundKeys.rounds)
            let n = min(16, input.count - offset)
            for i in 0..<n { output[offset + i] = input[offset + i] ^ keystream[i] }
            offset += n
            block = increment32(block)
        }
        counterState = AESPortable.State()
        return output
    }
}

/// Overwrites `bytes` with zeros through `SecretMemory.wipe`, which the optimizer keeps (a best
/// effort still: it reaches the storage `bytes` holds, not copies Swift made before).
func zero(_ bytes: inout [UInt8]) {
    SecretMemory.wipe(&bytes)
}
