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
        var startedAt: Date?
        var frames: [WebSocketConversation.Frame] = []
        /// Seconds from the start to the end of the connection, once it ended.
        var total: Double?
        var conversation: WebSocketConversation?
        var saveError: (any Error)?
    }

    private let state = Locked(State())
    private let save: (@Sendable (WebSocketConversation, Date) throws -> Void)?

    /// A recorder with nothing recorded.
    public init() { save = nil }

    /// A recorder that hands the whole conversation, and the time the connection began, to `save` when the
    /// connection ends (on the connection's thread, before ``WebSocket/close(_:reason:)`` and
    /// ``WebSocket/ending()`` return). An error `save` throws is kept in ``saveError``.
    public init(whenEnded save: @escaping @Sendable (WebSocketConversation, Date) throws -> Void) { self.save = save }

    /// What `save` threw, if it did.
    public var saveError: (any Error)? { state.withLock { $0.saveError } }

    /// Connects and records the connection. One recorder records one connection.
    public func connect(to url: URL, options: WebSocketClientOptions = WebSocketClientOptions()) async throws -> WebSocket {
        state.withLock { state in
            state.started = .now
            state.startedAt = Date()
        }
        let socket = try await WebSocket.connect(to: url, options: options) { [self] event in record(event) }
        state.withLock { state in
            state.conversation = WebSocketConversation(url: url, requestHeaders: socket.requestHeaders, response: socket.response,
                                                       metrics: socket.openingMetrics)
        }
        return socket
    }

    /// What was recorded so far (nil before the connection was made).
    public var conversation: WebSocketConversation? {
        state.withLock { state in
            guard var conversation = state.conversation else { return nil }
            conversation.frames = state.frames
            if let total = state.total { conversation.metrics.total = max(total, conversation.metrics.timeToFirstByte) }
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
                state.total = offset
            }
        }
        guard case .ended = event, let save, let conversation, let startedAt = state.withLock({ $0.startedAt }) else { return }
        do {
            try save(conversation, startedAt)
        } catch {
            state.withLock { $0.saveError = error }
        }
    }
}
