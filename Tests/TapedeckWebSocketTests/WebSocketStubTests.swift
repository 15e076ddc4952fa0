import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// Stubbed WebSocket routes: what is sent on connect, the first rule whose body pattern (equal, contains, regex,
/// JSONPath) accepts a message answers it, with waits, close codes and drops. The session is tested without I/O;
/// Python's `websockets` client judges the frames over a real socket.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebSocketStubTests {
    static let stub = WebSocketStub(
        rules: [
            .init(.equalTo(Data("one".utf8)), [.send(.text("1"))]),
            .init(.jsonPath(JSONPath("$.type"), .equalTo("ping")), [.wait(.milliseconds(30)), .send(.text(#"{"type":"pong"}"#))]),
            .init(.matches("n[0-9]+"), [.send(.text("number"))]),
            .init(.contains("close-me"), [.close(WebSocketCloseCode(rawValue: 4000), reason: "asked"), .send(.text("never"))]),
            .init(.contains("drop"), [.drop]),
        ],
        otherwise: [.send(.binary(Data([0xFF])))])

    @Test func theSessionAnswersTheFirstMatchingRuleAndStopsAfterAClose() {
        var session = WebSocketStubSession(Self.stub)
        #expect(session.start().isEmpty)
        #expect(session.received(.message(.text("one"))) == [.send(WebSocketFrame(opcode: .text, payload: Data("1".utf8)))])
        #expect(session.received(.message(.text(#"{"type":"ping","n":1}"#))) == [
            .wait(.milliseconds(30)), .send(WebSocketFrame(opcode: .text, payload: Data(#"{"type":"pong"}"#.utf8))),
        ])
        #expect(session.received(.message(.binary(Data("n7".utf8)))) == [.send(WebSocketFrame(opcode: .text, payload: Data("number".utf8)))])
        #expect(session.received(.message(.text("n7x"))) == [.send(WebSocketFrame(opcode: .binary, payload: Data([0xFF])))])
        #expect(session.received(.ping(Data("p".utf8))) == [.send(WebSocketFrame(opcode: .pong, payload: Data("p".utf8)))])
        #expect(session.received(.message(.text("please close-me"))) == [
            .send(.close(code: WebSocketCloseCode(rawValue: 4000), reason: "asked")), .end,
        ])
        #expect(session.received(.message(.text("one"))).isEmpty)
    }

    @Test func aDropCutsTheConnectionAndAClientCloseIsAnswered() {
        var session = WebSocketStubSession(Self.stub)
        #expect(session.received(.message(.text("drop now"))) == [.drop])
        var other = WebSocketStubSession(Self.stub)
        #expect(other.received(.close(WebSocketClose(code: .goingAway))) == [.send(WebSocketClose(code: .goingAway).frame), .end])
    }

    @Test func aWebsocketsClientGetsTheStubbedAnswers() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.webSocket("/stubbed", Self.stub)
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/stubbed"))
        let (received, ending) = try await PythonWebSocketsClient.converse(url, sending: [
            .text("one"), .text(#"{"type":"ping"}"#), .text("n42"), .text("what"), .text("close-me"),
        ])
        #expect(received == [.text("1"), .text(#"{"type":"pong"}"#), .text("number"), .binary(Data([0xFF]))])
        #expect(ending == .init(code: 4000, reason: "asked"))
    }

    @Test func onConnectMessagesArriveFirstAndADropEndsAbnormally() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.webSocket("/hello", WebSocketStub(onConnect: [.send(.text("welcome")), .wait(.milliseconds(20)), .send(.text("again"))],
                                                 rules: [.init(.contains("drop"), [.drop])], subprotocols: ["chat"]))
        let socket = try await WebSocket.connect(to: try #require(URL(string: "ws://127.0.0.1:\(server.port)/hello")),
                                                 options: WebSocketClientOptions(subprotocols: ["chat"]))
        #expect(socket.negotiation.subprotocol == "chat")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome"))
        #expect(try await iterator.next() == .text("again"))
        try await socket.send(.text("drop"))
        guard case .abnormal = await socket.ending() else {
            Issue.record("a dropped connection ended with a close")
            return
        }
        let plain = try await CurlTransport().send(HTTPRequest(method: .get, url: try #require(URL(string: "http://127.0.0.1:\(server.port)/hello"))))
        #expect(plain.statusCode == 426)
    }
}

/// WebSocket stubs in the JSON stub-definition format: read, served to Python's `websockets` client, written back
/// the same; a field the format does not have is refused at its place.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebSocketStubDefinitionTests {
    static let definition = #"""
        {"request": {"path": "/chat"},
         "webSocket": {"onConnect": [{"sendText": "welcome"}],
                       "rules": [{"message": {"jsonPath": "$.type", "value": {"equalTo": "ping"}},
                                  "steps": [{"waitMilliseconds": 20}, {"sendText": "{\"type\":\"pong\"}"}]},
                                 {"message": {"equalTo": "bytes"}, "steps": [{"sendBase64": "AP8="}]},
                                 {"message": {"contains": "bye"}, "steps": [{"close": {"code": 4000, "reason": "asked"}}]}],
                       "otherwise": [{"sendText": "?"}]}}
        """#

    @Test func aDefinitionIsServedToAWebsocketsClientAndWrittenBackTheSame() async throws {
        let stub = try Stub.decode(Data(Self.definition.utf8))
        guard case .webSocket(let webSocket) = stub.responder else {
            Issue.record("the definition is not a WebSocket stub")
            return
        }
        #expect(webSocket.onConnect == [.send(.text("welcome"))])
        #expect(webSocket.rules[1].steps == [.send(.binary(Data([0x00, 0xFF])))])
        let written = try JSONEncoder().encode(stub)
        guard case .webSocket(let reread) = try Stub.decode(written).responder else {
            Issue.record("the written stub is not a WebSocket stub")
            return
        }
        #expect(reread == webSocket)

        let server = try StubServer()
        defer { server.stop() }
        server.add(stub)
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/chat"))
        // The client reads one answer per message sent: the welcome comes first, so each answer arrives one late.
        let (received, ending) = try await PythonWebSocketsClient.converse(url, sending: [
            .text(#"{"type":"ping"}"#), .text("bytes"), .text("what"), .text("bye"),
        ])
        #expect(received == [.text("welcome"), .text(#"{"type":"pong"}"#), .binary(Data([0x00, 0xFF])), .text("?")])
        #expect(ending == .init(code: 4000, reason: "asked"))
    }

    @Test func anUnknownStepFieldOrABadCloseCodeIsRefusedAtItsPlace() {
        let misspelt = #"{"request": {}, "webSocket": {"rules": [{"message": {"contains": "x"}, "steps": [{"sendTxt": "y"}]}]}}"#
        #expect(throws: StubDefinitionError(
            location: "webSocket.rules[0].steps[0].sendTxt",
            reason: #"unknown field "sendTxt" (known here: sendText, sendBase64, waitMilliseconds, close, drop)"#
        )) { try Stub.decode(Data(misspelt.utf8)) }
        let badCode = #"{"request": {}, "webSocket": {"otherwise": [{"close": {"code": 1006}}]}}"#
        #expect(throws: StubDefinitionError(
            location: "webSocket.otherwise[0].close.code", reason: "1006 is not a code a close frame may carry"
        )) { try Stub.decode(Data(badCode.utf8)) }
        let both = #"{"request": {}, "response": {"status": 200}, "webSocket": {}}"#
        #expect(throws: StubDefinitionError.self) { try Stub.decode(Data(both.utf8)) }
    }
}
