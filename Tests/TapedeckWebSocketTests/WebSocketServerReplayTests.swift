import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckWebSocket

/// The server's side of a served conversation, without I/O: what goes out after each client frame.
@Suite struct WebSocketServerReplayTests {
    typealias Frame = WebSocketTranscript.Frame
    static let bye = WebSocketClose(code: .normalClosure, reason: "bye")

    static let chat: [Frame] = [
        Frame(direction: .server, kind: .text("welcome"), offset: 0.01),
        Frame(direction: .client, kind: .text("hello"), offset: 0.02),
        Frame(direction: .server, kind: .text("echo: hello"), offset: 0.03),
        Frame(direction: .server, kind: .ping(Data([1])), offset: 0.04),
        Frame(direction: .client, kind: .pong(Data([1])), offset: 0.04),
        Frame(direction: .client, kind: .binary(Data([7])), offset: 0.05),
        Frame(direction: .server, kind: .binary(Data([8])), offset: 0.06),
        Frame(direction: .client, kind: .close(bye), offset: 0.07),
        Frame(direction: .server, kind: .close(bye), offset: 0.08),
    ]

    static func text(_ text: String, at offset: Double) -> WebSocketServerReplay.Output {
        .send(WebSocketFrame(opcode: .text, payload: Data(text.utf8)), at: offset)
    }

    @Test func serverFramesGoOutOnceTheClientsBeforeThemArrived() {
        var replay = WebSocketServerReplay(frames: Self.chat)
        #expect(replay.start() == [Self.text("welcome", at: 0.01)])
        #expect(replay.received(.message(.text("hello"))) == [
            Self.text("echo: hello", at: 0.03), .send(WebSocketFrame(opcode: .ping, payload: Data([1])), at: 0.04),
        ])
        #expect(replay.received(.pong(Data([1]))) == [])
        #expect(replay.received(.message(.binary(Data([7])))) == [.send(WebSocketFrame(opcode: .binary, payload: Data([8])), at: 0.06)])
        #expect(replay.received(.close(Self.bye)) == [.send(Self.bye.frame, at: 0.08), .end])
        #expect(replay.isOver)
    }

    /// The recorded pong is passed over when the client's next message comes first; its late pong is let through.
    @Test func aRecordedPongIsPassedOverAndAKeepalivePingAnswered() {
        var replay = WebSocketServerReplay(frames: Self.chat)
        _ = replay.start()
        _ = replay.received(.message(.text("hello")))
        #expect(replay.received(.ping(Data("keepalive".utf8))) == [.send(WebSocketFrame(opcode: .pong, payload: Data("keepalive".utf8)), at: 0)])
        #expect(replay.received(.message(.binary(Data([7])))) == [.send(WebSocketFrame(opcode: .binary, payload: Data([8])), at: 0.06)])
        #expect(replay.received(.pong(Data([1]))) == [])
    }

    @Test func aMessageThatMatchesNothingIsANearMissAndACloseWithTheChosenCode() {
        var replay = WebSocketServerReplay(frames: Self.chat, mismatchCode: WebSocketCloseCode(rawValue: 4000))
        _ = replay.start()
        let mismatch = WebSocketReplayMismatch(frameIndex: 1, frameCount: 9, sent: "text \"goodbye\"", expected: "text \"hello\"")
        #expect(replay.received(.message(.text("goodbye"))) == [
            .mismatch(mismatch), .send(.close(code: WebSocketCloseCode(rawValue: 4000), reason: "no recorded message matches (frame 2)"), at: 0), .end,
        ])
        #expect(replay.received(.message(.text("hello"))) == [])
    }

    @Test func jsonMatchingAcceptsReorderedMembers() {
        let frames = [Frame(direction: .client, kind: .text(#"{"a":1,"b":2}"#), offset: 0), Frame(direction: .server, kind: .text("ok"), offset: 0)]
        var exact = WebSocketServerReplay(frames: frames)
        var json = WebSocketServerReplay(frames: frames, matcher: WebSocketFrameMatcher(mode: .json))
        #expect(exact.received(.message(.text(#"{"b":2,"a":1}"#))).first.map { if case .mismatch = $0 { true } else { false } } == true)
        #expect(json.received(.message(.text(#"{"b":2,"a":1}"#))) == [Self.text("ok", at: 0), .cut("after frame 2 (server text \"ok\" at 0.000 s)"), .end])
    }

    @Test func aProtocolErrorClosesWithTheRFCCode() {
        var replay = WebSocketServerReplay(frames: Self.chat)
        _ = replay.start()
        let error = WebSocketProtocolError.maskingMismatch(expectedMasked: true)
        #expect(replay.failed(error) == [.send(.close(code: .protocolError, reason: error.reason), at: 0), .end])
        #expect(replay.failed(error) == [])
    }

    @Test func aServerCloseIsAnsweredByTheClientsAndTheConversationEnds() {
        var replay = WebSocketServerReplay(frames: [
            Frame(direction: .server, kind: .close(WebSocketClose(code: .goingAway)), offset: 0),
            Frame(direction: .client, kind: .close(WebSocketClose(code: .goingAway)), offset: 0),
        ])
        #expect(replay.start() == [.send(WebSocketClose(code: .goingAway).frame, at: 0)])
        #expect(replay.received(.close(WebSocketClose(code: .goingAway))) == [.end])
    }

    /// A message the client sent before it saw the server's close is dropped unread, not reported as a near miss.
    @Test func aMessageAfterTheServersCloseIsDroppedWhileItsCloseIsAwaited() throws {
        var replay = WebSocketServerReplay(frames: [
            Frame(direction: .server, kind: .close(WebSocketClose(code: .goingAway)), offset: 0),
            Frame(direction: .client, kind: .close(WebSocketClose(code: .goingAway)), offset: 0),
        ])
        _ = replay.start()
        #expect(replay.received(.message(.text("late"))) == [])
        #expect(!replay.isOver)
        #expect(replay.received(.close(WebSocketClose(code: .goingAway))) == [.end])
    }

    @Test func aDropCutsTheConnectionAfterTheServersFrameN() throws {
        var replay = WebSocketServerReplay(script: try WebSocketReplayScript(recorded: Self.chat, fault: ConversationFault(after: 2, .drop)))
        #expect(replay.start() == [Self.text("welcome", at: 0.01)])
        #expect(replay.received(.message(.text("hello"))) == [Self.text("echo: hello", at: 0.03), .drop])
        #expect(replay.isOver)
    }

    @Test func aCloseFaultSendsItsCodeAndReasonThenAwaitsTheAnswer() throws {
        let close = WebSocketClose(code: .internalError, reason: "db down")
        var replay = WebSocketServerReplay(script: try WebSocketReplayScript(recorded: Self.chat, fault: ConversationFault(after: 1, .close(close))))
        #expect(replay.start() == [Self.text("welcome", at: 0.01), .send(close.frame, at: 0.01)])
        #expect(replay.received(.message(.text("hello"))) == [])
        #expect(replay.received(.close(WebSocketClose(code: .internalError))) == [.end])
    }

    @Test func aStalledServerAnswersNothingNotEvenACloseOrAPing() throws {
        var replay = WebSocketServerReplay(script: try WebSocketReplayScript(recorded: Self.chat, fault: ConversationFault(after: 1, .stall)))
        #expect(replay.start() == [Self.text("welcome", at: 0.01)])
        #expect(replay.received(.message(.text("hello"))) == [])
        #expect(replay.received(.ping(Data([9]))) == [])
        #expect(replay.received(.close(Self.bye)) == [])
        #expect(!replay.isOver)
    }
}
