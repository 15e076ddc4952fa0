import Foundation

/// One WebSocket frame as it travels (RFC 6455 §5.2), without its masking: the decoder unmasks, the encoder masks.
///
/// ```swift
/// let hello = WebSocketFrame(opcode: .text, payload: Data("Hello".utf8))
/// let wire = WebSocketFrameEncoder.encode(hello, maskingKey: nil)   // 81 05 48 65 6c 6c 6f
/// ```
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last frame of its message (always true for control frames).
    public var isFinal: Bool
    /// The three reserved bits (RSV1 is bit 2, RSV2 bit 1, RSV3 bit 0); non-zero only with a negotiated extension.
    public var reservedBits: UInt8
    /// What the payload is.
    public var opcode: WebSocketOpcode
    /// The application data, unmasked.
    public var payload: Data

    /// A frame; by default final and with no reserved bits.
    public init(opcode: WebSocketOpcode, payload: Data = Data(), isFinal: Bool = true, reservedBits: UInt8 = 0) {
        self.isFinal = isFinal
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.payload = payload
    }

    /// A close frame carrying `code` and `reason` (RFC 6455 §5.5.1). The reason is cut at a character boundary so that
    /// the payload stays within a control frame's 125 bytes.
    public static func close(code: WebSocketCloseCode, reason: String = "") -> WebSocketFrame {
        var payload = Data([UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)])
        var budget = WebSocketFrameDecoder.maximumControlPayload - 2
        for scalar in reason.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard bytes.count <= budget else { break }
            payload.append(contentsOf: bytes)
            budget -= bytes.count
        }
        return WebSocketFrame(opcode: .close, payload: payload)
    }
}
