import Foundation

/// How a WebSocket connection ended.
public enum WebSocketEnding: Sendable, Hashable, CustomStringConvertible {
    /// The peer's close arrived (after the user's, or first and then answered): its code and reason.
    case closed(WebSocketClose)
    /// The peer broke the protocol; a close with the error's code (1002, 1007, 1009) was sent.
    case protocolError(WebSocketProtocolError)
    /// The connection ended without a close frame (1006): the peer vanished, or did not answer a close in time.
    case abnormal(reason: String)

    /// The close code this ending reports (1006 for an abnormal one).
    public var code: WebSocketCloseCode {
        switch self {
        case .closed(let close): return close.code
        case .protocolError(let error): return error.closeCode
        case .abnormal: return .abnormalClosure
        }
    }

    /// How messages, logs and test failures print it.
    public var description: String {
        switch self {
        case .closed(let close): return close.description
        case .protocolError(let error): return error.description
        case .abnormal(let reason): return "closed abnormally (1006): \(reason)"
        }
    }
}

/// Errors of a ``WebSocket`` that are neither the handshake's nor the protocol's.
public enum WebSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A message was sent after a close was sent or the connection ended.
    case notOpen(WebSocketEnding?)
    /// The connection ended without a close frame.
    case abnormalClosure(reason: String)

    /// How messages, logs and test failures print it.
    public var description: String {
        switch self {
        case .notOpen(let ending): return "the WebSocket is not open" + (ending.map { " (\($0))" } ?? " (closing)")
        case .abnormalClosure(let reason): return "the WebSocket closed abnormally (1006): \(reason)"
        }
    }
}
