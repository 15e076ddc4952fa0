import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckCore
import TapedeckOpenAPI
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession

/// A streamed LLM answer (an OpenAI-style chat completion sent as server-sent events) recorded once, then asked for
/// again by a caller whose `user`, `metadata` and `stream_options` differ (the `json(ignoring:)` rule leaves them out)
/// and replayed with its recorded pace through every door that reads a body as it arrives: the transport itself, a
/// session manager's data task handing its body over (the client stack), `URLSession` delegate callbacks over the
/// `TransportURLProtocol`, the OpenAPI client transport's `HTTPBody`, and `serve` read by FoundationNetworking's own
/// `URLSession` over a socket. Each must see the events live gave, each no earlier than most of its recorded time
/// after the request.
@Suite struct StreamedCompletionContractTests {
    static let pieces = ["Hel", "lo", ", wor", "ld"]
    /// When each event is sent, after the response head.
    static let times: [TimeInterval] = [0, 0.15, 0.3, 0.45]
    static let rules: [MatchRule] = [.method, .url, .json(ignoring: ["$.user", "$.metadata", "$.stream_options"])]

    /// The events' `data:` payloads: one chunk per piece, then `[DONE]` with the last.
    static var events: [String] {
        pieces.enumerated().map { index, piece in
            #"{"id":"chatcmpl-42","object":"chat.completion.chunk","created":1800000000,"model":"small","#
                + #""choices":[{"index":0,"delta":{"content":"\#(piece)"},"finish_reason":\#(index == pieces.count - 1 ? #""stop""# : "null")}]}"#
        } + ["[DONE]"]
    }

    static func startServer() throws -> StubServer {
        let server = try StubServer()
        var blocks = events.map { "data: \($0)\n\n" }
        blocks[blocks.count - 2] += blocks.removeLast()
        let schedule = zip(blocks, times).map { TimedChunk(byteCount: $0.utf8.count, at: $1) }
        server.route(.post, "/v1/chat/completions", response: StubResponse(
            headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
            body: .chunked(ChunkedBody(data: Data(blocks.joined().utf8), schedule: schedule))))
        return server
    }

    static func body(user: String, tag: String) -> Data {
        Data(#"{"model":"small","stream":true,"stream_options":{"include_usage":\#(tag == "a")},"user":"\#(user)","metadata":{"run":"\#(tag)"},"messages":[{"role":"user","content":"Say hello"}]}"#.utf8)
    }

    /// The events a reader of chunks saw, and when each arrived after the request was sent.
    final class Reader: Sendable {
        private let state = Locked((buffer: "", events: [String](), arrivals: ArrivalTimes(from: .now)))

        func read(_ chunk: Data) {
            state.withLock { state in
                state.buffer += String(decoding: chunk, as: UTF8.self)
                while let end = state.buffer.range(of: "\n\n") {
                    let block = state.buffer[..<end.lowerBound]
                    state.buffer.removeSubrange(..<end.upperBound)
                    state.events.append(block.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }.joined(separator: "\n"))
                    state.arrivals.mark()
                }
            }
        }

        var events: [String] { state.withLock { $0.events } }
        var arrivals: [TimeInterval] { state.withLock { $0.arrivals.seconds } }
    }

    /// Checks what `reader` saw against the recording: the events, and (paced) each no earlier than most of its time.
    static func check(_ reader: Reader, paced: Bool, _ door: String) {
        #expect(reader.events == events, "\(door): events")
        guard paced else { return }
        let arrivals = reader.arrivals
        for (index, time) in times.enumerated() where index < arrivals.count {
            #expect(arrivals[index] >= time * 0.8, "\(door): event \(index) came \(arrivals[index]) s after the request; recorded \(time) s")
        }
    }

