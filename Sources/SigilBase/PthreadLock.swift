#if hasFeature(Embedded)
import Synchronization
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if hasFeature(Embedded)
/// The one lock of the library modules: a pthread mutex and the value it guards, in one object
/// (the library modules import no Foundation lock; `NSLock` lives outside FoundationEssentials).
/// Two allocations per lock — the object and its mutex — whatever the value.
///
/// Embedded Swift has no pthreads (wasm32 has no C library at all): there the lock is a spin lock on
/// one atomic flag, which is what a single-threaded WebAssembly instance or a small native verifier
/// needs.
package final class Locked<Value>: @unchecked Sendable {
    private let held = Atomic<Bool>(false)
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the guarded value, holding the lock.
    @inline(__always)
    package func withValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        while !held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        defer { held.store(false, ordering: .releasing) }
        return try body(&value)
    }
}
#else
/// The one lock of the library modules: a pthread mutex and the value it guards, in one object
/// (the library modules import no Foundation lock; `NSLock` lives outside FoundationEssentials).
/// Two allocations per lock — the object and its mutex — whatever the value.
///
/// Embedded Swift has no pthreads (wasm32 has no C library at all): there the lock is a spin lock on
/// one atomic flag, which is what a single-threaded WebAssembly instance or a small native verifier
/// needs.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the guarded value, holding the lock.
    @inline(__always)
    package func withValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#endif

/// A lock guarding no value: for state kept beside it.
package typealias PthreadLock = Locked<Void>

extension Locked where Value == Void {
    /// A lock.
    package convenience init() { self.init(()) }

    /// Runs `body` holding the lock.
    @inline(__always)
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try withValue { (_: inout Void) throws(E) -> T in try body() }
    }
}
