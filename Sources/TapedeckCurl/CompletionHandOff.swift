import TapedeckCore

/// The caller's wait for the event handler's `completed`, which runs on the loop thread after the caller has been
/// resumed (see ``TransferSink``).
///
/// Nothing is held while the loop resumes the caller: a caller that runs again before the handler has returned
/// suspends until the loop, done, resumes it. Usually the handler is done before the caller's thread is even
/// awake, and the caller goes straight on.
final class CompletionHandOff: Sendable {
    private enum State {
        case working
        case waiting(CheckedContinuation<Void, Never>)
        case done
    }

    private let state = Locked(State.working)

    /// The handler has returned: lets the caller go on.
    func markDone() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .done }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    /// Returns once ``markDone()`` has been called; call it only after the caller was resumed with a response.
    func waitUntilDone() async {
        if state.withLock({ if case .done = $0 { true } else { false } }) { return }
        await state.wait { state, continuation in
            if case .done = state { return () }
            state = .waiting(continuation)
            return nil
        }
    }
}
