import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckTestSupport

/// Exchanges in flight at once are stored in the order their requests were sent, not the order they finished, so a
/// replay in the order of the original run gets each request its own answer.
@Suite struct SendingOrderTests {
    /// An upstream whose `/first` answer waits until the test lets it go, and that says when a request arrived.
    final class GatedUpstream: HTTPTransport, Sendable {
        let arrived = AsyncStream<String>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            let path = request.url.path
            arrived.continuation.yield(path)
            if path == "/first" {
                for await _ in release.stream { break }
            }
            let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "text/plain"], url: request.url)
            let response = HTTPResponse(head: head, body: .data(Data("answer of \(path)".utf8)))
            onEvent?(.responseHead(head))
            onEvent?(.completed(response))
            return response
        }
    }

    @Test func theFirstSentIsStoredFirstWhenItFinishesLast() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let upstream = GatedUpstream()
        // A recording already in the cassette keeps its place.
        let earlier = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: upstream)
        _ = try await earlier.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/earlier")!))
        try earlier.finish()

        let recorder = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: upstream)
        var arrivals = upstream.arrived.stream.makeAsyncIterator()
        #expect(await arrivals.next() == "/earlier")
        let first = Task { try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/first")!)) }
        #expect(await arrivals.next() == "/first")
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/second")!))
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/third")!))
        upstream.release.continuation.yield()
        _ = try await first.value

        // Mid-run the journal holds them as they finished; the finished file as they were sent.
        let midRun = try CassetteFile.load(directory.cassette()).interactions.map { URL(string: $0.request.url)!.path }
        #expect(midRun == ["/earlier", "/second", "/third", "/first"])
        let summary = try recorder.finish()
        let stored = try CassetteFile.load(directory.cassette()).interactions
        #expect(stored.map { URL(string: $0.request.url)!.path } == ["/earlier", "/first", "/second", "/third"])
        for interaction in stored {
            let path = URL(string: interaction.request.url)!.path
            #expect(interaction.response?.body.inlineData == Data("answer of \(path)".utf8))
        }
        #expect(summary.played == [1, 2, 3], "the summary counts positions in the file as written")
    }

    /// Putting recordings in order rewrites the file; the rules a recording recognises are still stored with it.
    @Test func reorderedRecordingsStillGetTheRulesTheirProtocolCallsFor() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let upstream = GatedUpstream()
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: upstream)
        func graphQL(_ path: String, _ query: String) -> HTTPRequest {
            HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:9\(path)")!, headers: ["Content-Type": "application/json"],
                        body: .data(Data(#"{"query":"\#(query)"}"#.utf8)))
        }
        var arrivals = upstream.arrived.stream.makeAsyncIterator()
        let first = Task { try await recorder.send(graphQL("/first", "query A { a }")) }
        #expect(await arrivals.next() == "/first")
        _ = try await recorder.send(graphQL("/second", "query B { b }"))
        upstream.release.continuation.yield()
        _ = try await first.value
        let summary = try recorder.finish()
        let stored = try CassetteFile.load(directory.cassette())
        #expect(stored.interactions.map { URL(string: $0.request.url)!.path } == ["/first", "/second"])
        #expect(stored.replayRules.matching?.spelled == "method,host,path,graphql", "\(summary.notes)")
    }

    @Test func recordingsFinishingInSendingOrderStayAsTheyAre() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let upstream = GatedUpstream()
        upstream.release.continuation.yield()
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: upstream)
        for path in ["/a", "/first", "/b"] {
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9\(path)")!))
        }
        try recorder.finish()
        #expect(try CassetteFile.load(directory.cassette()).interactions.map { URL(string: $0.request.url)!.path } == ["/a", "/first", "/b"])
    }
}
