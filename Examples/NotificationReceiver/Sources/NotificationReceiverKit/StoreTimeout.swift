import Foundation

/// The store did not answer within the receiver's store timeout.
struct StoreTimeout: Error, CustomStringConvertible {
    let description = "the database did not answer in time"
}

/// `operation`, or `StoreTimeout` once `timeout` has passed — whichever comes first. The
/// operation then goes on in its own task, cancelled, and its result is dropped: the answer never
/// waits for it (a query on a connection the server dropped, or a pool that keeps a lease request
/// waiting, may not end at once even when cancelled), and since whether it committed is unknown,
/// the caller never answers success for it.
func withinStoreTimeout<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let answer = FirstAnswer<T>()
    return try await withCheckedThrowingContinuation { continuation in
        answer.set(continuation)
        let work = Task {
            do { answer.resume(with: .success(try await operation())) } catch { answer.resume(with: .failure(error)) }
        }
        Task {
            try? await Task.sleep(for: timeout)
            if answer.resume(with: .failure(StoreTimeout())) { work.cancel() }
        }
    }
}

/// Resumes a continuation once, with the first result given.
final class FirstAnswer<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?
    private var done = false

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    /// Resumes with `result` unless an answer was given before; true when this one was first.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        lock.lock()
        guard !done else {
            lock.unlock()
            return false
        }
        done = true
        guard let continuation else {
            early = result
            lock.unlock()
            return true
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
        return true
    }
}
