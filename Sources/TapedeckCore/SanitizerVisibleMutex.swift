#if TAPEDECK_TSAN
import Foundation

/// The lock every Tapedeck module uses under the name `Mutex` in ThreadSanitizer builds (`-Xswiftc -DTAPEDECK_TSAN`,
/// which `Tools/dev/sanitize.sh thread` passes).
///
/// On Linux, ThreadSanitizer does not see `Synchronization.Mutex`'s lock (its futex is invisible to the sanitizer's
/// interceptors), so every access guarded by it looks like a race; `Tools/Sanitizers/MutexVisibility` shows this
/// with a correct two-thread program. This lock takes an `NSLock` (a `pthread_mutex_t`, which the sanitizer
/// intercepts) around the same `withLock` body, so a report from a sanitizer build is about Tapedeck's code and not
/// about the lock. Each module shadows `Synchronization.Mutex` with it in its `Mutex+ThreadSanitizer.swift`; ordinary
/// builds never compile either file.
package final class SanitizerVisibleMutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value, like `Mutex.withLock`.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// TapedeckCore's own `Mutex` in ThreadSanitizer builds (see ``SanitizerVisibleMutex``).
typealias Mutex<Value> = SanitizerVisibleMutex<Value>
#endif
