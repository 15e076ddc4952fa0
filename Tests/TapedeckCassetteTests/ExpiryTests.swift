import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

/// `CassetteConfiguration.expiresAfter`: interactions older than the limit warn, fail or are re-recorded, judged
/// against an injected clock.
@Suite struct ExpiryTests {
    /// Recorded 2023-11-14 (see `interaction(_:_:)`); these clocks put it 10 and 100 days back.
    static let recorded = Date(timeIntervalSince1970: 1_700_000_000.123)
    static let tenDaysLater: @Sendable () -> Date = { recorded.addingTimeInterval(10 * 86_400) }
    static let hundredDaysLater: @Sendable () -> Date = { recorded.addingTimeInterval(100 * 86_400) }

    private func cassette(_ directory: TemporaryDirectory, url: String) throws -> URL {
        try CassetteFile.save(Cassette(interactions: [interaction("GET", url, responseBody: "old")]), to: directory.cassette())
        return directory.cassette()
    }

    private func configuration(_ strategy: CassetteExpiry.Strategy, now: @escaping @Sendable () -> Date) -> CassetteConfiguration {
        CassetteConfiguration(expiresAfter: CassetteExpiry(after: 30 * 86_400, strategy: strategy, now: now))
    }

    @Test func aFreshInteractionReplaysQuietly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = URL(string: "https://api.example.test/a")!
        let transport = try openCassette(try cassette(directory, url: url.absoluteString), mode: .replay,
                                         configuration: configuration(.fail, now: Self.tenDaysLater))
        #expect(try await transport.send(HTTPRequest(url: url)).data == Data("old".utf8))
        #expect(try transport.finish().expired.isEmpty)
    }

    @Test func warnReplaysAndListsTheInteraction() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = URL(string: "https://api.example.test/a")!
        let transport = try openCassette(try cassette(directory, url: url.absoluteString), mode: .replay,
                                         configuration: configuration(.warn, now: Self.hundredDaysLater))
        #expect(try await transport.send(HTTPRequest(url: url)).data == Data("old".utf8))
        #expect(try transport.finish().expired == ["#0 GET https://api.example.test/a (recorded 2023-11-14T22:13:20.123Z)"])
    }

    @Test func failRefusesTheRequestAndSaysHowToReRecord() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = URL(string: "https://api.example.test/a")!
        let transport = try openCassette(try cassette(directory, url: url.absoluteString), mode: .replay,
                                         configuration: configuration(.fail, now: Self.hundredDaysLater))
        let error = await #expect(throws: CassetteError.self) { try await transport.send(HTTPRequest(url: url)) }
        #expect((error.map { $0 as NSError })?.code == 15)
        #expect("\(error!)".contains("GET https://api.example.test/a") && "\(error!)".contains("expiresAfter"))
    }

    @Test(.stubServer { $0.route(.get, "/a", response: .text("new")) })
    func reRecordReplacesTheInteractionWhereTheModeRecords() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        let url = server.url("/a")
        let file = try cassette(directory, url: url.absoluteString)
        let transport = try openCassette(file, mode: .newEpisodes, upstream: CurlTransport(),
                                         configuration: configuration(.reRecord, now: Self.hundredDaysLater))
        #expect(try await transport.send(HTTPRequest(url: url)).data == Data("new".utf8))
        try transport.finish()
        let saved = try CassetteFile.load(file).interactions
        #expect(saved.count == 1, "replaced in place, not added")
        #expect(saved.first?.response?.body.inlineData == Data("new".utf8))
        #expect(saved.first.map { $0.recordedAt > Self.recorded } == true)
    }

    @Test func reRecordOnlyWarnsWhereTheModeDoesNotRecord() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = URL(string: "https://api.example.test/a")!
        let transport = try openCassette(try cassette(directory, url: url.absoluteString), mode: .replay, upstream: CurlTransport(),
                                         configuration: configuration(.reRecord, now: Self.hundredDaysLater))
        #expect(try await transport.send(HTTPRequest(url: url)).data == Data("old".utf8))
        #expect(try transport.finish().expired.count == 1)
    }

    @Test func theTestScopeReportsExpiredInteractionsAsAWarning() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = URL(string: "https://api.example.test/a")!
        let scope = CassetteScope(cassette: try cassette(directory, url: url.absoluteString), mode: .replay,
                                  configuration: configuration(.warn, now: Self.hundredDaysLater), environment: [:])
        let failures = try await scope.run { transport in _ = try await transport.send(HTTPRequest(url: url)) }
        #expect(failures.count == 1)
        #expect(failures.first?.isWarning == true)
        #expect(failures.first?.description.contains("expired") == true)
    }
}
