import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

/// Which hosts a cassette covers (ignoreHosts, ignoreLoopback, allowedHosts), and spy mode.
@Suite struct HostRulesTests {
    private let remote = URL(string: "https://api.example.test/v1/me")!

    @Test func decisionsFollowTheRules() {
        let rules = HostRules(ignoreHosts: ["db.internal", "*.cdn.example"], ignoreLoopback: true,
                              allowedHosts: ["api.example.test"])
        #expect(rules.decision(for: URL(string: "https://api.example.test/x")!) == .cassette)
        #expect(rules.decision(for: URL(string: "http://DB.internal:5432/")!) == .live)
        #expect(rules.decision(for: URL(string: "https://img.cdn.example/a.png")!) == .live)
        #expect(rules.decision(for: URL(string: "https://cdn.example/a.png")!) == .refused(host: "cdn.example"))
        #expect(rules.decision(for: URL(string: "http://127.0.0.1:8080/")!) == .live)
        #expect(rules.decision(for: URL(string: "http://127.9.9.9/")!) == .live)
        #expect(rules.decision(for: URL(string: "http://[::1]:80/")!) == .live)
        #expect(rules.decision(for: URL(string: "http://localhost/")!) == .live)
        #expect(rules.decision(for: URL(string: "https://evil.example/")!) == .refused(host: "evil.example"))
        #expect(HostRules(ignoreHosts: [], ignoreLoopback: false, allowedHosts: nil).decision(for: URL(string: "http://127.0.0.1/")!) == .cassette)
        #expect(!HostRules.isLoopback("127.0.0.256") && !HostRules.isLoopback("128.0.0.1") && !HostRules.isLoopback("localhost.example"))
    }

    @Test func allowedHostsComeFromTheEnvironmentWhenSet() {
        #expect(HostRules.allowedHosts(fromEnvironment: ["TAPEDECK_ALLOWED_HOSTS": " a.example, b.example ,"]) == ["a.example", "b.example"])
        #expect(HostRules.allowedHosts(fromEnvironment: ["TAPEDECK_ALLOWED_HOSTS": " "]) == nil)
        #expect(HostRules.allowedHosts(fromEnvironment: [:]) == nil)
    }

    @Test(.stubServer { $0.route(.get, "/local", response: .text("live")) })
    func loopbackGoesLiveWhileTheRemoteAPIReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CassetteFile.save(Cassette(interactions: [interaction("GET", remote.absoluteString, responseBody: "recorded")]), to: directory.cassette())
        let server = try #require(TapedeckTest.currentStubServer)
        let transport = try openCassette(directory.cassette(), mode: .replay, upstream: CurlTransport(),
                                         configuration: CassetteConfiguration(ignoreLoopback: true))
        #expect(try await transport.send(HTTPRequest(url: remote)).data == Data("recorded".utf8))
        #expect(try await transport.send(HTTPRequest(url: server.url("/local"))).data == Data("live".utf8))
        let summary = try transport.finish()
        #expect(summary.liveRequests == ["GET \(server.url("/local").absoluteString)"])
        #expect(summary.interactionCount == 1, "the live request was not recorded")
        #expect(server.journal.entries.count == 1)
    }

    @Test(.stubServer { $0.route(.get, "/local", response: .text("live")) })
    func anIgnoredHostIsNotRecordedEvenWhileRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        let transport = try openCassette(directory.cassette(), mode: .all, upstream: CurlTransport(),
                                         configuration: CassetteConfiguration(ignoreHosts: ["127.0.0.1"]))
        _ = try await transport.send(HTTPRequest(url: server.url("/local")))
        #expect(try transport.finish().interactionCount == 0)
    }

    @Test(arguments: [RecordMode.replay, .all, .spy])
    func aHostThatIsNotAllowedIsRefusedInEveryMode(mode: RecordMode) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CassetteFile.save(Cassette(interactions: [interaction("GET", remote.absoluteString)]), to: directory.cassette())
        let transport = try openCassette(directory.cassette(), mode: mode, upstream: CurlTransport(),
                                         configuration: CassetteConfiguration(allowedHosts: ["api.example.test"]))
        let error = await #expect(throws: CassetteError.self) {
            try await transport.send(HTTPRequest(url: URL(string: "https://tracker.example/collect")!))
        }
        guard case .hostNotAllowed(let host, _, let allowed)? = error else {
            Issue.record("expected hostNotAllowed, got \(String(describing: error))")
            return
        }
        #expect(host == "tracker.example")
        #expect(allowed == ["api.example.test"])
        #expect("\(error!)".contains("TAPEDECK_ALLOWED_HOSTS"))
        #expect((error! as NSError).code == 13)
    }

    @Test func theEnvironmentReplacesTheConfiguredAllowedHosts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CassetteFile.save(Cassette(interactions: [interaction("GET", remote.absoluteString, responseBody: "ok")]), to: directory.cassette())
        let transport = try CassetteTransport(
            cassette: directory.cassette(), mode: .replay,
            configuration: CassetteConfiguration(allowedHosts: ["api.example.test"]),
            environment: ["TAPEDECK_ALLOWED_HOSTS": "other.example"])
        await #expect(throws: CassetteError.self) { try await transport.send(HTTPRequest(url: remote)) }
    }

    @Test func anIgnoredHostWithoutUpstreamSaysSo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CassetteFile.save(Cassette(), to: directory.cassette())
        let transport = try openCassette(directory.cassette(), mode: .replay, configuration: CassetteConfiguration(ignoreLoopback: true))
        let error = await #expect(throws: CassetteError.self) {
            try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/x")!))
        }
        #expect("\(error!)".contains("must go live") && "\(error!)".contains("upstream"))
    }

    @Test(.stubServer { $0.route(.get, "/missing", response: .text("from the server")) })
    func spyReplaysWhatIsRecordedAndSendsTheRestLiveUnrecorded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try #require(TapedeckTest.currentStubServer)
        let known = server.url("/known")
        try CassetteFile.save(Cassette(interactions: [interaction("GET", known.absoluteString, responseBody: "from the cassette")]),
                              to: directory.cassette())
        let before = try Data(contentsOf: directory.cassette())
        #expect(RecordMode(name: "SPY") == .spy)
        let transport = try openCassette(directory.cassette(), mode: .spy, upstream: CurlTransport())
        #expect(try await transport.send(HTTPRequest(url: known)).data == Data("from the cassette".utf8))
        #expect(try await transport.send(HTTPRequest(url: server.url("/missing"))).data == Data("from the server".utf8))
        let summary = try transport.finish()
        #expect(summary.liveRequests == ["GET \(server.url("/missing").absoluteString)"])
        #expect(try Data(contentsOf: directory.cassette()) == before, "spy mode never writes the cassette")
        #expect(server.journal.entries.map(\.path) == ["/missing"])
    }

    @Test func spyNeedsAnUpstreamAndACassette() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: CassetteError.self) { try openCassette(directory.cassette(), mode: .spy, upstream: CurlTransport()) }
        try CassetteFile.save(Cassette(), to: directory.cassette())
        #expect(throws: CassetteError.self) { try openCassette(directory.cassette(), mode: .spy) }
    }
}
