import Foundation

/// Writes frames as bytes (RFC 6455 §5.2): the shortest of the 7-, 16- and 64-bit payload lengths, and the payload
/// masked when a key is given (a client always passes one, a server never does).
///
/// ```swift
/// var wire: [UInt8] = []
/// WebSocketFrameEncoder.append(WebSocketFrame(opcode: .text, payload: Data("Hello".utf8)),
///                              maskingKey: WebSocketMaskingKey(0x37, 0xfa, 0x21, 0x3d), to: &wire)
/// // 81 85 37 fa 21 3d 7f 9f 4d 51 58
/// ```
public enum WebSocketFrameEncoder {
    /// The frame's bytes.
    public static func encode(_ frame: WebSocketFrame, maskingKey: WebSocketMaskingKey?) -> [UInt8] {
        var bytes: [UInt8] = []
        append(frame, maskingKey: maskingKey, to: &bytes)
        return bytes
    }

    /// Appends the frame's bytes to `buffer`.
    public static func append(_ frame: WebSocketFrame, maskingKey: WebSocketMaskingKey?, to buffer: inout [UInt8]) {
        let length = frame.payload.count
        buffer.reserveCapacity(buffer.count + headerLength(payloadLength: length, masked: maskingKey != nil) + length)
        buffer.append((frame.isFinal ? 0x80 : 0) | (frame.reservedBits & 0x7) << 4 | frame.opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch length {
        case 0...125:
            buffer.append(maskBit | UInt8(length))
        case 126...0xFFFF:
            buffer.append(maskBit | 126)
            buffer.append(UInt8(length >> 8))
            buffer.append(UInt8(length & 0xFF))
        default:
            buffer.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(UInt64(length) >> UInt64(shift) & 0xFF)) }
        }
        guard let key = maskingKey else {
            buffer.append(contentsOf: frame.payload)
            return
        }
        buffer.append(contentsOf: key.bytes)
        let start = buffer.count
        buffer.append(contentsOf: frame.payload)
        buffer.withUnsafeMutableBytes { key.apply(to: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
    }

    /// How many bytes the header of a frame with this payload length takes.
    public static func headerLength(payloadLength: Int, masked: Bool) -> Int {
        let lengthBytes = payloadLength <= 125 ? 0 : payloadLength <= 0xFFFF ? 2 : 8
        return 2 + lengthBytes + (masked ? 4 : 0)
    }
}
