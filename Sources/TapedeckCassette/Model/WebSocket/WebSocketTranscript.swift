import Foundation

/// The frames of one recorded WebSocket connection, in the order they were sent, each with its sender and its time
/// since the connection began. Messages are kept whole (fragments joined), as an endpoint sees them. An
/// ``Interaction`` that upgraded to a WebSocket carries one: its request and response are the upgrade request and
/// the `101` answer (with the subprotocol and extensions agreed), its ``Interaction/webSocket`` the rest.
///
/// ```swift
/// let transcript = WebSocketTranscript(frames: [
///     .init(direction: .server, kind: .text("welcome"), offset: 0.004),
///     .init(direction: .client, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0.010),
///     .init(direction: .server, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0.011),
/// ])
/// transcript.isComplete   // true: it ends with the server's close
/// ```
public struct WebSocketTranscript: Sendable, Hashable {
    /// Who sent a frame.
    public enum Direction: String, Sendable, Hashable, Codable {
        /// The client (the code under test).
        case client
        /// The server.
        case server
    }

    /// What a frame carried.
    public enum Kind: Sendable, Hashable {
        /// A whole text message.
        case text(String)
        /// A whole binary message.
        case binary(Data)
        /// A ping and its payload.
        case ping(Data)
        /// A pong and its payload.
        case pong(Data)
        /// A close, with its code (1005 when it had none) and reason.
        case close(WebSocketClose)
    }

    /// One frame of the conversation.
    public struct Frame: Sendable, Hashable {
        /// Who sent it.
        public var direction: Direction
        /// What it carried.
        public var kind: Kind
        /// Seconds from the start of the connection (before the upgrade) to this frame.
        public var offset: Double

        /// A frame.
        public init(direction: Direction, kind: Kind, offset: Double) {
            self.direction = direction
            self.kind = kind
            self.offset = offset
        }
    }

    /// The frames, in the order they were sent or received.
    public var frames: [Frame]

    /// A transcript.
    public init(frames: [Frame] = []) {
        self.frames = frames
    }

    /// Whether the conversation ends with the server's close (or the server's answer to the client's): a recording
    /// without one was cut off, and replays up to the cut.
    public var isComplete: Bool {
        frames.contains { if case .close = $0.kind { return $0.direction == .server } else { return false } }
    }

    /// Where a recording that was cut off ends, e.g. `after frame 3 (server text "echo: hello" at 0.030 s)`; `nil`
    /// for a complete one.
    public var cut: String? {
        guard !isComplete else { return nil }
        guard let last = frames.last else { return "before its first frame" }
        return "after frame \(frames.count) (\(last.direction) \(last.kind.summary) at \(String(format: "%.3f", last.offset)) s)"
    }
}

extension WebSocketTranscript.Kind {
    /// A short description for near-miss reports, e.g. `text "hello"` or `binary (2 bytes)`.
    public var summary: String {
        func bytes(_ data: Data) -> String { "\(data.count) bytes" }
        switch self {
        case .text(let text): return "text \"\(text.count > 60 ? String(text.prefix(60)) + "…" : text)\""
        case .binary(let data): return "binary (\(bytes(data)))"
        case .ping(let data): return "ping (\(bytes(data)))"
        case .pong(let data): return "pong (\(bytes(data)))"
        case .close(let close): return close.description
        }
    }
}
