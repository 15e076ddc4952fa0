import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// Any client's WebSocket through the recording proxy (the engine of `tapedeck record`): Python `websockets` as the
/// client, through the proxy, against a Python `websockets` server gets what it gets directly; the frames land in
/// the cassette (redacted as the in-process recorder redacts), and the cassette served by the stub server gives a
/// `websockets` client the same messages and ending again.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RecordingProxyWebSocketTests {
    static let script: [WebSocketMessage] = [
        .text("one"), .text(#"{"type":"auth","password":"hunter2-hunter2"}"#), .binary(Data((0..<300).map { UInt8($0 & 0xFF) })),
        .text("ünï"), .text(String(repeating: "long ", count: 20_000)),
    ]

    @Test func aWebsocketsClientThroughTheProxyIsRecordedAndTheServedCassetteReplaysIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("proxied.json")
        let peer = try await PythonWebSocketsPeer.start()
        let direct = try await PythonWebSocketsClient.converse(peer.url("/echo"), sending: Self.script)
        #expect(direct.0 == Self.script)

        let proxy = try StubServer()
        try proxy.recordProxy(upstream: try #require(URL(string: "http://127.0.0.1:\(peer.port)")), cassette: file)
        let proxied = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(proxy.port)/echo")), sending: Self.script)
        #expect(proxied.0 == direct.0)
        #expect(proxied.1 == direct.1)
        // The server got each message twice: once directly, once through the proxy.
        let logged = try await peer.logged("/echo", count: 2 * (Self.script.count + 1))
        #expect(logged.filter { $0.kind == "text" }.count == 2 * 4)
        #expect(try await proxy.finishRecording()?.interactionCount == 1)
        proxy.stop()
        peer.stop()

        let cassette = try CassetteFile.load(file)
        let interaction = try #require(cassette.interactions.first)
        #expect(cassette.interactions.count == 1)
        #expect(interaction.request.url == "ws://127.0.0.1:\(peer.port)/echo")
        #expect(interaction.response?.statusCode == 101)
        let transcript = try #require(interaction.webSocket)
        #expect(transcript.isComplete)
        let sent = try CassetteWebSocketTests.clientMessages(of: transcript)
        #expect(sent.count == Self.script.count)
        #expect(sent.first == Self.script.first && sent.last == Self.script.last)
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        #expect(!onDisk.contains("hunter2-hunter2") && onDisk.contains(#"\"password\":\"REDACTED-"#))
        #expect(transcript.frames.contains { $0.direction == .client && $0.kind == .close(WebSocketClose(code: .normalClosure, reason: "done")) })

        // Served with the upstream gone: the same messages (the password's echo as the cassette holds it) and ending.
        let server = try StubServer(cassette: file)
        defer { server.stop() }
        let served = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(server.port)/echo")), sending: Self.script)
        let redactedEcho = sent[1]
        #expect(served.0 == [direct.0[0], redactedEcho] + direct.0[2...])
        #expect(served.1 == direct.1)
        let summary = try #require(server.cassetteSummary())
        #expect(summary.unplayed.isEmpty && summary.webSocketReports.isEmpty)
    }

    @Test func theServersCloseAndARefusedUpgradeReachTheClientAsTheyWere() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("closes.json")
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let proxy = try StubServer()
        defer { proxy.stop() }
        try proxy.recordProxy(upstream: try #require(URL(string: "http://127.0.0.1:\(peer.port)")), cassette: file)
        let closing = try await PythonWebSocketsClient.converse(
            try #require(URL(string: "ws://127.0.0.1:\(proxy.port)/echo")), sending: [.text("a"), .text("close-me"), .text("never")])
        #expect(closing.0 == [.text("a")])
        #expect(closing.1 == .init(code: 4000, reason: "asked"))

        let refused = try await CurlTransport().send(HTTPRequest(
            method: .get, url: try #require(URL(string: "http://127.0.0.1:\(proxy.port)/refuse")), headers: Self.upgradeHeaders))
        #expect(refused.statusCode == 403)
        #expect(refused.body == .data(Data("go away\n".utf8)))

        _ = try await proxy.finishRecording()
        let interactions = try CassetteFile.load(file).interactions
        #expect(interactions.count == 2)
        let transcript = try #require(interactions.first { $0.webSocket != nil }?.webSocket)
        #expect(transcript.frames.contains { $0.direction == .server && $0.kind == .close(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "asked")) })

        // The refused upgrade is recorded as the plain HTTP interaction it is, and replays as one: served to an
        // upgrade request, and in process as the handshake error the live client gets.
        let refusal = try #require(interactions.first { $0.webSocket == nil })
        let recordedURL = "ws://127.0.0.1:\(peer.port)/refuse"
        #expect(refusal.request.url == recordedURL)
        #expect(refusal.response?.statusCode == 403)
        #expect(refusal.response?.body.inlineData == Data("go away\n".utf8))
        let server = try StubServer(cassette: file)
        defer { server.stop() }
        let replayed = try await CurlTransport().send(HTTPRequest(
            method: .get, url: try #require(URL(string: "http://127.0.0.1:\(server.port)/refuse")), headers: Self.upgradeHeaders))
        #expect(replayed.statusCode == 403)
        #expect(replayed.body == .data(Data("go away\n".utf8)))
        let refusedURL = try #require(URL(string: recordedURL))
        let live = try #require(await #expect(throws: WebSocketHandshakeError.self) {
            try await WebSocket.connect(to: refusedURL)
        })
        #expect(live == .unexpectedStatus(403))
        let replaying = try CassetteTransport(cassette: file, mode: .replay)
        await #expect(throws: live) {
            try await WebSocket.connect(to: refusedURL, through: replaying)
        }
    }

    static let upgradeHeaders: HTTPHeaders = [
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
    ]

    /// The proxy refuses extensions in the negotiation, since it records the frames as they pass and cannot read
    /// compressed ones: a `websockets` client (which offers permessage-deflate, and whose server accepts it) gets
    /// none through it, and an upstream that accepts one anyway is not relayed.
    @Test func extensionsAreRefusedInTheNegotiation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("extensions.json")
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let proxy = try StubServer()
        defer { proxy.stop() }
        try proxy.recordProxy(upstream: try #require(URL(string: "http://127.0.0.1:\(peer.port)")), cassette: file)
        let script: [WebSocketMessage] = [.text(String(repeating: "compressible ", count: 200))]
        let proxied = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(proxy.port)/echo")), sending: script)
        #expect(proxied.0 == script)

        let unoffered = try await CurlTransport().send(HTTPRequest(
            method: .get, url: try #require(URL(string: "http://127.0.0.1:\(proxy.port)/unoffered-deflate")), headers: Self.upgradeHeaders))
        #expect(unoffered.statusCode == 502)
        let explanation = String(decoding: unoffered.data ?? Data(), as: UTF8.self)
        #expect(explanation.contains("accepted the WebSocket extension(s) permessage-deflate"), "\(explanation)")

        #expect(try await proxy.finishRecording()?.interactionCount == 1)
        let interaction = try #require(try CassetteFile.load(file).interactions.first)
        #expect(interaction.request.headers["Sec-WebSocket-Extensions"] == nil)
        #expect(interaction.response?.headers["Sec-WebSocket-Extensions"] == nil)
        #expect(try CassetteWebSocketTests.clientMessages(of: try #require(interaction.webSocket)) == script)
    }

    @Test func finishingTheRecordingEndsAnOpenConnectionAndKeepsWhatPassed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("open.json")
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let proxy = try StubServer()
        defer { proxy.stop() }
        try proxy.recordProxy(upstream: try #require(URL(string: "http://127.0.0.1:\(peer.port)")), cassette: file)
        let socket = try await WebSocket.connect(to: try #require(URL(string: "ws://127.0.0.1:\(proxy.port)/echo")))
        var iterator = socket.messages.makeAsyncIterator()
        try await socket.send(.text("still open"))
        #expect(try await iterator.next() == .text("still open"))
        _ = try await proxy.finishRecording(timeout: .seconds(10))
        let transcript = try #require(try CassetteFile.load(file).interactions.first?.webSocket)
        #expect(transcript.frames.map(\.kind) == [.text("still open"), .text("still open")])
        #expect(!transcript.isComplete)
        _ = await socket.ending()
    }
}

/// The forward proxy with HTTPS interception records a `wss` conversation as the reverse proxy does: Tapedeck's
/// client tunnels through it (`CONNECT`, the proxy's CA trusted) to a Python `websockets` server over TLS, and the
/// cassette served afterwards gives a `websockets` client the same messages.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ForwardProxyWebSocketTests {
    static let authority = Result { try TestCertificateAuthority() }
    static let host = "chat.example.test"

    @Test func anInterceptedWssConversationIsRecordedAndServed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("forward.json")
        let authority = try Self.authority.get()
        let peer = try await PythonWebSocketsPeer.start(tls: try authority.issue(for: [Self.host]))
        let proxy = try ForwardProxy(cassette: file, mode: .record(.all), configuration: ForwardProxy.Configuration(
            allowedHosts: [Self.host],
            upstream: CurlTransport.Configuration(connectTo: ["\(Self.host):443:127.0.0.1:\(peer.port)"], trustedCertificates: [authority.trustAnchor]),
            environment: [:], log: { _ in }))
        var options = WebSocketClientOptions()
        options.tls.trustedCertificates = [proxy.certificateAuthority.trustAnchor]
        options.curl.proxy = proxy.proxyURL.absoluteString
        let script: [WebSocketMessage] = [.text("through the tunnel"), .binary(Data([0, 1, 2, 255]))]
        let socket = try await WebSocket.connect(to: try #require(URL(string: "wss://\(Self.host)/echo")), options: options)
        var iterator = socket.messages.makeAsyncIterator()
        var live: [WebSocketMessage] = []
        for message in script {
            try await socket.send(message)
            live.append(try #require(try await iterator.next()))
        }
        #expect(live == script)
        #expect(await socket.close(.normalClosure, reason: "done") == .closed(WebSocketClose(code: .normalClosure, reason: "done")))
        #expect(try await proxy.finishRecording()?.interactionCount == 1)
        proxy.stop()
        peer.stop()

        let interaction = try #require(try CassetteFile.load(file).interactions.first)
        #expect(interaction.request.url == "wss://\(Self.host)/echo")
        #expect(interaction.webSocket?.isComplete == true)
        let server = try StubServer(cassette: file)
        defer { server.stop() }
        let served = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(server.port)/echo")), sending: script)
        #expect(served.0 == live)
        #expect(served.1 == .init(code: 1000, reason: "done"))
    }
}
