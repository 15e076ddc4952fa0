import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// The recording proxy relays a body as it arrives: an event stream that sends one event and then stays open
    /// reaches the client through the proxy at once (a proxy that held the body whole would send nothing until the
    /// upstream ends), and the exchange is recorded when the stream ends. No bound here depends on the machine's
    /// speed: the upstream never ends its body while the client waits.
    @Suite struct RecordingProxyStreamingTests {
        static let event = Data("data: first\n\n".utf8)

        /// An upstream whose event stream sends ``event`` and then stalls until the server stops.
        static func endlessStream() throws -> StubServer {
            let upstream = try StubServer()
            var body = ChunkedBody(data: event)
            body.ending = .stall
            upstream.route(.get, "/events", response: StubResponse(status: 200, headers: ["Content-Type": "text/event-stream"],
                                                                   body: .chunked(body)))
            return upstream
        }

        /// Sends a streamed GET and returns once its first body chunk arrives, with the head and the chunk.
        static func firstChunk(of url: URL, over transport: CurlTransport) async throws -> (HTTPResponseHead, Data) {
            let log = TransportEventLog()
            let task = Task {
                try await transport.send(HTTPRequest(url: url, timeoutInterval: 120, responseBody: .stream), onEvent: log.handler)
            }
            defer { task.cancel() }
            // A safety net only: the chunk comes at once, or (held back) never.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let head = log.heads.first, let chunk = log.bodyChunks.first { return (head, chunk) }
                try await Task.sleep(for: .milliseconds(5))
            }
            throw URLError(.timedOut)
        }

        @Test(arguments: [false, true])
        func anOpenEventStreamReachesTheClientThroughTheProxy(forwardProxy: Bool) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("events.json")
            let upstream = try Self.endlessStream()
            let (head, chunk): (HTTPResponseHead, Data)
            let summary: CassetteSummary?
            if forwardProxy {
                let proxy = try ForwardProxy(cassette: file, mode: .record(.newEpisodes))
                defer { proxy.stop() }
                let client = CurlTransport(configuration: CurlTransport.Configuration(proxy: proxy.proxyURL.absoluteString))
                (head, chunk) = try await Self.firstChunk(of: upstream.baseURL.appendingPathComponent("events"), over: client)
                upstream.stop()
                summary = try await proxy.finishRecording()
            } else {
                let proxy = try StubServer()
                defer { proxy.stop() }
                try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all)
                (head, chunk) = try await Self.firstChunk(of: proxy.baseURL.appendingPathComponent("events"), over: CurlTransport())
                upstream.stop()
                summary = try await proxy.finishRecording()
            }
            #expect(head.statusCode == 200 && head.headers["Content-Type"] == "text/event-stream")
            #expect(chunk == Self.event)
            // Recorded when the upstream went away, with the event it sent and its time.
            #expect(summary?.interactionCount == 1)
            let recorded = try #require(try CassetteFile.load(file).interactions.first?.response)
            #expect(recorded.body.inlineData == Self.event)
            #expect(recorded.chunks?.map(\.byteCount) == [Self.event.count])
        }
    }
}
