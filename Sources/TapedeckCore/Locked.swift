#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: the one lock every Tapedeck module uses for shared mutable state.
///
/// ```swift
/// let journal = Locked<[String]>([])
/// journal.withLock { $0.append("GET /v1/me") }
/// let count = journal.withLock { $0.count }
/// ```
///
/// It is a `pthread_mutex_t`, which ThreadSanitizer intercepts, so a downstream suite run with plain
/// `swift test --sanitize=thread` sees Tapedeck's locking and reports only real races. `Synchronization.Mutex`
/// is not used: on Linux its futex is invisible to the sanitizer, so every access it guards looks like a race
/// (`Tools/Sanitizers/MutexVisibility` shows this with a correct two-thread program). Copies share one lock and
/// one value, as references do; the lock is not recursive.
package struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let storage: LockedStorage<Value>

    /// Creates the lock holding `value`.
    @inlinable @inline(__always)
    package init(_ value: sending Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns; `body` must not take this lock
    /// again. Marked for inlining into each caller, as `Synchronization.Mutex.withLock` is.
    @_alwaysEmitIntoClient @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.header)
    }
}

extension Locked where Value: Sendable {
    /// The value, read under the lock; setting it replaces it under the lock.
    @inlinable
    package var value: Value {
        get { withLock { $0 } }
        nonmutating set { withLock { $0 = newValue } }
    }
}

/// The value and its mutex in one allocation: the value is the buffer's header, the mutex its one element, whose
/// address stays put for the buffer's life, as a mutex's must.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func make(_ value: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed with \(status)")
        }
        return unsafeDowncast(buffer, to: LockedStorage<Value>.self)
    }

    @inlinable @inline(__always)
    func lock() {
        withUnsafeMutablePointerToElements { mutex in
            let status = pthread_mutex_lock(mutex)
            precondition(status == 0, "pthread_mutex_lock failed with \(status)")
        }
    }

    @inlinable @inline(__always)
    func unlock() {
        withUnsafeMutablePointerToElements { mutex in
            let status = pthread_mutex_unlock(mutex)
            precondition(status == 0, "pthread_mutex_unlock failed with \(status)")
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
