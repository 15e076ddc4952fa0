import Foundation
import Testing
import TapedeckCore
import TapedeckWebSocket

/// A recorded conversation replayed in process through the same ``WebSocket`` API, without a network.
@Suite struct InProcessReplayTests {
    typealias Frame = WebSocketConversation.Frame

    static func conversation(_ frames: [Frame]) -> WebSocketConversation {
        WebSocketConversation(
            url: URL(string: "ws://chat.example/room")!, requestHeaders: ["Sec-WebSocket-Protocol": "chat"],
            response: WebSocketUpgradeResponseHead(status: 101, reason: "Switching Protocols", headers: ["Sec-WebSocket-Protocol": "chat"]),
            frames: frames)
    }

    static let chat: [Frame] = [
        Frame(direction: .server, kind: .text("welcome"), offset: 0.01),
        Frame(direction: .client, kind: .text("hello"), offset: 0.02),
        Frame(direction: .server, kind: .text("echo: hello"), offset: 0.03),
        Frame(direction: .server, kind: .ping(Data([1])), offset: 0.04),
        Frame(direction: .client, kind: .pong(Data([1])), offset: 0.04),
        Frame(direction: .server, kind: .binary(Data([0xCA, 0xFE])), offset: 0.05),
        Frame(direction: .client, kind: .close(WebSocketClose(code: .normalClosure, reason: "bye")), offset: 0.06),
        Frame(direction: .server, kind: .close(WebSocketClose(code: .normalClosure, reason: "bye")), offset: 0.07),
    ]

    @Test func aConversationReplaysAsRecorded() async throws {
        let socket = WebSocket.replay(Self.conversation(Self.chat))
        #expect(socket.negotiation.subprotocol == "chat")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome"))
        try await socket.send(.text("hello"))
        #expect(try await iterator.next() == .text("echo: hello"))
        // The ping was answered with the recorded pong by the client's own state machine.
        #expect(try await iterator.next() == .binary(Data([0xCA, 0xFE])))
        #expect(await socket.close(.normalClosure, reason: "bye") == .closed(WebSocketClose(code: .normalClosure, reason: "bye")))
        #expect(try await iterator.next() == nil)
    }

    @Test func aMessageTheRecordingDoesNotHaveIsANearMiss() async throws {
        let socket = WebSocket.replay(Self.conversation(Self.chat))
        let mismatch = WebSocketReplayMismatch(frameIndex: 1, frameCount: 8, sent: "text \"goodbye\"", expected: "text \"hello\"")
        await #expect(throws: mismatch) { try await socket.send(.text("goodbye")) }
        #expect(mismatch.description == "WebSocket replay: the client sent text \"goodbye\" where the recording has text \"hello\" (frame 2 of 8)")
        #expect(await socket.ending() == .abnormal(reason: mismatch.description))
        var received: [WebSocketMessage] = []
        await #expect(throws: mismatch) { for try await message in socket.messages { received.append(message) } }
        #expect(received == [.text("welcome")])
    }

    @Test func aCutOffRecordingReplaysUpToTheCutAndSaysWhere() async throws {
        let socket = WebSocket.replay(Self.conversation(Array(Self.chat.prefix(3))))
        try await socket.send(.text("hello"))
        var received: [WebSocketMessage] = []
        do {
            for try await message in socket.messages { received.append(message) }
            Issue.record("the messages of a cut recording ended without an error")
        } catch let error as WebSocketError {
            #expect(error == .abnormalClosure(reason: "the recording ends after frame 3 (server text \"echo: hello\" at 0.030 s) without the server's close"))
        }
        #expect(received == [.text("welcome"), .text("echo: hello")])
        #expect(!Self.conversation(Array(Self.chat.prefix(3))).isComplete)
        #expect(Self.conversation(Self.chat).isComplete)
    }

    @Test func aServerCloseIsAnsweredAsRecordedAndSendingAfterItFails() async throws {
        let socket = WebSocket.replay(Self.conversation([
            Frame(direction: .server, kind: .close(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "asked")), offset: 0),
            Frame(direction: .client, kind: .close(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000))), offset: 0),
        ]))
        #expect(await socket.ending() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "asked")))
        await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
    }

    @Test func tenThousandMessagesReplayInOrder() async throws {
        var frames: [Frame] = []
        for index in 0..<5_000 {
            frames.append(Frame(direction: .client, kind: .text("q\(index)"), offset: Double(index)))
            frames.append(Frame(direction: .server, kind: .text("a\(index)"), offset: Double(index)))
        }
        frames.append(Frame(direction: .client, kind: .close(WebSocketClose(code: .normalClosure)), offset: 5_000))
        frames.append(Frame(direction: .server, kind: .close(WebSocketClose(code: .normalClosure)), offset: 5_000))
        let socket = WebSocket.replay(Self.conversation(frames))
        var iterator = socket.messages.makeAsyncIterator()
        for index in 0..<5_000 {
            try await socket.send(.text("q\(index)"))
            #expect(try await iterator.next() == .text("a\(index)"))
        }
        #expect(await socket.close() == .closed(WebSocketClose(code: .normalClosure)))
    }
}
