import Foundation
import Synchronization

/// Holds back the transport events of a hop that may be followed or answered (a redirect, a challenge), so that only
/// the final response's events reach the caller: they pass at once for any other hop, and a held-back hop that turns
/// out to be final has its events delivered in order by ``release()``.
final class HopEventGate: Sendable {
    private let downstream: HTTPEventHandler
    private let followsRedirects: Bool
    private let state = Mutex(State.undecided)

    private enum State {
        case undecided
        case passing
        case holding([HTTPTransportEvent])
    }

    init(downstream: @escaping HTTPEventHandler, followsRedirects: Bool) {
        self.downstream = downstream
        self.followsRedirects = followsRedirects
    }

    /// Whether a hop with this head may be answered (a challenge) or followed (a redirect) rather than delivered.
    private func holdsBack(_ head: HTTPResponseHead) -> Bool {
        head.isInterimHop && (followsRedirects || head.statusCode == 401 || head.statusCode == 407)
    }

    /// ``handle(_:)`` as an event handler.
    var handler: HTTPEventHandler { { [self] event in handle(event) } }

    /// Passes `event` on, or keeps it while the hop's head says it may be followed.
    func handle(_ event: HTTPTransportEvent) {
        let passes = state.withLock { state -> Bool in
            switch state {
            case .passing:
                return true
            case .holding(var held):
                held.append(event)
                state = .holding(held)
                return false
            case .undecided:
                guard case .responseHead(let head) = event, holdsBack(head) else {
                    if case .responseHead = event { state = .passing }
                    return true
                }
                state = .holding([event])
                return false
            }
        }
        if passes { downstream(event) }
    }

    /// The hop is the final one: delivers what was held back.
    func release() {
        let held = state.withLock { state -> [HTTPTransportEvent] in
            guard case .holding(let held) = state else { return [] }
            state = .passing
            return held
        }
        for event in held { downstream(event) }
    }
}
