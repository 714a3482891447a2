import SigilBase
import SigilCore

/// One step of a verification, for `--explain` and audits: the specification clause it implements,
/// what was checked, the verdict, and a detail rendered only when read (a verification that keeps
/// no trace builds no text). Every Sigil verifier records into the same type: the certificate
/// verifier (path building and each policy), the App Store signed-data verifier, the CMS and app
/// receipt verifiers.
public struct VerificationStep: Sendable, Hashable, CustomStringConvertible {
    /// Passed, failed, or a note (a fact recorded, nothing checked).
    public enum Verdict: String, Sendable, Hashable {
        /// The step passed, failed, or is a note that decides nothing.
        case pass, fail, note
    }

    /// The clause implemented ("RFC 5280 §6.1.3 (a)(2)", "RFC 7515 §5.2").
    public let clause: String
    /// What was checked ("validity of every certificate at the validation time").
    public let check: String
    /// Passed, failed, or a note.
    public let verdict: Verdict
    private let render: @Sendable () -> String

    /// A step whose detail is computed from `detail` when first read.
    public init(clause: String, check: String, verdict: Verdict, detail: @escaping @autoclosure @Sendable () -> String) {
        self.clause = clause
        self.check = check
        self.verdict = verdict
        self.render = detail
    }

    /// The detail (values compared, the certificate concerned), rendered now.
    public var detail: String { render() }

    /// `PASS|FAIL|NOTE  check  [clause]: detail`.
    public var description: String {
        "\(verdict.rawValue.uppercased())  \(check.isEmpty ? "" : check + "  ")[\(clause)]: \(detail)"
    }

    /// Steps are equal when their clause, check, verdict and rendered detail are.
    public static func == (a: VerificationStep, b: VerificationStep) -> Bool {
        a.clause == b.clause && a.check == b.check && a.verdict == b.verdict && a.detail == b.detail
    }

    /// Hashes what == compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(clause)
        hasher.combine(check)
        hasher.combine(verdict)
        hasher.combine(detail)
    }
}

/// The steps of one verification in the order they ran: pass one to a verifier to record them
/// (thread-safe; a verifier given none records nothing and renders nothing).
public final class VerificationTrace: @unchecked Sendable {
    private let lock = PthreadLock()
    private var storage: [VerificationStep] = []

    /// An empty trace.
    public init() {}

    /// The steps recorded so far, in order.
    public var steps: [VerificationStep] { lock.withLock { storage } }

    #if SIGIL_NO_TRACE
    // Builds that compile tracing out (-D SIGIL_NO_TRACE: sigil.wasm, Scripts/build-wasm, and the
    // native Embedded verifier, Scripts/check-embedded). No door of theirs asks for a trace, so
    // every trace they see is nil; with these empty bodies the optimizer drops each call site's
    // detail closure and its text. A trace passed in stays empty.

    /// Records nothing (tracing compiled out).
    @inline(__always) public func append(_ step: VerificationStep) {}

    /// Records nothing (tracing compiled out).
    @inline(__always) public func pass(_ clause: String, _ check: String, _ detail: @escaping @autoclosure @Sendable () -> String) {}

    /// Records nothing (tracing compiled out).
    @inline(__always) public func fail(_ clause: String, _ check: String, _ detail: @escaping @autoclosure @Sendable () -> String) {}

    /// Records nothing (tracing compiled out).
    @inline(__always) public func note(_ clause: String, _ detail: @escaping @autoclosure @Sendable () -> String) {}
    #else
    /// Records a step.
    public func append(_ step: VerificationStep) { lock.withLock { storage.append(step) } }

    /// Records a passed check.
    public func pass(_ clause: String, _ check: String, _ detail: @escaping @autoclosure @Sendable () -> String) {
        append(VerificationStep(clause: clause, check: check, verdict: .pass, detail: detail()))
    }

    /// Records a failed check.
    public func fail(_ clause: String, _ check: String, _ detail: @escaping @autoclosure @Sendable () -> String) {
        append(VerificationStep(clause: clause, check: check, verdict: .fail, detail: detail()))
    }

    /// Records a fact (nothing checked).
    public func note(_ clause: String, _ detail: @escaping @autoclosure @Sendable () -> String) {
        append(VerificationStep(clause: clause, check: "", verdict: .note, detail: detail()))
    }
    #endif
}
