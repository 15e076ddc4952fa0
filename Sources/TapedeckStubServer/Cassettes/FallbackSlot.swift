import Foundation
import TapedeckCore

/// What answers the requests no stub matches: a served cassette, a recording proxy, or a forward proxy's exchanges
/// (for requests sent to `origin`, or in absolute form when it is `nil`).
enum UnmatchedFallback: Sendable {
    case cassette(ServedCassette)
    case proxy(RecordingProxy)
    case forward(ForwardExchange, origin: String?)
}

/// How the daemon answers a request no stub matches.
enum FallbackAnswer {
    /// Act now (after `delay`).
    case now(StubAction, delay: Duration)
    /// Start work off the daemon's threads; it calls its completion once with the action. The connection is
    /// suspended meanwhile.
    case later(Start)

    /// Work started off the daemon's threads, which calls its completion once with the action.
    typealias Start = @Sendable (_ completion: @escaping @Sendable (StubAction) -> Void) -> Void
}

/// An answer handed from the task that worked it out to the daemon thread that sends it.
final class PendingAction: Sendable {
    private struct State {
        var action: StubAction?
        /// The connection suspended until the action comes.
        var waiting: (ConnectionHandle, StubServerCore)?
    }

    private let state = Locked(State())

    /// Hands over the action, resuming the connection waiting for it.
    func fulfil(_ action: StubAction) {
        let waiting = state.withLock { state in
            state.action = action
            defer { state.waiting = nil }
            return state.waiting
        }
        if let (connection, core) = waiting { core.resume(connection) }
    }

    /// The action, when it came; otherwise suspends `connection` (from its daemon thread) until it comes, and
    /// returns `nil`. Under the lock, so that an action fulfilled meanwhile finds the connection suspended.
    func takeOrSuspend(_ connection: ConnectionHandle, core: StubServerCore) -> StubAction? {
        state.withLock { state in
            if let action = state.action {
                state.action = nil
                return action
            }
            state.waiting = (connection, core)
            core.suspendUntilStop(connection)
            return nil
        }
    }
}

/// The server's current fallback, shared by the daemon's threads, the admin API and the public API. Installing
/// one finishes the one it replaces.
final class FallbackSlot: Sendable {
    private let current = Locked<UnmatchedFallback?>(nil)

    var value: UnmatchedFallback? { current.withLock { $0 } }

    /// Installs `fallback` (or none) and finishes the recording proxy it replaces, if any.
    func install(_ fallback: UnmatchedFallback?) {
        let previous = current.withLock { value in
            defer { value = fallback }
            return value
        }
        if case .proxy(let proxy) = previous { _ = try? proxy.finishNow() }
    }

    /// Removes and returns the current fallback.
    func remove() -> UnmatchedFallback? {
        current.withLock { value in
            defer { value = nil }
            return value
        }
    }

    /// The answer for a request no stub matched, or `nil` when there is no fallback (the stubs' 404 then).
    func answer(_ request: RecordedRequest, stubs: StubRegistry) -> FallbackAnswer? {
        switch value {
        case .cassette(let cassette):
            return cassette.answer(request, stubReport: { stubs.all.isEmpty ? nil : stubs.notFoundResponse(for: request) })
        case .proxy(let proxy):
            return proxy.answer(request)
        case .forward(let exchange, let origin):
            return exchange.answer(request, origin: origin)
        case nil:
            return nil
        }
    }

    /// The start of an answer for a request whose body is sent upstream while it arrives (`upload`), or `nil` when
    /// the fallback does not forward it (a served cassette, a host the forward proxy does not record): the body is
    /// then read whole first.
    func streamedAnswer(_ request: RecordedRequest, upload: StreamedUpload) -> FallbackAnswer.Start? {
        switch value {
        case .proxy(let proxy):
            return proxy.streamedAnswer(request, upload: upload)
        case .forward(let exchange, let origin):
            return exchange.streamedAnswer(request, origin: origin, upload: upload)
        case .cassette, nil:
            return nil
        }
    }

    /// When the server stops: a recording proxy saves its cassette.
    func finishAtStop() {
        if case .proxy(let proxy) = value { _ = try? proxy.finishNow() }
    }
}
