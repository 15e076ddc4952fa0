import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckTestSupport
import TapedeckWebSocket

/// WebSocket conversations through a cassette file: recorded live against Python `websockets` with
/// `WebSocket.connect(to:through:)`, then replayed from the file with the server gone: the same messages, the same
/// ending. A conversation the cassette lacks is a near miss; a cut-off one replays up to the cut.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CassetteWebSocketTests {
    /// Sends `script`, reading one answer after each; returns what arrived and how it ended.
    static func run(_ socket: WebSocket, sending script: [WebSocketMessage]) async throws -> ([WebSocketMessage], WebSocketEnding) {
        var iterator = socket.messages.makeAsyncIterator()
        var received: [WebSocketMessage] = []
        for message in script {
            try await socket.send(message)
            if let answer = try await iterator.next() { received.append(answer) }
        }
        return (received, await socket.close(.normalClosure, reason: "done"))
    }

    static let script: [WebSocketMessage] = [
        .text("one"), .text(#"{"type":"auth","password":"hunter2-hunter2"}"#), .binary(Data((0..<200).map { UInt8($0) })), .text("ünï"),
    ]

    @Test func aConversationRecordedIntoTheCassetteReplaysWithTheServerGone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("chat.json")
        let peer = try await PythonWebSocketsPeer.start()
        let url = peer.url("/echo")
        let recording = try openCassette(file, mode: .once, upstream: CurlTransport())
        let live = try await Self.run(try await WebSocket.connect(to: url, through: recording), sending: Self.script)
        try recording.finish()
        peer.stop()

        let cassette = try CassetteFile.load(file)
        #expect(cassette.formatVersion == 2)
        let stored = try #require(cassette.interactions.first?.webSocket)
        #expect(stored.isComplete)
        #expect(cassette.interactions.first?.response?.statusCode == 101)
        // The password went to the server, and to the cassette only as a stand-in.
        #expect(live.0[1] == Self.script[1])
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        #expect(!onDisk.contains("hunter2-hunter2") && onDisk.contains(#"\"password\":\"REDACTED-"#))

        let replaying = try openCassette(file, mode: .replay)
        let socket = try await WebSocket.connect(to: url, through: replaying)
        // The client sends the real password again; it matches the recording once redacted as recording did. The
        // server's echo of it replays as the cassette holds it: with the stand-in.
        let replayed = try await Self.run(socket, sending: Self.script)
        let storedAuth = try Self.clientMessages(of: stored)[1]
        guard case .text(let storedText) = storedAuth else { throw CancellationError() }
        #expect(storedText.hasPrefix(#"{"type":"auth","password":"REDACTED-"#))
        #expect(replayed.0 == [live.0[0], storedAuth, live.0[2], live.0[3]])
        #expect(replayed.1 == live.1)
        #expect(try replaying.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    /// The client's text and binary messages of a stored conversation, in order.
    static func clientMessages(of transcript: WebSocketTranscript) throws -> [WebSocketMessage] {
        transcript.frames.compactMap { frame in
            guard frame.direction == .client else { return nil }
            switch frame.kind {
            case .text(let text): return .text(text)
            case .binary(let data): return .binary(data)
            default: return nil
            }
        }
    }

    @Test func aConnectionTheCassetteLacksIsANearMissInReplay() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CompatibilityFile.copy("websocket-chat.json", into: directory)
        let replaying = try openCassette(file, mode: .replay)
        await #expect {
            _ = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:8765/other")!, through: replaying)
        } throws: { error in
            guard case CassetteError.unmatchedRequest = error else { return false }
            return "\(error)".contains("ws://127.0.0.1:8765/other") && "\(error)".contains("/chat?room=lobby")
        }
    }

    @Test func theCorpusChatReplaysThroughTheCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CompatibilityFile.copy("websocket-chat.json", into: directory)
        let replaying = try openCassette(file, mode: .replay)
        let socket = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:8765/chat?room=lobby")!, through: replaying)
        #expect(socket.negotiation.subprotocol == "chat")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome to lobby"))
        try await socket.send(.text(#"{"type":"auth","token":"REDACTED-y9trgc16et7x"}"#))
        #expect(try await iterator.next() == .text(#"{"type":"ready","user":{"id":7,"name":"ada"},"unread":2}"#))
        try await socket.send(.text("ünïcödé \"quoted\" \\ and\ttab"))
        try await socket.send(.binary(Data([0x00, 0xFF, 0x10, 0x80, 0x7F])))
        #expect(try await iterator.next() == .binary(Data()))
        try await socket.send(.text(""))
        try await socket.ping()
        #expect(await socket.close(.normalClosure, reason: "bye") == .closed(WebSocketClose(code: .normalClosure, reason: "bye")))
        #expect(try replaying.finish(requireAllPlayed: false).unplayed == ["#0 GET http://127.0.0.1:8765/rooms"])
    }

    @Test func aCutOffConversationReplaysUpToTheCutAndSaysWhere() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CompatibilityFile.copy("websocket-cut.json", into: directory)
        let socket = try await WebSocket.connect(to: URL(string: "wss://127.0.0.1:8443/prices")!, through: try openCassette(file, mode: .replay))
        try await socket.send(.text(#"{"subscribe":"EURUSD"}"#))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text(#"{"pair":"EURUSD","bid":1.0842}"#))
        #expect(try await iterator.next() == .text(#"{"pair":"EURUSD","bid":1.0843}"#))
        let ending = await socket.close(WebSocketCloseCode(rawValue: 4001))
        #expect(ending == .abnormal(reason: "the recording ends after frame 4 (client close 4001 at 0.600 s) without the server's close"))
    }
}

/// The v2 compatibility corpus, copied so that nothing a test does touches the frozen files.
enum CompatibilityFile {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Cassettes/Compatibility/v2")

    static func copy(_ name: String, into directory: TemporaryDirectory) throws -> URL {
        let target = directory.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: target)
        return target
    }
}
