import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

@Suite struct ModeTests {
    @Test(.stubServer(httpbin: true)) func replayNeedsTheCassetteAndNeverTheNetwork() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect {
            try openCassette(directory.cassette("missing.json"), mode: .replay)
        } throws: { error in
            guard case CassetteError.cassetteNotFound = error else { return false }
            return "\(error)".contains("missing.json") && "\(error)".contains("TAPEDECK_RECORD_MODE")
        }
        try CassetteFile.save(Cassette(interactions: [interaction("GET", "http://127.0.0.1:9/known", responseBody: "k")]), to: directory.cassette())
        let server = try #require(TapedeckTest.currentStubServer)
        let transport = try openCassette(directory.cassette(), mode: .replay, upstream: CurlTransport())
        await #expect(throws: CassetteError.self) { try await transport.send(HTTPRequest(url: server.url("/get"))) }
        #expect(server.journal.entries.isEmpty)
        #expect(try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/known")!)).data == Data("k".utf8))
    }

    @Test(.stubServer(httpbin: true)) func onceRecordsThenReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        let first = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        _ = try await first.send(HTTPRequest(url: server.url("/get?x=1")))
        try first.finish()
        let second = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        _ = try await second.send(HTTPRequest(url: server.url("/get?x=1")))
        await #expect(throws: CassetteError.self) { try await second.send(HTTPRequest(url: server.url("/get?x=2"))) }
        #expect(server.journal.entries.count == 1)
    }

    @Test(.stubServer(httpbin: true)) func newEpisodesRecordsOnlyWhatIsMissing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        let first = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        _ = try await first.send(HTTPRequest(url: server.url("/get?n=1")))
        try first.finish()
        let second = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport())
        _ = try await second.send(HTTPRequest(url: server.url("/get?n=1")))
        _ = try await second.send(HTTPRequest(url: server.url("/get?n=2")))
        #expect(try second.finish().interactionCount == 2)
        #expect(server.journal.entries.count == 2)
        #expect(try CassetteFile.load(directory.cassette()).interactions.map(\.request.url).map { $0.hasSuffix("n=1") || $0.hasSuffix("n=2") } == [true, true])
        #expect(!FileManager.default.fileExists(atPath: directory.cassette().path + ".journal"))
    }

    @Test(.stubServer(httpbin: true)) func reRecordingUnchangedTrafficIsByteIdentical() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        func record() async throws -> Data {
            let transport = try openCassette(directory.cassette(), mode: .all, upstream: CurlTransport())
            _ = try await transport.send(HTTPRequest(url: server.url("/json")))
            _ = try await transport.send(HTTPRequest(method: .post, url: server.url("/post"), body: .data(Data("abc".utf8))))
            try transport.finish()
            return try Data(contentsOf: directory.cassette())
        }
        let first = try await record()
        try await Task.sleep(for: .milliseconds(1_100))  // the Date header changes
        #expect(try await record() == first)
    }

    @Test(.stubServer(httpbin: true)) func passthroughTouchesNoCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        let transport = try openCassette(directory.cassette(), mode: .passthrough, upstream: CurlTransport())
        #expect(try await transport.send(HTTPRequest(url: server.url("/get"))).statusCode == 200)
        try transport.finish()
        #expect(!FileManager.default.fileExists(atPath: directory.cassette().path))
    }

    @Test func environmentOverridesTheMode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try CassetteTransport(cassette: directory.cassette(), mode: .replay, upstream: CurlTransport(),
                                              environment: ["TAPEDECK_RECORD_MODE": "new_episodes"])
        #expect(transport.mode == .newEpisodes)
        try transport.finish()
        #expect {
            try CassetteTransport(cassette: directory.cassette(), environment: ["TAPEDECK_RECORD_MODE": "sometimes"])
        } throws: { error in
            guard case CassetteError.invalidRecordMode("sometimes") = error else { return false }
            return "\(error)".contains("newEpisodes")
        }
        #expect(throws: CassetteError.self) { try openCassette(directory.cassette(), mode: .all) }
    }

    @Test func finishReportsOrFailsOnUnplayedInteractions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CassetteFile.save(Cassette(interactions: [interaction("GET", "http://h/a"), interaction("GET", "http://h/b")]), to: directory.cassette())
        let transport = try openCassette(directory.cassette(), mode: .replay)
        _ = try await transport.send(HTTPRequest(url: URL(string: "http://h/a")!))
        #expect {
            try transport.finish(requireAllPlayed: true)
        } throws: { error in
            guard case CassetteError.unplayedInteractions(_, let requests) = error else { return false }
            return requests == ["#1 GET http://h/b"]
        }
        #expect(try transport.finish().unplayed == ["#1 GET http://h/b"])
        await #expect(throws: CassetteError.self) { try await transport.send(HTTPRequest(url: URL(string: "http://h/b")!)) }
    }

    @Test func faultsAndRecordedTiming() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var slow = interaction("GET", "http://h/slow", responseBody: "late")
        slow.metrics = TransferMetrics(timeToFirstByte: 0.2, total: 0.25)
        try CassetteFile.save(Cassette(interactions: [interaction("GET", "http://h/flaky", responseBody: "ok"), slow]), to: directory.cassette())
        var configuration = CassetteConfiguration(timing: .recorded(scale: 1))
        configuration.faults = [ReplayFault(interaction: 0, action: .fault(.reset), times: 1)]
        let transport = try openCassette(directory.cassette(), mode: .replay, configuration: configuration)
        let failure = await #expect(throws: URLError.self) { try await transport.send(HTTPRequest(url: URL(string: "http://h/flaky")!)) }
        #expect(failure?.code == .networkConnectionLost)
        #expect(try await transport.send(HTTPRequest(url: URL(string: "http://h/flaky")!)).data == Data("ok".utf8))
        let start = ContinuousClock.now
        #expect(try await transport.send(HTTPRequest(url: URL(string: "http://h/slow")!)).data == Data("late".utf8))
        #expect(start.duration(to: .now) >= .milliseconds(190))
    }
}

