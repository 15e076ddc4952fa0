import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// The client live against Python's `websockets` server: what one side sends is what the other side receives.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LiveClientTests {
    @Test func echoesEveryKindAndSizeOfMessageAsSent() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let socket = try await WebSocket.connect(to: peer.url("/echo"))
        var sent: [WebSocketMessage] = [
            .text("hello"), .text("ünïcödé € 𝄞"), .text(""), .binary(Data([0, 1, 2, 255])), .binary(Data()),
            .binary(Data((0..<70_000).map { UInt8($0 % 251) })),  // a 64-bit length
            .text(String(repeating: "x", count: 300)),  // a 16-bit length
        ]
        sent += (0..<200).map { .text("message \($0)") }
        for message in sent { try await socket.send(message) }
        var received: [WebSocketMessage] = []
        for try await message in socket.messages {
            received.append(message)
            if received.count == sent.count { break }
        }
        #expect(received == sent)
        let logged = try await peer.logged("/echo", count: sent.count)
        #expect(logged.prefix(sent.count).map { $0 } == sent.map { message -> PythonWebSocketsPeer.Logged in
            switch message {
            case .text(let text): return .init(path: "/echo", kind: "text", data: text)
            case .binary(let data): return .init(path: "/echo", kind: "binary", data: data.map { String(format: "%02x", $0) }.joined())
            }
        })
        let ending = await socket.close()
        #expect(ending == .closed(WebSocketClose(code: .normalClosure)))
        #expect(try await peer.logged("/echo", count: sent.count + 1).last == .init(path: "/echo", kind: "closed", data: "1000"))
    }

    @Test func theServersCloseEndsTheMessagesWithItsCodeAndReason() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let socket = try await WebSocket.connect(to: peer.url("/echo"))
        try await socket.send(.text("one"))
        try await socket.send(.text("close-me"))
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == [.text("one")])
        #expect(await socket.ending() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "asked")))
        await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
    }

    @Test func aSubprotocolIsNegotiated() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let socket = try await WebSocket.connect(to: peer.url("/greet"), options: WebSocketClientOptions(subprotocols: ["superchat", "chat"]))
        #expect(socket.negotiation.subprotocol == "chat")
        #expect(socket.response.status == 101)
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("hello chat"))
        #expect(await socket.close(.goingAway, reason: "done") == .closed(WebSocketClose(code: .goingAway, reason: "done")))
        #expect(try await peer.logged("/greet", count: 1) == [.init(path: "/greet", kind: "closed", data: "1001")])
    }

    /// The connection's thread keeps the engine, not the socket: a socket nobody holds any more says goodbye (1001).
    @Test func aSocketNobodyHoldsClosesAsGoingAway() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        var socket: WebSocket? = try await WebSocket.connect(to: peer.url("/greet"))
        var iterator = socket?.messages.makeAsyncIterator()
        #expect(try await iterator?.next() == .text("hello none"))
        socket = nil
        #expect(try await peer.logged("/greet", count: 1) == [.init(path: "/greet", kind: "closed", data: "1001")])
    }

    @Test func theServersPingIsAnswered() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let socket = try await WebSocket.connect(to: peer.url("/ping"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("pong received"))
        await socket.close()
    }

    @Test func aRefusedUpgradeIsAHandshakeError() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        await #expect(throws: WebSocketHandshakeError.unexpectedStatus(403)) {
            _ = try await WebSocket.connect(to: peer.url("/refuse"))
        }
    }

    @Test func nobodyListeningIsCannotConnectToHost() async throws {
        // A port bound and never listening for the whole test, so no other test's server can take it.
        let refusing = try RefusingLoopbackPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        await #expect(throws: URLError.self) {
            do {
                _ = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:\(port)/")!)
            } catch let error as URLError {
                #expect(error.code == .cannotConnectToHost)
                throw error
            }
        }
    }
}

