import Foundation
import Testing
import TapedeckWebSocket

/// The example frames of RFC 6455 §5.7, decoded by the side that receives them and encoded by the side that sends them.
@Suite struct RFCExampleFrameTests {
    static let hello = Data("Hello".utf8)
    static let exampleKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

    @Test func unmaskedTextFrameFromAServer() throws {
        let wire: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        #expect(try frames(wire, role: .client) == [WebSocketFrame(opcode: .text, payload: Self.hello)])
        #expect(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Self.hello), maskingKey: nil) == wire)
    }

    @Test func maskedTextFrameFromAClient() throws {
        let wire: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try frames(wire, role: .server) == [WebSocketFrame(opcode: .text, payload: Self.hello)])
        #expect(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Self.hello), maskingKey: Self.exampleKey) == wire)
    }

    @Test func fragmentedUnmaskedTextMessage() throws {
        let wire: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        let decoded = try frames(wire, role: .client)
        #expect(decoded == [
            WebSocketFrame(opcode: .text, payload: Data("Hel".utf8), isFinal: false),
            WebSocketFrame(opcode: .continuation, payload: Data("lo".utf8)),
        ])
        var parser = WebSocketParser(role: .client)
        parser.append(wire)
        #expect(try parser.next() == .message(.text("Hello")))
        #expect(try parser.next() == nil)
    }

    @Test func unmaskedPingAndMaskedPong() throws {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try frames(ping, role: .client) == [WebSocketFrame(opcode: .ping, payload: Self.hello)])
        #expect(try frames(pong, role: .server) == [WebSocketFrame(opcode: .pong, payload: Self.hello)])
        #expect(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .pong, payload: Self.hello), maskingKey: Self.exampleKey) == pong)
    }

    @Test func binaryFramesWithSixteenAndSixtyFourBitLengths() throws {
        let small = Data((0..<256).map { UInt8($0 & 0xFF) })
        let smallWire = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: small), maskingKey: nil)
        #expect(Array(smallWire.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(smallWire.count == 4 + 256)
        #expect(try frames(smallWire, role: .client) == [WebSocketFrame(opcode: .binary, payload: small)])

        let large = Data(repeating: 0xA5, count: 65536)
        let largeWire = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: large), maskingKey: nil)
        #expect(Array(largeWire.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00])
        #expect(try frames(largeWire, role: .client) == [WebSocketFrame(opcode: .binary, payload: large)])
    }

    @Test func lengthEncodingSwitchesAtTheRFCBoundaries() {
        for (length, headerLength) in [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)] {
            let wire = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: Data(count: length)), maskingKey: nil)
            #expect(wire.count - length == headerLength, "payload of \(length) bytes")
            #expect(WebSocketFrameEncoder.headerLength(payloadLength: length, masked: true) == headerLength + 4)
        }
    }

    @Test func openingHandshakeAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}

/// Every frame `wire` decodes to, fed one byte at a time so that every split of a header and payload is crossed.
func frames(_ wire: [UInt8], role: WebSocketRole, limits: WebSocketLimits = WebSocketLimits()) throws -> [WebSocketFrame] {
    var decoder = WebSocketFrameDecoder(role: role, limits: limits)
    var decoded: [WebSocketFrame] = []
    for byte in wire {
        decoder.append(CollectionOfOne(byte))
        while let frame = try decoder.nextFrame() { decoded.append(frame) }
    }
    #expect(decoder.bufferedByteCount == 0)
    return decoded
}
