import Foundation

/// A piece of a streamed response body and when it arrived: the shape of a server-sent event stream or any other
/// body whose pacing matters. Cassettes record them; replay and the stub server deliver the same pieces at the same
/// times (scaled), so a client's event parsing and its read timeouts run as they did live.
///
/// ```swift
/// let events = [TimedChunk(byteCount: 24, at: 0), TimedChunk(byteCount: 24, at: 0.5)]   // two events, 0.5 s apart
/// TimedChunk.fitted(events, to: 40)   // [24 at 0, 16 at 0.5]: a redacted body kept its timing
/// ```
public struct TimedChunk: Hashable, Sendable {
    /// The chunk's size in bytes (at least 1).
    public var byteCount: Int
    /// Seconds after the response head that the chunk arrived.
    public var at: TimeInterval

    /// Creates a chunk of `byteCount` bytes arriving `at` seconds after the response head.
    public init(byteCount: Int, at: TimeInterval) {
        self.byteCount = byteCount
        self.at = at
    }

    /// `chunks` made to cover exactly `total` bytes: a body that grew (redaction made it longer) gives the extra
    /// bytes to the last chunk; one that shrank loses its last chunks' bytes. Empty chunks are dropped.
    public static func fitted(_ chunks: [TimedChunk], to total: Int) -> [TimedChunk] {
        var fitted: [TimedChunk] = []
        fitted.reserveCapacity(chunks.count)
        var remaining = total
        for chunk in chunks where remaining > 0 && chunk.byteCount > 0 {
            let size = min(chunk.byteCount, remaining)
            fitted.append(TimedChunk(byteCount: size, at: chunk.at))
            remaining -= size
        }
        if remaining > 0 {
            if fitted.isEmpty { fitted.append(TimedChunk(byteCount: remaining, at: 0)) } else { fitted[fitted.count - 1].byteCount += remaining }
        }
        return fitted
    }

    /// Why `chunks` cannot describe a body of `total` bytes (sizes must be positive and add up to `total`, times
    /// must be finite, non-negative and never go back), or `nil` when they can.
    public static func problem(in chunks: [TimedChunk], total: Int64) -> String? {
        var sum: Int64 = 0
        var previous: TimeInterval = 0
        for (index, chunk) in chunks.enumerated() {
            guard chunk.byteCount > 0 else { return "chunk \(index) has \(chunk.byteCount) bytes; every chunk needs at least 1" }
            guard chunk.at.isFinite, chunk.at >= 0 else { return "chunk \(index) arrives at \(chunk.at) s; times are seconds ≥ 0" }
            guard chunk.at >= previous else {
                return "chunk \(index) arrives at \(chunk.at) s, before chunk \(index - 1) at \(previous) s; times never go back"
            }
            previous = chunk.at
            // Sizes come from files: a sum past Int64.max is an answer, not a trap.
            let (next, overflow) = sum.addingReportingOverflow(Int64(chunk.byteCount))
            guard !overflow else { return "the chunks up to chunk \(index) add up to more than \(Int64.max) bytes but the body has \(total)" }
            sum = next
        }
        guard chunks.isEmpty || sum == total else { return "the chunks add up to \(sum) bytes but the body has \(total)" }
        return nil
    }
}
