import Foundation

/// The chunks of a response body and when each arrived, relative to the response head, captured while a recording
/// streams in (see ``Interaction/Response/chunks``).
struct ChunkTimeline: Sendable {
    private let head: ContinuousClock.Instant
    private(set) var chunks: [TimedChunk] = []
    private var received: Int64 = 0

    /// Starts the timeline at the response head.
    init(head: ContinuousClock.Instant = .now) {
        self.head = head
    }

    /// A chunk of `byteCount` bytes arrived at `instant`.
    mutating func add(_ byteCount: Int, at instant: ContinuousClock.Instant = .now) {
        guard byteCount > 0 else { return }
        received += Int64(byteCount)
        let elapsed = head.duration(to: instant)
        let seconds = elapsed.inSeconds
        let at = max(Recorder.rounded(seconds), chunks.last?.at ?? 0)
        chunks.append(TimedChunk(byteCount: byteCount, at: at))
    }

    /// The body has reached `total` bytes at `instant` (a progress report): what is new since the last is a chunk.
    mutating func reached(_ total: Int64, at instant: ContinuousClock.Instant = .now) {
        if total > received { add(Int(total - received), at: instant) }
    }
}
