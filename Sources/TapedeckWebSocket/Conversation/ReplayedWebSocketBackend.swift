import Foundation
import TapedeckCassette
import TapedeckCore

/// A ``WebSocket`` over a recorded conversation, in process: the server's recorded frames are delivered at once, in
/// order, each time the client's recorded frames before them were sent; the same state machine as a live connection
/// answers pings and closes, and its answers must be the recorded ones too. A frame the recording does not have
/// next ends the replay with a ``WebSocketReplayMismatch``; a recording cut off before the server's close ends, after
/// its last frame, as a connection that broke (1006) and says where.
final class ReplayedWebSocketBackend: WebSocketBackend {
    private struct State {
        var machine = WebSocketSessionStateMachine()
        var cursor: WebSocketReplayCursor
        var ending: WebSocketEnding?
        var waiters: [CheckedContinuation<WebSocketEnding, Never>] = []
    }

    private let state: Locked<State>
    private let messages: AsyncThrowingStream<WebSocketMessage, Error>.Continuation

    init(frames: [WebSocketConversation.Frame], matcher: WebSocketFrameMatcher,
         messages: AsyncThrowingStream<WebSocketMessage, Error>.Continuation) {
        self.state = Locked(State(cursor: WebSocketReplayCursor(frames, matcher: matcher)))
        self.messages = messages
        state.withLock { deliverDueFrames(&$0) }
    }

    func send(_ frame: WebSocketFrame) async throws {
        try state.withLock { state throws in
            guard state.machine.canSend else { throw WebSocketError.notOpen(state.ending) }
            do throws(WebSocketReplayMismatch) {
                try state.cursor.clientSent(.init(frame))
            } catch {
                end(&state, .abnormal(reason: error.description), error: error)
                throw error
            }
            deliverDueFrames(&state)
        }
    }

    func close(_ close: WebSocketClose) async -> WebSocketEnding {
        state.withLock { state in
            let actions = state.machine.close(close)
            guard sendAnswers(actions.send, &state) else { return }
            deliverDueFrames(&state)
        }
        return await ending()
    }

    func ending() async -> WebSocketEnding {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> WebSocketEnding? in
                if state.ending == nil { state.waiters.append(continuation) }
                return state.ending
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    var currentEnding: WebSocketEnding? { state.withLock { $0.ending } }

    func abandon() {
        state.withLock { state in
            guard state.ending == nil else { return }
            end(&state, .abnormal(reason: "the socket was dropped while open"), error: nil)
        }
    }

    /// Delivers the server's frames up to the client's next one, answering as a live client would.
    private func deliverDueFrames(_ state: inout State) {
        while state.ending == nil, let frame = state.cursor.nextServerFrame() {
            let actions = state.machine.received(frame.kind.event)
            if let message = actions.deliver { messages.yield(message) }
            guard sendAnswers(actions.send, &state) else { return }
            if let ending = actions.ending { end(&state, ending, error: nil) }
        }
        if state.ending == nil, state.cursor.isAtEnd {
            let cut = WebSocketTranscript(frames: state.cursor.frames).cut ?? "after frame \(state.cursor.frames.count)"
            end(&state, .abnormal(reason: "the recording ends \(cut) without the server's close"), error: nil)
        }
    }

    /// Matches the state machine's own frames (pongs, closes) with the recording; false when one does not match.
    private func sendAnswers(_ frames: [WebSocketFrame], _ state: inout State) -> Bool {
        for frame in frames {
            do {
                try state.cursor.clientSent(.init(frame))
            } catch {
                end(&state, .abnormal(reason: error.description), error: error)
                return false
            }
        }
        return true
    }

    private func end(_ state: inout State, _ ending: WebSocketEnding, error: Error?) {
        guard state.ending == nil else { return }
        state.ending = ending
        _ = state.machine.streamEnded(reason: "replay over")
        switch ending {
        case .closed: messages.finish()
        case .protocolError(let protocolError): messages.finish(throwing: protocolError)
        case .abnormal(let reason): messages.finish(throwing: error ?? WebSocketError.abnormalClosure(reason: reason))
        }
        let waiters = state.waiters
        state.waiters = []
        for waiter in waiters { waiter.resume(returning: ending) }
    }
}

extension WebSocket {
    /// A socket that replays `conversation` in process, through the same API as a live one: no network. The
    /// server's messages up to the client's first recorded frame are there at once; each message the client sends
    /// must be the recorded one as `matcher` compares (else ``WebSocketReplayMismatch``), and releases the server's
    /// next ones.
    ///
    /// ```swift
    /// let socket = WebSocket.replay(conversation)
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages { … }   // as recorded
    /// ```
    public static func replay(_ conversation: WebSocketConversation, matching matcher: WebSocketFrameMatcher = WebSocketFrameMatcher()) -> WebSocket {
        let (messages, feed) = AsyncThrowingStream<WebSocketMessage, Error>.makeStream()
        return WebSocket(
            url: conversation.url, requestHeaders: conversation.requestHeaders, response: conversation.response,
            negotiation: conversation.negotiation, messages: messages,
            backend: ReplayedWebSocketBackend(frames: conversation.frames, matcher: matcher, messages: feed))
    }
}
