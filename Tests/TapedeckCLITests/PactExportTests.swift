import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore
import TapedeckConformance
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport

/// `PactExport` against Pact specification v3 (`consumer`/`provider` names, interactions with a unique
/// `description`, `request` method/path/query-as-arrays/headers/body, `response` status/headers/body,
/// `metadata.pactSpecification.version`) and against the published v3 JSON Schema (Fixtures/Pact/SOURCE.md).
@Suite struct PactExportTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])

    /// JSON, text and binary bodies, a request made three times, a query with a repeated key, a redacted header, a
    /// body stored decoded, and a transport error; every interaction is one Tapedeck's stub server can serve.
    static let cassette = Cassette(interactions: [
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?tag=a&page=1&tag=b",
                           headers: ["Accept": "application/json", "Host": "api.example.com", "Accept-Encoding": "gzip",
                                     "Authorization": "Bearer [REDACTED]"]),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK",
                                     headers: ["Content-Type": "application/json", "Content-Length": "27", "Date": "Thu, 15 Jan 2026 10:00:00 GMT",
                                               "Set-Cookie": "a=1", "set-cookie": "b=2"],
                                     body: Fixtures.json(#"[{"id":1,"name":"Ada","score":1.50}]"#))),
            recordedAt: Fixtures.date("2026-01-15T10:00:00Z")),
        Interaction(
            request: .init(method: "POST", url: "http://api.example.com/users", headers: ["Content-Type": "application/json"],
                           body: Fixtures.json(#"{"name":"Bob"}"#)),
            outcome: .response(.init(statusCode: 201, headers: ["Content-Type": "application/json; charset=utf-8"],
                                     body: Fixtures.json(#"{"id":2,"name":"Bob"}"#))),
            recordedAt: Fixtures.date("2026-01-15T10:00:01Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/files/read%20me.txt"),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Fixtures.json("hello\n"))),
            recordedAt: Fixtures.date("2026-01-15T10:00:02Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/avatar.png"),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "image/png"], body: CassetteBody(png))),
            recordedAt: Fixtures.date("2026-01-15T10:00:03Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/status"),
            outcome: .response(.init(statusCode: 503, headers: ["Retry-After": "1"])),
            recordedAt: Fixtures.date("2026-01-15T10:00:04Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/down"),
            outcome: .failure(.init(code: URLError.Code.cannotConnectToHost.rawValue, message: "Could not connect to the server.")),
            recordedAt: Fixtures.date("2026-01-15T10:00:05Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/status"),
            outcome: .response(.init(statusCode: 503, headers: ["Retry-After": "2"])),
            recordedAt: Fixtures.date("2026-01-15T10:00:06Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/status"),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"],
                                     body: CassetteBody(Data("up".utf8), contentEncoding: "gzip"))),
            recordedAt: Fixtures.date("2026-01-15T10:00:07Z")),
    ])

    static func contract(_ cassette: Cassette = cassette) -> PactExport.Contract {
        PactExport.contract(for: cassette, consumer: "web", provider: "users-api") { $0.inlineData ?? Data() }
    }

    static func interactions(_ contract: PactExport.Contract = contract()) throws -> [CassetteJSON] {
        try #require(contract.json["interactions"]?.arrayValue)
    }

    static func member(_ value: CassetteJSON?, _ path: String...) -> CassetteJSON? {
        path.reduce(value) { current, key in current?[key] }
    }

    @Test func theDocumentNamesItsPartiesAndVersion() {
        let json = Self.contract().json
        #expect(Self.member(json, "consumer", "name") == .string("web"))
        #expect(Self.member(json, "provider", "name") == .string("users-api"))
        #expect(Self.member(json, "metadata", "pactSpecification", "version") == .string("3.0.0"))
    }

    @Test func descriptionsAreUniqueAndNumberRepeatedRequests() throws {
        let descriptions = try Self.interactions().map { $0["description"]?.stringValue }
        #expect(descriptions == [
            "GET /users?tag=a&page=1&tag=b", "POST /users", "GET /files/read%20me.txt", "GET /avatar.png",
            "GET /status (1 of 3)", "GET /status (2 of 3)", "GET /status (3 of 3)",
        ])
        #expect(Set(descriptions).count == descriptions.count)
    }

    @Test func requestsKeepMethodDecodedPathQueryArraysAndHeaders() throws {
        let interactions = try Self.interactions()
        let first = try #require(interactions[0]["request"])
        #expect(first == .object([
            .init("method", "GET"),
            .init("path", "/users"),
            .init("query", .object([.init("tag", .array(["a", "b"])), .init("page", .array(["1"]))])),
            // Accept-Encoding selects the representation recorded; Host is the verifier's to set.
            .init("headers", .object([.init("Accept", "application/json"), .init("Accept-Encoding", "gzip"),
                                      .init("Authorization", "Bearer [REDACTED]")])),
        ]))
        #expect(Self.member(interactions[1], "request", "method") == "POST")
        #expect(Self.member(interactions[1], "request", "body") == .object([.init("name", "Bob")]))
        #expect(Self.member(interactions[2], "request", "path") == "/files/read me.txt")
        let lowerCase = Cassette(interactions: [Interaction(request: .init(method: "delete", url: "http://h/x"), outcome: .response(.init(statusCode: 204)))])
        #expect(Self.member(try Self.interactions(Self.contract(lowerCase))[0], "request", "method") == "DELETE")
    }

    @Test func responsesKeepStatusHeadersAndBodiesByMediaType() throws {
        let interactions = try Self.interactions()
        let first = try #require(interactions[0]["response"])
        #expect(first["status"] == .number("200"))
        #expect(first["headers"] == .object([.init("Content-Type", .array(["application/json"])), .init("Set-Cookie", .array(["a=1", "b=2"]))]))
        #expect(CassetteJSON.serialize(try #require(first["body"])) == Data(#"[{"id":1,"name":"Ada","score":1.50}]"#.utf8))
        #expect(Self.member(interactions[2], "response", "body") == "hello\n")
        #expect(Self.member(interactions[3], "response", "body") == .string(Self.png.base64EncodedString()))
        #expect(Self.member(interactions[4], "response", "status") == .number("503"))
        #expect(Self.member(interactions[4], "response", "headers") == .object([.init("Retry-After", "1")]))
        #expect(Self.member(interactions[4], "response", "matchingRules") != nil, "Retry-After was 1, then 2: it varies")
        #expect(Self.member(interactions[6], "response", "headers") == .object([.init("Content-Type", "text/plain")]))
        #expect(Self.member(interactions[6], "response", "body") == "up")
    }

    @Test func interactionsWithoutAPactFormAreListedNotWritten() throws {
        let contract = Self.contract()
        #expect(try Self.interactions(contract).count == 7)
        #expect(contract.skipped.map(\.description) == [
            "#6 GET http://api.example.com/down: a recorded transport error (Could not connect to the server.) has no Pact form",
        ])
        let odd = Cassette(interactions: [
            Interaction(request: .init(method: "GET", url: "http://h/bin"), outcome: .response(.init(statusCode: 200, body: CassetteBody(Self.png)))),
            Interaction(request: .init(method: "GET", url: "http://h/json"),
                        outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/problem+json"], body: Fixtures.json("oops")))),
            Interaction(request: .init(method: "PUT", url: "http://h/latin1", headers: ["Content-Type": "text/plain; charset=latin1"],
                                       body: CassetteBody(Data([0x63, 0x61, 0x66, 0xE9]))),
                        outcome: .response(.init(statusCode: 204))),
            Interaction(request: .init(method: "GET", url: "http://h/t"),
                        outcome: .response(.init(statusCode: 200, headers: ["X-Id": "{{request.header.X-Id}}"], isTemplated: true))),
        ])
        let refused = Self.contract(odd)
        #expect(try Self.interactions(refused).isEmpty)
        #expect(refused.skipped.map(\.reason) == [
            "response: its body has no Content-Type and is not UTF-8 text",
            "response: its application/problem+json body is not JSON",
            "request: its text/plain body is not UTF-8 text",
            "its response is a template filled at replay, which Pact cannot express",
        ])
    }

    @Test func bodiesTakeTheFormPactReadsBackForTheirMediaType() {
        let bytes = Data("abcd".utf8)
        #expect(PactBody.value(of: bytes, contentType: "application/vnd.api+json") == .failure(.init("its application/vnd.api+json body is not JSON")))
        #expect(PactBody.value(of: Data("[1]".utf8), contentType: "application/vnd.api+json") == .success(.array([.number("1")])))
        for text in ["text/csv", "application/x-www-form-urlencoded", "application/xml", "application/atom+xml", nil] {
            #expect(PactBody.value(of: bytes, contentType: text) == .success("abcd"), "\(text ?? "no content type")")
        }
        for binary in ["application/octet-stream", "application/javascript", "image/svg+xml", "multipart/form-data; boundary=x"] {
            #expect(PactBody.value(of: bytes, contentType: binary) == .success("YWJjZA=="), "\(binary)")
        }
    }

    @Test func pathsDecodeOnlyWhenDecodingKeepsTheirShape() {
        #expect(PactExport.decodedPath("/a%20b/%C3%BC") == "/a b/ü")
        #expect(PactExport.decodedPath("/a%2Fb/c%20d") == "/a%2Fb/c%20d")
        #expect(PactExport.decodedPath("/100%25") == "/100%25")
        #expect(PactExport.query("a=1&b=x+y&a=%26&flag") == [
            .init("a", .array(["1", "&"])), .init("b", .array(["x y"])), .init("flag", .array([""])),
        ])
    }

    @Test func defaultNamesComeFromTheFileAndTheFirstHost() {
        #expect(PactExport.defaultConsumer(cassettePath: "Cassettes/users.json") == "users")
        #expect(PactExport.defaultProvider(for: Self.cassette) == "api.example.com")
        #expect(PactExport.defaultProvider(for: Cassette()) == nil)
    }

    // MARK: - The published v3 JSON Schema

    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Pact/pact-schema-v3.json")

    static func validator() throws -> JSONSchemaValidator {
        let schema = try #require(JSONValue(parsing: Data(contentsOf: schemaURL)))
        return try JSONSchemaValidator(schema: schema)
    }

    static func jsonValue(_ json: CassetteJSON) throws -> JSONValue {
        try #require(JSONValue(parsing: CassetteJSON.serialize(json)))
    }

    @Test func exportedContractsConformToThePactV3Schema() throws {
        let validator = try Self.validator()
        let contract = try Self.jsonValue(Self.contract().json)
        #expect(validator.violations(of: contract).isEmpty, "\(validator.violations(of: contract))")
        let wireMock = try Self.jsonValue(WireMockExport.mappings(for: Self.cassette) { $0.inlineData ?? Data() })
        #expect(!validator.isValid(wireMock), "a WireMock document is not a Pact contract")
    }

    @Test func theSchemaRejectsBrokenContracts() throws {
        let validator = try Self.validator()
        guard case .object(var top) = try Self.jsonValue(Self.contract().json), case .array(var interactions)? = top["interactions"],
              case .object(var first)? = interactions.first, case .object(var request)? = first["request"],
              case .object(var response)? = first["response"] else {
            Issue.record("the contract is not shaped as expected")
            return
        }
        var noConsumer = top
        noConsumer["consumer"] = nil
        request["query"] = ["tag": .array([1])]
        response["status"] = 600
        first["request"] = .object(request)
        first["response"] = .object(response)
        interactions[0] = .object(first)
        top["interactions"] = .array(interactions)
        #expect(!validator.isValid(.object(noConsumer)))
        let violations = validator.violations(of: .object(top)).map(\.instancePointer)
        #expect(violations.contains("/interactions/0/response/status"), "\(violations)")
        #expect(violations.contains { $0.hasPrefix("/interactions/0/request/query") }, "\(violations)")
    }

    // MARK: - The command

    @Test func theCommandWritesTheContractAndWarnsAboutWhatItLeavesOut() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.cassette, "users.json", in: directory.url)
        let result = try await CLIRunner.run(["convert", file.path, "--to", "pact"])
        #expect(result.status == 0, "\(result.stderr)")
        try CLIRunner.expectGolden(result.stdout, "pact.json")
        #expect(result.stderr == "warning: left out #6 GET http://api.example.com/down: a recorded transport error (Could not connect to the server.) has no Pact form\n")
        let parsed = try #require(CassetteJSON.parseBody(Data(result.stdout.utf8)))
        #expect(Self.member(parsed, "consumer", "name") == "users")
        #expect(Self.member(parsed, "provider", "name") == "api.example.com")
        #expect(try Self.validator().isValid(Self.jsonValue(parsed)))

        let output = directory.url.appendingPathComponent("web-users.json")
        let named = try await CLIRunner.run(["convert", file.path, "--to", "pact", "--consumer", "web", "--provider", "users-api", "-o", output.path])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.hasSuffix("Wrote 7 interaction(s) as pact to \(output.path)\n"))
        #expect(try CassetteJSON.parseBody(Data(contentsOf: output)) == Self.contract().json)
    }

    @Test func theCommandRefusesPactOptionsItCannotUse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.cassette, "users.json", in: directory.url)
        let misplaced = try await CLIRunner.run(["convert", file.path, "--to", "wiremock", "--consumer", "web"])
        #expect(misplaced.status != 0)
        #expect(misplaced.stderr.contains("--consumer, --provider and --matchers/--no-matchers apply to --to pact"))
        let matchers = try await CLIRunner.run(["convert", file.path, "--matchers"])
        #expect(matchers.status != 0 && matchers.stderr.contains("--consumer, --provider and --matchers/--no-matchers apply to --to pact"))
        let empty = try Fixtures.write(Cassette(), "empty.json", in: directory.url)
        let nameless = try await CLIRunner.run(["convert", empty.path, "--to", "pact"])
        #expect(nameless.status == 1)
        #expect(nameless.stderr.contains("empty.json: no URL at $.interactions[*].request.url has a host to name the provider after; give --provider NAME"))
    }
}
