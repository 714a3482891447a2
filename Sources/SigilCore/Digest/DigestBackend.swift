#if hasFeature(Embedded)
// Embedded Swift imports no C module: no CPU kernel, no environment, portable Swift only.
#elseif canImport(Glibc)
import CSigilIntrinsics
import Glibc
import Glibc
#elseif canImport(Musl)
import CSigilIntrinsics
import Musl
#elseif canImport(Darwin)
import CSigilIntrinsics
import Darwin
#endif

/// Which compression function runs for SHA-256 and for the SHA-512 family (SHA-384, SHA-512): the
/// portable Swift one, or a CPU-specific kernel from the header-only `CSigilIntrinsics` module, chosen
/// at run time (CPUID on x86-64; on arm64 `getauxval(AT_HWCAP)` on Linux, `sysctlbyname` on Darwin).
///
/// Each path computes FIPS 180-4 §6.2.2 (SHA-256) or §6.4.2 (SHA-512, SHA-384) bit for bit (the tests
/// run NIST SHAVS and random inputs through each), and each is constant time in the message and the
/// chaining value. SHA-1 always runs in portable Swift.
///
/// By default each hash takes the fastest path the CPU offers. On x86-64: SHA-256 the SHA extensions,
/// else AVX2 and BMI2, else portable Swift; SHA-384 and SHA-512 AVX2 and BMI2, else portable Swift.
/// On arm64: SHA-256 the ARMv8 SHA-256 instructions, SHA-384 and SHA-512 the ARMv8.2 SHA-512 ones
/// (``armv8SHA2``), else portable Swift. A backend of the other architecture is never available. One
/// path can be forced for tests, audits and measurement — from code with ``forced`` (or
/// ``forcePortable``), or for a whole process with the environment variable `SIGIL_DIGEST_BACKEND`
/// (`portable`, `avx2`, `sha-extensions`, `armv8`) or its shorthand `SIGIL_PORTABLE_DIGESTS=1` (read
/// once, at the first hash). A forced path runs for every hash that has it on this CPU; the others
/// run portable Swift. So `SIGIL_DIGEST_BACKEND=avx2` measures and tests SHA-256's AVX2 kernel on a
/// CPU with the SHA extensions. `sigil overview` reports which path runs.
///
/// Where each path is checked: the x86-64 kernels and portable Swift by the Swift tests on x86-64
/// (each forced in turn; their speed in Benchmarks/). The arm64 kernels are checked as C, by
/// `Scripts/check-arm64-kernels`, under qemu-user on an x86-64 machine (NIST SHAVS and agreement with
/// a reference, with and without the SHA-512 instructions); their speed on real arm64 hardware has
/// not been measured, and the Swift dispatch to them is compiled only in an arm64 build.
public enum DigestBackend: String, Sendable, CaseIterable {
    /// FIPS 180-4 in Swift: runs on every CPU.
    case portable = "portable Swift"
    /// SHA-256 with the x86-64 SHA extensions (SHA256RNDS2, SHA256MSG1, SHA256MSG2, with SSSE3 and SSE4.1).
    case x86SHAExtensions = "x86-64 SHA extensions"
    /// SHA-256, SHA-384 and SHA-512 with x86-64 AVX2 (the message schedules of two blocks at once in
    /// 256-bit vectors) and BMI2 (RORX in the rounds); SHA-256's path on CPUs without SHA extensions.
    case x86AVX2 = "x86-64 AVX2 and BMI2"
    /// SHA-256 with the ARMv8 SHA-256 instructions (SHA256H, SHA256H2, SHA256SU0, SHA256SU1;
    /// Linux `HWCAP_SHA2`), SHA-384 and SHA-512 with the ARMv8.2 SHA-512 instructions (SHA512H,
    /// SHA512H2, SHA512SU0, SHA512SU1; Linux `HWCAP_SHA512`): arm64 only, each hash where the CPU
    /// has its instructions.
    case armv8SHA2 = "ARMv8 SHA-2 instructions"

    /// The environment variable that, set to `1`, makes ``portable`` the starting choice: the
    /// shorthand of `SIGIL_DIGEST_BACKEND=portable`, and the one that wins when both are set.
    public static let environmentVariable = "SIGIL_PORTABLE_DIGESTS"

    /// The environment variable that forces one path for the whole process: its value is a
    /// backend's ``environmentName`` (`portable`, `avx2`, `sha-extensions`, `armv8`); unset, empty or
    /// any other value leaves the choice to the CPU probes.
    public static let selectionEnvironmentVariable = "SIGIL_DIGEST_BACKEND"

