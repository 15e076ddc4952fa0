import Foundation

/// A whole data message: the payloads of its fragments joined.
///
/// ```swift
/// try await socket.send(.text("{\"subscribe\":\"prices\"}"))
/// for try await message in socket.messages { if case .text(let json) = message { … } }
/// ```
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
    /// A text message (UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The bytes on the wire.
    public var payload: Data {
        switch self {
        case .text(let text): return Data(text.utf8)
        case .binary(let data): return data
        }
    }

    /// The opcode of the message's first frame.
    public var opcode: WebSocketOpcode {
        switch self {
        case .text: return .text
        case .binary: return .binary
        }
    }

    /// How messages, logs and test failures print it.
    public var description: String {
        switch self {
        case .text(let text): return "text(\(text.count > 80 ? String(text.prefix(80)) + "…" : text))"
        case .binary(let data): return "binary(\(data.count) bytes)"
        }
    }
}

/// A recorded close as a frame to send.
extension WebSocketClose {
    /// The close frame that says this: an empty payload for 1005, the code and reason otherwise.
    public var frame: WebSocketFrame {
        code == .noStatusReceived ? WebSocketFrame(opcode: .close) : .close(code: code, reason: reason)
    }
}

/// What a peer sent, with fragments joined: a message or a control frame.
public enum WebSocketEvent: Sendable, Hashable {
    /// A whole text or binary message.
    case message(WebSocketMessage)
    /// A ping with its payload; the receiver answers with a pong carrying the same bytes.
    case ping(Data)
    /// A pong with its payload.
    case pong(Data)
    /// A close frame.
    case close(WebSocketClose)
}
