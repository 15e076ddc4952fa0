import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore
import TapedeckStubServer
import TapedeckTestSupport

/// `WireMockExport` against WireMock's documented stub mapping format (request `method`/`url`; response
/// `status`/`statusMessage`/`headers`/`body`/`base64Body`/`fault`; `scenarioName`/`requiredScenarioState`/
/// `newScenarioState` with the initial state `Started`).
@Suite struct WireMockExportTests {
    static let cassette = Cassette(interactions: [
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK",
                                     headers: ["Content-Type": "application/json", "Content-Length": "9", "Set-Cookie": "a=1", "set-cookie": "b=2"],
                                     body: Fixtures.json(#"{"page":1}"#))),
            recordedAt: Fixtures.date("2026-01-15T10:00:00Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 503, headers: ["Retry-After": "1"])),
            recordedAt: Fixtures.date("2026-01-15T10:00:01Z")),
        Interaction(
            request: .init(method: "post", url: "https://api.example.com?x=1", body: Fixtures.json(#"{"name":"Bob"}"#)),
            outcome: .response(.init(statusCode: 201, reasonPhrase: "Created",
                                     headers: ["Content-Type": "application/octet-stream", "Content-Encoding": "gzip"],
                                     body: CassetteBody(Data([0, 159, 255]), contentEncoding: "gzip"))),
            recordedAt: Fixtures.date("2026-01-15T10:00:02Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/reset"),
            outcome: .failure(.init(code: URLError.Code.networkConnectionLost.rawValue, message: "The network connection was lost.")),
            recordedAt: Fixtures.date("2026-01-15T10:00:03Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/down"),
            outcome: .failure(.init(code: URLError.Code.cannotConnectToHost.rawValue, message: "Could not connect to the server.")),
            recordedAt: Fixtures.date("2026-01-15T10:00:04Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK", body: Fixtures.json("third"))),
            recordedAt: Fixtures.date("2026-01-15T10:00:05Z")),
    ])

    static func stubs() throws -> [CassetteJSON] {
        let document = WireMockExport.mappings(for: cassette) { $0.inlineData ?? Data() }
        return try #require(document.objectValue?.first { $0.key == "mappings" }?.value.arrayValue)
    }

    static func member(_ value: CassetteJSON?, _ path: String...) -> CassetteJSON? {
        path.reduce(value) { current, key in current?.objectValue?.first { $0.key == key }?.value }
    }

    @Test func eachInteractionIsAStubMatchingMethodAndURL() throws {
        let stubs = try Self.stubs()
        #expect(stubs.count == 6)
        #expect(stubs.map { Self.member($0, "request", "method")?.stringValue } == ["GET", "GET", "POST", "GET", "GET", "GET"])
        #expect(stubs.map { Self.member($0, "request", "url")?.stringValue } == [
            "/users?page=1", "/users?page=1", "/?x=1", "/reset", "/down", "/users?page=1",
        ])
        #expect(stubs.allSatisfy { Self.member($0, "request")?.objectValue?.count == 2 })
    }

    @Test func repeatedRequestsAnswerInOrderThroughAScenario() throws {
        let stubs = try Self.stubs()
        let sequence = [stubs[0], stubs[1], stubs[5]]
        #expect(sequence.map { Self.member($0, "scenarioName")?.stringValue } == Array(repeating: "GET /users?page=1", count: 3))
        #expect(sequence.map { Self.member($0, "requiredScenarioState")?.stringValue } == ["Started", "2", "3"])
        #expect(sequence.map { Self.member($0, "newScenarioState")?.stringValue } == ["2", "3", nil])
        #expect(sequence.map { Self.member($0, "response", "status")?.intValue } == [200, 503, 200])
        #expect(Self.member(stubs[3], "scenarioName") == nil)
    }

    @Test func responsesKeepStatusHeadersAndBody() throws {
        let stubs = try Self.stubs()
        let first = try #require(Self.member(stubs[0], "response"))
        #expect(Self.member(first, "statusMessage")?.stringValue == "OK")
        #expect(Self.member(first, "headers") == .object([
            .init("Content-Type", .string("application/json")), .init("Set-Cookie", .array([.string("a=1"), .string("b=2")])),
        ]))
        #expect(Self.member(first, "body")?.stringValue == #"{"page":1}"#)
        #expect(Self.member(stubs[1], "response", "statusMessage") == nil)
        #expect(Self.member(stubs[1], "response", "body") == nil)
        let binary = try #require(Self.member(stubs[2], "response"))
        #expect(Self.member(binary, "base64Body")?.stringValue == Data([0, 159, 255]).base64EncodedString())
        #expect(Self.member(binary, "headers") == .object([.init("Content-Type", .string("application/octet-stream"))]))
        #expect(Self.member(stubs[3], "response") == .object([.init("fault", .string("CONNECTION_RESET_BY_PEER"))]))
        #expect(Self.member(stubs[4], "response") == .object([.init("fault", .string("EMPTY_RESPONSE"))]))
    }

    @Test func theCommandWritesTheMappings() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.cassette, "api.json", in: directory.url)
        let result = try await CLIRunner.run(["convert", file.path, "--to", "wiremock"])
        #expect(result.status == 0, "\(result.stderr)")
        try CLIRunner.expectGolden(result.stdout, "wiremock.json")
        let parsed = try #require(CassetteJSON.parseBody(Data(result.stdout.utf8)))
        #expect(parsed == WireMockExport.mappings(for: Self.cassette) { $0.inlineData ?? Data() })
    }
}
