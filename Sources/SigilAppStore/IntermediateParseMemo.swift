import SigilBase
import SigilJOSE
import SigilX509

/// Intermediate certificates parsed before, by the exact x5c text they were parsed from, so that
/// a chain under an intermediate the verifier has met (Apple's WWDR intermediate heads every App
/// Store chain) is not base64-decoded and parsed again when its leaf is new or its chain is not
/// cached.
///
/// Parsing is a function of the text alone (strict base64 gives each text one decoding, strict
/// DER each encoding one parse), so a hit is the certificate that parsing would give; nothing
/// else is remembered: the chain is validated, its signatures checked (CertificateVerifier's own
/// memo aside) and its revocation checked as for any other. Only texts that parsed are kept, at
/// most `capacity`, and the oldest is replaced first. A lookup compares the whole text.
final class IntermediateParseMemo: @unchecked Sendable {
    private struct Entry {
        let text: String
        let certificate: Certificate
    }

    let capacity: Int
    private let lock = PthreadLock()
    private var entries: [Entry] = []
    private var next = 0

    init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
    }

    /// The certificate `text` (an x5c entry, standard base64 DER) parses to: remembered, or
    /// parsed now by `parse` and remembered when it parses.
    func certificate<Failure: Error>(for text: String, parse: (String) throws(Failure) -> Certificate) throws(Failure) -> Certificate {
        let known: Certificate? = lock.withLock {
            for entry in entries where entry.text.utf8.count == text.utf8.count && entry.text == text {
                return entry.certificate
            }
            return nil
        }
        #if Benchmarks
        if let known, IntermediateParseMemoSwitch.isEnabled { return known }
        #else
        if let known { return known }
        #endif
        let certificate = try parse(text)
        lock.withLock {
            if entries.contains(where: { $0.text == text }) { return }
            if entries.count < capacity {
                entries.append(Entry(text: text, certificate: certificate))
            } else {
                entries[next] = Entry(text: text, certificate: certificate)
                next = (next + 1) % capacity
            }
        }
        return certificate
    }

    /// How many parses are kept.
    var count: Int { lock.withLock { entries.count } }
}

#if Benchmarks
/// Benchmarks/ only (`@_spi(Benchmarks) import SigilAppStore`): turns the intermediate parse memo
/// off, so one build measures the uncached chain with and without it.
@_spi(Benchmarks)
public enum IntermediateParseMemoSwitch {
    private static let state = Locked(true)

    /// Whether verifiers use remembered parses (true unless a benchmark turns it off).
    public static var isEnabled: Bool {
        get { state.withValue { $0 } }
        set { state.withValue { $0 = newValue } }
    }
}
#endif
