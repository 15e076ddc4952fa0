import Foundation
import Testing
import TapedeckCore
import TapedeckWebSocket

/// Random frames, encoded by one role and decoded by the other, come back as they were; masking is its own inverse
/// at every offset.
@Suite struct FrameRoundTripTests {
    @Test func randomFramesSurviveEncodingAndDecodingBothWays() throws {
        var generator = SplitMix64(seed: 6455)
        for round in 0..<100 {
            var sent: [WebSocketFrame] = []
            var inMessage = false
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let isControl = Bool.random(using: &generator) && Int.random(in: 0..<3, using: &generator) == 0
                let lengthClass = Int.random(in: 0..<10, using: &generator)
                let length = isControl ? Int.random(in: 0...125, using: &generator)
                    : lengthClass < 6 ? Int.random(in: 0...125, using: &generator)
                    : lengthClass < 9 ? Int.random(in: 126...70_000, using: &generator) : 65_536
                let payload = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                if isControl {
                    sent.append(WebSocketFrame(opcode: [.ping, .pong].randomElement(using: &generator)!, payload: payload))
                } else {
                    let isFinal = Bool.random(using: &generator)
                    sent.append(WebSocketFrame(opcode: inMessage ? .continuation : .binary, payload: payload, isFinal: isFinal))
                    inMessage = !isFinal
                }
            }
            for role in [WebSocketRole.client, .server] {
                var wire: [UInt8] = []
                for frame in sent {
                    WebSocketFrameEncoder.append(frame, maskingKey: role == .server ? .random(using: &generator) : nil, to: &wire)
                }
                var decoder = WebSocketFrameDecoder(role: role)
                var received: [WebSocketFrame] = []
                var rest = wire[...]
                while !rest.isEmpty {
                    let piece = rest.prefix(Int.random(in: 1...9000, using: &generator))
                    rest = rest.dropFirst(piece.count)
                    decoder.append(piece)
                    while let frame = try decoder.nextFrame() { received.append(frame) }
                }
                #expect(received == sent, "round \(round), receiving as \(role)")
                #expect(decoder.bufferedByteCount == 0)
            }
        }
    }

    @Test func maskingIsItsOwnInverseAtEveryOffset() {
        var generator = SplitMix64(seed: 1)
        let key = WebSocketMaskingKey(0x01, 0x23, 0x45, 0x67)
        for length in [0, 1, 3, 7, 8, 9, 15, 16, 17, 100] {
            for offset in 0..<4 {
                let original = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                var bytes = original
                bytes.withUnsafeMutableBytes { key.apply(to: $0, payloadOffset: offset) }
                // Byte i is XORed with key byte (offset + i) mod 4.
                #expect(bytes == original.enumerated().map { $0.element ^ key.bytes[($0.offset + offset) & 3] })
                bytes.withUnsafeMutableBytes { key.apply(to: $0, payloadOffset: offset) }
                #expect(bytes == original)
            }
        }
    }
}
