import Foundation
import TapedeckCassette
import TapedeckCore

/// A ``WebSocket`` over a recorded conversation, in process: the server's recorded frames are delivered at once, in
/// order, each time the client's recorded frames before them were sent; the same state machine as a live connection
/// answers pings and closes, and its answers must be the recorded ones too. A frame the recording does not have
/// next ends the replay with a ``WebSocketReplayMismatch``; a recording cut off before the server's close ends, after
/// its last frame, as a connection that broke (1006) and says where. Under a `ConversationFault` the frames are the
/// ones it leaves: a drop then ends as a live connection the server closed without a close frame, and a stall
/// delivers nothing more, takes what the client sends without an answer, and lets a close wait its `closeTimeout`.
final class ReplayedWebSocketBackend: WebSocketBackend {
    private struct State {
        var machine = WebSocketSessionStateMachine()
        var cursor: WebSocketReplayCursor
        var ending: WebSocketEnding?
        var waiters: [CheckedContinuation<WebSocketEnding, Never>] = []
    }

    private let state: Locked<State>
    private let messages: AsyncThrowingStream<WebSocketMessage, Error>.Continuation
    private let closeTimeout: Double

    init(script: WebSocketReplayScript, matcher: WebSocketFrameMatcher, closeTimeout: Double,
         messages: AsyncThrowingStream<WebSocketMessage, Error>.Continuation) {
        self.state = Locked(State(cursor: WebSocketReplayCursor(script, matcher: matcher)))
        self.messages = messages
        self.closeTimeout = closeTimeout
        state.withLock { deliverDueFrames(&$0) }
    }

    func send(_ frame: WebSocketFrame) async throws {
        try state.withLock { state throws in
            guard state.machine.canSend else { throw WebSocketError.notOpen(state.ending) }
            if state.cursor.isStalled { return }
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
        let unanswered = state.withLock { state -> Bool in
            let actions = state.machine.close(close)
            // A stalled server takes the close and never answers it.
            if state.cursor.isStalled { return !actions.send.isEmpty }
            guard sendAnswers(actions.send, &state) else { return false }
            deliverDueFrames(&state)
            return false
        }
        if unanswered {
            try? await Task.sleep(for: .seconds(closeTimeout))
            state.withLock { end(&$0, .abnormal(reason: "the server did not answer the close in \(closeTimeout) s"), error: nil) }
        }
        return await ending()
    }

    func ending() async -> WebSocketEnding {
        await state.wait { state, continuation in
            if state.ending == nil { state.waiters.append(continuation) }
            return state.ending
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
        guard state.ending == nil, state.cursor.isAtEnd else { return }
        switch state.cursor.runOut {
        case .asRecorded:
            let cut = WebSocketTranscript(frames: state.cursor.frames).cut ?? "after frame \(state.cursor.frames.count)"
            end(&state, .abnormal(reason: "the recording ends \(cut) without the server's close"), error: nil)
        case .drop:
            // What the live client reports for the same.
            end(&state, .abnormal(reason: "the server closed the connection without a close frame"), error: nil)
        case .stall:
            break
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
        replay(conversation, script: WebSocketReplayScript(frames: conversation.frames), matching: matcher, closeTimeout: 5)
    }

    /// A socket that replays `conversation` in process under `fault`: the server's frames up to its frame `N`, then
    /// the drop, the close or the stall (see `ConversationFault`). `closeTimeout` is how long a close waits for a
    /// stalled server, as ``WebSocketClientOptions/closeTimeout`` is for a live one.
    ///
    /// ```swift
    /// let socket = try WebSocket.replay(conversation, fault: ConversationFault(after: 1, .drop))
    /// for try await message in socket.messages { … }   // the server's first message, then WebSocketError.abnormalClosure
    /// ```
    ///
    /// - Throws: `InteractionFault.NotApplicable` when the server sent fewer frames than `fault` plays.
    public static func replay(_ conversation: WebSocketConversation, matching matcher: WebSocketFrameMatcher = WebSocketFrameMatcher(),
                              fault: ConversationFault?, closeTimeout: Double = 5) throws(InteractionFault.NotApplicable) -> WebSocket {
        replay(conversation, script: try WebSocketReplayScript(recorded: conversation.frames, fault: fault), matching: matcher,
               closeTimeout: closeTimeout)
    }

    private static func replay(_ conversation: WebSocketConversation, script: WebSocketReplayScript, matching matcher: WebSocketFrameMatcher,
                               closeTimeout: Double) -> WebSocket {
        let (messages, feed) = AsyncThrowingStream<WebSocketMessage, Error>.makeStream()
        return WebSocket(
            url: conversation.url, requestHeaders: conversation.requestHeaders, response: conversation.response,
            negotiation: conversation.negotiation, messages: messages,
            backend: ReplayedWebSocketBackend(script: script, matcher: matcher, closeTimeout: closeTimeout, messages: feed))
    }
}