/// `wss` through libcurl's TLS: the trust settings and pins of requests apply to WebSockets too.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LiveTLSClientTests {
    static let authority = Result { try TestCertificateAuthority() }

    @Test func aServerSignedByATrustedAnchorIsReachedOverTLS() async throws {
        let authority = try Self.authority.get()
        let peer = try await PythonWebSocketsPeer.start(tls: try authority.issue(for: ["127.0.0.1"]))
        defer { peer.stop() }
        var options = WebSocketClientOptions()
        options.tls.trustedCertificates = [authority.trustAnchor]
        let socket = try await WebSocket.connect(to: peer.url("/echo"), options: options)
        #expect(peer.url("/echo").scheme == "wss")
        try await socket.send(.text("over tls"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("over tls"))
        #expect(await socket.close() == .closed(WebSocketClose(code: .normalClosure)))
    }

    @Test func anUntrustedServerOrAWrongPinIsRefusedBeforeTheUpgrade() async throws {
        let authority = try Self.authority.get()
        let peer = try await PythonWebSocketsPeer.start(tls: try authority.issue(for: ["127.0.0.1"]))
        defer { peer.stop() }
        var pinned = WebSocketClientOptions()
        pinned.tls.trustedCertificates = [authority.trustAnchor]
        pinned.tls.pinnedPublicKeyHashes = [Data(repeating: 7, count: 32).base64EncodedString()]
        for options in [WebSocketClientOptions(), pinned] {
            do {
                _ = try await WebSocket.connect(to: peer.url("/echo"), options: options)
                Issue.record("connected although the server is not trusted")
            } catch let error as URLError {
                #expect(error.code == .serverCertificateUntrusted)
            }
        }
        #expect(try await peer.logged("/echo", count: 0).isEmpty)
    }
}

/// Recorded live against `websockets`, then replayed in process: the same messages and the same ending.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RecordThenReplayTests {
    /// Sends `script`, reading one answer after each; returns what arrived and how it ended.
    static func run(_ socket: WebSocket, sending script: [WebSocketMessage], answers: Int) async throws -> ([WebSocketMessage], WebSocketEnding) {
        var iterator = socket.messages.makeAsyncIterator()
        var received: [WebSocketMessage] = []
        for message in script { try await socket.send(message) }
        for _ in 0..<answers { if let message = try await iterator.next() { received.append(message) } }
        let ending = await socket.close(.normalClosure, reason: "done")
        return (received, ending)
    }

    @Test func anEchoConversationReplaysWithIdenticalMessages() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let script: [WebSocketMessage] = [.text("one"), .binary(Data((0..<300).map { UInt8($0 & 0xFF) })), .text("ünï"), .text("")]
        let recorder = WebSocketRecorder()
        let live = try await Self.run(try await recorder.connect(to: peer.url("/echo")), sending: script, answers: script.count)
        let conversation = try #require(recorder.conversation)
        #expect(conversation.isComplete)
        #expect(conversation.response.status == 101)
        // The client's messages and its close; a pong it sent for a keepalive ping of the server's (websockets pings
        // every 20 s, which a slow run reaches) is not one of them.
        let clientFrames = conversation.frames.filter { frame in
            if case .pong = frame.kind { return false }
            return frame.direction == .client
        }
        #expect(clientFrames.count == script.count + 1)
        let replayed = try await Self.run(WebSocket.replay(conversation), sending: script, answers: script.count)
        #expect(live.0 == script)
        #expect(replayed.0 == live.0)
        #expect(replayed.1 == live.1)
    }

    @Test func thePingAndTheSubprotocolReplay() async throws {
        let peer = try await PythonWebSocketsPeer.start()
        defer { peer.stop() }
        let recorder = WebSocketRecorder()
        let options = WebSocketClientOptions(subprotocols: ["chat"])
        let socket = try await recorder.connect(to: peer.url("/ping"), options: options)
        let live = try await Self.run(socket, sending: [], answers: 1)
        let conversation = try #require(recorder.conversation)
        #expect(conversation.frames.map(\.direction) == [.server, .client, .server, .client, .server])
        let replay = WebSocket.replay(conversation)
        #expect(replay.negotiation == socket.negotiation)
        #expect(replay.negotiation.subprotocol == "chat")
        let replayed = try await Self.run(replay, sending: [], answers: 1)
        #expect(live.0 == [.text("pong received")])
        #expect(replayed.0 == live.0)
        #expect(replayed.1 == live.1)
    }
}
