import CSigilIntrinsics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which SHA-256 compression function runs: the portable Swift one, or a CPU-specific kernel
/// from the header-only `CSigilIntrinsics` module, chosen at run time by CPUID.
///
/// Both compute FIPS 180-4 §6.2.2 bit for bit (the tests run NIST SHAVS and random inputs through
/// each), and both are constant time in the message and the chaining value. SHA-1, SHA-384 and
/// SHA-512 always run in portable Swift.
///
/// The portable path can be forced for tests and audits, from code with ``forcePortable`` or for a
/// whole process with the environment variable `SIGIL_PORTABLE_DIGESTS=1` (read once, at the first
/// hash). `sigil overview` reports which path runs.
public enum DigestBackend: String, Sendable, CaseIterable {
    /// FIPS 180-4 in Swift: runs on every CPU.
    case portable = "portable Swift"
    /// The x86-64 SHA extensions (SHA256RNDS2, SHA256MSG1, SHA256MSG2, with SSSE3 and SSE4.1).
    case x86SHAExtensions = "x86-64 SHA extensions"

    /// The environment variable that, set to `1`, makes ``portable`` the starting choice.
    public static let environmentVariable = "SIGIL_PORTABLE_DIGESTS"

    /// The accelerated backend this CPU supports, or `nil` when it has none (CPUID, whatever is forced).
    public static var accelerated: DigestBackend? {
        digestSelection.acceleratedAvailable ? .x86SHAExtensions : nil
    }

    /// Whether the portable Swift path is forced. Starts as `true` when `SIGIL_PORTABLE_DIGESTS=1`;
    /// setting it to `false` returns to automatic selection by CPUID.
    ///
    /// Meant for tests, audits and start-up configuration: set it before hashing starts, not while
    /// other threads hash (each compression call reads it once, so a switch takes effect at the
    /// next call).
    public static var forcePortable: Bool {
        get { digestSelection.flags.pointee & DigestSelection.forcedBit != 0 }
        set {
            let flags = digestSelection.flags
            flags.pointee = newValue ? flags.pointee | DigestSelection.forcedBit : flags.pointee & ~DigestSelection.forcedBit
        }
    }

    /// The backend SHA-256 uses now.
    public static var current: DigestBackend {
        digestSelection.usesAccelerated ? .x86SHAExtensions : .portable
    }
}

/// The process-wide choice, probed once. The flags live behind a pointer allocated once, so the
/// hot path reads them with a plain load (no exclusivity bookkeeping of a global `var`).
struct DigestSelection: @unchecked Sendable {
    static let acceleratedBit: UInt8 = 1
    static let forcedBit: UInt8 = 2

    let flags: UnsafeMutablePointer<UInt8>

    init() {
        var initial: UInt8 = 0
        if sigil_cpu_has_sha256_extensions() != 0 { initial |= DigestSelection.acceleratedBit }
        if let value = getenv(DigestBackend.environmentVariable) {
            let text = String(cString: value)
            if !text.isEmpty && text != "0" { initial |= DigestSelection.forcedBit }
        }
        flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        flags.initialize(to: initial)
    }

    var acceleratedAvailable: Bool { flags.pointee & DigestSelection.acceleratedBit != 0 }

    /// True when the CPU has the kernel and the portable path is not forced.
    @inline(__always)
    var usesAccelerated: Bool { flags.pointee == DigestSelection.acceleratedBit }
}

/// Probed at first use (Swift initialises globals once, thread-safely); never freed.
let digestSelection = DigestSelection()
