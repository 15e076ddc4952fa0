import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting
import Testing

/// The issues these tests record on purpose carry this text; the suite's filter drops them once the cassette trait
/// (inside) has seen them, so they exercise the rule without failing the suite.
private let deliberate = "deliberate failure"
private let notes = Locked<[String]>([])

@Suite(.compactMapIssues { issue in
    let text = issue.comments.map(\.rawValue).joined()
    if text.contains("the test failed") { notes.value.append(text) }
    return text.contains(deliberate) || text.contains("the test failed") ? nil : issue
})
struct FailedTestRecordingTests {
    /// Runs `body` as a test under `.cassette(mode: .once, onTestFailure: rule)` recording from a stub server, and
    /// returns the cassette file and the notes the trait recorded.
    private func record(_ rule: FailedTestRecording, name: String, in directory: TemporaryDirectory,
                        _ body: @escaping @Sendable (StubServer) async throws -> Void) async throws -> (URL, [String]) {
        let test = try #require(Test.current)
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/hello", response: .text("world"))
        let trait = CassetteTrait.cassette(name, mode: .once, root: directory.url, onTestFailure: rule)
        try await TapedeckTest.$currentTransport.withValue(server.transport()) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { try await body(server) }
        }
        let cassette = trait.cassetteURL(for: test, testCase: Test.Case.current)
        return (cassette, notes.value.filter { $0.contains(cassette.path) })
    }

    @Test func aPassingTestKeepsItsRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (cassette, said) = try await record(.discard, name: "passing", in: directory) { server in
            _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
        }
        #expect(try CassetteFile.load(cassette).interactions.count == 1)
        #expect(said.isEmpty)
    }

    @Test func aFailedExpectationDiscardsTheRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (cassette, said) = try await record(.discard, name: "failing", in: directory) { server in
            _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
            Issue.record(Comment(rawValue: deliberate))
        }
        #expect(!FileManager.default.fileExists(atPath: cassette.path))
        #expect(!FileManager.default.fileExists(atPath: FailedTestRecording.failedURL(for: cassette).path))
        #expect(said.count == 1 && said[0].contains("discarded"))
    }

    @Test func aFailedTestKeepsItsRecordingAsFailedJSONBesideAnUntouchedCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (cassette, said) = try await record(.keepAsFailed, name: "kept", in: directory) { server in
            _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
            Issue.record(Comment(rawValue: deliberate))
        }
        let failed = FailedTestRecording.failedURL(for: cassette)
        #expect(failed.lastPathComponent == "kept.failed.json")
        #expect(!FileManager.default.fileExists(atPath: cassette.path))
        #expect(try CassetteFile.load(failed).interactions.first?.request.url.hasSuffix("/hello") == true)
        #expect(said.count == 1 && said[0].contains("kept.failed.json"))
    }

    @Test func keepLeavesTheRecordingAndSaysSo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (cassette, said) = try await record(.keep, name: "keep", in: directory) { server in
            _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
            Issue.record(Comment(rawValue: deliberate))
        }
        #expect(try CassetteFile.load(cassette).interactions.count == 1)
        #expect(said.count == 1 && said[0].contains("FailedTestRecording.keep"))
    }

    @Test func aKnownIssueIsNotAFailure() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (cassette, said) = try await record(.discard, name: "known", in: directory) { server in
            _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
            withKnownIssue { Issue.record("expected, and known") }
        }
        #expect(try CassetteFile.load(cassette).interactions.count == 1)
        #expect(said.isEmpty)
    }

    @Test func newEpisodesOfAFailedTestLeaveTheEarlierCassetteAsItWas() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (cassette, _) = try await record(.discard, name: "episodes", in: directory) { server in
            _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
        }
        let before = try Data(contentsOf: cassette)
        let test = try #require(Test.current)
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/other", response: .text("more"))
        let trait = CassetteTrait.cassette("episodes", mode: .newEpisodes, root: directory.url)
        await #expect(throws: URLError.self) {
            try await TapedeckTest.$currentTransport.withValue(server.transport()) {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    _ = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/other")))
                    throw URLError(.cannotParseResponse)
                }
            }
        }
        #expect(try Data(contentsOf: cassette) == before)
    }
}
