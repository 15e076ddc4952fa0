import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// The stub server's WebSocket journal and its admin route: a `websockets` client's connection to a stubbed route
/// is listed with its frames (direction, kind, payload or its size, time, close code), in Swift and as JSON, and the
/// request journal names the connection its upgrade request opened.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebSocketJournalTests {
    @Test func aConnectionAndItsFramesAreListedInSwiftAndByTheAdminAPI() async throws {
        let server = try StubServer(configuration: .init(admin: AdminConfiguration()))
        defer { server.stop() }
        let id = server.webSocket("/chat", WebSocketStub(onConnect: [.send(.text("welcome"))],
                                                         rules: [.init(.contains("hi"), [.send(.binary(Data([0x00, 0xFF])))])],
                                                         otherwise: [.send(.text("?"))]))
        let big = Data(repeating: 7, count: WebSocketJournal.payloadLimit + 10)
        let (received, _) = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(server.port)/chat?room=1")),
                                                                      sending: [.text("hi"), .binary(big)])
        #expect(received == [.text("welcome"), .binary(Data([0x00, 0xFF]))])

        // The connection is noted closed once its thread hands the socket back (bounded wait).
        var connection = try #require(server.webSocketJournal.connections.first)
        for _ in 0..<100 where connection.isOpen {
            try await Task.sleep(for: .milliseconds(50))
            connection = try #require(server.webSocketJournal.connections.first)
        }
        #expect(!connection.isOpen)
        #expect(server.webSocketJournal.connections.count == 1)
        #expect(connection.path == "/chat" && connection.query == "room=1")
        #expect(connection.source == .stub(id))
        #expect(connection.requestSequenceNumber == server.journal.entries.last?.sequenceNumber)
        #expect(connection.frames.map(\.direction) == [.server, .client, .server, .client, .server, .client, .server])
        #expect(connection.frames.map(\.kind) == [
            .text("welcome"), .text("hi"), .binary(Data([0x00, 0xFF])), .binary(big.prefix(WebSocketJournal.payloadLimit)), .text("?"),
            .close(WebSocketClose(code: .normalClosure, reason: "done")), .close(WebSocketClose(code: .normalClosure)),
        ])
        #expect(connection.frames[3].size == big.count)
        #expect(connection.frames.map(\.offset) == connection.frames.map(\.offset).sorted())

        let base = "http://127.0.0.1:\(server.port)/__admin"
        let listed = try await CurlTransport().send(HTTPRequest(method: .get, url: try #require(URL(string: base + "/websockets"))))
        let document = try #require(JSONValue(parsing: listed.data ?? Data()))
        let frames = try #require(document["connections"]?.arrayValue?.first?["frames"]?.arrayValue)
        #expect(document["connections"]?.arrayValue?.first?["source"] == .string("stub"))
        #expect(document["connections"]?.arrayValue?.first?["stubID"] == .string(id))
        #expect(frames.map { $0["kind"]?.stringValue ?? "" } == ["text", "text", "binary", "binary", "text", "close", "close"])
        #expect(frames[1]["from"] == .string("client") && frames[1]["text"] == .string("hi"))
        #expect(frames[2]["base64"] == .string("AP8="))
        #expect(frames[3]["size"]?.intValue == big.count && frames[3]["truncated"] == .bool(true))
        #expect(frames[5]["code"]?.intValue == 1000 && frames[5]["reason"] == .string("done"))

        let requests = try await CurlTransport().send(HTTPRequest(method: .get, url: try #require(URL(string: base + "/requests"))))
        let upgrade = try #require(JSONValue(parsing: requests.data ?? Data())?["requests"]?.arrayValue?.last)
        #expect(upgrade["webSocketConnection"]?.intValue == connection.id)

        _ = try await CurlTransport().send(HTTPRequest(method: .delete, url: try #require(URL(string: base + "/websockets"))))
        #expect(server.webSocketJournal.connections.isEmpty)
    }

    @Test func theJournalKeepsItsBounds() {
        let journal = WebSocketJournal(capacity: 2)
        let entries = (1...3).map { journal.open(RecordedRequest(sequenceNumber: $0, method: .get, path: "/\($0)"), source: .cassette) }
        #expect(journal.connections.map(\.path) == ["/2", "/3"])
        #expect(journal.droppedCount == 1)
        entries[0].note(.text("gone"), from: .client)
        for index in 0..<(WebSocketJournal.frameLimit + 5) { entries[2].note(.text("\(index)"), from: .client) }
        let last = journal.connections[1]
        #expect(last.frames.count == WebSocketJournal.frameLimit && last.droppedFrameCount == 5)
        #expect(journal.connections[0].frames.isEmpty)
        let long = String(repeating: "é", count: WebSocketJournal.payloadLimit)  // two bytes each
        entries[1].note(.text(long), from: .server)
        let kept = journal.connections[0].frames[0]
        #expect(kept.kind == .text(String(repeating: "é", count: WebSocketJournal.payloadLimit / 2)) && kept.size == 2 * WebSocketJournal.payloadLimit)
    }
}
