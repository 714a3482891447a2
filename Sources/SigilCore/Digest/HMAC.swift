/// HMAC's key schedule (RFC 2104 §2, FIPS 198-1 §4 steps 1–7 before the text): the hash states after
/// absorbing K ⊕ ipad and K ⊕ opad, computed once and reused for every message under that key.
///
/// `let key = HMACKey<SHA256>(k)` then `key.authenticationCode(for: m1)`, `key.authenticationCode(for: m2)`:
/// each MAC then costs only the compressions of its message and of the outer hash. RFC 6979 uses
/// this to run the several HMACs of one signature that share a K without redoing the padded-key
/// blocks. Keys longer than the hash's block are hashed first (RFC 2104 §2); shorter ones are
/// zero-padded. The work depends on the key's length only, never on its bytes.
public struct HMACKey<H: HashFunction>: Sendable {
    let inner: H
    let outer: H

    /// Computes the schedule of `key` (any length, including empty).
    public init<Key: Collection>(_ key: Key) where Key.Element == UInt8 {
        if key.count > H.blockByteCount {
            self.init(blockSizedKey: H.hash(key))
        } else if let schedule = key.withContiguousStorageIfAvailable({ HMACKey(rawKey: UnsafeRawBufferPointer($0)) }) {
            self = schedule
        } else {
            self.init(blockSizedKey: Array(key))
        }
    }

    private init(blockSizedKey key: [UInt8]) {
        self = key.withUnsafeBytes { HMACKey(rawKey: $0) }
    }

    /// `key` is at most one block long; the padded key lives in a fixed stack buffer.
    private init(rawKey key: UnsafeRawBufferPointer) {
        let blockSize = H.blockByteCount
        var inner = H()
        var outer = H()
        // One block of SHA-384/512, the largest, as sixteen words.
        var block:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &block) { bytes in
            UnsafeMutableRawBufferPointer(rebasing: bytes[0..<min(key.count, blockSize)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: key[0..<min(key.count, blockSize)]))
            // K ⊕ ipad, then (K ⊕ ipad) ⊕ (ipad ⊕ opad) = K ⊕ opad (ipad = 0x36…, opad = 0x5C…).
            for i in 0..<(blockSize / 8) {
                bytes.storeBytes(
                    of: bytes.load(fromByteOffset: 8 * i, as: UInt64.self) ^ 0x3636_3636_3636_3636,
                    toByteOffset: 8 * i, as: UInt64.self)
            }
            inner.update(UnsafeRawBufferPointer(rebasing: bytes[0..<blockSize]))
            for i in 0..<(blockSize / 8) {
                bytes.storeBytes(
                    of: bytes.load(fromByteOffset: 8 * i, as: UInt64.self) ^ 0x6A6A_6A6A_6A6A_6A6A,
                    toByteOffset: 8 * i, as: UInt64.self)
            }
            outer.update(UnsafeRawBufferPointer(rebasing: bytes[0..<blockSize]))
            // Overwrite the padded key before the stack space is reused.
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }
        self.inner = inner
        self.outer = outer
    }

    /// The MAC of `message` under this key.
    public func authenticationCode<Message: Sequence>(for message: Message) -> [UInt8] where Message.Element == UInt8 {
        var mac = HMAC(key: self)
        mac.update(message)
        return mac.finalize()
    }
}

/// HMAC (RFC 2104, FIPS 198-1) over any ``HashFunction``.
///
/// `HMAC<SHA256>.authenticationCode(key:message:)` in one call, or streaming:
/// `var mac = HMAC<SHA256>(key: k); mac.update(part); let tag = mac.finalize()`.
/// Keys longer than the hash's block are hashed first (RFC 2104 §2); shorter ones are zero-padded.
/// To MAC several messages under one key, compute its ``HMACKey`` once and start from that.
public struct HMAC<H: HashFunction>: Sendable {
    private var inner: H
    private var outer: H

    /// Starts a MAC computation under `key` (any length, including empty).
    public init<Key: Collection>(key: Key) where Key.Element == UInt8 {
        self.init(key: HMACKey<H>(key))
    }

    /// Starts a MAC computation from a precomputed key schedule (no padded-key compressions).
    public init(key: HMACKey<H>) {
        inner = key.inner
        outer = key.outer
    }

    /// Feeds `bytes` to the MAC.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { inner.update(bytes) }

    /// Feeds `bytes` to the MAC.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        inner.update(bytes)
    }

    /// H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message)).
    public mutating func finalize() -> [UInt8] {
        let innerDigest = inner.finalize()
        outer.update(innerDigest)
        return outer.finalize()
    }

    /// The MAC of `message` under `key`.
    public static func authenticationCode<Key: Collection, Message: Sequence>(key: Key, message: Message) -> [UInt8]
    where Key.Element == UInt8, Message.Element == UInt8 {
        var mac = HMAC(key: key)
        mac.update(message)
        return mac.finalize()
    }

    /// Whether `tag` is the MAC of `message` under `key`, compared in constant time.
    /// A tag of any other length than the digest is rejected.
    public static func isValidAuthenticationCode<Key: Collection, Message: Sequence, Tag: Collection>(
        _ tag: Tag, key: Key, message: Message
    ) -> Bool where Key.Element == UInt8, Message.Element == UInt8, Tag.Element == UInt8 {
        ConstantTime.equals(authenticationCode(key: key, message: message), tag)
    }
}

extension HMAC where H: MDHashFunction {
    /// The tag, written into the first `H.digestByteCount` bytes of `tag` (the caller provides
    /// at least that many), with no allocation: the inner digest stays on the stack and is wiped.
    /// Internal: RFC 6979 runs it several times per signature.
    mutating func finalize(into tag: UnsafeMutableRawBufferPointer) {
        var innerDigest: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &innerDigest) { bytes in
            let digest = UnsafeMutableRawBufferPointer(rebasing: bytes[0..<H.digestByteCount])
            inner.finalize(into: digest)
            outer.update(UnsafeRawBufferPointer(digest))
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }
        outer.finalize(into: tag)
    }
}
