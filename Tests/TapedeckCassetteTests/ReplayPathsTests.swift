import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// `send` replays without an event stream; `execute` replays event by event. Both must give the same responses and
/// errors, and a miss in `newEpisodes` records through either.
@Suite struct ReplayPathsTests {
    func recordedCassette() -> Cassette {
        var metrics = TransferMetrics(total: 0.25)
        metrics.remoteAddress = "127.0.0.1"
        let gzipped = Interaction(
            request: .init(method: "GET", url: "http://127.0.0.1:1/gzip"),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK", url: "http://127.0.0.1:1/final",
                                     headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                                     body: CassetteBody(Data(#"{"gzipped":true}"#.utf8), contentEncoding: "gzip"))),
            metrics: metrics, peerCertificates: [Data([1, 2, 3])])
        let posted = Interaction(
            request: .init(method: "POST", url: "http://127.0.0.1:1/post", headers: ["Content-Type": "text/plain"],
                           body: CassetteBody(Data("hello".utf8))),
            outcome: .response(.init(statusCode: 201, headers: ["Content-Type": "text/plain"], body: CassetteBody(Data("created".utf8)))))
        let failed = Interaction(
            request: .init(method: "GET", url: "http://127.0.0.1:1/down"),
            outcome: .failure(.init(code: URLError.cannotConnectToHost.rawValue, message: "Could not connect to server")))
        return Cassette(interactions: [gzipped, posted, failed])
    }

    var requests: [HTTPRequest] {
        [HTTPRequest(url: URL(string: "http://127.0.0.1:1/gzip")!),
         HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:1/post")!, headers: ["Content-Type": "text/plain"],
                     body: .data(Data("hello".utf8))),
         HTTPRequest(url: URL(string: "http://127.0.0.1:1/down")!)]
    }

    func outcome(_ body: () async throws -> HTTPResponse) async -> Result<HTTPResponse, URLError> {
        do { return .success(try await body()) } catch let error as URLError { return .failure(error) } catch {
            Issue.record("unexpected \(error)")
            return .failure(URLError(.unknown))
        }
    }

    @Test func sendAndExecuteReplayTheSameResponsesAndErrors() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("paths.json")
        try CassetteFile.save(recordedCassette(), to: cassette)
        let direct = try openCassette(cassette, mode: .replay)
        let evented = try openCassette(cassette, mode: .replay)
        for request in requests {
            let sent = await outcome { try await direct.send(request) }
            let streamed = await outcome {
                for try await event in evented.execute(request) {
                    if case .completed(let response) = event { return response }
                }
                throw URLError(.cancelled)
            }
            switch (sent, streamed) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(request.url)")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code && a.localizedDescription == b.localizedDescription, "\(request.url)")
            default:
                Issue.record("\(request.url): \(sent) versus \(streamed)")
            }
        }
        // What the direct path gave: the body decoded, the final URL, the recorded metrics and chain.
        let gzip = try await openCassette(cassette, mode: .replay).send(requests[0])
        #expect(gzip.head.url.absoluteString == "http://127.0.0.1:1/final")
        #expect(gzip.data?.prefix(2) != Data([0x1F, 0x8B]) && gzip.data?.isEmpty == false)
        #expect(gzip.metrics.total == 0.25 && gzip.peerCertificates == [Data([1, 2, 3])])
        #expect(try direct.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    @Test func aMissInNewEpisodesRecordsThroughSend() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/new", response: .text("fresh"))
        let cassette = directory.cassette("episodes.json")
        try CassetteFile.save(recordedCassette(), to: cassette)
        let transport = try openCassette(cassette, mode: .newEpisodes, upstream: CurlTransport())
        #expect(try await transport.send(requests[1]).data == Data("created".utf8))
        #expect(try await transport.send(HTTPRequest(url: server.url("/new"))).data == Data("fresh".utf8))
        try transport.finish()
        let recorded = try CassetteFile.load(cassette).interactions
        #expect(recorded.count == 4)
        #expect(recorded.last?.response?.body.inlineData == Data("fresh".utf8))
    }
}
