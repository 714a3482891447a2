import SigilBase
import SigilCore

/// The one-step key-derivation function of NIST SP 800-56C Rev. 2 §4.1 (named "Concatenation KDF"
/// in SP 800-56A Rev. 1 §5.8.1), with a hash as the auxiliary function H:
/// `K(i) = H(counter(i) ‖ Z ‖ FixedInfo)` for counter = 1, 2, … as 32-bit big-endian words, the
/// leftmost `length` bytes of K(1) ‖ K(2) ‖ …
///
/// Z (the shared secret) is secret: it is only hashed, and the hash is constant time in its input.
/// The copies made here (the hash input holding Z, each hash output, a cut tail) are wiped with
/// `SecretMemory.wipe`; Z itself and the derived key returned are the caller's to wipe.
public enum ConcatKDF {
    /// Derives `length` bytes (1 up to 2³² − 1 hash outputs; §4.1 step 2) from `sharedSecret` and
    /// `fixedInfo` (SP 800-56A's OtherInfo: AlgorithmID ‖ PartyUInfo ‖ PartyVInfo …, which the caller
    /// lays out), with `hash` (SHA-256 for Apple Pay's EC_v1).
    public static func deriveKey(
        sharedSecret: [UInt8], fixedInfo: [UInt8], length: Int, hash: HashAlgorithm = .sha256
    ) throws(CipherError) -> [UInt8] {
        let blockCount = (length + hash.digestByteCount - 1) / hash.digestByteCount
        guard length > 0, blockCount <= Int(UInt32.max) else {
            throw CipherError(.invalidDerivationLength, "a one-step KDF derives 1 to (2^32 − 1) hash outputs, not \(length) bytes")
        }
        var output: [UInt8] = []
        output.reserveCapacity(blockCount * hash.digestByteCount)
        // counter ‖ Z ‖ FixedInfo built in one array (no intermediate `+` copy holding Z), wiped
        // after, as is each hash output once appended.
        var input: [UInt8] = []
        input.reserveCapacity(4 + sharedSecret.count + fixedInfo.count)
        input += [0, 0, 0, 0]
        input += sharedSecret
        input += fixedInfo
        defer { zero(&input) }
        for counter in 1...UInt32(blockCount) {
            input[0] = UInt8(counter >> 24)
            input[1] = UInt8(truncatingIfNeeded: counter >> 16)
            input[2] = UInt8(truncatingIfNeeded: counter >> 8)
            input[3] = UInt8(truncatingIfNeeded: counter)
            var block = hash.hash(input)
            output += block
            zero(&block)
        }
        if output.count > length {
            // The cut tail wiped where it is (removeLast leaves it in the array's capacity).
            output.withUnsafeMutableBytes { SecretMemory.wipe(UnsafeMutableRawBufferPointer(rebasing: $0[length...])) }
            output.removeLast(output.count - length)
        }
        return output
    }
}
