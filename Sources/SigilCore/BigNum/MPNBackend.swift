#if hasFeature(Embedded)
// Embedded Swift imports no C module: no GMP, no environment, portable Swift only.
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which multi-precision arithmetic runs RSAVP1 (RFC 8017 §5.2.2, s^e mod n), the public-key
/// operation of every RSA signature check: GNU MP's `mpn` layer or portable Swift.
///
/// Both compute the same values (the tests compare them on random and edge inputs at every length
/// up to 4,096 bits, and run the RSA vectors with each forced); both are variable time, on public
/// values only. Secrets never reach either: decryption uses the constant-time code.
///
/// The regular build runs ``gmp`` by default: GMP's assembly is faster on x86-64 (the ratios are in
/// Benchmarks/README.md). Embedded Swift links no C, so there only ``portable`` exists, on limbs of
/// the machine word (32 bits on wasm32); there ECDSA verification's inversions, GMP's `mpn_gcdext`
/// in the regular build, are the variable-time safegcd, which the tests compare with GMP's. One
/// path can be forced for tests, audits and measurement — from code with ``forced``, or for a
/// whole process with the environment variable `SIGIL_MPN_BACKEND` (`gmp` or `portable`, read
/// once, at first use). A key holds nothing backend-specific: a switch applies to keys made
/// before it.
public enum MPNBackend: String, Sendable, CaseIterable {
    /// GNU MP's `mpn` functions (`mpn_mul_n`, `mpn_sqr`, `mpn_addmul_1`, `mpn_tdiv_qr`, …): the
    /// regular build's default.
    case gmp = "GNU MP"
    /// Swift: schoolbook products and long division on machine-word limbs. The only backend in
    /// Embedded Swift.
    case portable = "portable Swift"

    /// The environment variable that forces one backend for the whole process: its value is a
    /// backend's ``environmentName`` (`gmp` or `portable`); unset, empty or any other value leaves
    /// the default.
    public static let selectionEnvironmentVariable = "SIGIL_MPN_BACKEND"

    /// The value of `SIGIL_MPN_BACKEND` that forces this backend.
    public var environmentName: String {
        switch self {
        case .gmp: "gmp"
        case .portable: "portable"
        }
    }

    /// The backends this build has, the default first: ``gmp`` and ``portable`` in the regular
    /// build, ``portable`` alone in Embedded Swift.
    public static var available: [MPNBackend] {
        #if hasFeature(Embedded)
        [.portable]
        #else
        [.gmp, .portable]
        #endif
    }

    /// The backend forced for the whole process, or `nil` for the default (``gmp`` where GMP is
    /// linked). Forcing one this build does not have (``gmp`` in Embedded Swift) runs ``portable``.
    /// Starts as `SIGIL_MPN_BACKEND` says.
    ///
    /// Meant for tests, audits, measurement and start-up configuration: set it before verification
    /// starts, not while other threads verify (each operation reads the choice once, so a switch
    /// takes effect at the next one).
    public static var forced: MPNBackend? {
        get { mpnSelection.forced }
        set { mpnSelection.force(newValue) }
    }

    /// The backend that runs now.
    public static var current: MPNBackend { mpnSelection.usesPortable ? .portable : .gmp }
}

/// The process-wide choice, read from the environment once. It lives behind a pointer allocated
/// once, so the hot path reads it with a plain load (as ``DigestSelection``): byte 0 is 1 when the
/// portable path runs, byte 1 the forced backend's code (0 none, 1 GMP, 2 portable).
struct MPNSelection: @unchecked Sendable {
    let flags: UnsafeMutablePointer<UInt8>

    init() {
        flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 2)
        flags.initialize(repeating: 0, count: 2)
        var initial: MPNBackend? = nil
        #if !hasFeature(Embedded)
        if let value = getenv(MPNBackend.selectionEnvironmentVariable) {
            let text = String(cString: value)
            initial = MPNBackend.allCases.first { $0.environmentName == text }
        }
        #endif
        force(initial)
    }

    /// The forced backend, decoded from byte 1.
    var forced: MPNBackend? {
        switch flags[1] {
        case 1: .gmp
        case 2: .portable
        default: nil
        }
    }

    /// Records `backend` as forced (nil: the default) and sets the path in use accordingly.
    func force(_ backend: MPNBackend?) {
        #if hasFeature(Embedded)
        flags[0] = 1
        #else
        flags[0] = backend == .portable ? 1 : 0
        #endif
        flags[1] =
            switch backend {
            case nil: 0
            case .gmp?: 1
            case .portable?: 2
            }
    }

    /// True when the portable Swift path runs now (always in Embedded Swift).
    @inline(__always)
    var usesPortable: Bool {
        #if hasFeature(Embedded)
        true
        #else
        flags.pointee != 0
        #endif
    }
}

/// Read at first use (Swift initialises globals once, thread-safely); never freed.
let mpnSelection = MPNSelection()