@Suite(.stubServer(httpbin: true)) struct RecordingPathTests {
    /// `send` records without an event stream; `execute` records event by event. Both must write the same cassette.
    @Test func sendAndExecuteRecordTheSameInteractions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        var streamed = HTTPRequest(url: server.url("/bytes/3000"))
        streamed.responseBody = .stream
        let requests = [HTTPRequest(url: server.url("/json")), HTTPRequest(method: .post, url: server.url("/post"),
                        headers: ["Content-Type": "application/json"], body: .data(Data(#"{"password":"p-123456","n":1}"#.utf8))), streamed]
        let viaSend = try openCassette(directory.cassette("send.json"), mode: .all, upstream: CurlTransport())
        var sentBodies: [Data] = []
        for request in requests {
            let log = TransportEventLog()
            let response = try await viaSend.send(request, onEvent: log.handler)
            sentBodies.append(response.data ?? log.bodyChunks.reduce(Data(), +))
        }
        for request in requests { _ = try await viaSend.send(request) }
        try viaSend.finish()
        // The same salt, so that the password gets the same stand-in in both.
        try CassetteFile.save(Cassette(redactionSalt: CassetteFile.load(directory.cassette("send.json")).redactionSalt),
                              to: directory.cassette("events.json"))
        let viaEvents = try openCassette(directory.cassette("events.json"), mode: .all, upstream: CurlTransport())
        for request in requests + requests {
            for try await _ in viaEvents.execute(request) {}
        }
        try viaEvents.finish()

        let sent = try CassetteFile.load(directory.cassette("send.json")).interactions
        let executed = try CassetteFile.load(directory.cassette("events.json")).interactions
        #expect(sent.count == 6)
        #expect(sent.map(\.request) == executed.map(\.request))
        #expect(sent.map { $0.response?.body } == executed.map { $0.response?.body })
        #expect(sent[2].response?.body.inlineData == sentBodies[2])
        #expect(sent[5].response?.body.byteCount == 3000, "a streamed body is recorded when the caller only asks for the response")
        let text = try String(contentsOf: directory.cassette("send.json"), encoding: .utf8)
        #expect(!text.contains("p-123456"))
    }

    @Test func aRecordedInteractionReplaysLaterInTheSameSession() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        var configuration = CassetteConfiguration()
        configuration.allowPlaybackRepeats = true
        let transport = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport(), configuration: configuration)
        let first = try await transport.send(HTTPRequest(url: server.url("/uuid")))
        let again = try await transport.send(HTTPRequest(url: server.url("/uuid")))
        #expect(server.journal.entries.count == 1, "the second request is answered from the interaction just recorded")
        #expect(first.data == again.data)
        try transport.finish()
    }
}
