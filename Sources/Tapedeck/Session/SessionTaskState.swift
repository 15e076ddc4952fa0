/// Where a ``SessionTask`` is in its life, as `URLSessionTask.State` names it.
public enum SessionTaskState: Sendable, Hashable {
    /// Created and not started, or paused by ``SessionTask/suspend()``.
    case suspended
    /// Transferring.
    case running
    /// ``SessionTask/cancel()`` was called; the completion is on its way.
    case canceling
    /// Finished, with a result.
    case completed
}

/// The state machine of a task, without I/O: which requests are allowed and what each one leads to.
struct SessionTaskLifecycle: Sendable, Hashable {
    /// What a request asks the runner to do.
    enum Effect: Equatable {
        /// Nothing changes.
        case none
        /// Start (or restart) the transfer.
        case startTransfer
        /// Stop the transfer but keep the task able to resume.
        case pauseTransfer
        /// Stop the transfer for good and complete with a cancellation.
        case cancelTransfer
    }

    private(set) var state: SessionTaskState = .suspended

    mutating func resume() -> Effect {
        guard state == .suspended else { return .none }
        state = .running
        return .startTransfer
    }

    mutating func suspend() -> Effect {
        guard state == .running else { return .none }
        state = .suspended
        return .pauseTransfer
    }

    mutating func cancel() -> Effect {
        switch state {
        case .suspended, .running:
            state = .canceling
            return .cancelTransfer
        case .canceling, .completed:
            return .none
        }
    }

    /// Marks the task finished; returns `false` if it already was.
    mutating func complete() -> Bool {
        guard state != .completed else { return false }
        state = .completed
        return true
    }
}
