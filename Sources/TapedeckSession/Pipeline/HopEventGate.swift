import Foundation
import TapedeckCore

/// Holds back the transport events of a response that may not be the caller's (a redirect the session may follow, a
/// challenge it may answer, a failure the interceptor may retry), so that only the final response's events reach the
/// caller: they pass at once for any other response, and held-back events of a response that turns out to be final
/// are delivered in order by ``release()``.
final class HopEventGate: Sendable {
    private let downstream: HTTPEventHandler
    private let holdsBack: @Sendable (HTTPResponseHead) -> Bool
    private let state = Locked(State.undecided)

    private enum State {
        case undecided
        case passing
        case holding([HTTPTransportEvent])
    }

    init(downstream: @escaping HTTPEventHandler, holdsBack: @escaping @Sendable (HTTPResponseHead) -> Bool) {
        self.downstream = downstream
        self.holdsBack = holdsBack
    }

    /// A gate for one hop: it holds back a challenge, and a redirect when the session follows redirects.
    static func hop(_ downstream: @escaping HTTPEventHandler, followsRedirects: Bool) -> HopEventGate {
        HopEventGate(downstream: downstream) { head in
            head.isInterimHop && (followsRedirects || head.statusCode == 401 || head.statusCode == 407)
        }
    }

    /// A gate for one attempt of an interceptor's loop: it holds back a response the retrier may be asked about.
    static func attempt(_ downstream: @escaping HTTPEventHandler, isFailure: @escaping @Sendable (HTTPResponseHead) -> Bool) -> HopEventGate {
        HopEventGate(downstream: downstream, holdsBack: isFailure)
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
