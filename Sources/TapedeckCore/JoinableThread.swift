#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that can be waited for to its very end. Foundation's `Thread` is detached, so the most its owner can
/// learn is that the body returned; the thread's own teardown (thread-local destructors, such as OpenSSL's per-thread
/// random generators that a TLS handshake makes) can still be running when the process exits. ``join()`` returns
/// only after that teardown.
///
/// ```swift
/// let worker = JoinableThread(name: "tapedeck.work") { runLoop() }
/// stopLoop()
/// worker.join()
/// ```
package final class JoinableThread: Sendable {
    private let handle: Locked<pthread_t?>

    /// Starts `body` on a new thread named `name` (see ``ThreadName``).
    package init(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            ThreadName.setCurrent(start.name)
            start.body()
            return nil
        }, start)
        guard status == 0 else {
            fatalError("pthread_create failed with \(status): the system cannot start another thread")
        }
        handle = Locked(thread)
    }

    /// Waits until the thread has ended, teardown included. Called again, or from the thread itself (which cannot
    /// wait for itself), it returns at once; in the latter case the thread is detached and its resources are freed
    /// when it ends.
    package func join() {
        guard let thread = handle.withLock({ handle in defer { handle = nil }; return handle }) else { return }
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// A thread nobody joined is detached, so its resources are freed when it ends.
    deinit {
        if let thread = handle.withLock({ $0 }) { pthread_detach(thread) }
    }

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
