#if hasFeature(Embedded)
import _Volatile
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way the library modules overwrite secret memory (issue 46): private-key integers, key
/// schedules, shared secrets, derived keys, copies of key files.
///
/// The zeros are written by the C library's function made for this — `explicit_bzero` (glibc,
/// musl) or `memset_s` (Darwin, C11 Annex K) — which the compiler may not treat as a dead store,
/// even when the memory is released right after: a plain loop of stores (or `update(repeating:)`)
/// before `deallocate()` is exactly what dead-store elimination may remove. The stores are
/// constant, so the wipe is constant time and reads nothing of the secret.
///
/// Swift arrays are copy-on-write: a wipe reaches the storage the array it is given holds, and
/// only when no other array shares that storage (``wipe(_:)-(inout [UInt8])`` says which happened).
/// Copies the program made earlier (an argument passed in, a `String`, a slice) are out of its
/// reach; the owners in this package therefore keep secrets in storage of their own (a class
/// whose `deinit` wipes) and hand out fresh copies.
package enum SecretMemory {
    /// One wipe, as a test observing wipes (``observingWipes(_:)``) sees it. Internal, with the
    /// hook: tests reach both through `@testable import SigilBase`, and no build that links the
    /// library exports them.
    struct Wipe: Sendable {
        /// The first byte's address.
        let address: UInt
        /// How many bytes were overwritten.
        let count: Int
        /// Whether every byte read back as zero right after the wipe (before the memory is released).
        let zeroed: Bool
        /// False when the array given was sharing its storage: copy-on-write then made a copy, and
        /// that copy, not the shared storage, was wiped.
        let inPlace: Bool
    }

    /// The observers' log: the number of active observers and the wipes seen while any is active.
    private static let log = Locked<(observers: Int, wipes: [Wipe])>((0, []))

    /// Overwrites `buffer` with zeros in a way the optimizer keeps.
    package static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        wipe(buffer, inPlace: true)
    }

    /// Overwrites the bytes of `bytes` with zeros in a way the optimizer keeps. Returns true when
    /// they were wiped in the storage `bytes` held; false when that storage was shared with
    /// another array (copy-on-write then copied it first: the shared storage is untouched, and it
    /// is the other holder's to wipe). An empty array is trivially wiped. Bytes past `count` in
    /// the array's capacity (left by `removeLast`, say) are not reached.
    @discardableResult
    package static func wipe(_ bytes: inout [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        let before = bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        return bytes.withUnsafeMutableBytes { buffer in
            let inPlace = UInt(bitPattern: buffer.baseAddress) == before
            wipe(buffer, inPlace: inPlace)
            return inPlace
        }
    }

    /// A copy of `bytes` in newly allocated storage that no other array shares (`Array(array)`
    /// would share the storage of its argument): for an owner that will wipe it.
    package static func ownedCopy<Bytes: Collection>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: bytes)
        }
    }

    /// Runs `body` and returns what it returned with every wipe made (on any thread) while it ran
    /// — for tests that show a secret's storage is zeroed before it is released. Wipes are logged
    /// only while some observer runs.
    static func observingWipes<R>(_ body: () throws -> R) rethrows -> (result: R, wipes: [Wipe]) {
        let start = log.withValue { log -> Int in
            log.observers += 1
            return log.wipes.count
        }
        defer {
            log.withValue { log in
                log.observers -= 1
                if log.observers == 0 { log.wipes = [] }
            }
        }
        let result = try body()
        let wipes = log.withValue { Array($0.wipes[start...]) }
        return (result, wipes)
    }

    private static func wipe(_ buffer: UnsafeMutableRawBufferPointer, inPlace: Bool) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if hasFeature(Embedded)
        // No C library to call (wasm32 has none): one volatile store per byte, which the compiler
        // must emit.
        for offset in 0..<buffer.count {
            VolatileMappedRegister<UInt8>(unsafeBitPattern: UInt(bitPattern: base + offset)).store(0)
        }
        #elseif canImport(Darwin)
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #else
        explicit_bzero(base, buffer.count)
        #endif
        log.withValue { log in
            guard log.observers > 0 else { return }
            let zeroed = UnsafeRawBufferPointer(buffer).allSatisfy { $0 == 0 }
            log.wipes.append(Wipe(address: UInt(bitPattern: base), count: buffer.count, zeroed: zeroed, inPlace: inPlace))
        }
    }
}