    /// Through an `HTTPTransport`, the body as a stream of chunks.
    static func overTransport(_ transport: any HTTPTransport, _ url: URL, user: String, tag: String) async throws -> Reader {
        let reader = Reader()
        let request = HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json", "Accept": "text/event-stream"],
                                  body: .data(body(user: user, tag: tag)), responseBody: .stream)
        let response = try await transport.send(request) { event in
            if case .bodyChunk(let chunk) = event { reader.read(chunk) }
        }
        #expect(response.statusCode == 200)
        return reader
    }

    /// Through the client stack: a session manager's data task that hands its body over as it comes.
    static func overSessionManager(_ transport: any HTTPTransport, _ url: URL, user: String, tag: String) async throws -> Reader {
        let reader = Reader()
        let manager = SessionManager(transport: transport, responseSerializer: HTTPResponseSerializer())
        let request = HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json", "Accept": "text/event-stream"],
                                  body: .data(body(user: user, tag: tag)))
        let result = await manager.dataTask(with: request, didReceiveData: { reader.read($0) }).run()
        #expect(result.error == nil && result.response?.statusCode == 200 && result.data == nil)
        return reader
    }

    /// Through a `URLSession` data task whose delegate gets the body as it comes.
    static func overURLSession(_ configuration: URLSessionConfiguration, _ url: URL, user: String, tag: String) async throws -> Reader {
        let delegate = ChunkDelegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body(user: user, tag: tag)
        session.dataTask(with: request).resume()
        try await delegate.finished()
        return delegate.reader
    }

    /// Through the OpenAPI client transport, the response's `HTTPBody` iterated as it arrives.
    static func overOpenAPI(_ transport: any HTTPTransport, _ root: URL, user: String, tag: String) async throws -> Reader {
        let client = TapedeckClientTransport(transport)
        // Made before the request, like every other door's: arrivals count from the request, not from the response
        // head's return (which a busy machine can delay past the first events' pace).
        let reader = Reader()
        var request = HTTPTypes.HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/chat/completions")
        request.headerFields[.contentType] = "application/json"
        let (response, body) = try await client.send(request, body: HTTPBody(Self.body(user: user, tag: tag)), baseURL: root, operationID: "createChatCompletion")
        #expect(response.status.code == 200)
        if let body {
            for try await chunk in body { reader.read(Data(chunk)) }
        }
        return reader
    }

    @Test func aStreamedCompletionReplaysWithItsChunksAndPaceThroughEveryDoor() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.startServer()
        defer { server.stop() }
        let url = server.url("/v1/chat/completions")
        let cassette = directory.cassette("completion.json")

        let recorder = try openCassette(cassette, mode: .all, upstream: server.transport(), configuration: CassetteConfiguration(matching: Self.rules))
        Self.check(try await Self.overTransport(recorder, url, user: "ann", tag: "a"), paced: true, "recording")
        try recorder.finish()
        server.stop()
        #expect(try CassetteFile.load(cassette).replayRules.matching?.map(\.description) == Self.rules.map(\.description), "the rules travel with the cassette")

        // Another caller: another user, metadata and stream options; the cassette's own rules, its recorded pace.
        let paced = CassetteConfiguration(allowPlaybackRepeats: true, timing: .recorded(scale: 1))
        let replay = try openCassette(cassette, mode: .replay, configuration: paced)
        Self.check(try await Self.overTransport(replay, url, user: "bob", tag: "b"), paced: true, "transport")
        Self.check(try await Self.overSessionManager(replay, url, user: "bob", tag: "b"), paced: true, "session manager")
        Self.check(try await Self.overURLSession(.tapedeck(transport: replay), url, user: "bob", tag: "b"), paced: true, "URLSession delegate")
        Self.check(try await Self.overOpenAPI(replay, server.url("/"), user: "bob", tag: "b"), paced: true, "OpenAPI HTTPBody")
        try replay.finish()

        let serving = try StubServer()
        defer { serving.stop() }
        try serving.serve(cassette: cassette, configuration: paced, origin: url)
        Self.check(try await Self.overURLSession(.ephemeral, serving.url("/v1/chat/completions"), user: "bob", tag: "b"), paced: true,
                   "served, FoundationNetworking's URLSession")
        #expect(try serving.finishCassette()?.unmatched == [])
    }
}

/// A URLSession delegate that reads each piece of the body as it is delivered.
private final class ChunkDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let reader = StreamedCompletionContractTests.Reader()
    private let ending = Locked<(error: (any Error)??, waiter: CheckedContinuation<Void, any Error>?)>((nil, nil))

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        reader.read(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiter = ending.withLock { state in
            state.error = .some(error)
            defer { state.waiter = nil }
            return state.waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume() }
    }

    /// Returns when the task completed; throws its error.
    func finished() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ended = ending.withLock { state -> (any Error)?? in
                if state.error == nil { state.waiter = continuation }
                return state.error
            }
            switch ended {
            case .none: break
            case .some(.none): continuation.resume()
            case .some(.some(let error)): continuation.resume(throwing: error)
            }
        }
    }
}
