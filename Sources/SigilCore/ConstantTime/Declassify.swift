/// The one seam for the constant-time audit (ARCHITECTURE.md, Conventions 5).
///
/// Every place where code that handles secrets turns a `Choice` into a branch goes through
/// ``Choice/isTrueVartime``, which first hands the value to `declassifyHook`. Normally the hook is
/// nil and this costs one load. The valgrind harness (Tests/SigilCTime) sets it to a function that
/// marks the bytes "defined" for memcheck, so results that are public by design (a rejected nonce
/// candidate, "r is zero", the derived public key) are not reported, while any other branch or
/// memory index that depends on the secret still is.
public enum ConstantTimeAudit {
    /// Set only by the constant-time test harness, before any signing, from one thread.
    nonisolated(unsafe) public static var declassifyHook: (@convention(c) (UnsafeRawPointer?, Int) -> Void)?

    /// Always 0, but read from storage the optimiser cannot see through: a package-visible
    /// variable that other modules could write, so LLVM knows none of its bits. A mask OR-ed with
    /// it stays an opaque 64-bit value, so a masked select on it cannot be turned back into the
    /// branch it was written to avoid (the release build did exactly that to the comb's last
    /// select in k·G; the valgrind check caught it). Never written.
    package nonisolated(unsafe) static var opaqueZero: UInt64 = 0

    /// Marks `value` public for the audit.
    @inline(__always)
    static func declassify<T>(_ value: inout T) {
        if let hook = declassifyHook {
            withUnsafeMutableBytes(of: &value) { hook(UnsafeRawPointer($0.baseAddress), $0.count) }
        }
    }

    /// Marks the contents of `bytes` public for the audit: the caller states they are public by
    /// design although computed from secrets (a finished signature, the line layout of a PEM key).
    /// Costs one load when no audit runs.
    @inline(__always)
    public static func declassify(contentsOf bytes: [UInt8]) {
        if let hook = declassifyHook {
            bytes.withUnsafeBytes { hook($0.baseAddress, $0.count) }
        }
    }
}
