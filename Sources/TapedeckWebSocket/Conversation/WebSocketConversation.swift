import Foundation
import TapedeckCore
import TapedeckCassette

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
    public typealias Direction = WebSocketTranscript.Direction
    /// What a frame carried.
    public typealias Kind = WebSocketTranscript.Kind
    /// One frame of the conversation.
    public typealias Frame = WebSocketTranscript.Frame

    /// The URL connected to (`ws` or `wss`).
    public var url: URL
    /// The upgrade request's headers (`Sec-WebSocket-Key` and the offers among them).
    public var requestHeaders: HTTPHeaders
    /// The server's answer (`101` with `Sec-WebSocket-Accept`, the chosen subprotocol and extensions).
    public var response: WebSocketUpgradeResponseHead
    /// The frames, in the order they were sent or received.
    public var frames: [Frame]
    /// The connection's timing, in seconds since it began, as a cassette's `timing` holds it: name lookup, connect
    /// and TLS handshake, the `101`'s first byte (`timeToFirstByte`), the end of the connection (`total`), the peer's
    /// address and port, and the bytes each way, as far as they are known (zero otherwise).
    public var metrics: TransferMetrics

    /// A conversation.
    public init(url: URL, requestHeaders: HTTPHeaders, response: WebSocketUpgradeResponseHead, frames: [Frame] = [],
                metrics: TransferMetrics = TransferMetrics()) {
        self.url = url
        self.requestHeaders = requestHeaders
        self.response = response
        self.frames = frames
        self.metrics = metrics
    }

    /// The subprotocol and extensions the answer agreed to (nothing for an answer that does not parse).
    public var negotiation: WebSocketNegotiation {
        WebSocketNegotiation(
            subprotocol: response.headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces),
            extensions: response.headers.values(for: "Sec-WebSocket-Extensions").flatMap { (try? WebSocketExtension.parseList($0)) ?? [] })
    }

    /// Whether the conversation ends with the server's close: a recording without one was cut off, and replays up
    /// to the cut (`WebSocketTranscript/cut` says where).
    public var isComplete: Bool { WebSocketTranscript(frames: frames).isComplete }
}

extension WebSocketConversation.Kind {
    /// The kind of a whole (unfragmented) frame: one the client sent (``WebSocket`` never fragments), or one a stub
    /// server sends.
    package init(_ frame: WebSocketFrame) {
        switch frame.opcode {
        case .text: self = .text(String(decoding: frame.payload, as: UTF8.self))
        case .binary, .continuation: self = .binary(frame.payload)
        case .ping: self = .ping(frame.payload)
        case .pong: self = .pong(frame.payload)
        case .close: self = .close(WebSocketClose(payload: frame.payload))
        }
    }

    /// The kind of an event a peer sent.
    package init(_ event: WebSocketEvent) {
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
}
