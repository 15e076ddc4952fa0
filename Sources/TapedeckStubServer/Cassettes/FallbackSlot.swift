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
    case later(@Sendable (_ completion: @escaping @Sendable (StubAction) -> Void) -> Void)
}

/// An answer handed from the task that worked it out to the daemon thread that sends it.
final class PendingAction: Sendable {
    private let slot = Locked<StubAction?>(nil)

    func fulfil(_ action: StubAction) { slot.withLock { $0 = action } }

    func take() -> StubAction? { slot.withLock { value in defer { value = nil }; return value } }
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

    /// When the server stops: a recording proxy saves its cassette.
    func finishAtStop() {
        if case .proxy(let proxy) = value { _ = try? proxy.finishNow() }
    }
}
