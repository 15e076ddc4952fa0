import Foundation

/// How a replay with ``ReplayTiming/recorded(scale:)`` waits out recorded times, and fails where the live request
/// would have timed out: a wait longer than the request's `timeoutInterval` (no data moved for that long) or past
/// its `totalTimeout` ends in `URLError.timedOut` once that much time has passed.
struct ReplayPace {
    /// The factor recorded times are multiplied by.
    let scale: Double
    /// When the request started, for its total timeout.
    let started: ContinuousClock.Instant

    /// A pace for `timing`, or `nil` when it replays at once.
    init?(_ timing: ReplayTiming, started: ContinuousClock.Instant = .now) {
        guard let scale = timing.scale else { return nil }
        self.scale = scale
        self.started = started
    }

    /// Waits out the recorded time to first byte (or, for a recorded failure, the time it took to fail).
    func waitForHead(of interaction: Interaction, request: HTTPRequest) async throws {
        var clock = Clock(self, request: request, from: started)
        try await clock.wait(until: interaction.secondsBeforeHead)
    }

    /// Waits for recorded times measured from one moment (the response head), step by step. Each step waits its
    /// recorded gap after the previous step actually ended, so a stalled task delays what follows rather than
    /// delivering it in a burst: the gaps a client's read timeout measures stay as recorded.
    struct Clock {
        private var last: ContinuousClock.Instant
        private var lastRecorded: TimeInterval = 0
        private let scale: Double
        private let idle: Duration
        private let deadline: ContinuousClock.Instant?
        private let request: HTTPRequest

        /// A clock whose time 0 is `origin` (now by default).
        init(_ pace: ReplayPace, request: HTTPRequest, from origin: ContinuousClock.Instant = .now) {
            last = origin
            scale = pace.scale
            idle = .seconds(max(0.001, request.timeoutInterval))
            deadline = request.totalTimeout.map { pace.started + .seconds($0) }
            self.request = request
        }

        /// Sleeps the scaled gap between the previous step's recorded time and `seconds`; throws `URLError.timedOut`
        /// after the request's idle or total timeout when the wait would outlast it.
        mutating func wait(until seconds: TimeInterval) async throws {
            let gap = offset(of: seconds - lastRecorded)
            guard gap > .zero else { return }
            if gap > idle {
                try await Task.sleep(until: last + idle, clock: .continuous)
                throw URLError(.timedOut, failingURL: request.url,
                               reason: "The request timed out: no data moved for \(request.timeoutInterval) s (replaying recorded timing).")
            }
            let due = last + gap
            if let deadline, due > deadline {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw URLError(.timedOut, failingURL: request.url,
                               reason: "The request timed out: it took longer than its total timeout of \(request.totalTimeout ?? 0) s (replaying recorded timing).")
            }
            try await Task.sleep(until: due, clock: .continuous)
            last = max(due, .now)
            lastRecorded = seconds
        }

        /// A recorded stretch of time, scaled.
        func offset(of seconds: TimeInterval) -> Duration {
            .microseconds(Int64((max(0, seconds) * scale * 1_000_000).rounded()))
        }
    }
}
