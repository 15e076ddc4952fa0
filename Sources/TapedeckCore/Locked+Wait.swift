extension Locked {
    /// Waits, without blocking a thread, for another thread to resume a continuation that `enlist` leaves in the
    /// value, or returns at once what `enlist` returns when there is nothing to wait for. `enlist` runs under the
    /// lock, so a resumer that takes the lock either finds the continuation or made `enlist` return.
    ///
    /// ```swift
    /// let result = await state.wait { state, continuation in
    ///     if let result = state.result { return result }
    ///     state.waiters.append(continuation)
    ///     return nil
    /// }
    /// ```
    ///
    /// After the resume it takes the lock once more, so that ThreadSanitizer orders what the resuming thread wrote
    /// before it let go of the lock (the value it resumed with included) before what the caller reads next. The
    /// concurrency runtime gives the sanitizer no such ordering when the resume comes before this task has
    /// suspended, and a correct program then shows races (`Tools/Sanitizers/ContinuationFastPath`).
    package func wait<Outcome: Sendable>(
        _ enlist: (inout Value, CheckedContinuation<Outcome, Never>) -> Outcome?
    ) async -> Outcome {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            if let now = withLock({ enlist(&$0, continuation) }) { continuation.resume(returning: now) }
        }
        withLock { _ in }
        return outcome
    }

    /// ``wait(_:)`` for a continuation resumed with a value or an error: `enlist` returns the outcome when there is
    /// nothing to wait for.
    package func waitThrowing<Outcome: Sendable>(
        _ enlist: (inout Value, CheckedContinuation<Outcome, any Error>) -> Result<Outcome, any Error>?
    ) async throws -> Outcome {
        defer { withLock { _ in } }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
            if let now = withLock({ enlist(&$0, continuation) }) { continuation.resume(with: now) }
        }
    }
}
