/// A frame's opcode (RFC 6455 §5.2): what its payload is. The reserved values 0x3–0x7 and 0xB–0xF are refused by the
/// decoder with close code 1002, so a decoded frame only ever carries one of these six.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// A later fragment of a text or binary message.
    case continuation = 0x0
    /// The first (or only) frame of a text message: UTF-8.
    case text = 0x1
    /// The first (or only) frame of a binary message.
    case binary = 0x2
    /// Close: an optional two-byte status code and a UTF-8 reason.
    case close = 0x8
    /// Ping: the peer answers with a pong carrying the same payload.
    case ping = 0x9
    /// Pong: the answer to a ping, or an unsolicited heartbeat.
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong): at most 125 bytes of payload, never fragmented, and allowed
    /// between the fragments of a message.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
