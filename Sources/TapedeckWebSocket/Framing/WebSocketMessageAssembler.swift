import Foundation

/// Joins decoded frames into messages: a text or binary frame starts a message, continuations extend it, the final
/// one completes it; control frames pass through at once, also between fragments. It trusts the order and UTF-8
/// checks of ``WebSocketFrameDecoder``, which every frame it is given has passed.
public struct WebSocketMessageAssembler: Sendable {
    private var opcode: WebSocketOpcode?
    private var fragments = Data()

    /// An assembler with no message in progress.
    public init() {}

    /// The event `frame` completes, or nil when it is a fragment of a message still in progress.
    public mutating func consume(_ frame: WebSocketFrame) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return .close(WebSocketClose(payload: frame.payload))
        case .text, .binary:
            if frame.isFinal { return .message(Self.message(frame.opcode, frame.payload)) }
            opcode = frame.opcode
            fragments = frame.payload
            return nil
        case .continuation:
            fragments.append(frame.payload)
            guard frame.isFinal, let opcode else { return nil }
            let payload = fragments
            self.opcode = nil
            fragments = Data()
            return .message(Self.message(opcode, payload))
        }
    }

    private static func message(_ opcode: WebSocketOpcode, _ payload: Data) -> WebSocketMessage {
        opcode == .text ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
    }
}

/// A decoder and an assembler together: bytes in, events out. What a client or server reads a connection with.
///
/// ```swift
/// var parser = WebSocketParser(role: .server)
/// parser.append(receivedBytes)
/// while let event = try parser.next() {
///     switch event {
///     case .message(let message): handle(message)
///     case .ping(let payload): send(WebSocketFrame(opcode: .pong, payload: payload))
///     case .pong: break
///     case .close(let close): answerClose(close)
///     }
/// }
/// ```
public struct WebSocketParser: Sendable {
    /// The frame decoder (its checks and buffered bytes).
    public private(set) var decoder: WebSocketFrameDecoder
    private var assembler = WebSocketMessageAssembler()

    /// A parser for `role` with `limits`.
    public init(role: WebSocketRole, limits: WebSocketLimits = WebSocketLimits(), allowedReservedBits: UInt8 = 0) {
        decoder = WebSocketFrameDecoder(role: role, limits: limits, allowedReservedBits: allowedReservedBits)
    }

    /// Adds received bytes.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 { decoder.append(bytes) }

    /// Adds received bytes from a raw buffer.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) { decoder.append(bytes) }

    /// The next event, or nil when more bytes are needed.
    public mutating func next() throws(WebSocketProtocolError) -> WebSocketEvent? {
        while let frame = try decoder.nextFrame() {
            if let event = assembler.consume(frame) { return event }
        }
        return nil
    }
}
