/// Why a peer's bytes broke RFC 6455, with the close code the RFC asks the receiving endpoint to close with: 1002 for a
/// malformed or misused frame, 1007 for text that is not UTF-8, 1009 for a frame or message over the configured limit.
///
/// ```swift
/// do { while let event = try parser.next() { … } }
/// catch let error as WebSocketProtocolError {
///     send(.close(code: error.closeCode, reason: error.reason))
/// }
/// ```
public enum WebSocketProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An opcode the RFC reserves (0x3–0x7, 0xB–0xF).
    case reservedOpcode(UInt8)
    /// RSV1–RSV3 set without an extension that defines them.
    case reservedBitsSet(UInt8)
    /// A client frame without a mask (a server must fail the connection) or a server frame with one.
    case maskingMismatch(expectedMasked: Bool)
    /// A close, ping or pong frame with FIN clear.
    case fragmentedControlFrame(WebSocketOpcode)
    /// A control frame whose payload is over 125 bytes.
    case controlFrameTooLong(WebSocketOpcode, length: UInt64)
    /// A 64-bit payload length with its most significant bit set.
    case payloadLengthHighBitSet
    /// A continuation frame with no fragmented message in progress.
    case unexpectedContinuation
    /// A text or binary frame while a fragmented message still waits for its final fragment.
    case messageInterrupted(by: WebSocketOpcode)
    /// A close frame with a one-byte payload (a code takes two).
    case closePayloadTooShort
    /// A close frame carrying a code no peer may send (1004–1006, 1015, below 1000, 1016–2999, from 5000).
    case invalidCloseCode(UInt16)
    /// A text message, or a close reason, that is not valid UTF-8; `offset` counts bytes from the message's start.
    case invalidUTF8(offset: Int, inCloseReason: Bool)
    /// A frame whose payload is longer than ``WebSocketLimits/maximumFrameSize``.
    case frameTooBig(length: UInt64, limit: Int)
    /// A message whose fragments add up to more than ``WebSocketLimits/maximumMessageSize``.
    case messageTooBig(length: UInt64, limit: Int)

    /// The code to close the connection with.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .invalidUTF8: return .invalidPayloadData
        case .frameTooBig, .messageTooBig: return .messageTooBig
        default: return .protocolError
        }
    }

    /// A short reason for the close frame (well within its 123 bytes).
    public var reason: String {
        switch self {
        case .reservedOpcode(let opcode): return "reserved opcode 0x\(String(opcode, radix: 16))"
        case .reservedBitsSet(let bits): return "reserved bits \(bits) set without an extension"
        case .maskingMismatch(let expectedMasked): return expectedMasked ? "client frame not masked" : "server frame masked"
        case .fragmentedControlFrame(let opcode): return "fragmented \(opcode) frame"
        case .controlFrameTooLong(let opcode, let length): return "\(opcode) payload of \(length) bytes is over 125"
        case .payloadLengthHighBitSet: return "64-bit payload length has its high bit set"
        case .unexpectedContinuation: return "continuation frame without a message to continue"
        case .messageInterrupted(let opcode): return "\(opcode) frame inside a fragmented message"
        case .closePayloadTooShort: return "close payload of 1 byte"
        case .invalidCloseCode(let code): return "close code \(code) may not be sent"
        case .invalidUTF8(let offset, let inCloseReason):
            return inCloseReason ? "close reason is not UTF-8 at byte \(offset)" : "text is not UTF-8 at byte \(offset)"
        case .frameTooBig(let length, let limit): return "frame of \(length) bytes is over the limit of \(limit)"
        case .messageTooBig(let length, let limit): return "message of at least \(length) bytes is over the limit of \(limit)"
        }
    }

    /// How messages, logs and test failures print it.
    public var description: String { "WebSocket protocol error (\(closeCode.rawValue)): \(reason)" }
}
