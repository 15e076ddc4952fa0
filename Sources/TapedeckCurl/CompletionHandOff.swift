import Synchronization
import TapedeckCore

/// Caller's work run on the event-loop thread right after the caller is resumed with a response, and the caller's
/// wait for it (see ``CurlTransport/send(_:whileInFlight:onCompletion:)``).
///
/// The loop holds `running` from before it resumes the caller until the work has returned, so the caller, which
/// takes the lock once it is running again, never gets past ``waitUntilDone()`` early. Often the work is done
/// before the caller's thread is even awake, and the lock is free.
final class CompletionHandOff: Sendable {
    private let work: @Sendable (HTTPResponse) -> Void
    private let running = Mutex(())

    init(_ work: @escaping @Sendable (HTTPResponse) -> Void) {
        self.work = work
    }

    /// Calls `resume` (which schedules the caller), then the work, on the calling (loop) thread.
    func run(_ response: HTTPResponse, resuming resume: () -> Void) {
        running.withLock { _ in
            resume()
            work(response)
        }
    }

    /// Returns once the work has returned (at once when it never ran).
    func waitUntilDone() {
        running.withLock { _ in }
    }
}
