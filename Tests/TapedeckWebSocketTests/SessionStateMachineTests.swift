import Foundation
import Testing
@testable import TapedeckWebSocket

/// The close handshake and the answers to control frames, without I/O.
@Suite struct SessionStateMachineTests {
    @Test func pingsAreAnsweredWithTheirPayloadWhileOpen() {
        var machine = WebSocketSessionStateMachine()
        #expect(machine.received(.ping(Data([1, 2]))).send == [WebSocketFrame(opcode: .pong, payload: Data([1, 2]))])
        #expect(machine.received(.pong(Data([3]))) == .init(pong: Data([3])))
        #expect(machine.received(.message(.text("a"))) == .init(deliver: .text("a")))
        _ = machine.close(WebSocketClose(code: .normalClosure))
        #expect(machine.received(.ping(Data())).send.isEmpty)
    }

    @Test func thePeersCloseIsEchoedAndEndsTheConnection() {
        var machine = WebSocketSessionStateMachine()
        let close = WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "asked")
        let actions = machine.received(.close(close))
        #expect(actions.send == [WebSocketFrame.close(code: WebSocketCloseCode(rawValue: 4000))])
        #expect(actions.ending == .closed(close))
        #expect(!machine.canSend)
        #expect(machine.received(.message(.text("late"))) == .init())
        #expect(machine.streamEnded(reason: "eof") == .init())
    }

    @Test func aCloseWithoutACodeIsEchoedWithoutOne() {
        var machine = WebSocketSessionStateMachine()
        #expect(machine.received(.close(WebSocketClose(code: .noStatusReceived))).send == [WebSocketFrame(opcode: .close)])
    }

    @Test func theUsersCloseWaitsForThePeersAndStillDeliversData() {
        var machine = WebSocketSessionStateMachine()
        #expect(machine.close(WebSocketClose(code: .goingAway, reason: "bye")).send == [.close(code: .goingAway, reason: "bye")])
        #expect(machine.state == .closing)
        #expect(machine.close(WebSocketClose(code: .normalClosure)) == .init())
        #expect(!machine.canSend)
        #expect(machine.received(.message(.binary(Data([9])))) == .init(deliver: .binary(Data([9]))))
        let answer = machine.received(.close(WebSocketClose(code: .goingAway)))
        #expect(answer.send.isEmpty)
        #expect(answer.ending == .closed(WebSocketClose(code: .goingAway)))
    }

    @Test func aProtocolErrorSendsTheRFCsCloseOnce() {
        var machine = WebSocketSessionStateMachine()
        let error = WebSocketProtocolError.invalidUTF8(offset: 3, inCloseReason: false)
        let actions = machine.failed(error)
        #expect(actions.send == [.close(code: .invalidPayloadData, reason: error.reason)])
        #expect(actions.ending == .protocolError(error))
        #expect(machine.failed(.unexpectedContinuation) == .init())
    }

    @Test func aStreamThatEndsWithoutACloseIsAbnormal() {
        var machine = WebSocketSessionStateMachine()
        #expect(machine.streamEnded(reason: "reset").ending == .abnormal(reason: "reset"))
        #expect(WebSocketEnding.abnormal(reason: "reset").code == .abnormalClosure)
    }
}
