/// How a backoff delay is randomized, so that clients that failed together do not retry together.
///
/// With `d` the exponential delay for the attempt (capped at the maximum): ``none`` waits `d`, ``full`` waits a random
/// time in `0...d`, ``equal`` waits `d/2` plus a random time in `0...d/2`.
public enum RetryJitter: Hashable, Sendable {
    /// Exactly the exponential delay.
    case none
    /// Anywhere between zero and the delay ("full jitter").
    case full
    /// Half the delay plus up to half again ("equal jitter").
    case equal
}

/// Exponential backoff: `initialDelay × multiplier^attempt`, capped at `maximumDelay`, then jittered.
///
/// ```swift
/// let backoff = RetryBackoff(initialDelay: .milliseconds(500), jitter: .none)
/// backoff.delay(forAttempt: 3)   // 4 s
/// ```
public struct RetryBackoff: Sendable {
    /// The delay before the first retry, before jitter.
    public var initialDelay: Duration
    /// The growth factor per attempt. Default 2.
    public var multiplier: Double
    /// The largest delay, before jitter.
    public var maximumDelay: Duration
    /// How the delay is randomized.
    public var jitter: RetryJitter
    /// A random number in `0..<1` for each jittered delay; inject a fixed one in tests.
    public var random: @Sendable () -> Double

    /// Creates a backoff; by default 0.5 s doubling up to 30 s, with full jitter.
    public init(
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: RetryJitter = .full,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.random = random
    }

    /// The delay before retry number `attempt + 1` (`attempt` 0 is the first retry).
    public func delay(forAttempt attempt: Int) -> Duration {
        let cap = Self.seconds(maximumDelay)
        let exponential = min(cap, Self.seconds(initialDelay) * Self.power(multiplier, max(0, attempt)))
        let unit = min(max(random(), 0), 1)
        let seconds: Double
        switch jitter {
        case .none: seconds = exponential
        case .full: seconds = exponential * unit
        case .equal: seconds = exponential / 2 + exponential / 2 * unit
        }
        return .nanoseconds(Int64((max(0, seconds) * 1e9).rounded()))
    }

    /// `base^exponent`, no longer multiplied once past any sensible cap, so a huge attempt number cannot overflow.
    private static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var remaining = exponent
        while remaining > 0 && result < 1e12 && result > 0 {
            result *= base
            remaining -= 1
        }
        return result
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
