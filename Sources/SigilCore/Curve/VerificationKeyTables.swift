import SigilBase

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-process cache of fixed-base tables for public keys that verify repeatedly (see
/// FixedBaseTableVartime.swift), one cache per curve.
///
/// Policy, chosen so a one-off verification never pays for a table and a busy verifier soon
/// stops paying for doublings:
/// - a key's table is built the **second** time the key verifies (sightings are counted in a set
///   bounded to `sightingLimit` keys, forgotten wholesale when it fills), or at once through
///   `ECDSAPublicKey.prepareForRepeatedVerification()`;
/// - at most `capacity` tables are kept; the least recently used one is evicted;
/// - the table is built outside the lock, so verifications of other keys never wait for it.
/// Tables hold public data only (multiples of a public key), so sharing them across threads and
/// callers leaks nothing.
final class VerificationKeyTableCache<C: WeierstrassCurve>: @unchecked Sendable {
    /// The point itself (inline, no allocation per lookup), compared and hashed limb by limb.
    struct Key: Hashable {
        let point: AffinePoint<C>
        init(_ point: AffinePoint<C>) { self.point = point }

        static func == (a: Key, b: Key) -> Bool {
            C.Field.equalVartime(a.point.x, b.point.x) && C.Field.equalVartime(a.point.y, b.point.y)
        }

        func hash(into hasher: inout Hasher) {
            for i in 0..<C.Field.limbCount {
                hasher.combine(point.x.limb(i))
                hasher.combine(point.y.limb(i))
            }
        }
    }

    private enum LookupStep {
        case use(FixedBaseTable<C>)
        case build
        case none
    }

    private struct Entry {
        let table: FixedBaseTable<C>
        var lastUse: UInt64
    }

    let capacity: Int
    let sightingLimit: Int
    let width: Int
    private let lock = PthreadLock()
    private var entries: [Key: Entry] = [:]
    private var sightings: Set<Key> = []
    private var useCounter: UInt64 = 0
    private var enabled = true

    init(capacity: Int, width: Int, sightingLimit: Int = 256) {
        self.capacity = capacity
        self.width = width
        self.sightingLimit = sightingLimit
    }

    /// The table for `point` if it has one; otherwise records the sighting and, on the second
    /// one (or when `force` is set), builds, stores and returns a table. Nil means "verify
    /// without a table" (first sighting, or the cache disabled).
    func table(for point: AffinePoint<C>, force: Bool = false) -> FixedBaseTable<C>? {
        let key = Key(point)
        // One locked step decides: a stored table (returned), a build (done outside the lock), or
        // nothing (first sighting, or the cache is off).
        let step: LookupStep = lock.withLock {
            guard enabled else { return .none }
            useCounter &+= 1
            if var entry = entries[key] {
                entry.lastUse = useCounter
                entries[key] = entry
                return .use(entry.table)
            }
            if force || sightings.contains(key) {
                sightings.remove(key)
                return .build
            }
            if sightings.count >= sightingLimit { sightings.removeAll(keepingCapacity: true) }
            sightings.insert(key)
            return .none
        }
        switch step {
        case .use(let table): return table
        case .none: return nil
        case .build: break
        }
        let table = FixedBaseTable<C>(base: point, width: width)
        lock.withLock {
            guard enabled else { return }
            if entries[key] == nil, entries.count >= capacity,
                let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                entries.removeValue(forKey: oldest)
            }
            entries[key] = Entry(table: table, lastUse: useCounter)
        }
        return table
    }

    var count: Int { lock.withLock { entries.count } }

    func removeAll() {
        lock.withLock {
            entries.removeAll()
            sightings.removeAll()
        }
    }

    var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            lock.withLock {
                enabled = newValue
                if !newValue {
                    entries.removeAll()
                    sightings.removeAll()
                }
            }
        }
    }
}

/// Process-wide control of the per-key verification tables (see `VerificationKeyTableCache`):
/// for tests, benchmarks (cold figures) and callers that want to bound memory further. A P-256
/// key's table is 464 KiB, a P-384 key's 1 MiB (release builds); at most 16 of each are kept.
public enum ECDSAVerificationTables {
    /// Whether verification builds and uses per-key tables (default true). Turning it off drops
    /// every table.
    public static var isEnabled: Bool {
        get { P256Curve.keyTables.isEnabled && P384Curve.keyTables.isEnabled }
        set {
            P256Curve.keyTables.isEnabled = newValue
            P384Curve.keyTables.isEnabled = newValue
        }
    }

    /// Number of tables currently kept, per curve.
    public static func count(for curve: ECCurve) -> Int {
        switch curve {
        case .p256: return P256Curve.keyTables.count
        case .p384: return P384Curve.keyTables.count
        }
    }

    /// Drops every table and every sighting.
    public static func removeAll() {
        P256Curve.keyTables.removeAll()
        P384Curve.keyTables.removeAll()
    }
}
