import Foundation

/// The open and closing states of one WebSocket connection (RFC 6455 §5.5, §7), without I/O: what to send and what
/// to report for each event a peer sends, for a protocol error, for the user's close, and for the end of the stream.
///
/// A ping is answered with a pong carrying its payload. A close from the peer is answered with a close carrying the
/// same code (an empty one for a close without a code), and the connection is then over. A close the user starts
/// waits for the peer's; the data that comes before it is still delivered. A protocol error sends a close with the
/// RFC's code and reason, and fails the messages with it. A stream that ends without a close fails with 1006.
struct WebSocketSessionStateMachine: Sendable {
    enum State: Equatable, Sendable {
        case open
        /// The user's close was sent; waiting for the peer's.
        case closing
        case closed
    }

    /// What to do after an input.
    struct Actions: Equatable, Sendable {
        /// Frames to send, in order.
        var send: [WebSocketFrame] = []
        /// A message to hand to the user.
        var deliver: WebSocketMessage?
        /// A pong to report to whoever waits for one.
        var pong: Data?
        /// Set when the connection is over: close the stream after sending `send`.
        var ending: WebSocketEnding?
    }

    private(set) var state: State = .open

    /// Whether the user may still send messages.
    var canSend: Bool { state == .open }

    mutating func received(_ event: WebSocketEvent) -> Actions {
        guard state != .closed else { return Actions() }
        switch event {
        case .message(let message):
            return Actions(deliver: message)
        case .ping(let payload):
            return state == .open ? Actions(send: [WebSocketFrame(opcode: .pong, payload: payload)]) : Actions()
        case .pong(let payload):
            return Actions(pong: payload)
        case .close(let close):
            let echo = state == .open ? [WebSocketClose(code: close.code).frame] : []
            state = .closed
            return Actions(send: echo, ending: .closed(close))
        }
    }

    mutating func failed(_ error: WebSocketProtocolError) -> Actions {
        guard state != .closed else { return Actions() }
        let close = state == .open ? [WebSocketFrame.close(code: error.closeCode, reason: error.reason)] : []
        state = .closed
        return Actions(send: close, ending: .protocolError(error))
    }

    /// The user closes: the close frame to send, or nothing when a close was already sent or the connection is over.
    mutating func close(_ close: WebSocketClose) -> Actions {
        guard state == .open else { return Actions() }
        state = .closing
        return Actions(send: [close.frame])
    }

    /// The byte stream ended (or a close timed out).
    mutating func streamEnded(reason: String) -> Actions {
        guard state != .closed else { return Actions() }
        state = .closed
        return Actions(ending: .abnormal(reason: reason))
    }
}
