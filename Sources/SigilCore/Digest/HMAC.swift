/// HMAC (RFC 2104, FIPS 198-1) over any ``HashFunction``.
///
/// `HMAC<SHA256>.authenticationCode(key:message:)` in one call, or streaming:
/// `var mac = HMAC<SHA256>(key: k); mac.update(part); let tag = mac.finalize()`.
/// Keys longer than the hash's block are hashed first (RFC 2104 §2); shorter ones are zero-padded.
public struct HMAC<H: HashFunction>: Sendable {
    private var inner: H
    private var outer: H

    /// Starts a MAC computation under `key` (any length, including empty).
    public init<Key: Collection>(key: Key) where Key.Element == UInt8 {
        let blockSize = H.blockByteCount
        var block = key.count > blockSize ? H.hash(key) : Array(key)
        block.append(contentsOf: repeatElement(0, count: blockSize - block.count))
        inner = H()
        outer = H()
        // K ⊕ ipad and K ⊕ opad (RFC 2104 §2: ipad = 0x36…, opad = 0x5C…).
        var pad = block.map { $0 ^ 0x36 }
        inner.update(pad)
        for i in pad.indices { pad[i] = block[i] ^ 0x5C }
        outer.update(pad)
        // Overwrite the key copies before they are freed.
        for i in pad.indices { pad[i] = 0; block[i] = 0 }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) { inner.update(bytes) }

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
