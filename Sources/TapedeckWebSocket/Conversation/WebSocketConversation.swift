import Foundation
import TapedeckCore

/// One recorded WebSocket connection: the upgrade request and its `101` answer, then what each side sent, in order,
/// with the time since the connection began. Messages are kept whole (fragments joined), as a client sees them.
///
/// ```swift
/// let recorder = WebSocketRecorder()
/// let socket = try await recorder.connect(to: url)
/// try await socket.send(.text("hi"))
/// … read, close …
/// let conversation = recorder.conversation!
/// let replayed = WebSocket.replay(conversation)   // the same messages, no network
/// ```
public struct WebSocketConversation: Sendable, Hashable {
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

    /// The URL connected to (`ws` or `wss`).
    public var url: URL
    /// The upgrade request's headers (`Sec-WebSocket-Key` and the offers among them).
    public var requestHeaders: HTTPHeaders
    /// The server's answer (`101` with `Sec-WebSocket-Accept`, the chosen subprotocol and extensions).
    public var response: WebSocketUpgradeResponseHead
    /// The frames, in the order they were sent or received.
    public var frames: [Frame]

    /// A conversation.
    public init(url: URL, requestHeaders: HTTPHeaders, response: WebSocketUpgradeResponseHead, frames: [Frame] = []) {
        self.url = url
        self.requestHeaders = requestHeaders
        self.response = response
        self.frames = frames
    }

    /// The subprotocol and extensions the answer agreed to (nothing for an answer that does not parse).
    public var negotiation: WebSocketNegotiation {
        WebSocketNegotiation(
            subprotocol: response.headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces),
            extensions: response.headers.values(for: "Sec-WebSocket-Extensions").flatMap { (try? WebSocketExtension.parseList($0)) ?? [] })
    }

    /// Whether the conversation ends with the server's close (or the server's answer to the client's): a recording
    /// without one was cut off, and replays up to the cut.
    public var isComplete: Bool {
        frames.contains { if case .close = $0.kind { return $0.direction == .server } else { return false } }
    }
}

extension WebSocketConversation.Kind {
    /// The kind of a frame the client sent (whole: ``WebSocket`` never fragments).
    init(_ frame: WebSocketFrame) {
        switch frame.opcode {
        case .text: self = .text(String(decoding: frame.payload, as: UTF8.self))
        case .binary, .continuation: self = .binary(frame.payload)
        case .ping: self = .ping(frame.payload)
        case .pong: self = .pong(frame.payload)
        case .close: self = .close(WebSocketClose(payload: frame.payload))
        }
    }

    /// The kind of an event the server sent.
    init(_ event: WebSocketEvent) {
        switch event {
        case .message(.text(let text)): self = .text(text)
        case .message(.binary(let data)): self = .binary(data)
        case .ping(let payload): self = .ping(payload)
        case .pong(let payload): self = .pong(payload)
        case .close(let close): self = .close(close)
        }
    }

    /// The event a server frame of this kind is to a client.
    var event: WebSocketEvent {
        switch self {
        case .text(let text): return .message(.text(text))
        case .binary(let data): return .message(.binary(data))
        case .ping(let payload): return .ping(payload)
        case .pong(let payload): return .pong(payload)
        case .close(let close): return .close(close)
        }
    }

    /// A short description for near-miss reports.
    var summary: String {
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
