import CSigilCipherIntrinsics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which code runs AES and GHASH: portable Swift, or the AES-NI and PCLMULQDQ kernels of the
/// header-only `CSigilCipherIntrinsics` module, chosen at run time by CPUID.
///
/// Both paths compute FIPS 197 and NIST SP 800-38D bit for bit (the tests run the NIST CAVP GCM and
/// Wycheproof AES-GCM files through each) and both are constant time in the key, the counter and
/// the data: the portable AES computes its S-box (no table indexed by secret data) and the portable
/// GHASH multiplies with masks.
///
/// By default the kernels run where the CPU has AES-NI, PCLMULQDQ, SSSE3 and SSE4.1; elsewhere the
/// portable path. One path can be forced for tests, audits and measurement — from code with
/// ``forced``, or for a whole process with the environment variable `SIGIL_CIPHER_BACKEND`
/// (`portable`, `aes-ni`), read once, at the first cipher operation. Forcing a path the CPU lacks
/// runs the portable one.
public enum CipherBackend: String, Sendable, CaseIterable {
    /// FIPS 197 and SP 800-38D in Swift: runs on every CPU.
    case portable = "portable Swift"
    /// AES with AES-NI (AESENC, AESENCLAST) and GHASH with PCLMULQDQ: x86-64 only.
    case x86AESNI = "x86-64 AES-NI and PCLMULQDQ"

    /// The environment variable that forces one path for the whole process: its value is a
    /// backend's ``environmentName``; unset, empty or any other value leaves the choice to the CPU probe.
    public static let selectionEnvironmentVariable = "SIGIL_CIPHER_BACKEND"

    /// The value of `SIGIL_CIPHER_BACKEND` that forces this path.
    public var environmentName: String {
        switch self {
        case .portable: "portable"
        case .x86AESNI: "aes-ni"
        }
    }

    /// Every backend that can run on this CPU (the CPU probe, whatever is forced), fastest first;
    /// ``portable`` always, last.
    public static var available: [CipherBackend] {
        cipherSelection.hasAESNI ? [.x86AESNI, .portable] : [.portable]
    }

    /// The path forced for every cipher operation, or `nil` for automatic selection by the CPU
    /// probe. Starts as `SIGIL_CIPHER_BACKEND` says. Meant for tests, audits, measurement and start-up
    /// configuration: set it before cipher work starts, not while other threads run it (each
    /// operation reads the choice once, at its start).
    public static var forced: CipherBackend? {
        get { cipherSelection.forced }
        set { cipherSelection.force(newValue) }
    }

    /// The backend an operation started now uses.
    public static var current: CipherBackend { cipherSelection.usesAESNI ? .x86AESNI : .portable }
}

/// The process-wide choice, probed once; what runs lives behind a pointer allocated once (byte 0:
/// the kernels in use, byte 1: the forced backend's code, 0 none).
struct CipherSelection: @unchecked Sendable {
    let hasAESNI: Bool
    let flags: UnsafeMutablePointer<UInt8>

    init() {
        #if arch(x86_64)
        hasAESNI = sigil_cpu_has_aesni_pclmul() != 0
        #else
        hasAESNI = false
        #endif
        flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 2)
        flags.initialize(repeating: 0, count: 2)
        var initial: CipherBackend? = nil
        if let value = getenv(CipherBackend.selectionEnvironmentVariable) {
            let text = String(cString: value)
            initial = CipherBackend.allCases.first { $0.environmentName == text }
        }
        force(initial)
    }

    var forced: CipherBackend? {
        switch flags[1] {
        case 1: .portable
        case 2: .x86AESNI
        default: nil
        }
    }

    func force(_ backend: CipherBackend?) {
        switch backend {
        case nil:
            flags[0] = hasAESNI ? 1 : 0
            flags[1] = 0
        case .portable?:
            flags[0] = 0
            flags[1] = 1
        case .x86AESNI?:
            flags[0] = hasAESNI ? 1 : 0
            flags[1] = 2
        }
    }

    var usesAESNI: Bool { flags[0] != 0 }
}

/// Probed at first use (Swift initialises globals once, thread-safely); never freed.
let cipherSelection = CipherSelection()
