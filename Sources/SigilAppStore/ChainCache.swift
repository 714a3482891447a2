import SigilBase
import SigilCore
import SigilJOSE
import SigilX509

/// Verified certificate chains, so that repeated signed data from the same Apple leaf costs one
/// P-256 verification instead of two P-384 chain checks and an OCSP round trip.
///
/// Keyed by the exact x5c strings of leaf and intermediate (different encodings of the same
/// certificate are simply different entries) and by the trust configuration of the verifier that
/// validated the chain — its trusted roots and its RFC 5280 relaxations —, so one cache shared by
/// verifiers configured differently never lets a chain accepted by one (another root, a named
/// relaxation) stand for another: each configuration sees only its own entries. An entry remembers the window in which every
/// certificate of the chain is valid, so a hit at a validation time outside it is a miss and the
/// chain is validated again; and it expires `timeToLive` seconds after it was stored (by the
/// verifier's clock), bounding how stale an online revocation answer can be. At most `capacity`
/// entries are kept: expired ones go first, then the oldest.
///
/// Beside the chains it keeps, for as many signed data as it keeps chains, the JOSE header each
/// was verified with, by the header part's exact base64url text: a later JWS whose header part is
/// the same text is not decoded and parsed again (strict base64url decodes each text one way
/// only, so the same text is the same header; the x5c it carries is still looked up, and the
/// signature and every check still run, as for any other). With the header it keeps SHA-256's
/// state after the header part and its dot, so an ES256 check hashes only the payload part: the
/// same digest, since SHA-256 absorbs its input in order.
public final class ChainCache: @unchecked Sendable {
    struct Key: Hashable {
        let leaf: String
        let intermediate: String
        /// The validating verifier's trust configuration (`SignedDataVerifier.trustContext`).
        let context: [UInt8]

        /// Hashes the texts' lengths and last bytes (the certificates' signatures) and the
        /// context; equality still compares the whole texts.
        func hash(into hasher: inout Hasher) {
            func combine(_ text: String) {
                hasher.combine(text.utf8.count)
                // One call for the 48 bytes (Hasher takes them as the same byte stream as one
                // combine per byte, which is the fallback for a non-contiguous string).
                let done: Void? = text.utf8.withContiguousStorageIfAvailable {
                    hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0.suffix(48))))
                }
                if done == nil { for byte in text.utf8.suffix(48) { hasher.combine(byte) } }
            }
            combine(leaf)
            combine(intermediate)
            hasher.combine(context)
        }
    }

    struct Entry {
        let chain: [Certificate]
        let leafKey: ECDSAPublicKey
        /// Validation times in [validFrom, validUntil] see the same validity verdict.
        let validFrom: Int64
        let validUntil: Int64
        /// Clock time after which the entry is not used.
        let expires: Int64
        /// Whether online checks were made when it was stored.
        let online: Bool
    }

    /// A header part's exact base64url text, compared in full; hashed by its length and last
    /// bytes (in an Apple header, the intermediate certificate's signature), not all 4 KiB.
    struct HeaderText: Hashable {
        let text: ArraySlice<UInt8>

        static func == (a: HeaderText, b: HeaderText) -> Bool {
            a.text.count == b.text.count
                && a.text.withUnsafeBytes { x in
                    b.text.withUnsafeBytes { y in
                        var index = 0
                        while x.count - index >= 8 {
                            guard
                                x.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                                    == y.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                            else { return false }
                            index += 8
                        }
                        while index < x.count {
                            guard x[index] == y[index] else { return false }
                            index += 1
                        }
                        return true
                    }
                }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(text.count)
            text.suffix(48).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Seconds a validated chain is kept (0: nothing is kept).
    public let timeToLive: Int64
    /// The most chains kept; the oldest stored is evicted first.
    public let capacity: Int
    private let lock = PthreadLock()
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []
    private var headers: [HeaderText: JWS.ParsedHeader] = [:]

    /// A cache keeping each validated chain `timeToLive` seconds (0 disables it), at most `capacity` chains (when full, the oldest stored is evicted first: insertion order, lookups do not refresh it).
    public init(timeToLive: Int64 = 900, capacity: Int = 64) {
        self.timeToLive = max(0, timeToLive)
        self.capacity = max(1, capacity)
    }

    /// How many chains are kept now.
    public var count: Int { lock.withLock { entries.count } }

    /// Forgets every cached chain.
    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            order.removeAll()
            headers.removeAll()
        }
    }

    /// The header parsed earlier from exactly `text` (a header part kept by `storeHeader`), if any.
    func header(for text: ArraySlice<UInt8>) -> JWS.ParsedHeader? {
        lock.withLock { headers.isEmpty ? nil : headers[HeaderText(text: text)] }
    }

    /// Keeps `jws`'s header for its header part's text (nothing when the cache keeps nothing); at
    /// most `capacity` headers (when full, every kept header is forgotten first).
    func storeHeader(of jws: JWS) {
        guard timeToLive > 0 else { return }
        let key = HeaderText(text: jws.headerPartText)
        // The header's parse and digest are made only when it is not kept yet.
        guard lock.withLock({ headers[key] == nil }) else { return }
        let parsed = jws.parsedHeader
        lock.withLock {
            guard headers[key] == nil else { return }
            if headers.count >= capacity { headers.removeAll() }
            headers[key] = parsed
        }
    }

    func lookup(_ key: Key, validationTime: Int64, now: Int64, online: Bool) -> Entry? {
        lock.withLock {
            guard let entry = entries[key], now < entry.expires, entry.online || !online,
                entry.validFrom <= validationTime, validationTime <= entry.validUntil
            else { return nil }
            return entry
        }
    }

    func store(_ key: Key, _ entry: Entry, now: Int64) {
        // A cache with no lifetime keeps nothing (an entry stored would never be used).
        guard timeToLive > 0 else { return }
        lock.withLock {
            if entries[key] == nil {
                if entries.count >= capacity {
                    let expired = entries.filter { $0.value.expires <= now }.map { $0.key }
                    for k in expired { entries[k] = nil }
                    order.removeAll { entries[$0] == nil }
                    while entries.count >= capacity, !order.isEmpty { entries[order.removeFirst()] = nil }
                }
                order.append(key)
            }
            entries[key] = entry
        }
    }
}
