import Foundation

/// The time of day and the waiting that cookies, the HTTP cache and retry backoff depend on, so tests can move time
/// instead of waiting for it.
///
/// ```swift
/// let clock = ManualWallClock()              // starts at 2026-01-01T00:00:00Z
/// let policy = RetryPolicy(clock: clock)     // backoff waits on `clock`
/// clock.advance(by: .seconds(30))            // wakes every sleeper whose deadline has passed
/// ```
public protocol WallClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Waits `duration`; throws `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws
}

/// The system's clock: `Date()` and `Task.sleep`; inside a replay, the recording's time (``RecordedTime``).
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}
    /// The current time: the recording's while a replay runs on it (``RecordedTime/current``), else the system's.
    public var now: Date { RecordedTime.current?.now ?? Date() }
    /// Sleeps on the system's clock (`Task.sleep`).
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

extension WallClock where Self == SystemWallClock {
    /// The system's clock.
    public static var system: SystemWallClock { SystemWallClock() }
}

/// A clock that moves only when told: ``advance(by:)`` moves ``now`` and wakes the sleepers whose deadline has
/// passed, in deadline order. Sleeping for zero or less returns at once.
public final class ManualWallClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var cancelled: Set<UInt64> = []
    }

    private let state: Locked<State>

    /// A clock reading `start` (2026-01-01T00:00:00Z by default).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Locked(State(now: start))
    }

    /// The time this clock reads: its start, moved by every ``advance(by:)`` so far.
    public var now: Date { state.withLock { $0.now } }

    /// How many tasks are sleeping on this clock (tests wait for it to reach a number before advancing).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until ``advance(by:)`` moves ``now`` to `duration` from now (at once for zero or less); throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let seconds = duration.inSeconds
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> (any Error)? in
                    if state.cancelled.remove(id) != nil { return CancellationError() }
                    state.sleepers.append(Sleeper(id: id, deadline: state.now.addingTimeInterval(seconds), continuation: continuation))
                    return nil
                }
                if let error = resumeNow { continuation.resume(throwing: error) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline is now reached.
    public func advance(by duration: Duration) {
        let seconds = duration.inSeconds
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(max(0, seconds))
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Sets the clock to `date` (forward only) and wakes the sleepers that are due.
    public func set(to date: Date) {
        advance(by: .seconds(max(0, date.timeIntervalSince(now))))
    }
}
