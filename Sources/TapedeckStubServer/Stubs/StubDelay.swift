import Foundation
import TapedeckCore

/// How long a stub waits before answering: a fixed time, or a time drawn from a range by a seeded generator, so a
/// run's sequence of delays is the same every time. The connection is suspended meanwhile; no thread blocks.
///
/// ```swift
/// Stub(RequestPattern(.get, "/slow"), response: .text("ok"), delay: .fixed(.milliseconds(200)))
/// Stub(RequestPattern(.get, "/jitter"), response: .text("ok"), delay: .random(.milliseconds(10)...(.milliseconds(50)), seed: 42))
/// ```
public struct StubDelay: Sendable, Hashable, CustomStringConvertible {
    /// The kind of delay, as defined.
    public enum Kind: Sendable, Hashable {
        /// Always this long.
        case fixed(Duration)
        /// Uniformly in this range, from a generator seeded with `seed`.
        case random(ClosedRange<Duration>, seed: UInt64)
    }

    /// The longest delay a stub definition or WireMock mapping may ask for, in milliseconds: one hour. A longer one
    /// is refused when the definition is read, naming its field (a delay of three years is a typo, not a test).
    public static let maximumMilliseconds = 3_600_000

    /// Why a delay of `milliseconds` read from a file is refused, or `nil` when it is within 0 and the maximum.
    static func refusal(_ milliseconds: Int) -> String? {
        if milliseconds < 0 { return "must not be negative, got \(milliseconds)" }
        if milliseconds > maximumMilliseconds {
            return "is \(milliseconds) ms, more than a delay may be (\(maximumMilliseconds) ms, one hour)"
        }
        return nil
    }

    /// How the delay was defined.
    public let kind: Kind
    private let generator: SeededGenerator?

    /// Always `duration`.
    public static func fixed(_ duration: Duration) -> StubDelay {
        StubDelay(kind: .fixed(max(.zero, duration)), generator: nil)
    }

    /// Uniformly in `range`; the n-th delay of a stub is the same for the same seed in every run.
    public static func random(_ range: ClosedRange<Duration>, seed: UInt64) -> StubDelay {
        let clamped = max(.zero, range.lowerBound)...max(.zero, range.upperBound)
        return StubDelay(kind: .random(clamped, seed: seed), generator: SeededGenerator(seed: seed))
    }

    /// The next delay.
    public func next() -> Duration {
        switch kind {
        case .fixed(let duration):
            return duration
        case .random(let range, _):
            let low = range.lowerBound.nanoseconds
            let span = UInt64(range.upperBound.nanoseconds - low)
            let draw = span == 0 ? 0 : generator!.next() % (span + 1)
            return .nanoseconds(low + Int64(draw))
        }
    }

    /// How messages and reports print it.
    public var description: String {
        switch kind {
        case .fixed(let duration): return "delay \(duration)"
        case .random(let range, let seed): return "delay \(range.lowerBound)…\(range.upperBound) (seed \(seed))"
        }
    }

    /// Whether two delays wait the same way (fixed, random range or chunked, with the same values).
    public static func == (lhs: StubDelay, rhs: StubDelay) -> Bool { lhs.kind == rhs.kind }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product + attoseconds / 1_000_000_000
    }
}

/// TapedeckCore's `SplitMix64` behind a lock, for delays drawn by concurrent connections.
final class SeededGenerator: Sendable {
    private let state: Locked<SplitMix64>

    init(seed: UInt64) { state = Locked(SplitMix64(seed: seed)) }

    func next() -> UInt64 {
        state.withLock { $0.next() }
    }
}
