import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// A recording writes its rules into the cassette, recognises GraphQL when nobody chose, names requests its rules
/// cannot tell apart, and every later replay uses the stored rules without being told.
@Suite struct ReplayRulesRecordingTests {
    /// An upstream that answers each request with its own body, so that a wrong answer shows.
    struct BodyEcho: HTTPTransport {
        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            guard case .data(let body) = request.body else { throw URLError(.badURL) }
            let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "application/json"], url: request.url)
            let response = HTTPResponse(head: head, body: .data(Data(#"{"echo":"#.utf8) + body + Data("}".utf8)))
            onEvent?(.responseHead(head))
            onEvent?(.completed(response))
            return response
        }
    }

    static let endpoint = URL(string: "http://127.0.0.1:4000/graphql")!
    static let operations = [
        #"{"query":"query Hero { hero { name } }"}"#,
        #"{"query":"query Droid($id: ID!) { droid(id: $id) { name } }","variables":{"id":"2001"}}"#,
        #"{"query":"query Droid($id: ID!) { droid(id: $id) { name } }","variables":{"id":"2000"}}"#,
        #"{"query":"mutation AddReview($stars: Int!) { createReview(stars: $stars) { stars } }","variables":{"stars":5}}"#,
    ]
    /// The same operations as another client writes them: other whitespace and member order.
    static let reformatted = [
        #"{"query":"query Hero {\n  hero {\n    name\n  }\n}"}"#,
        #"{"variables":{"id":"2001"},"query":"query Droid($id: ID!) {\n droid(id: $id) { name }\n}"}"#,
        #"{"variables": {"id": "2000"}, "query": "query Droid($id: ID!) { droid(id: $id) { name } }"}"#,
        #"{"query":"mutation AddReview($stars: Int!) {\n  createReview(stars: $stars) {\n    stars\n  }\n}","variables":{"stars":5}}"#,
    ]

    static func post(_ body: String) -> HTTPRequest {
        HTTPRequest(method: .post, url: endpoint, headers: ["Content-Type": "application/json"], body: .data(Data(body.utf8)))
    }

    static func record(_ url: URL, configuration: CassetteConfiguration = CassetteConfiguration()) async throws -> CassetteSummary {
        let recorder = try openCassette(url, mode: .newEpisodes, upstream: BodyEcho(), configuration: configuration)
        for body in operations { _ = try await recorder.send(post(body)) }
        return try recorder.finish()
    }

    @Test func aGraphQLRecordingStoresTheGraphQLRuleAndEveryReplayUsesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.cassette("graphql.json")
        let summary = try await Self.record(url)
        #expect(summary.notes.count == 1)
        #expect(summary.notes.first?.contains("stored match rules method,host,path,graphql") == true)
        #expect(try CassetteFile.load(url).replayRules.matching?.spelled == "method,host,path,graphql")
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).contains("\"version\": 3"))

        // Reversed and reformatted, each operation gets the answer recorded for it; a variable set never recorded
        // gets none.
        let replay = try openCassette(url, mode: .replay)
        for index in Self.operations.indices.reversed() {
            let response = try await replay.send(Self.post(Self.reformatted[index]))
            #expect(response.data == Data(#"{"echo":"#.utf8) + Data(Self.operations[index].utf8) + Data("}".utf8))
        }
        await #expect(throws: CassetteError.self) {
            try await replay.send(Self.post(#"{"query":"query Droid($id: ID!) { droid(id: $id) { name } }","variables":{"id":"9"}}"#))
        }
        #expect(try replay.finish().unplayed.isEmpty)
    }

    @Test func rulesChosenForTheRecordingAreStoredAndTheirAmbiguitiesNamed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.cassette("chosen.json")
        let summary = try await Self.record(url, configuration: CassetteConfiguration(matching: [.method, .path]))
        #expect(try CassetteFile.load(url).replayRules.matching?.spelled == "method,path")
        #expect(summary.notes.count == 1)
        let note = try #require(summary.notes.first)
        #expect(note.contains("#0 POST http://127.0.0.1:4000/graphql (query Hero)"))
        #expect(note.contains("match method,path,graphql tells them apart"))
        #expect(ReplayAmbiguity.find(in: try CassetteFile.load(url), matching: [.method, .path]).first?.interactions == [0, 1, 2, 3])

        // Set in code, a rule overrides the stored one, and the summary says so.
        let replay = try openCassette(url, mode: .replay, configuration: CassetteConfiguration(matching: [.method, .path, .graphQL()]))
        let response = try await replay.send(Self.post(Self.reformatted[3]))
        #expect(response.data == Data(#"{"echo":"#.utf8) + Data(Self.operations[3].utf8) + Data("}".utf8))
        #expect(try replay.finish().notes == ["match method,path,graphql overrides the cassette's method,path"])
    }

    @Test func storedRulesAreKeptByALaterRecordingThatChoseNone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.cassette("kept.json")
        _ = try await Self.record(url, configuration: CassetteConfiguration(matching: [.method, .url, .graphQL()]))
        // Recording more episodes with nothing chosen: the stored rules stay, and nothing is recognised again.
        let recorder = try openCassette(url, mode: .newEpisodes, upstream: BodyEcho())
        _ = try await recorder.send(Self.post(#"{"query":"query Droid($id: ID!) { droid(id: $id) { name } }","variables":{"id":"3"}}"#))
        let summary = try recorder.finish()
        #expect(!summary.notes.contains { $0.contains("stored match rules") }, "\(summary.notes)")
        #expect(try CassetteFile.load(url).replayRules.matching?.spelled == "method,url,graphql")
    }

    @Test func aCustomRuleIsNotStoredAndTheSummarySaysSo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.cassette("custom.json")
        let custom = CassetteConfiguration(matching: [.method, .custom("body") { $0.body == $1.body }])
        let summary = try await Self.record(url, configuration: custom)
        #expect(try CassetteFile.load(url).replayRules.matching == nil)
        #expect(summary.notes.contains { $0.contains("custom(body) is a closure") })
    }

    @Test func ambiguitiesNameTheRuleThatSeparates() {
        let json = Cassette(interactions: [
            interaction("POST", "http://h/rpc", headers: ["Content-Type": "application/json"], body: #"{"a":1}"#),
            interaction("POST", "http://h/rpc", headers: ["Content-Type": "application/json"], body: #"{"a":2}"#),
            interaction("POST", "http://h/rpc", headers: ["Content-Type": "application/json"], body: #"{"a":1}"#),
            interaction("GET", "http://h/other"),
        ])
        let found = ReplayAmbiguity.find(in: json, matching: MatchRule.defaults)
        #expect(found.map(\.interactions) == [[0, 1]])
        #expect(found.first?.separatingRule == "json")
        #expect(ReplayAmbiguity.find(in: json, matching: [.method, .url, .json()]).isEmpty)

        let form = Cassette(interactions: [
            interaction("POST", "http://h/f", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "a=1"),
            interaction("POST", "http://h/f", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "a=2"),
        ])
        #expect(ReplayAmbiguity.find(in: form, matching: MatchRule.defaults).first?.separatingRule == "form")
        let bytes = Cassette(interactions: [interaction("PUT", "http://h/b", body: "one"), interaction("PUT", "http://h/b", body: "two")])
        #expect(ReplayAmbiguity.find(in: bytes, matching: MatchRule.defaults).first?.separatingRule == "body")
        // The same request sent twice is not ambiguous: its answers are meant to come in order.
        let repeated = Cassette(interactions: [interaction("POST", "http://h/b", body: "x"), interaction("POST", "http://h/b", body: "x")])
        #expect(ReplayAmbiguity.find(in: repeated, matching: MatchRule.defaults).isEmpty)
    }
}
