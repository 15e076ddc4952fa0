import TapedeckCore

/// The requests a stub server has received, oldest first, capped so a long run cannot grow without bound.
/// Appending is constant time (a ring buffer), so a full journal costs nothing per request.
public final class RequestJournal: Sendable {
    private struct State {
        var ring: [RecordedRequest] = []
        /// Index of the oldest entry once the ring is full.
        var head = 0
        var nextSequenceNumber = 1
        var dropped = 0

        var ordered: [RecordedRequest] {
            head == 0 ? ring : Array(ring[head...] + ring[..<head])
        }
    }

    private let state = Locked(State())
    /// Most entries kept; older ones are dropped first.
    public let capacity: Int

    /// Creates a journal keeping at most `capacity` entries.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends a request, numbering it, and returns it as stored.
    @discardableResult
    func append(_ request: RecordedRequest) -> RecordedRequest {
        state.withLock { state in
            var numbered = request
            numbered.sequenceNumber = state.nextSequenceNumber
            state.nextSequenceNumber += 1
            if state.ring.count < capacity {
                state.ring.append(numbered)
            } else {
                state.ring[state.head] = numbered
                state.head = (state.head + 1) % capacity
                state.dropped += 1
            }
            return numbered
        }
    }

    /// Every kept request, oldest first.
    public var entries: [RecordedRequest] { state.withLock { $0.ordered } }

    /// How many requests were dropped because the journal was full.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Forgets every request; numbering continues.
    public func removeAll() {
        state.withLock { state in
            state.ring.removeAll()
            state.head = 0
            state.dropped = 0
        }
    }
}
