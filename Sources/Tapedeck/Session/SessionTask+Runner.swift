extension SessionTask {
    /// What runs an attempt, so that suspending or cancelling the task can stop it.
    enum AttemptRunner: Sendable {
        /// A task of its own, made by ``SessionTask/resume()``.
        case background(Task<Void, Never>)
        /// The child task ``SessionTask/run()`` made in its caller's context.
        case caller(CallerTask, attempt: Int)

        /// Cancels the attempt. Called with the task's lock held: a caller's child takes itself out of the state
        /// under that lock before it ends, so while it is in the state it is alive.
        func stop() {
            switch self {
            case .background(let task): task.cancel()
            case .caller(let child, _): child.task.cancel()
            }
        }

        /// Returns once the attempt's code has finished.
        func waitUntilEnded(_ owner: SessionTask) async {
            switch self {
            case .background(let task):
                await task.value
            case .caller(_, let attempt):
                await owner.storage.wait { state, continuation in
                    guard state.callerAttempt == attempt else { return () }
                    state.attemptEndWaiters.append(continuation)
                    return nil
                }
            }
        }
    }
}

/// The child task of an attempt run in a caller's context, for cancelling it from another thread. An
/// `UnsafeCurrentTask` may be used there only while the task is alive, which ``SessionTask/AttemptRunner/stop()``
/// guarantees by holding the owner's lock.
struct CallerTask: @unchecked Sendable {
    let task: UnsafeCurrentTask

    init(_ task: UnsafeCurrentTask) { self.task = task }
}
