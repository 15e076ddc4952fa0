import Foundation

/// Reads frames from a byte stream that arrives in pieces (RFC 6455 §5), and checks every rule a receiver must: the
/// reserved opcodes and bits, masking by role, control frames (final, at most 125 bytes, allowed between a
/// message's fragments), the order of fragments, the high bit of a 64-bit length, close codes, UTF-8 in text (checked
/// across fragments as they arrive) and in close reasons, and the configured size limits (checked from the header,
/// before the payload is buffered). A broken rule throws a ``WebSocketProtocolError`` naming the close code to send;
/// the decoder then stays failed.
///
/// ```swift
/// var decoder = WebSocketFrameDecoder(role: .client)
/// decoder.append([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
/// let frame = try decoder.nextFrame()   // text "Hello", final
/// ```
public struct WebSocketFrameDecoder: Sendable {
    /// The longest payload a control frame may carry.
    public static let maximumControlPayload = 125

    /// The endpoint this decoder reads for (a server expects masked frames, a client unmasked ones).
    public let role: WebSocketRole
    /// The size limits.
    public let limits: WebSocketLimits
    /// The reserved bits a negotiated extension defines (RSV1 = 4, RSV2 = 2, RSV3 = 1); others refuse the frame.
    public let allowedReservedBits: UInt8

    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// The opcode of the fragmented message in progress (text or binary), with its length so far.
    private var fragmentedMessage: WebSocketOpcode?
    private var messageLength: UInt64 = 0
    /// UTF-8 state of the text message in progress.
    private var text = IncrementalUTF8Validator()
    private var failure: WebSocketProtocolError?

    /// A decoder for `role`.
    public init(role: WebSocketRole, limits: WebSocketLimits = WebSocketLimits(), allowedReservedBits: UInt8 = 0) {
        self.role = role
        self.limits = limits
        self.allowedReservedBits = allowedReservedBits & 0x7
    }

    /// Bytes received but not yet decoded into a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Whether a fragmented message has begun and not ended: a connection that ends now cuts it off.
    public var isInsideMessage: Bool { fragmentedMessage != nil }

    /// Adds received bytes.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes from a raw buffer (what `recv` filled).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    public mutating func nextFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try decodeFrame()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func decodeFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - readIndex
        guard available >= 2 else { return nil }
        let first = buffer[readIndex], second = buffer[readIndex + 1]
        let isFinal = first & 0x80 != 0
        let reservedBits = first >> 4 & 0x7
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { throw .reservedOpcode(first & 0x0F) }
        guard reservedBits & ~allowedReservedBits == 0 else { throw .reservedBitsSet(reservedBits) }
        let isMasked = second & 0x80 != 0
        guard isMasked == role.expectsMaskedFrames else { throw .maskingMismatch(expectedMasked: role.expectsMaskedFrames) }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[readIndex + 2]) << 8 | UInt64(buffer[readIndex + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(buffer[readIndex + index]) }
            guard length >> 63 == 0 else { throw .payloadLengthHighBitSet }
            headerLength = 10
        }
        try checkSequence(opcode: opcode, isFinal: isFinal, length: length)
        let maskOffset = headerLength
        if isMasked { headerLength += 4 }
        // Within the limits checked above, so the length fits an Int.
        let payloadLength = Int(length)
        guard available >= headerLength + payloadLength else { return nil }
        let payloadStart = readIndex + headerLength
        var payload = Data(buffer[payloadStart..<payloadStart + payloadLength])
        if isMasked {
            let key = WebSocketMaskingKey(
                buffer[readIndex + maskOffset], buffer[readIndex + maskOffset + 1],
                buffer[readIndex + maskOffset + 2], buffer[readIndex + maskOffset + 3])
            payload.withUnsafeMutableBytes { key.apply(to: $0) }
        }
        readIndex = payloadStart + payloadLength
        try checkPayload(payload, opcode: opcode, isFinal: isFinal)
        return WebSocketFrame(opcode: opcode, payload: payload, isFinal: isFinal, reservedBits: reservedBits)
    }

    /// The rules a header alone decides: control frames, the order of fragments, and the size limits.
    private mutating func checkSequence(opcode: WebSocketOpcode, isFinal: Bool, length: UInt64) throws(WebSocketProtocolError) {
        if opcode.isControl {
            guard isFinal else { throw .fragmentedControlFrame(opcode) }
            guard length <= UInt64(Self.maximumControlPayload) else { throw .controlFrameTooLong(opcode, length: length) }
            return
        }
        guard length <= UInt64(limits.maximumFrameSize) else { throw .frameTooBig(length: length, limit: limits.maximumFrameSize) }
        switch (opcode, fragmentedMessage) {
        case (.continuation, nil): throw .unexpectedContinuation
        case (.continuation, _): break
        case (_, .some): throw .messageInterrupted(by: opcode)
        case (_, nil): messageLength = 0
        }
        let total = messageLength + length
        guard total <= UInt64(limits.maximumMessageSize) else { throw .messageTooBig(length: total, limit: limits.maximumMessageSize) }
    }

    /// The rules the payload decides: UTF-8 in text and close reasons, and close codes. Then the fragment state moves on.
    private mutating func checkPayload(_ payload: Data, opcode: WebSocketOpcode, isFinal: Bool) throws(WebSocketProtocolError) {
        switch opcode {
        case .close:
            try Self.checkClosePayload(payload)
            return
        case .ping, .pong:
            return
        case .text:
            text = IncrementalUTF8Validator()
        case .binary, .continuation:
            break
        }
        let messageOpcode = opcode == .continuation ? fragmentedMessage : opcode
        if messageOpcode == .text {
            if let offset = text.consume(payload) { throw .invalidUTF8(offset: offset, inCloseReason: false) }
            if isFinal, !text.isAtCharacterBoundary { throw .invalidUTF8(offset: text.byteCount, inCloseReason: false) }
        }
        messageLength += UInt64(payload.count)
        fragmentedMessage = isFinal ? nil : messageOpcode
    }

    /// A close payload is empty, or a code a peer may send followed by a UTF-8 reason.
    static func checkClosePayload(_ payload: Data) throws(WebSocketProtocolError) {
        guard !payload.isEmpty else { return }
        guard payload.count >= 2 else { throw .closePayloadTooShort }
        // The reason first, then the code: a frame wrong in both closes with 1007, as Python websockets does.
        var reason = IncrementalUTF8Validator()
        let reasonBytes = payload.dropFirst(2)
        if let offset = reason.consume(reasonBytes) { throw .invalidUTF8(offset: offset, inCloseReason: true) }
        if !reason.isAtCharacterBoundary { throw .invalidUTF8(offset: reasonBytes.count, inCloseReason: true) }
        let start = payload.startIndex
        let code = WebSocketCloseCode(rawValue: UInt16(payload[start]) << 8 | UInt16(payload[start + 1]))
        guard code.isAllowedOnTheWire else { throw .invalidCloseCode(code.rawValue) }
    }

    /// Drops decoded bytes once they are the larger part of the buffer, so the buffer does not grow without end.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