    /// The value of `SIGIL_DIGEST_BACKEND` that forces this path.
    public var environmentName: String {
        switch self {
        case .portable: "portable"
        case .x86SHAExtensions: "sha-extensions"
        case .x86AVX2: "avx2"
        case .armv8SHA2: "armv8"
        }
    }

    /// The fastest accelerated SHA-256 backend this CPU supports, or `nil` when it has none (the CPU
    /// probes, whatever is forced). The same as `accelerated(for: .sha256)`.
    public static var accelerated: DigestBackend? { accelerated(for: .sha256) }

    /// The fastest accelerated backend this CPU supports for `algorithm`, or `nil` when it has none
    /// (the CPU probes, whatever is forced): on x86-64, for SHA-256 the SHA extensions, else AVX2,
    /// SHA-384 and SHA-512 share AVX2; on arm64, ``armv8SHA2`` for each hash whose instructions the
    /// CPU has; SHA-1 has none.
    public static func accelerated(for algorithm: HashAlgorithm) -> DigestBackend? {
        available(for: algorithm).first { $0 != .portable }
    }

    /// Every backend that can run `algorithm` on this CPU (the CPU probes, whatever is forced),
    /// fastest first; ``portable`` always, last. Never a backend of another architecture.
    public static func available(for algorithm: HashAlgorithm) -> [DigestBackend] {
        let cpu = digestSelection.available
        var backends: [DigestBackend] = []
        switch algorithm {
        case .sha1: break
        case .sha256:
            if cpu & DigestSelection.sha256Extensions != 0 { backends.append(.x86SHAExtensions) }
            if cpu & DigestSelection.sha256AVX2 != 0 { backends.append(.x86AVX2) }
            if cpu & DigestSelection.sha256ARMv8 != 0 { backends.append(.armv8SHA2) }
        case .sha384, .sha512:
            if cpu & DigestSelection.sha512AVX2 != 0 { backends.append(.x86AVX2) }
            if cpu & DigestSelection.sha512ARMv8 != 0 { backends.append(.armv8SHA2) }
        }
        backends.append(.portable)
        return backends
    }

    /// The path forced for every hash, or `nil` for automatic selection by the CPU probes. Forcing a
    /// path runs it for each hash that has it on this CPU and portable Swift for the others (forcing
    /// ``x86AVX2`` runs SHA-256 on AVX2 even where the SHA extensions exist; forcing
    /// ``x86SHAExtensions`` runs SHA-384 and SHA-512 portable; forcing a backend of another
    /// architecture, or one the CPU lacks, runs every hash portable). Starts as
    /// `SIGIL_DIGEST_BACKEND` (or `SIGIL_PORTABLE_DIGESTS=1`) says.
    ///
    /// Meant for tests, audits, measurement and start-up configuration: set it before hashing
    /// starts, not while other threads hash (each compression call reads the choice once, so a
    /// switch takes effect at the next call).
    public static var forced: DigestBackend? {
        get { digestSelection.forced }
        set { digestSelection.force(newValue) }
    }

    /// Whether the portable Swift path is forced (for every hash): `forced == .portable`. Setting it
    /// to `true` forces ``portable``; setting it to `false` returns to automatic selection by the
    /// CPU probes.
    public static var forcePortable: Bool {
        get { forced == .portable }
        set { forced = newValue ? .portable : nil }
    }

    /// The backend SHA-256 uses now. The same as `current(for: .sha256)`.
    public static var current: DigestBackend { current(for: .sha256) }

    /// The backend `algorithm` uses now.
    public static func current(for algorithm: HashAlgorithm) -> DigestBackend {
        switch algorithm {
        case .sha1: .portable
        case .sha256:
            if digestSelection.uses(DigestSelection.sha256Extensions) {
                .x86SHAExtensions
            } else if digestSelection.uses(DigestSelection.sha256AVX2) {
                .x86AVX2
            } else if digestSelection.uses(DigestSelection.sha256ARMv8) {
                .armv8SHA2
            } else {
                .portable
            }
        case .sha384, .sha512:
            if digestSelection.uses(DigestSelection.sha512AVX2) {
                .x86AVX2
            } else if digestSelection.uses(DigestSelection.sha512ARMv8) {
                .armv8SHA2
            } else {
                .portable
            }
        }
    }
}

