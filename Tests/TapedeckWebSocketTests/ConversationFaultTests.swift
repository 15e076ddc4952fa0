import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket

/// The fault sweep's WebSocket faults (a drop, a close with 1011, 1001 or 1013, a stall after the middle of the
/// server's frames): planned for conversations only, played in process through Tapedeck's client API, and on a served
/// cassette's sockets, where Python's `websockets` client (the peer nobody here wrote) must meet what the in-process
/// replay gives.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ConversationFaultTests {
    /// An echo of three messages: the server's frames 1-3 are the echoes, so the sweep's faults come after frame 2.
    static let frames: [WebSocketTranscript.Frame] = [
        .init(direction: .client, kind: .text("one"), offset: 0.010),
        .init(direction: .server, kind: .text("one"), offset: 0.011),
        .init(direction: .client, kind: .text("two"), offset: 0.020),
        .init(direction: .server, kind: .binary(Data([0, 1, 2])), offset: 0.021),
        .init(direction: .client, kind: .text("three"), offset: 0.030),
        .init(direction: .server, kind: .text("three"), offset: 0.031),
        .init(direction: .client, kind: .close(WebSocketClose(code: .normalClosure, reason: "done")), offset: 0.040),
        .init(direction: .server, kind: .close(WebSocketClose(code: .normalClosure, reason: "done")), offset: 0.041),
    ]
    static let script: [WebSocketMessage] = [.text("one"), .text("two"), .text("three")]
    static let url = "ws://127.0.0.1:9/echo"

    /// A cassette holding the conversation (interaction 0) and a plain HTTP interaction (1).
    static func cassette(in directory: TemporaryDirectory) throws -> URL {
        let file = directory.cassette("faults.json")
        try CassetteFile.save(Cassette(interactions: [
            Interaction(request: .init(method: "GET", url: url), outcome: .response(.init(statusCode: 101)),
                        webSocket: WebSocketTranscript(frames: frames)),
            Interaction(request: .init(method: "GET", url: "http://127.0.0.1:9/health"), outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("ok".utf8))))),
        ]), to: file)
        return file
    }

    static var conversation: WebSocketConversation {
        WebSocketConversation(url: URL(string: url)!, requestHeaders: HTTPHeaders(),
                              response: WebSocketUpgradeResponseHead(status: 101, reason: "Switching Protocols", headers: HTTPHeaders()),
                              frames: frames)
    }

    // MARK: - Planning

    @Test func theSweepPlansWebSocketFaultsForConversationsOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plan = try FaultSweepPlan(cassette: Self.cassette(in: directory), faults: InteractionFault.webSocketFaults)
        #expect(plan.pairs.map(\.name) == [
            "GET /echo · WebSocket dropped", "GET /echo · WebSocket close 1011", "GET /echo · WebSocket close 1001",
            "GET /echo · WebSocket close 1013", "GET /echo · WebSocket stalled",
        ])
        #expect(plan.pairs.map(\.conversation) == [
            ConversationFault(interaction: 0, after: 2, .drop, times: 1),
            ConversationFault(interaction: 0, after: 2, .close(WebSocketClose(code: .internalError, reason: "injected fault: close 1011 (fault sweep)")), times: 1),
            ConversationFault(interaction: 0, after: 2, .close(WebSocketClose(code: .goingAway, reason: "injected fault: close 1001 (fault sweep)")), times: 1),
            ConversationFault(interaction: 0, after: 2, .close(WebSocketClose(code: .tryAgainLater, reason: "injected fault: close 1013 (fault sweep)")), times: 1),
            ConversationFault(interaction: 0, after: 2, .stall, times: 1),
        ])
        #expect(plan.skipped.map(\.description) == InteractionFault.webSocketFaults.map {
            "GET /health · \($0) (skipped: a WebSocket fault, and this interaction is not a WebSocket conversation)"
        })
        // The pair's configuration carries the conversation fault, and no HTTP fault.
        let configuration = plan.pairs[0].configuration()
        #expect(configuration.faults.isEmpty && configuration.conversationFaults == [plan.pairs[0].conversation!])
    }

    @Test func aFaultThatChangesNothingOrNeedsMoreFramesDoesNotApply() throws {
        // Cut off after the server's frame 1 (of 1): a drop there is the recording itself.
        let cut = Interaction(request: .init(method: "GET", url: Self.url), outcome: .response(.init(statusCode: 101)),
                              webSocket: WebSocketTranscript(frames: Array(Self.frames.prefix(2))))
        #expect(InteractionFault.webSocketDrop.conversationFault(replacing: cut).error?.reason
            == #"the recording already ends after frame 2 (server text "one" at 0.011 s) without a close"#)
        #expect(InteractionFault.webSocketStall.conversationFault(replacing: cut).error == nil)
        // A server that closes with 1011 after its frame 1 (of 1): a close with 1011 there is the recording.
        let closed = Interaction(request: .init(method: "GET", url: Self.url), outcome: .response(.init(statusCode: 101)),
                                 webSocket: WebSocketTranscript(frames: Array(Self.frames.prefix(2)) + [
                                    .init(direction: .server, kind: .close(WebSocketClose(code: .internalError)), offset: 0.02)]))
        #expect(InteractionFault.webSocketInternalError.conversationFault(replacing: closed).error?.reason
            == "the recording already closes with 1011 there")
        #expect(InteractionFault.webSocketGoingAway.conversationFault(replacing: closed).error == nil)
        let tooFar = #expect(throws: InteractionFault.NotApplicable.self) {
            try ConversationFault(after: 4, .drop).frames(of: WebSocketTranscript(frames: Self.frames))
        }
        #expect(tooFar?.reason == "the server sent 3 frame(s) before its close, not 4")
        #expect(throws: InteractionFault.NotApplicable.self) { try WebSocket.replay(Self.conversation, fault: ConversationFault(after: 4, .stall)) }
    }

    // MARK: - In process

    @Test func inProcessADropEndsAsALiveConnectionTheServerClosedWithoutAClose() async throws {
        let socket = try WebSocket.replay(Self.conversation, fault: ConversationFault(after: 2, .drop))
        let (received, ending) = await Self.converse(socket)
        #expect(received == [.text("one"), .binary(Data([0, 1, 2]))])
        #expect(ending == .abnormal(reason: "the server closed the connection without a close frame"))
    }

    @Test func inProcessACloseArrivesWithItsCodeAndReason() async throws {
        let close = WebSocketClose(code: .tryAgainLater, reason: "busy")
        let socket = try WebSocket.replay(Self.conversation, fault: ConversationFault(after: 1, .close(close)))
        let (received, ending) = await Self.converse(socket)
        #expect(received == [.text("one")])
        #expect(ending == .closed(close))
    }

    @Test func inProcessAStalledServerTakesMessagesAndAnswersNothing() async throws {
        let socket = try WebSocket.replay(Self.conversation, fault: ConversationFault(after: 0, .stall), closeTimeout: 0.2)
        // Sending works (a stalled server's socket is open), nothing comes back, and a close waits its timeout.
        try await socket.send(.text("one"))
        try await socket.send(.text("anything"))
        #expect(socket.currentEnding == nil)
        #expect(await socket.close() == .abnormal(reason: "the server did not answer the close in 0.2 s"))
    }

    /// Through a cassette, the sweep's pair fires once: the client that connects again gets the recording.
    @Test func throughACassetteTheFaultFiresOnceAndAReconnectGetsTheRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.cassette(in: directory)
        let pair = try #require(try FaultSweepPlan(cassette: file, faults: [.webSocketDrop]).pairs.first)
        let cassette = try CassetteTransport(cassette: file, mode: .replay, configuration: pair.configuration(), environment: [:])
        let url = try #require(URL(string: Self.url))
        let faulted = await Self.converse(try await WebSocket.connect(to: url, through: cassette))
        #expect(faulted.0 == [.text("one"), .binary(Data([0, 1, 2]))] && faulted.1.code == .abnormalClosure)
        let again = await Self.converse(try await WebSocket.connect(to: url, through: cassette))
        #expect(again.0 == [.text("one"), .binary(Data([0, 1, 2])), .text("three")])
        #expect(again.1 == .closed(WebSocketClose(code: .normalClosure, reason: "done")))
    }

    /// An HTTP fault of the sweep replaces the upgrade's `101` in process, as it does on a served cassette.
    @Test func anHTTPFaultReplacesTheUpgradesAnswer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.cassette(in: directory)
        let url = try #require(URL(string: Self.url))
        let plan = try FaultSweepPlan(cassette: file, faults: [.serviceUnavailable, .resetBeforeHead], interactions: ["GET /echo"])
        let unavailable = try CassetteTransport(cassette: file, configuration: plan.pairs[0].configuration(), environment: [:])
        await #expect(throws: WebSocketHandshakeError.unexpectedStatus(503)) { try await WebSocket.connect(to: url, through: unavailable) }
        let reset = try CassetteTransport(cassette: file, configuration: plan.pairs[1].configuration(), environment: [:])
        await #expect(throws: URLError.self) { try await WebSocket.connect(to: url, through: reset) }

        let server = try StubServer()
        defer { server.stop() }
        try server.serve(cassette: file, configuration: plan.pairs[0].configuration())
        let served = try #require(URL(string: "ws://127.0.0.1:\(server.port)/echo"))
        await #expect(throws: WebSocketHandshakeError.unexpectedStatus(503)) { try await WebSocket.connect(to: served) }
    }

    // MARK: - Served, against Python's websockets

    /// Each sweep fault, on the served cassette's socket with Python's client, gives what the in-process replay
    /// gives Tapedeck's client: the same messages, the same close code (and reason, for a close).
    @Test(arguments: InteractionFault.webSocketFaults)
    func aWebsocketsClientMeetsOnTheServedCassetteWhatTheInProcessReplayGives(_ fault: InteractionFault) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.cassette(in: directory)
        let pair = try #require(try FaultSweepPlan(cassette: file, faults: [fault]).pairs.first)
        let wait = 1.0

        var options = WebSocketClientOptions()
        options.closeTimeout = wait
        let cassette = try CassetteTransport(cassette: file, configuration: pair.configuration(), environment: [:])
        let inProcess = await Self.converse(try await WebSocket.connect(to: try #require(URL(string: Self.url)), through: cassette, options: options),
                                            wait: .seconds(wait))

        let server = try StubServer()
        defer { server.stop() }
        try server.serve(cassette: file, configuration: pair.configuration())
        let served = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(server.port)/echo")),
                                                               sending: Self.script, wait: wait)

        #expect(inProcess.0 == [.text("one"), .binary(Data([0, 1, 2]))])
        #expect(served.0 == inProcess.0)
        #expect(served.1.code == Int(inProcess.1.code.rawValue))
        if case .closed(let close) = inProcess.1 {
            #expect(served.1.reason == close.reason)
            #expect(close.reason == "injected fault: close \(close.code) (fault sweep)")
        } else {
            #expect(inProcess.1.code == .abnormalClosure)
        }
        #expect(server.cassetteSummary()?.webSocketReports == [])
    }

    /// Sends the script one message at a time, reading one answer after each (waiting at most `wait`, then closing,
    /// as the Python client does), and closes; returns the answers and how the connection ended.
    static func converse(_ socket: WebSocket, wait: Duration = .seconds(5)) async -> ([WebSocketMessage], WebSocketEnding) {
        var received: [WebSocketMessage] = []
        var iterator = socket.messages.makeAsyncIterator()
        for message in script {
            do { try await socket.send(message) } catch { break }
            let watchdog = Task {
                try await Task.sleep(for: wait)
                _ = await socket.close(.normalClosure, reason: "done")
            }
            let answer = try? await iterator.next()
            watchdog.cancel()
            guard let answer else { break }
            received.append(answer)
        }
        return (received, await socket.close(.normalClosure, reason: "done"))
    }
}

extension Result {
    /// The error, for a failure.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
