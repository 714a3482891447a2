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
/// ran under; a lookup compares all three in full (the hash reads only the lengths and last bytes,
/// equality decides), so different bytes never hit. A signature check is a function of exactly
/// these inputs, so a hit is the answer the check would give. At most `capacity` entries are kept;
/// the least recently used one is evicted.
final class CASignatureMemo: @unchecked Sendable {
    struct Key: Hashable {
        let subject: [UInt8]
        let issuerKey: ArraySlice<UInt8>
        let minimumRSABits: Int

        static func == (a: Key, b: Key) -> Bool {
            a.minimumRSABits == b.minimumRSABits && a.subject == b.subject && a.issuerKey == b.issuerKey
        }

        /// Lengths and last bytes (the signature, the key's point or modulus end); equality
        /// compares everything.
        func hash(into hasher: inout Hasher) {
            hasher.combine(subject.count)
            hasher.combine(issuerKey.count)
            hasher.combine(minimumRSABits)
            for byte in subject.suffix(32) { hasher.combine(byte) }
            for byte in issuerKey.suffix(16) { hasher.combine(byte) }
        }
    }

    let capacity: Int
    private let lock = PthreadLock()
    private var entries: [Key: UInt64] = [:]
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

    /// Whether `issuer`'s key was found to have signed `child` (under `minimumRSABits`) before.
    func verifiedBefore(_ child: Certificate, by issuer: Certificate, minimumRSABits: Int) -> Bool {
        #if Benchmarks
        guard CASignatureMemoSwitch.isEnabled else { return false }
        #endif
        let key = Self.key(child, issuer, minimumRSABits)
        return lock.withLock {
            guard entries[key] != nil else { return false }
            useCounter &+= 1
            entries[key] = useCounter
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
        lock.withLock {
            useCounter &+= 1
            if entries[key] == nil, entries.count >= capacity, let oldest = entries.min(by: { $0.value < $1.value })?.key {
                entries.removeValue(forKey: oldest)
            }
            entries[key] = useCounter
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
