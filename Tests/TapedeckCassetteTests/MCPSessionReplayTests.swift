import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCore
import TapedeckTestSupport

/// An MCP session replayed under the `jsonrpc` rule: every new session gets its own `Mcp-Session-Id`, and what the
/// server pushed on the session's `GET` event stream while a call was in flight comes during that call, not when the
/// stream opens.
@Suite struct MCPSessionReplayTests {
    static let endpoint = JSONRPCMatchingTests.endpoint
    static let recordedSession = "4f1c9a"
    /// When the recorded session started.
    static let zero = Date(timeIntervalSince1970: 1_800_000_000)

    /// A recorded exchange of session `recordedSession` whose request started `start` seconds after ``zero`` and whose
    /// answer ended `end` seconds after it.
    static func exchange(_ method: String, _ body: String, answer: String, contentType: String = "application/json",
                         start: TimeInterval, end: TimeInterval, chunks: [TimedChunk]? = nil, inSession: Bool = true) -> Interaction {
        var requestHeaders: HTTPHeaders = ["Content-Type": "application/json"]
        if inSession { requestHeaders["Mcp-Session-Id"] = recordedSession }
        return Interaction(
            request: .init(method: method, url: endpoint, headers: requestHeaders, body: CassetteBody(Data(body.utf8))),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": contentType, "Mcp-Session-Id": recordedSession],
                                     body: CassetteBody(Data(answer.utf8)), chunks: chunks)),
            metrics: TransferMetrics(timeToFirstByte: 0.001, total: end - start),
            recordedAt: zero.addingTimeInterval(end))
    }

    static let opening = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"opened\"}}\n\n"
    static let noted = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"noted: hello\"}}\n\n"
    static let progress = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":7,\"progress\":1}}\n\n"

    /// initialize (0–0.1 s), the GET stream (0.2–5 s) with a message at 0.3 s (no call in flight), one at 1.1 s
    /// (during `note`, 1.0–1.2 s) and progress at 3.5 s for `slow` (2.0–2.5 s: the token names it, though the
    /// message came after its answer), then the DELETE.
    static func session() -> Cassette {
        let stream = opening + noted + progress
        let sizes = [opening, noted, progress].map(\.utf8.count)
        let chunks = [TimedChunk(byteCount: sizes[0], at: 0.099), TimedChunk(byteCount: sizes[1], at: 0.899),
                      TimedChunk(byteCount: sizes[2], at: 3.299)]
        return Cassette(interactions: [
            exchange("POST", JSONRPCMatchingTests.call(1, "initialize", #"{"capabilities":{}}"#),
                     answer: #"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"notes"}}}"#, start: 0, end: 0.1, inSession: false),
            exchange("GET", "", answer: stream, contentType: "text/event-stream", start: 0.2, end: 5, chunks: chunks),
            exchange("POST", JSONRPCMatchingTests.call(2, "tools/call", #"{"name":"note","arguments":{"text":"hello"}}"#),
                     answer: #"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"noted"}]}}"#, start: 1.0, end: 1.2),
            exchange("POST", JSONRPCMatchingTests.call(3, "tools/call", #"{"name":"slow","arguments":{},"_meta":{"progressToken":7}}"#),
                     answer: #"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}"#, start: 2.0, end: 2.5),
            exchange("DELETE", "", answer: "", start: 4.9, end: 5),
        ], replayRules: ReplayRules(matching: [.method, .url, .jsonRPC()]))
    }

    @Test func eachEventGoesToTheCallInFlightOrTheOneItsTokenNames() throws {
        let pushes = SessionPushes(cassette: Self.session(), bodyBytes: { $0.inlineData })
        #expect(pushes.isPushStream(1) && !pushes.isPushStream(2))
        #expect(pushes.streamStart(1) == Data(Self.opening.utf8), "no call was in flight for it")
        let note = try #require(pushes.pushes(for: 2, answering: Data(JSONRPCMatchingTests.call(2, "tools/call", #"{"name":"note","arguments":{"text":"hello"}}"#).utf8)))
        #expect(note.events.map(\.bytes) == [Data(Self.noted.utf8)])
        #expect(abs((note.events.first?.after ?? 0) - 0.1) < 0.005, "1.1 s into the session, 0.1 s into the call")
        #expect(abs(note.answerGap(atMost: 1) - 0.1) < 0.005, "answered at 1.2 s, 0.1 s after its message")
        #expect(note.answerGap(atMost: 0.05) == 0.05)
        let slow = try #require(pushes.pushes(for: 3, answering: Data(JSONRPCMatchingTests.call(40, "tools/call", #"{"name":"slow","arguments":{},"_meta":{"progressToken":"mine"}}"#).utf8)))
        #expect(slow.events.map { String(decoding: $0.bytes, as: UTF8.self) } == [Self.progress.replacingOccurrences(of: #""progressToken":7"#, with: #""progressToken":"mine""#)],
                "the caller's progress token")
        #expect(slow.answerGap(atMost: 1) == 0, "its progress came after its answer")
        #expect(pushes.pushes(for: 0, answering: Data()) == nil)
    }

    @Test func everyNewSessionGetsItsOwnIdAndEveryRequestItsCallers() {
        var sessions = MCPSessionIDs()
        let recorded = Interaction.Response(statusCode: 200, headers: ["Mcp-Session-Id": "abc"])
        let initialize = Interaction.Request(method: "POST", url: Self.endpoint)
        var first = recorded, second = recorded, third = recorded, later = recorded
        sessions.answer(&first, request: initialize)
        sessions.answer(&second, request: initialize)
        sessions.answer(&third, request: initialize)
        sessions.answer(&later, request: Interaction.Request(method: "POST", url: Self.endpoint, headers: ["mcp-session-id": "abc-2"]))
        #expect([first, second, third, later].map { $0.headers["Mcp-Session-Id"] } == ["abc", "abc-2", "abc-3", "abc-2"])
        var plain = Interaction.Response(statusCode: 200)
        sessions.answer(&plain, request: initialize)
        #expect(plain.headers["Mcp-Session-Id"] == nil)
    }

    /// In process: the `GET` stream sends what no call was in flight for at once, the `note` call's message only once
    /// `note` is called (by a second session, with its own id), and ends with the session's `DELETE`.
    @Test func aPushedMessageComesDuringItsCallInProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try JSONRPCMatchingTests.replayer(Self.session(), in: directory, allowingRepeats: true)
        let url = URL(string: Self.endpoint)!
        // A first session takes the recorded id; the second is told another, and uses it.
        let firstSession = try await replay.send(JSONRPCMatchingTests.post(JSONRPCMatchingTests.call(1, "initialize", #"{"capabilities":{}}"#)))
        #expect(firstSession.headers["Mcp-Session-Id"] == Self.recordedSession)
        let opened = try await replay.send(JSONRPCMatchingTests.post(JSONRPCMatchingTests.call(9, "initialize", #"{"capabilities":{}}"#)))
        let session = try #require(opened.headers["Mcp-Session-Id"])
        #expect(session == Self.recordedSession + "-2")
        let received = Locked(Data())
        let streaming = Task {
            try await replay.send(HTTPRequest(url: url, headers: ["Accept": "text/event-stream", "Mcp-Session-Id": session], responseBody: .stream)) { event in
                if case .bodyChunk(let chunk) = event { received.withLock { $0.append(chunk) } }
            }
        }
        try await Self.waitUntil { received.withLock { $0.count } >= Self.opening.utf8.count }
        #expect(received.withLock { $0 } == Data(Self.opening.utf8), "only what no call was in flight for")
        var call = JSONRPCMatchingTests.post(JSONRPCMatchingTests.call(21, "tools/call", #"{"name":"note","arguments":{"text":"hello"}}"#))
        call.headers["Mcp-Session-Id"] = session
        let answer = try await replay.send(call)
        #expect(answer.headers["Mcp-Session-Id"] == session)
        try await Self.waitUntil { received.withLock { $0.count } >= (Self.opening + Self.noted).utf8.count }
        var delete = HTTPRequest(method: .delete, url: url)
        delete.headers["Mcp-Session-Id"] = session
        _ = try await replay.send(delete)
        let stream = try await streaming.value
        #expect(stream.statusCode == 200 && stream.headers["Mcp-Session-Id"] == session)
        #expect(received.withLock { $0 } == Data((Self.opening + Self.noted).utf8), "nothing but what its calls pushed")
    }

    /// Waits (a safety net of minutes, never the verdict) until `condition` holds.
    static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
