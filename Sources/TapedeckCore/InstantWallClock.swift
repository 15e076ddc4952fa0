import Foundation

/// A clock whose sleeps return at once and move its time forward by what they asked for, so code that waits
/// (a retry honouring `Retry-After`, a backoff) runs at full speed and still sees the time pass. It keeps every
/// sleep, so a test can check how long the code would have waited.
///
/// ```swift
/// let clock = InstantWallClock()
/// let policy = RetryPolicy(clock: clock)
/// // … run requests through an InterceptorLoop(interceptor: policy, clock: clock) …
/// #expect(clock.sleeps == [.seconds(1)])     // it waited the 503's Retry-After once
/// ```
public final class InstantWallClock: WallClock {
    private struct State {
        var now: Date
        var sleeps: [Duration] = []
    }

    private let state: Locked<State>

    /// A clock reading `start` (2026-01-01T00:00:00Z by default).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Locked(State(now: start))
    }

    /// The time this clock reads: its start, moved by every sleep so far.
    public var now: Date { state.withLock { $0.now } }

    /// Every sleep asked for, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Moves the time forward by `duration` (when positive) and returns; throws `CancellationError` when the task is
    /// cancelled.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(duration)
            if duration > .zero { state.now = state.now.addingTimeInterval(duration.inSeconds) }
        }
    }
}
