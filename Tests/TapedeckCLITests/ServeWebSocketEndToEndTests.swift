import Foundation
import Testing
import TapedeckTestSupport
import TapedeckWebSocket

/// `tapedeck serve` of a cassette holding WebSocket conversations: a client connects over a real socket and gets
/// the recorded conversation; one whose message matches nothing is closed with the code given on the command line,
/// and the near miss is printed when the server stops.
@Suite(.timeLimit(.minutes(10))) struct ServeWebSocketEndToEndTests {
    static let chat = CLIRunner.packageRoot.appendingPathComponent("Cassettes/Compatibility/v2/websocket-chat.json")

    @Test func servesTheConversationAndClosesANearMissWithTheGivenCode() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.url.appendingPathComponent("chat.json")
        try FileManager.default.copyItem(at: Self.chat, to: cassette)
        let served = try await CLIRunner.launch(["serve", cassette.path, "--port", "0", "--allow-playback-repeats",
                                           "--websocket-mismatch-close", "4000", "--websocket-matching", "json"])
        defer { if served.process.isRunning { served.process.terminate() } }
        let base = try #require(URL(string: served.baseURL.replacingOccurrences(of: "http://", with: "ws://")))
        let url = try #require(URL(string: "/chat?room=lobby", relativeTo: base)?.absoluteURL)

        let socket = try await WebSocket.connect(to: url, options: WebSocketClientOptions(subprotocols: ["chat"]))
        #expect(socket.negotiation.subprotocol == "chat")
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("welcome to lobby"))
        // JSON matching: the members in another order still match the recording.
        try await socket.send(.text(#"{"token":"REDACTED-y9trgc16et7x","type":"auth"}"#))
        #expect(try await messages.next() == .text(#"{"type":"ready","user":{"id":7,"name":"ada"},"unread":2}"#))
        await socket.close(.goingAway)

        let stray = try await WebSocket.connect(to: url)
        var strayMessages = stray.messages.makeAsyncIterator()
        #expect(try await strayMessages.next() == .text("welcome to lobby"))
        try await stray.send(.text("not what was recorded"))
        #expect(await stray.ending() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "no recorded message matches (frame 2)")))

        served.process.terminate()
        served.process.waitUntilExit()
        #expect(served.process.terminationStatus == 0)
        let rest = String(decoding: served.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains(#"WebSocket near miss: GET ws://127.0.0.1:8765/chat?room=lobby: WebSocket replay: the client sent text "not what was recorded" where the recording has text "{"type":"auth","token":"REDACTED-y9trgc16et7x"}" (frame 2 of 13)"#), "\(rest)")
    }

    /// WireMock 4 message stub mappings given to `--stubs`: a WebSocket client on the channel's path gets the
    /// answer; a mapping that does not map stops serve with its JSON path.
    @Test func servesWireMockMessageStubMappings() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("messages.json")
        try Data(#"""
            {"messageMappings": [{"name": "Ping", "trigger": {"type": "message",
              "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/ws"}},
              "message": {"body": {"equalTo": "ping"}}},
              "actions": [{"type": "send", "channelTarget": {"type": "originating"}, "message": {"body": {"data": "pong"}}}]}]}
            """#.utf8).write(to: file)
        let served = try await CLIRunner.launch(["serve", "--stubs", file.path, "--port", "0"])
        defer { if served.process.isRunning { served.process.terminate() } }
        #expect(served.printed.contains("(WireMock mappings)"), "\(served.printed)")
        let base = try #require(URL(string: served.baseURL.replacingOccurrences(of: "http://", with: "ws://")))
        let socket = try await WebSocket.connect(to: try #require(URL(string: "/ws", relativeTo: base)?.absoluteURL))
        var messages = socket.messages.makeAsyncIterator()
        try await socket.send(.text("ping"))
        #expect(try await messages.next() == .text("pong"))
        await socket.close(.normalClosure)
        served.process.terminate()
        served.process.waitUntilExit()

        try Data(#"{"trigger": {"type": "http-stub", "stubId": "11111111-2222-3333-4444-555555555555"}, "actions": []}"#.utf8).write(to: file)
        let refused = try await CLIRunner.run(["serve", "--stubs", file.path, "--port", "0"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(#"at trigger.type: "http-stub" triggers (messages sent when an HTTP request arrives) are not supported"#), "\(refused.stderr)")
    }

    @Test func refusesACloseCodeNoFrameMayCarry() async throws {
        let result = try await CLIRunner.run(["serve", Self.chat.path, "--port", "0", "--websocket-mismatch-close", "1006"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--websocket-mismatch-close 1006 is not a code a close frame may carry"))
    }
}
