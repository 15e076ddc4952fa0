import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckWebSocket

/// The recording proxy's tap, without I/O: the frames of both directions as they pass, whatever the bytes' chunking;
/// fragments joined and control frames between them kept in order; a direction that breaks the protocol stops being
/// noted while the other goes on.
@Suite struct WebSocketRelayTapTests {
    static let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

    /// A client frame (masked) and the server's fragmented message with a ping between its fragments.
    static let clientBytes = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Data("hello".utf8)), maskingKey: key)
        + WebSocketFrameEncoder.encode(.close(code: .normalClosure, reason: "bye"), maskingKey: key)
    static let serverBytes = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: Data([1, 2]), isFinal: false), maskingKey: nil)
        + WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .ping, payload: Data("p".utf8)), maskingKey: nil)
        + WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .continuation, payload: Data([3])), maskingKey: nil)

    @Test(arguments: [1, 2, 3, 7, 1000])
    func framesAreNotedWhateverTheChunking(chunk: Int) {
        var tap = WebSocketRelayTap()
        var offset = 0.0
        for start in stride(from: 0, to: Self.serverBytes.count, by: chunk) {
            offset += 0.001
            tap.passed(Self.serverBytes[start..<min(start + chunk, Self.serverBytes.count)], from: .server, at: offset)
        }
        for start in stride(from: 0, to: Self.clientBytes.count, by: chunk) {
            tap.passed(Self.clientBytes[start..<min(start + chunk, Self.clientBytes.count)], from: .client, at: 1)
        }
        #expect(tap.frames.map(\.direction) == [.server, .server, .client, .client])
        #expect(tap.frames.map(\.kind) == [
            .ping(Data("p".utf8)), .binary(Data([1, 2, 3])), .text("hello"), .close(WebSocketClose(code: .normalClosure, reason: "bye")),
        ])
        #expect(tap.frames.allSatisfy { $0.offset > 0 })
        #expect(tap.problems.isEmpty)
    }

    @Test func anUnmaskedClientFrameStopsTheClientSideOnly() {
        var tap = WebSocketRelayTap()
        tap.passed(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Data("raw".utf8)), maskingKey: nil), from: .client, at: 0)
        tap.passed(Self.clientBytes, from: .client, at: 0.1)
        tap.passed(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Data("still".utf8)), maskingKey: nil), from: .server, at: 0.2)
        #expect(tap.frames.map(\.kind) == [.text("still")])
        #expect(tap.problems.count == 1)
        #expect(tap.problems.first?.contains("client") == true)
    }
}
