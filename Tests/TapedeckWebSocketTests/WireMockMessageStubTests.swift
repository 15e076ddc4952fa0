import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// WireMock 4 message stub mappings (wiremock.org/docs/messaging/stubbing/, in the shape of WireMock's own
/// `message-stub-test/multi.json` and its admin API's `messageMappings` example) read as one WebSocket stub, and
/// judged by Python's `websockets` client over a real socket; what does not map is refused with its JSON path.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WireMockMessageStubTests {
    static let mappings = #"""
        {
          "messageMappings": [
            {
              "id": "5b0e8c1e-7a43-4c55-9a4e-2d7f4f0c1a01",
              "name": "Ping answers pong",
              "trigger": {
                "type": "message",
                "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/ws/chat"}},
                "message": {"body": {"equalTo": "ping"}}
              },
              "actions": [{"type": "send", "channelTarget": {"type": "originating"}, "message": {"body": {"data": "pong"}}}]
            },
            {
              "name": "Greeting",
              "trigger": {"type": "message", "message": {"body": {"contains": "hello"}}},
              "actions": [{"type": "send", "message": {"body": "hi there!"}}]
            },
            {
              "name": "Subscribe",
              "priority": 1,
              "trigger": {"type": "message", "message": {"body": {"matchesJsonPath": {"expression": "$.action", "equalTo": "subscribe"}}}},
              "actions": [{"type": "send", "message": {"body": {"data": {"status": "subscribed"}}}}]
            },
            {
              "name": "Numbers get bytes",
              "trigger": {
                "type": "message",
                "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPathPattern": "/ws/.*"}},
                "message": {"body": {"matches": "n[0-9]+"}}
              },
              "actions": [{"type": "send", "message": {"body": {"base64Data": "AP8="}}}]
            },
            {
              "name": "Anything else on the feed",
              "priority": 9,
              "trigger": {"type": "message", "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/ws/feed"}}},
              "actions": [{"type": "send", "message": {"body": {"data": "feed: unknown"}}}],
              "metadata": {"team": "feeds"}
            }
          ],
          "meta": {"total": 5}
        }
        """#

    @Test func theMappingsBecomeOneWebSocketStubOrderedByPriority() throws {
        let stubs = try WireMockMappings.stubs(from: Data(Self.mappings.utf8))
        #expect(stubs.count == 1)
        let stub = try #require(stubs.first)
        #expect(stub.id == WireMockMappings.messageStubID)
        guard case .webSocket(let webSocket) = stub.responder else {
            Issue.record("the message mappings did not become a WebSocket stub")
            return
        }
        #expect(webSocket.onConnect.isEmpty && webSocket.otherwise.isEmpty)
        // Priority 1 first, then the three of priority 5 in the order read, then priority 9.
        #expect(webSocket.rules.map(\.steps) == [
            [.send(.text(#"{"status":"subscribed"}"#))], [.send(.text("pong"))], [.send(.text("hi there!"))],
            [.send(.binary(Data([0x00, 0xFF])))], [.send(.text("feed: unknown"))],
        ])
        #expect(webSocket.rules[1].connection == RequestPattern(nil, .exact("/ws/chat")))
        #expect(webSocket.rules[2].connection == nil)
        #expect(webSocket.rules[4].message == nil, "a trigger without a message pattern accepts every message")

        // Each connection runs the rules its upgrade request matches.
        let chat = webSocket.narrowed(to: RecordedRequest(method: .get, path: "/ws/chat"))
        #expect(chat.rules.count == 4)
        let feed = webSocket.narrowed(to: RecordedRequest(method: .get, path: "/ws/feed"))
        #expect(feed.rules.map(\.steps.first) == [.send(.text(#"{"status":"subscribed"}"#)), .send(.text("hi there!")),
                                                   .send(.binary(Data([0x00, 0xFF]))), .send(.text("feed: unknown"))])

        // The JSON stub-definition form keeps the connection conditions.
        let written = try JSONEncoder().encode(stub)
        guard case .webSocket(let reread) = try Stub.decode(written).responder else {
            Issue.record("the written stub is not a WebSocket stub")
            return
        }
        #expect(reread == webSocket)
    }

    @Test func aWebsocketsClientGetsTheAnswersOfItsConnectionsMappings() async throws {
        let server = try StubServer()
        defer { server.stop() }
        for stub in try WireMockMappings.stubs(from: Data(Self.mappings.utf8)) { server.add(stub) }
        let base = "ws://127.0.0.1:\(server.port)"

        let (chat, chatEnding) = try await PythonWebSocketsClient.converse(try #require(URL(string: base + "/ws/chat")), sending: [
            .text("ping"), .text(#"{"action": "subscribe", "text": "hello"}"#), .text("hello world"), .text("n42"),
        ])
        #expect(chat == [.text("pong"), .text(#"{"status":"subscribed"}"#), .text("hi there!"), .binary(Data([0x00, 0xFF]))])
        #expect(chatEnding.code == 1000)

        // On /ws/feed the chat's ping rule does not apply: the feed's catch-all answers it.
        let (feed, _) = try await PythonWebSocketsClient.converse(try #require(URL(string: base + "/ws/feed")), sending: [
            .text("ping"), .text("n7"),
        ])
        #expect(feed == [.text("feed: unknown"), .binary(Data([0x00, 0xFF]))])

        // A plain request is not the WebSocket stub's: no HTTP stub answers it.
        let plain = try await CurlTransport().send(HTTPRequest(method: .get, url: try #require(URL(string: "http://127.0.0.1:\(server.port)/ws/chat"))))
        #expect(plain.statusCode == 404)
    }

    /// A message mapping beside HTTP mappings, and a WireMock root folder's `message-mappings`: the HTTP stubs first,
    /// then one WebSocket stub of all the message mappings.
    @Test func aRootFolderReadsMappingsAndMessageMappings() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mappings = directory.url.appendingPathComponent("mappings")
        let messages = directory.url.appendingPathComponent("message-mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        try Data(#"{"request": {"urlPath": "/health"}, "response": {"status": 200}}"#.utf8).write(to: mappings.appendingPathComponent("health.json"))
        try Data(#"{"trigger": {"message": {"body": {"equalTo": "a"}}}, "actions": [{"type": "send", "message": {"body": "1"}}]}"#.utf8)
            .write(to: messages.appendingPathComponent("a.json"))
        try Data(#"{"messageMappings": [{"priority": 2, "actions": [{"type": "send", "message": {"body": "2"}}]}]}"#.utf8)
            .write(to: messages.appendingPathComponent("b.json"))
        let stubs = try WireMockMappings.stubs(inDirectory: directory.url)
        #expect(stubs.map(\.id).last == WireMockMappings.messageStubID)
        #expect(stubs.count == 2)
        guard case .webSocket(let webSocket) = stubs.last?.responder else {
            Issue.record("no WebSocket stub")
            return
        }
        #expect(webSocket.rules.map(\.steps) == [[.send(.text("2"))], [.send(.text("1"))]])
    }

    static let refusals: [(String, String)] = [
        (#"{"messageMappings": [{"name": "Broadcast", "trigger": {"type": "http-request", "requestPattern": {"urlPath": "/broadcast"}}, "actions": []}]}"#,
         #"invalid WireMock mapping at messageMappings[0].trigger.type (mapping "Broadcast"): "http-request" triggers (messages sent when an HTTP request arrives) are not supported; a WebSocket stub answers the messages of its own connection ("message")"#),
        (#"{"trigger": {"type": "message"}, "actions": [{"type": "send", "channelTarget": {"type": "request-initiated", "channelType": "websocket", "requestPattern": {"urlPath": "/ws/2"}}, "message": {"body": {"data": "x"}}}]}"#,
         #"invalid WireMock mapping at actions[0].channelTarget.type: sending to other channels ("request-initiated") is not supported; a WebSocket stub answers on the connection the message came on ("originating")"#),
        (#"[{"trigger": {"channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/ws", "host": {"equalTo": "example.com"}}}}, "actions": []}]"#,
         "invalid WireMock mapping at [0].trigger.channel.initiatingRequestPattern.host: matching the host is not supported (the stub server answers every host it is reached by)"),
        (#"{"trigger": {"channel": {"type": "fixed", "channelName": "orders"}}, "actions": []}"#,
         "invalid WireMock mapping at trigger.channel.type: fixed channels (message brokers) are not supported; the stub server's channels are WebSocket connections"),
        (#"{"trigger": {"message": {"body": {"equalToXml": "<a/>"}}}, "actions": []}"#,
         "invalid WireMock mapping at trigger.message.body.equalToXml: XML matchers are not supported"),
        (#"{"trigger": {}, "actions": [{"type": "send", "message": {"body": {"filePath": "hello.txt"}}}]}"#,
         "invalid WireMock mapping at actions[0].message.body.filePath: message bodies from files (filePath) are not supported"),
        (#"{"trigger": {}, "actions": [{"type": "close"}]}"#,
         #"invalid WireMock mapping at actions[0].type: unknown action type "close"; the stub server reads "send""#),
        (#"{"trigger": {}, "actions": [], "persistent": true}"#,
         "invalid WireMock mapping at persistent: unknown field; supported here: actions, id, metadata, name, priority, trigger"),
    ]

    @Test(arguments: refusals) func whatDoesNotMapIsRefusedWithItsPath(_ json: String, _ message: String) {
        do {
            _ = try WireMockMappings.stubs(from: Data(json.utf8))
            Issue.record("no error for \(json)")
        } catch {
            #expect(error.description == message)
        }
    }
}
