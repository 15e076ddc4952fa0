import Synchronization
import TapedeckCore

/// Caller's work run on the event-loop thread right after the caller is resumed with a response, and the caller's
/// wait for it (see ``CurlTransport/send(_:whileInFlight:onCompletion:)``).
///
/// Nothing is held while the loop resumes the caller (a wake-up that can take tens of microseconds on a virtual
/// machine): a caller that runs again before the work has returned suspends until the loop, done, resumes it.
/// Often the work is done before the caller's thread is even awake, and the caller goes straight on.
final class CompletionHandOff: Sendable {
    private enum State {
        case working
        case waiting(UnsafeContinuation<Void, Never>)
        case done
    }

    private let work: @Sendable (HTTPResponse) -> Void
    private let state = Mutex(State.working)

    init(_ work: @escaping @Sendable (HTTPResponse) -> Void) {
        self.work = work
    }

    /// Calls `resume` (which schedules the caller), then the work, on the calling (loop) thread.
    func run(_ response: HTTPResponse, resuming resume: () -> Void) {
        resume()
        work(response)
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            defer { state = .done }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    /// Returns once the work has returned; call it only after the caller was resumed with a response.
    func waitUntilDone() async {
        if state.withLock({ if case .done = $0 { true } else { false } }) { return }
        await withUnsafeContinuation { continuation in
            let finished = state.withLock { state -> Bool in
                if case .done = state { return true }
                state = .waiting(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }
}
