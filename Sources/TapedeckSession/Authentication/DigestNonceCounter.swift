import TapedeckCore

/// The `nc` values of `Digest` answers: for each server nonce, 1 for its first use and one more for each use after,
/// shared by the requests of a session (RFC 7616 §3.4: the count lets the server detect replays).
///
/// ```swift
/// let counter = DigestNonceCounter()
/// counter.next(for: "abc")   // 1
/// counter.next(for: "abc")   // 2
/// counter.next(for: "xyz")   // 1
/// ```
public final class DigestNonceCounter: Sendable {
    private struct State {
        var counts: [String: UInt32] = [:]
        var order: [String] = []
    }

    private let state = Locked(State())
    private let capacity: Int

    /// Creates a counter remembering up to `capacity` nonces; the one unused the longest is forgotten first.
    public init(capacity: Int = 64) { self.capacity = max(1, capacity) }

    /// The next count for `nonce`, starting at 1.
    public func next(for nonce: String) -> UInt32 {
        state.withLock { state in
            let count = (state.counts[nonce] ?? 0) &+ 1
            state.counts[nonce] = count
            state.order.removeAll { $0 == nonce }
            state.order.append(nonce)
            if state.order.count > capacity { state.counts[state.order.removeFirst()] = nil }
            return count
        }
    }
}