/// The process-wide choice, probed once. What runs lives behind a pointer allocated once, so the
/// hot path reads it with a plain load (no exclusivity bookkeeping of a global `var`): byte 0 holds
/// the kernels in use (at most one SHA-256 bit), byte 1 the forced backend's code (0 none).
struct DigestSelection: @unchecked Sendable {
    /// SHA-256 on the SHA extensions.
    static let sha256Extensions: UInt8 = 1
    /// SHA-256 on AVX2 and BMI2.
    static let sha256AVX2: UInt8 = 2
    /// SHA-384 and SHA-512 on AVX2 and BMI2.
    static let sha512AVX2: UInt8 = 4
    /// SHA-256 on the ARMv8 SHA-256 instructions.
    static let sha256ARMv8: UInt8 = 8
    /// SHA-384 and SHA-512 on the ARMv8.2 SHA-512 instructions.
    static let sha512ARMv8: UInt8 = 16

    /// The kernels the CPU can run (and, for AVX2, the OS saves the YMM state for). Each
    /// architecture probes only for its own kernels: the arm64 bits are never set on x86-64, nor the
    /// x86-64 bits on arm64.
    let available: UInt8
    let flags: UnsafeMutablePointer<UInt8>

    init() {
        var cpu: UInt8 = 0
        #if hasFeature(Embedded)
        // No CPU probe in Embedded Swift.
        #elseif arch(x86_64)
        if sigil_cpu_has_sha256_extensions() != 0 { cpu |= DigestSelection.sha256Extensions }
        if sigil_cpu_has_avx2_bmi2() != 0 { cpu |= DigestSelection.sha256AVX2 | DigestSelection.sha512AVX2 }
        #elseif arch(arm64)
        if sigil_cpu_has_arm_sha256() != 0 { cpu |= DigestSelection.sha256ARMv8 }
        if sigil_cpu_has_arm_sha512() != 0 { cpu |= DigestSelection.sha512ARMv8 }
        #endif
        available = cpu
        flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 2)
        flags.initialize(repeating: 0, count: 2)
        var initial: DigestBackend? = nil
        #if !hasFeature(Embedded)
        if let value = getenv(DigestBackend.selectionEnvironmentVariable) {
            let text = String(cString: value)
            initial = DigestBackend.allCases.first { $0.environmentName == text }
        }
        if let value = getenv(DigestBackend.environmentVariable) {
            let text = String(cString: value)
            if !text.isEmpty && text != "0" { initial = .portable }
        }
        #endif
        force(initial)
    }

    /// The forced backend, decoded from byte 1.
    var forced: DigestBackend? {
        switch flags[1] {
        case 1: .portable
        case 2: .x86SHAExtensions
        case 3: .x86AVX2
        case 4: .armv8SHA2
        default: nil
        }
    }

    /// Records `backend` as forced (nil: automatic) and sets the kernels in use accordingly.
    func force(_ backend: DigestBackend?) {
        let inUse: UInt8
        switch backend {
        case nil:
            // The fastest SHA-256 kernel (at most one bit), and the SHA-512 one.
            let sha256 =
                available & DigestSelection.sha256Extensions != 0
                ? DigestSelection.sha256Extensions : available & (DigestSelection.sha256AVX2 | DigestSelection.sha256ARMv8)
            inUse = sha256 | available & (DigestSelection.sha512AVX2 | DigestSelection.sha512ARMv8)
        case .portable?: inUse = 0
        case .x86SHAExtensions?: inUse = available & DigestSelection.sha256Extensions
        case .x86AVX2?: inUse = available & (DigestSelection.sha256AVX2 | DigestSelection.sha512AVX2)
        case .armv8SHA2?: inUse = available & (DigestSelection.sha256ARMv8 | DigestSelection.sha512ARMv8)
        }
        flags[0] = inUse
        flags[1] =
            switch backend {
            case nil: 0
            case .portable?: 1
            case .x86SHAExtensions?: 2
            case .x86AVX2?: 3
            case .armv8SHA2?: 4
            }
    }

    /// True when `kernel` (``sha256Extensions``, ``sha256AVX2``, ``sha512AVX2``, ``sha256ARMv8`` or
    /// ``sha512ARMv8``) runs now.
    @inline(__always)
    func uses(_ kernel: UInt8) -> Bool { flags.pointee & kernel != 0 }
}

/// Probed at first use (Swift initialises globals once, thread-safely); never freed.
let digestSelection = DigestSelection()
