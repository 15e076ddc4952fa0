import Synchronization

/// The requests a stub server has received, oldest first, capped so a long run cannot grow without bound.
public final class RequestJournal: Sendable {
    private struct State {
        var entries: [RecordedRequest] = []
        var nextSequenceNumber = 1
        var dropped = 0
    }

    private let state = Mutex(State())
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
            state.entries.append(numbered)
            if state.entries.count > capacity {
                let excess = state.entries.count - capacity
                state.entries.removeFirst(excess)
                state.dropped += excess
            }
            return numbered
        }
    }

    /// Every kept request, oldest first.
    public var entries: [RecordedRequest] { state.withLock { $0.entries } }

    /// How many requests were dropped because the journal was full.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Forgets every request; numbering continues.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.dropped = 0
        }
    }
}
