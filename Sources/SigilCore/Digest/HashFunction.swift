/// A cryptographic hash function with a streaming interface.
///
/// Use `var h = SHA256(); h.update(part1); h.update(part2); let digest = h.finalize()`, or the
/// one-shot `SHA256.hash(bytes)`. Both produce the same digest for the same bytes, however the
/// input is split. A value can be copied mid-stream to fork the computation (HMAC does this).
public protocol HashFunction: Sendable {
    /// Output length in bytes.
    static var digestByteCount: Int { get }
    /// Internal block length in bytes (what HMAC pads its key to).
    static var blockByteCount: Int { get }
    /// A name for diagnostics and CLI output ("SHA-256").
    static var name: String { get }

    /// The initial state.
    init()

    /// Absorbs `bytes`. May be called any number of times, with any lengths, including zero.
    mutating func update(_ bytes: UnsafeRawBufferPointer)

    /// Pads, finishes and returns the digest. The value must not be used afterwards except to
    /// be discarded or re-initialised.
    mutating func finalize() -> [UInt8]
}

extension HashFunction {
    /// The digest, asked through the protocol's requirement (the conformance's own witness): for
    /// other modules holding a concrete hash type, since Embedded Swift cannot specialize the
    /// SHA-2 types' shared `finalize()` (a method of an internal protocol's extension) from outside
    /// SigilCore. The value must not be used afterwards, as with `finalize()`.
    @inlinable
    package mutating func finalizedThroughRequirement() -> [UInt8] { finalize() }

    /// Absorbs a byte collection (arrays, slices, `Data`-like collections of `UInt8`).
    @inlinable
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// The digest of `bytes`, in one call.
    @inlinable
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
