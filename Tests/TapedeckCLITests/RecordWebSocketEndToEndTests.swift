import Foundation
import Testing
import TapedeckTestSupport
import TapedeckWebSocket

/// `tapedeck record` relays a WebSocket and records its frames: a client goes through the recording proxy to an
/// upstream (here `tapedeck serve` of a recorded chat, a real socket server), the conversation lands in the new
/// cassette, and `tapedeck serve` of that cassette gives the client the same messages again.
@Suite(.timeLimit(.minutes(10))) struct RecordWebSocketEndToEndTests {
    /// Connects to `base` (an `http://` URL) as a chat client: the welcome, the auth and its answer, then a close.
    static func chat(_ base: String) async throws -> [WebSocketMessage] {
        let url = try #require(URL(string: base.replacingOccurrences(of: "http://", with: "ws://") + "/chat?room=lobby"))
        let socket = try await WebSocket.connect(to: url, options: WebSocketClientOptions(subprotocols: ["chat"]))
        #expect(socket.negotiation.subprotocol == "chat")
        var iterator = socket.messages.makeAsyncIterator()
        var received = [try #require(try await iterator.next())]
        try await socket.send(.text(#"{"type":"auth","token":"REDACTED-y9trgc16et7x"}"#))
        received.append(try #require(try await iterator.next()))
        _ = await socket.close(.normalClosure, reason: "bye")
        return received
    }

    @Test func recordsAConversationThroughTheProxyAndServesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let upstreamCassette = directory.url.appendingPathComponent("chat.json")
        try FileManager.default.copyItem(at: ServeWebSocketEndToEndTests.chat, to: upstreamCassette)
        let (upstream, _, upstreamURL) = try await CLIRunner.startServing(["serve", upstreamCassette.path, "--port", "0", "--websocket-matching", "json"])
        defer { if upstream.isRunning { upstream.terminate() } }

        let cassette = directory.url.appendingPathComponent("recorded.json")
        let (recorder, recorderOut, proxyURL) = try await CLIRunner.startServing(
            ["record", "--upstream", upstreamURL, "--cassette", cassette.path, "--listen", "127.0.0.1:0"])
        defer { if recorder.isRunning { recorder.terminate() } }
        let live = try await Self.chat(proxyURL)
        #expect(live == [.text("welcome to lobby"), .text(#"{"type":"ready","user":{"id":7,"name":"ada"},"unread":2}"#)])
        recorder.interrupt()
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)
        let said = String(decoding: recorderOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("saved 1 interaction(s)"), "\(said)")
        upstream.terminate()
        upstream.waitUntilExit()

        let (server, _, servedURL) = try await CLIRunner.startServing(["serve", cassette.path, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }
        #expect(try await Self.chat(servedURL) == live)
        server.terminate()
        server.waitUntilExit()
    }
}
