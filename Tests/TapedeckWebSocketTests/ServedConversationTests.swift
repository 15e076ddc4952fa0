import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// A cassette's WebSocket conversations served over real sockets by the stub server (libmicrohttpd's upgrade):
/// Python `websockets` as the client against the served cassette gets what it got live; a message that matches
/// nothing closes with 1008 (or the chosen code) and a near-miss report; a client that breaks the protocol gets the
/// RFC's close code while the server keeps serving others.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServedConversationTests {
    static let script: [WebSocketMessage] = [
        .text("one"), .text(#"{"b":1,"a":[true,null]}"#), .binary(Data((0..<300).map { UInt8($0 & 0xFF) })), .text("ünï"), .text(""),
    ]

    /// Records the Python echo server answering `script` through a cassette, then stops it.
    static func recordEcho(into file: URL, path: String = "/echo") async throws -> (url: URL, live: ([WebSocketMessage], PythonWebSocketsClient.Ending)) {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let recording = try openCassette(file, mode: .once, upstream: CurlTransport())
        // Tapedeck's client records the script; the live run the served cassette is compared with is Python's client
        // against the same Python server.
        let socket = try await WebSocket.connect(to: peer.url(path), through: recording)
        var iterator = socket.messages.makeAsyncIterator()
        for message in script {
            try await socket.send(message)
            _ = try await iterator.next()
        }
        await socket.close(.normalClosure, reason: "done")
        try recording.finish()
        let live = try await PythonWebSocketsClient.converse(peer.url(path), sending: script)
        return (peer.url(path), live)
    }

    @Test func aWebsocketsClientGetsFromTheServedCassetteWhatItGotLive() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("echo.json")
        let (_, live) = try await Self.recordEcho(into: file)
        #expect(live.0 == Self.script)
        #expect(live.1 == .init(code: 1000, reason: "done"))

        let server = try StubServer(cassette: file)
        defer { server.stop() }
        let served = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(server.port)/echo")), sending: Self.script)
        #expect(served.0 == live.0)
        #expect(served.1 == live.1)
        let summary = try #require(server.cassetteSummary())
        #expect(summary.unplayed.isEmpty && summary.webSocketReports.isEmpty)
    }

    @Test func tapedecksOwnClientGetsTheSameFromTheServedCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CompatibilityFile.copy("websocket-chat.json", into: directory)
        let server = try StubServer(cassette: file)
        defer { server.stop() }
        var options = WebSocketClientOptions(subprotocols: ["chat"])
        options.headers.add(name: "Authorization", value: "Bearer eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbi0xMjM0NQ.d3Nfc2VjcmV0X3NpZ25hdHVyZQ")
        let socket = try await WebSocket.connect(to: try #require(URL(string: "ws://127.0.0.1:\(server.port)/chat?room=lobby")), options: options)
        #expect(socket.negotiation.subprotocol == "chat")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome to lobby"))
        // The live token matches its recorded stand-in: the served cassette redacts as the recording did.
        try await socket.send(.text(#"{"type":"auth","token":"eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbi0xMjM0NQ.d3Nfc2VjcmV0X3NpZ25hdHVyZQ"}"#))
        #expect(try await iterator.next() == .text(#"{"type":"ready","user":{"id":7,"name":"ada"},"unread":2}"#))
        try await socket.send(.text("ünïcödé \"quoted\" \\ and\ttab"))
        try await socket.send(.binary(Data([0x00, 0xFF, 0x10, 0x80, 0x7F])))
        #expect(try await iterator.next() == .binary(Data()))
        try await socket.send(.text(""))
        try await socket.ping()
        #expect(await socket.close(.normalClosure, reason: "bye") == .closed(WebSocketClose(code: .normalClosure, reason: "bye")))
        #expect(server.cassetteSummary()?.webSocketReports == [])
    }

    @Test func aMessageThatMatchesNothingClosesWithTheChosenCodeAndANearMiss() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("echo.json")
        _ = try await Self.recordEcho(into: file)
        for (serving, code) in [(WebSocketServing(), 1008), (WebSocketServing(mismatchCloseCode: WebSocketCloseCode(rawValue: 4000)), 4000)] {
            let server = try StubServer()
            defer { server.stop() }
            try server.serve(cassette: file, webSockets: serving)
            let served = try await PythonWebSocketsClient.converse(
                try #require(URL(string: "ws://127.0.0.1:\(server.port)/echo")), sending: [.text("one"), .text("two")])
            #expect(served.0 == [.text("one")])
            #expect(served.1 == .init(code: code, reason: "no recorded message matches (frame 3)"))
            let reports = try #require(server.cassetteSummary()).webSocketReports
            #expect(reports == ["GET \(try Self.recordedURL(file)): " + #"WebSocket replay: the client sent text "two" where the recording has text "{"b":1,"a":[true,null]}" (frame 3 of 12)"#])
        }
    }

    @Test func jsonMatchingIgnoresMemberOrder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("echo.json")
        _ = try await Self.recordEcho(into: file)
        let reordered: [WebSocketMessage] = [.text("one"), .text(#"{"a":[true,null],"b":1.0}"#)]
        let exact = try StubServer(cassette: file)
        defer { exact.stop() }
        let refused = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(exact.port)/echo")), sending: reordered)
        #expect(refused.1.code == 1008)
        let json = try StubServer()
        defer { json.stop() }
        try json.serve(cassette: file, webSockets: WebSocketServing(matching: .json))
        let accepted = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(json.port)/echo")), sending: reordered)
        // The server answers what it recorded (the echo as the recording has it).
        #expect(accepted.0 == [.text("one"), .text(#"{"b":1,"a":[true,null]}"#)])
    }

    @Test func recordedPacingKeepsTheRecordedGaps() async throws {
        let frames: [WebSocketTranscript.Frame] = [
            .init(direction: .server, kind: .text("first"), offset: 0.01),
            .init(direction: .server, kind: .text("second"), offset: 0.41),
            .init(direction: .client, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0.5),
            .init(direction: .server, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0.5),
        ]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("paced.json")
        try CassetteFile.save(Cassette(interactions: [Interaction(
            request: .init(method: "GET", url: "ws://127.0.0.1:9/ticks"), outcome: .response(.init(statusCode: 101)),
            webSocket: WebSocketTranscript(frames: frames))]), to: file)
        // Measured from before the client connects, which comes before the conversation starts on the server: the
        // second frame cannot arrive sooner than its offset. (Measured from the first frame's arrival, a first frame
        // delayed on a busy machine made the gap look shorter than recorded.)
        // The third file stores its pacing: served with nothing chosen, frames keep it as bodies would.
        let stored = directory.cassette("paced-by-its-rules.json")
        try CassetteFile.save(Cassette(interactions: try CassetteFile.load(file).interactions,
                                       replayRules: ReplayRules(pacing: .recorded(scale: 1))), to: stored)
        let cases: [(WebSocketServing.Pacing?, URL, Double)] = [(.atOnce, file, 0), (.recorded(scale: 1), file, 0.4), (nil, stored, 0.4)]
        for (pacing, file, atLeast) in cases {
            let server = try StubServer()
            defer { server.stop() }
            try server.serve(cassette: file, webSockets: WebSocketServing(pacing: pacing))
            let connecting = ContinuousClock.now
            let socket = try await WebSocket.connect(to: try #require(URL(string: "ws://127.0.0.1:\(server.port)/ticks")))
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .text("first"))
            #expect(try await iterator.next() == .text("second"))
            let gap = ContinuousClock.now - connecting
            #expect(gap >= .seconds(atLeast), "\(String(describing: pacing)), \(file.lastPathComponent): \(gap)")
            #expect(await socket.close() == .closed(WebSocketClose(code: .normalClosure)))
        }
    }

    /// Unmasked (1002), bad UTF-8 (1007) and oversized (1009) client frames each close their connection with the
    /// RFC's code and a reason; the server goes on serving a well-behaved client afterwards.
    @Test func aClientThatBreaksTheProtocolGetsTheRFCCodeAndOthersAreStillServed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CompatibilityFile.copy("websocket-chat.json", into: directory)
        let server = try StubServer()
        defer { server.stop() }
        var limits = WebSocketLimits()
        limits.maximumMessageSize = 1_000
        limits.maximumFrameSize = 1_000
        try server.serve(cassette: file, configuration: CassetteConfiguration(allowPlaybackRepeats: true), webSockets: WebSocketServing(limits: limits))
        let path = "/chat?room=lobby"
        let unmasked = try await PythonWebSocketsClient.sendRaw(port: Int(server.port), path: path, frame: "81026869")
        #expect(unmasked.status == 101)
        #expect(unmasked.ending.code == 1002)
        #expect(unmasked.ending.reason.contains("mask"))
        // A masked text frame (mask 0) whose payload is not UTF-8.
        let badText = try await PythonWebSocketsClient.sendRaw(port: Int(server.port), path: path, frame: "818200000000c328")
        #expect(badText.ending.code == 1007)
        // A masked binary frame announcing 2,000 bytes, over the 1,000-byte limit: refused from its header.
        let oversized = try await PythonWebSocketsClient.sendRaw(port: Int(server.port), path: path, frame: "82fe07d000000000")
        #expect(oversized.ending.code == 1009)
        let socket = try await WebSocket.connect(to: try #require(URL(string: "ws://127.0.0.1:\(server.port)\(path)")))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome to lobby"))
        await socket.close()
    }

    /// Stopping the server with a client still connected ends that connection (the socket is handed back to
    /// libmicrohttpd before its daemon stops) instead of hanging the stop, which the time limit would end.
    @Test(.timeLimit(.minutes(10))) func stoppingTheServerEndsAnOpenConversation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CompatibilityFile.copy("websocket-chat.json", into: directory)
        let server = try StubServer(cassette: file)
        let socket = try await WebSocket.connect(to: try #require(URL(string: "ws://127.0.0.1:\(server.port)/chat?room=lobby")))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome to lobby"))
        server.stop()
        #expect(await socket.ending().code == .abnormalClosure)
    }

    static func recordedURL(_ file: URL) throws -> String {
        try #require(try CassetteFile.load(file).interactions.first?.request.url)
    }
}
