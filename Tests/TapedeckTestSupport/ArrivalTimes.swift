import TapedeckCore

/// When things arrived, in seconds after the first of them (or after a given start), for tests of pacing.
///
/// ```swift
/// var arrivals = ArrivalTimes()
/// arrivals.mark()           // 0
/// arrivals.mark()           // seconds since the first mark
/// #expect(arrivals.seconds[1] >= 0.09)
/// ```
public struct ArrivalTimes: Sendable {
    private var first: ContinuousClock.Instant?
    /// Each arrival, in seconds after the first (or the start).
    public private(set) var seconds: [Double] = []

    public init() {}

    /// Arrivals counted from `start` (the moment a request was sent) rather than from the first of them: a server or
    /// replay that paces its chunks from the response head can only make them later than that, so a floor measured
    /// from here holds however late the first arrival comes.
    public init(from start: ContinuousClock.Instant) {
        first = start
    }

    /// Notes an arrival now.
    public mutating func mark() {
        let now = ContinuousClock.now
        let first = self.first ?? now
        self.first = first
        seconds.append(first.duration(to: now).inSeconds)
    }
}
