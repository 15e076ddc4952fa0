import Foundation
import TapedeckCore

/// Records a live WebSocket connection as a ``WebSocketConversation``: it connects as ``WebSocket/connect(to:options:observer:)``
/// does and notes every frame sent and event received, with its time since the connection began, as the
/// connection's thread sees it.
///
/// ```swift
/// let recorder = WebSocketRecorder()
/// let socket = try await recorder.connect(to: URL(string: "ws://127.0.0.1:8765/chat")!)
/// try await socket.send(.text("hello"))
/// _ = try await socket.messages.first { _ in true }
/// await socket.close()
/// let conversation = try #require(recorder.conversation)
/// ```
public final class WebSocketRecorder: Sendable {
    private struct State {
        var started: ContinuousClock.Instant?
        var frames: [WebSocketConversation.Frame] = []
        var conversation: WebSocketConversation?
    }

    private let state = Locked(State())

    /// A recorder with nothing recorded.
    public init() {}

    /// Connects and records the connection. One recorder records one connection.
    public func connect(to url: URL, options: WebSocketClientOptions = WebSocketClientOptions()) async throws -> WebSocket {
        state.withLock { $0.started = .now }
        let socket = try await WebSocket.connect(to: url, options: options) { [self] event in record(event) }
        state.withLock { state in
            state.conversation = WebSocketConversation(url: url, requestHeaders: socket.requestHeaders, response: socket.response)
        }
        return socket
    }

    /// What was recorded so far (nil before the connection was made).
    public var conversation: WebSocketConversation? {
        state.withLock { state in
            guard var conversation = state.conversation else { return nil }
            conversation.frames = state.frames
            return conversation
        }
    }

    private func record(_ event: WebSocketTrafficEvent) {
        let now = ContinuousClock.now
        state.withLock { state in
            let started = state.started ?? now
            state.started = started
            let offset = Double((now - started).components.attoseconds) / 1e18 + Double((now - started).components.seconds)
            switch event {
            case .sent(let frame):
                state.frames.append(.init(direction: .client, kind: .init(frame), offset: offset))
            case .received(let event):
                state.frames.append(.init(direction: .server, kind: .init(event), offset: offset))
            case .ended:
                break
            }
        }
    }
}
