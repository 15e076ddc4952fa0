import TapedeckCore

/// How much of a streamed response body its consumer holds and has not yet passed on: a transfer given a window
/// (``CurlTransport/send(_:onEvent:window:)``) stops reading from the server while the window is full (libcurl's
/// write pause; TCP then slows the server down) and reads on once the consumer has passed half of it on. A proxy
/// relaying a body to a client slower than its upstream keeps its memory bounded with one.
package final class ReceiveWindow: Sendable {
    private struct State {
        var held = 0
        /// Wakes the paused transfer.
        var paused: (@Sendable () -> Void)?
    }

    /// Bytes held before the transfer pauses.
    package let limit: Int
    private let state = Locked(State())

    package init(limit: Int) {
        self.limit = limit
    }

    /// The consumer took in `count` bytes of the body.
    package func hold(_ count: Int) {
        state.withLock { $0.held += count }
    }

    /// The consumer passed `count` bytes on; a paused transfer reads on once at most half the limit is held.
    package func release(_ count: Int) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.held -= count
            guard state.held <= limit / 2 else { return nil }
            defer { state.paused = nil }
            return state.paused
        }
        wake?()
    }

    /// Whether the transfer must pause before handing over more (on the loop thread); when it must, `wake` runs once
    /// the window opens again.
    func pauses(wakingWith wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.held >= limit else { return false }
            state.paused = wake
            return true
        }
    }
}
