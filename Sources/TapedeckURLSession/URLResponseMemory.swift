import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckCore

/// The `HTTPURLResponse`s a binding has made, by the response head each was made of. A replayed interaction's head
/// is the same every time it is played, so its response object is built once per interaction rather than once per
/// request (Foundation's initializer reads every header field again each time: about as much work as the rest of the
/// door's own per-request work). A response object never changes once made, so tasks can share one.
///
/// Bounded: once it holds ``capacity`` heads it starts again, so live answers (whose `Date` differs every time) cost
/// one lookup each and never grow it.
final class URLResponseMemory: Sendable {
    /// `HTTPURLResponse` is immutable once made; it is only handed out, never changed.
    private struct Response: @unchecked Sendable {
        let value: HTTPURLResponse
    }

    private let responses = Locked<[HTTPResponseHead: Response]>([:])
    /// How many heads it remembers before it starts again.
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The response object for `head`: the one made before for an equal head, or a new one (remembered).
    func response(for head: HTTPResponseHead) -> HTTPURLResponse {
        if let known = responses.withLock({ $0[head] }) { return known.value }
        let made = URLRequestConversion.urlResponse(from: head)
        responses.withLock { responses in
            if responses.count >= capacity { responses.removeAll(keepingCapacity: true) }
            responses[head] = Response(value: made)
        }
        return made
    }
}
