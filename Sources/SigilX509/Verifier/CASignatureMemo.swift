import SigilBase

/// Signature checks on CA certificates that passed, so that a verifier meeting the same
/// intermediate under the same issuer key again (Apple's WWDR intermediate under Apple Root CA -
/// G3 on every App Store chain) does not verify its signature again.
///
/// Only the signature check (RFC 5280 §6.1.3 (a)(1)) is remembered: validity, basicConstraints,
/// keyUsage, policies and revocation run on every chain as before. Only successes are stored, and
/// only for a certificate that is a CA (basicConstraints cA) checked above the path's first
/// certificate: a leaf's signature is always verified.
///
/// An entry is the certificate's whole DER (its TBSCertificate, signature algorithm and
/// signature), the issuer's whole DER SubjectPublicKeyInfo and the RSA key-size minimum the check
/// ran under; a lookup compares all three in full (a summary of the lengths and last bytes is
/// compared first, equality decides), so different bytes never hit. A signature check is a function of exactly
/// these inputs, so a hit is the answer the check would give. At most `capacity` entries are kept;
/// the least recently used one is evicted.
final class CASignatureMemo: @unchecked Sendable {
    struct Key: Equatable {
        let subject: [UInt8]
        let issuerKey: ArraySlice<UInt8>
        let minimumRSABits: Int

        static func == (a: Key, b: Key) -> Bool {
            a.minimumRSABits == b.minimumRSABits && a.subject == b.subject && a.issuerKey == b.issuerKey
        }

        /// A cheap first comparison: lengths, the RSA minimum and the last bytes (the signature,
        /// the end of the key); equality still compares everything.
        var summary: UInt64 {
            var value = UInt64(truncatingIfNeeded: subject.count) &* 0x9E37_79B9_7F4A_7C15
            value ^= UInt64(truncatingIfNeeded: issuerKey.count) << 32 ^ UInt64(truncatingIfNeeded: minimumRSABits)
            for byte in subject.suffix(8) { value = (value << 8 | value >> 56) ^ UInt64(byte) }
            for byte in issuerKey.suffix(8) { value = (value << 8 | value >> 56) ^ UInt64(byte) }
            return value
        }
    }

    private struct Entry {
        let key: Key
        let summary: UInt64
        var lastUse: UInt64
    }

    let capacity: Int
    private let lock = PthreadLock()
    /// A few dozen entries at most: a linear scan on the summaries.
    private var entries: [Entry] = []
    private var useCounter: UInt64 = 0

    init(capacity: Int = 32) {
        self.capacity = max(0, capacity)
    }

    /// Whether a CA certificate's signature check qualifies for the memo: above the path's first
    /// certificate, and a CA.
    static func applies(to child: Certificate, at position: Int) -> Bool {
        position > 0 && child.basicConstraints?.isCA == true
    }

    private static func key(_ child: Certificate, _ issuer: Certificate, _ minimumRSABits: Int) -> Key {
        Key(subject: child.derBytes, issuerKey: issuer.subjectPublicKeyInfoSlice, minimumRSABits: minimumRSABits)
    }

    private func index(of key: Key, summary: UInt64) -> Int? {
        entries.firstIndex { $0.summary == summary && $0.key == key }
    }

    /// Whether `issuer`'s key was found to have signed `child` (under `minimumRSABits`) before.
    func verifiedBefore(_ child: Certificate, by issuer: Certificate, minimumRSABits: Int) -> Bool {
        #if Benchmarks
        guard CASignatureMemoSwitch.isEnabled else { return false }
        #endif
        let key = Self.key(child, issuer, minimumRSABits)
        let summary = key.summary
        return lock.withLock {
            guard let found = index(of: key, summary: summary) else { return false }
            useCounter &+= 1
            entries[found].lastUse = useCounter
            return true
        }
    }

    /// Records that `issuer`'s key signed `child`: call only after the check passed.
    func recordVerified(_ child: Certificate, by issuer: Certificate, minimumRSABits: Int) {
        guard capacity > 0 else { return }
        #if Benchmarks
        guard CASignatureMemoSwitch.isEnabled else { return }
        #endif
        let key = Self.key(child, issuer, minimumRSABits)
        let summary = key.summary
        lock.withLock {
            useCounter &+= 1
            if let found = index(of: key, summary: summary) {
                entries[found].lastUse = useCounter
                return
            }
            if entries.count >= capacity, let oldest = entries.indices.min(by: { entries[$0].lastUse < entries[$1].lastUse }) {
                entries.remove(at: oldest)
            }
            entries.append(Entry(key: key, summary: summary, lastUse: useCounter))
        }
    }

    /// Entries kept.
    var count: Int { lock.withLock { entries.count } }
}

#if Benchmarks
/// Benchmarks/ only (`@_spi(Benchmarks) import SigilX509`): turns every verifier's CA signature
/// memo off, so one build measures the chain with and without it.
@_spi(Benchmarks)
public enum CASignatureMemoSwitch {
    private static let state = Locked(true)

    /// Whether verifiers use their memo (true unless a benchmark turns it off).
    public static var isEnabled: Bool {
        get { state.withValue { $0 } }
        set { state.withValue { $0 = newValue } }
    }
}
#endif
