import TapedeckCore

/// When things arrived, in seconds after the first of them, for tests of pacing.
///
/// ```swift
/// var arrivals = ArrivalTimes()
/// arrivals.mark()           // 0
/// arrivals.mark()           // seconds since the first mark
/// #expect(arrivals.seconds[1] >= 0.09)
/// ```
public struct ArrivalTimes: Sendable {
    private var first: ContinuousClock.Instant?
    /// Each arrival, in seconds after the first.
    public private(set) var seconds: [Double] = []

    public init() {}

    /// Notes an arrival now.
    public mutating func mark() {
        let now = ContinuousClock.now
        let first = self.first ?? now
        self.first = first
        seconds.append(first.duration(to: now).inSeconds)
    }
}
