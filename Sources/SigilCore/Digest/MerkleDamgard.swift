/// The compression function of a Merkle–Damgård hash (FIPS 180-4 §5–§6): the chaining state
/// and how one or more whole blocks update it.
protocol MDCompressor: Sendable {
    /// Block length in bytes: 64 (SHA-1, SHA-256) or 128 (SHA-384, SHA-512).
    static var blockByteCount: Int { get }
    /// Bytes of the message-length field that ends the padding: 8 or 16 (FIPS 180-4 §5.1).
    static var lengthByteCount: Int { get }
    /// Digest length in bytes; the digest is the first bytes of the big-endian state (§6.5 truncation).
    static var digestByteCount: Int { get }

    init()

    /// Processes `blocks`, whose count is a non-zero multiple of `blockByteCount`.
    mutating func compress(_ blocks: UnsafeRawBufferPointer)

    /// Writes the state words, big-endian, into `output` (exactly `digestByteCount` bytes; a
    /// truncated hash writes only the leading words/bytes).
    func writeDigest(into output: UnsafeMutableRawBufferPointer)
}

/// The buffering and padding shared by every Merkle–Damgård hash here.
///
/// Holds at most one partial block inline (no heap allocation while hashing), counts the message
/// length, and on `finalize` applies FIPS 180-4 §5.1 padding: a 1 bit, zeros, then the message
/// length in bits as a big-endian integer of `lengthByteCount` bytes.
struct MDEngine<Core: MDCompressor>: Sendable {
    private var core = Core()
    /// Up to one partial block (128 bytes, the largest block size), inline.
    private var buffer:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var buffered = 0
    /// Total message length in bytes, modulo 2^64 (the bit length is then exact below 2^61 bytes,
    /// and its high part is carried into the 128-bit field for SHA-384/512).
    private var totalBytes: UInt64 = 0

    init() {}

    mutating func update(_ input: UnsafeRawBufferPointer) {
        let blockSize = Core.blockByteCount
        guard var base = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        totalBytes &+= UInt64(remaining)

        if buffered > 0 {
            let take = min(blockSize - buffered, remaining)
            let at = buffered
            withUnsafeMutableBytes(of: &buffer) {
                UnsafeMutableRawBufferPointer(rebasing: $0[at..<(at + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(start: base, count: take))
            }
            buffered += take
            base += take
            remaining -= take
            guard buffered == blockSize else { return }
            withUnsafeBytes(of: buffer) { core.compress(UnsafeRawBufferPointer(rebasing: $0[0..<blockSize])) }
            buffered = 0
        }
        let whole = remaining - remaining % blockSize
        if whole > 0 {
            core.compress(UnsafeRawBufferPointer(start: base, count: whole))
            base += whole
            remaining -= whole
        }
        if remaining > 0 {
            let tail = remaining
            withUnsafeMutableBytes(of: &buffer) {
                UnsafeMutableRawBufferPointer(rebasing: $0[0..<tail])
                    .copyMemory(from: UnsafeRawBufferPointer(start: base, count: tail))
            }
            buffered = tail
        }
    }

    mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Core.digestByteCount)
        digest.withUnsafeMutableBytes { finalize(into: $0) }
        return digest
    }

    /// Pads and finishes, writing the digest into the first `digestByteCount` bytes of `output`
    /// (which must hold at least that many), with no allocation; then resets the engine.
    mutating func finalize(into output: UnsafeMutableRawBufferPointer) {
        let blockSize = Core.blockByteCount
        let lengthSize = Core.lengthByteCount
        let bitLengthLow = totalBytes &<< 3
        let bitLengthHigh = totalBytes >> 61
        let used = buffered
        var core = self.core
        withUnsafeMutableBytes(of: &buffer) { block in
            block[used] = 0x80
            var position = used + 1
            if position > blockSize - lengthSize {
                UnsafeMutableRawBufferPointer(rebasing: block[position..<blockSize]).initializeMemory(as: UInt8.self, repeating: 0)
                core.compress(UnsafeRawBufferPointer(rebasing: block[0..<blockSize]))
                position = 0
            }
            UnsafeMutableRawBufferPointer(rebasing: block[position..<(blockSize - 8)]).initializeMemory(as: UInt8.self, repeating: 0)
            if lengthSize == 16 {
                // The upper 64 bits of the 128-bit length field: all zero but for lengths ≥ 2^61 bytes.
                block.storeBytes(of: bitLengthHigh.bigEndian, toByteOffset: blockSize - 16, as: UInt64.self)
            }
            block.storeBytes(of: bitLengthLow.bigEndian, toByteOffset: blockSize - 8, as: UInt64.self)
            core.compress(UnsafeRawBufferPointer(rebasing: block[0..<blockSize]))
        }
        core.writeDigest(into: UnsafeMutableRawBufferPointer(rebasing: output[0..<Core.digestByteCount]))
        self = MDEngine()
    }
}

/// Big-endian word I/O shared by the compressors.
extension UnsafeRawBufferPointer {
    @inline(__always)
    func loadBigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Stores `words` big-endian, stopping when the buffer is full (for truncated digests).
    @inline(__always)
    func storeBigEndian<Word: FixedWidthInteger>(_ words: Word...) {
        var offset = 0
        for word in words {
            var big = word.bigEndian
            let take = Swift.min(MemoryLayout<Word>.size, count - offset)
            guard take > 0 else { return }
            withUnsafeBytes(of: &big) { bytes in
                for i in 0..<take { self[offset + i] = bytes[i] }
            }
            offset += take
        }
    }
}

/// ROTR^n(x) (FIPS 180-4 §3.2), for 0 < n < bit width.
@inline(__always)
func rotr<Word: FixedWidthInteger & UnsignedInteger>(_ x: Word, _ n: Word) -> Word {
    (x &>> n) | (x &<< (Word(Word.bitWidth) &- n))
}
