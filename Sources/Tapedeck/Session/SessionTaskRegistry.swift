import Foundation

/// The tasks a ``SessionManager`` has created and not yet finished, the observers of its event streams, and who
/// waits for it to go idle. Plain state: the manager keeps it behind its mutex.
struct SessionTaskRegistry {
    private var nextIdentifier = 1
    private(set) var tasks: [Int: SessionTask] = [:]
    private(set) var isInvalidated = false
    var observers: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]
    /// The monitors every event is handed to, in order.
    var monitors: [any SessionEventMonitor] = []
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// Registers the task `build` makes with the next identifier, or returns `nil` once invalidated.
    mutating func register(_ build: (Int) -> SessionTask) -> SessionTask? {
        guard !isInvalidated else { return nil }
        let task = build(nextIdentifier)
        nextIdentifier += 1
        tasks[task.taskIdentifier] = task
        return task
    }

    /// Removes a finished task; returns the idle waiters to resume when it was the last one.
    mutating func remove(_ task: SessionTask) -> [CheckedContinuation<Void, Never>] {
        tasks[task.taskIdentifier] = nil
        guard tasks.isEmpty else { return [] }
        defer { idleWaiters.removeAll() }
        return idleWaiters
    }

    /// Stops accepting tasks; returns the ones still registered.
    mutating func invalidate() -> [SessionTask] {
        isInvalidated = true
        return Array(tasks.values)
    }

    /// Adds a waiter for the moment no task is left; returns `false` (and keeps nothing) when none is left now.
    mutating func waitForIdle(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        guard !tasks.isEmpty else { return false }
        idleWaiters.append(waiter)
        return true
    }
}
