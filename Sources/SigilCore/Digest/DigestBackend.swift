import CSigilIntrinsics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which compression function runs for SHA-256 and for the SHA-512 family (SHA-384, SHA-512): the
/// portable Swift one, or a CPU-specific kernel from the header-only `CSigilIntrinsics` module, chosen
/// at run time by CPUID.
///
/// Each path computes FIPS 180-4 §6.2.2 (SHA-256) or §6.4.2 (SHA-512, SHA-384) bit for bit (the tests
/// run NIST SHAVS and random inputs through each), and each is constant time in the message and the
/// chaining value. SHA-1 always runs in portable Swift.
///
/// The portable path can be forced for tests and audits, for every hash at once, from code with
/// ``forcePortable`` or for a whole process with the environment variable `SIGIL_PORTABLE_DIGESTS=1`
/// (read once, at the first hash). `sigil overview` reports which path runs.
public enum DigestBackend: String, Sendable, CaseIterable {
    /// FIPS 180-4 in Swift: runs on every CPU.
    case portable = "portable Swift"
    /// SHA-256 with the x86-64 SHA extensions (SHA256RNDS2, SHA256MSG1, SHA256MSG2, with SSSE3 and SSE4.1).
    case x86SHAExtensions = "x86-64 SHA extensions"
    /// SHA-384 and SHA-512 with x86-64 AVX2 (the message schedule of two blocks at once in 256-bit
    /// vectors) and BMI2 (RORX in the rounds).
    case x86AVX2 = "x86-64 AVX2 and BMI2"

    /// The environment variable that, set to `1`, makes ``portable`` the starting choice.
    public static let environmentVariable = "SIGIL_PORTABLE_DIGESTS"

    /// The accelerated SHA-256 backend this CPU supports, or `nil` when it has none (CPUID, whatever
    /// is forced). The same as `accelerated(for: .sha256)`.
    public static var accelerated: DigestBackend? { accelerated(for: .sha256) }

    /// The accelerated backend this CPU supports for `algorithm`, or `nil` when it has none (CPUID,
    /// whatever is forced). SHA-384 and SHA-512 share one; SHA-1 has none.
    public static func accelerated(for algorithm: HashAlgorithm) -> DigestBackend? {
        switch algorithm {
        case .sha1: nil
        case .sha256: digestSelection.available(DigestSelection.sha256Bit) ? .x86SHAExtensions : nil
        case .sha384, .sha512: digestSelection.available(DigestSelection.sha512Bit) ? .x86AVX2 : nil
        }
    }

    /// Whether the portable Swift path is forced (for every hash). Starts as `true` when
    /// `SIGIL_PORTABLE_DIGESTS=1`; setting it to `false` returns to automatic selection by CPUID.
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

    /// The backend SHA-256 uses now. The same as `current(for: .sha256)`.
    public static var current: DigestBackend { current(for: .sha256) }

    /// The backend `algorithm` uses now.
    public static func current(for algorithm: HashAlgorithm) -> DigestBackend {
        switch algorithm {
        case .sha1: .portable
        case .sha256: digestSelection.uses(DigestSelection.sha256Bit) ? .x86SHAExtensions : .portable
        case .sha384, .sha512: digestSelection.uses(DigestSelection.sha512Bit) ? .x86AVX2 : .portable
        }
    }
}

/// The process-wide choice, probed once. The flags live behind a pointer allocated once, so the
/// hot path reads them with a plain load (no exclusivity bookkeeping of a global `var`).
struct DigestSelection: @unchecked Sendable {
    /// The CPU has the SHA-256 kernel's instructions.
    static let sha256Bit: UInt8 = 1
    static let forcedBit: UInt8 = 2
    /// The CPU has the SHA-512 kernel's instructions (and the OS saves YMM state).
    static let sha512Bit: UInt8 = 4

    let flags: UnsafeMutablePointer<UInt8>

    init() {
        var initial: UInt8 = 0
        if sigil_cpu_has_sha256_extensions() != 0 { initial |= DigestSelection.sha256Bit }
        if sigil_cpu_has_avx2_bmi2() != 0 { initial |= DigestSelection.sha512Bit }
        if let value = getenv(DigestBackend.environmentVariable) {
            let text = String(cString: value)
            if !text.isEmpty && text != "0" { initial |= DigestSelection.forcedBit }
        }
        flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        flags.initialize(to: initial)
    }

    func available(_ kernel: UInt8) -> Bool { flags.pointee & kernel != 0 }

    /// True when the CPU has the kernel (``sha256Bit`` or ``sha512Bit``) and the portable path is
    /// not forced.
    @inline(__always)
    func uses(_ kernel: UInt8) -> Bool { flags.pointee & (kernel | DigestSelection.forcedBit) == kernel }
}

/// Probed at first use (Swift initialises globals once, thread-safely); never freed.
let digestSelection = DigestSelection()
