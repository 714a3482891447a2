import SigilBase
import SigilCore
import SigilX509

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
public final class ChainCache: @unchecked Sendable {
    struct Key: Hashable {
        let leaf: String
        let intermediate: String
        /// The validating verifier's trust configuration (`SignedDataVerifier.trustContext`).
        let context: [UInt8]
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

    /// Seconds a validated chain is kept (0: nothing is kept).
    public let timeToLive: Int64
    /// The most chains kept; the oldest stored is evicted first.
    public let capacity: Int
    private let lock = PthreadLock()
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []

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
        lock.withLock {
            if entries[key] == nil {
                if entries.count >= capacity {
                    let expired = entries.filter { $0.value.expires <= now }.map(\.key)
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
