import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// `tapedeck verify --openapi SPEC CASSETTE…` over the users API document of the conformance tests.
@Suite struct VerifyOpenAPIEndToEndTests {
    static let document = CLIRunner.packageRoot.appendingPathComponent("Tests/TapedeckConformanceTests/Fixtures/users-api.yaml")

    static func exchange(_ method: String, _ path: String, requestBody: String = "", status: Int, body: String) -> Interaction {
        Interaction(
            request: .init(method: method, url: "http://api.example.com\(path)",
                           headers: requestBody.isEmpty ? [:] : ["Content-Type": "application/json"], body: Fixtures.json(requestBody)),
            outcome: .response(.init(statusCode: status, headers: ["Content-Type": "application/json"], body: Fixtures.json(body))),
            recordedAt: Fixtures.date("2026-01-15T10:00:00Z"))
    }

    /// Conforms in full.
    static let conforming = Cassette(interactions: [
        exchange("GET", "/users/1", status: 200, body: #"{"id":1,"name":"Ada","age":36,"tags":["admin"]}"#),
        exchange("GET", "/users?page=1", status: 200, body: #"[{"id":1,"name":"Ada"}]"#),
    ])

    /// Breaks the document three ways: a response body of the wrong shape, a missing required parameter, and a
    /// request body with an unknown member answered by an undocumented status.
    static let breaking = Cassette(interactions: [
        exchange("GET", "/users/1", status: 200, body: #"{"id":1,"name":"Ada","age":36,"tags":["admin"]}"#),
        exchange("GET", "/users/2", status: 200, body: #"{"id":"2","name":"Bob","tags":["a",7]}"#),
        exchange("GET", "/users", status: 200, body: "[]"),
        exchange("POST", "/users", requestBody: #"{"name":"Cy","role":"admin"}"#, status: 500, body: #"{"error":"boom"}"#),
        Interaction(request: .init(method: "GET", url: "http://api.example.com/users/3"),
                    outcome: .failure(.init(code: -1001, message: "The request timed out.")),
                    recordedAt: Fixtures.date("2026-01-15T10:00:00Z")),
    ])

    @Test func namesEachInteractionPointerAndRule() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.breaking, "users.json", in: directory.url)
        let junit = directory.url.appendingPathComponent("junit.xml")
        let result = try await CLIRunner.run(["verify", "--openapi", Self.document.path, file.path, "--junit", junit.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        try CLIRunner.expectGolden(CLIRunner.mask(result.stdout), "verify-openapi-fail.txt")
        #expect(try String(contentsOf: junit, encoding: .utf8).contains(#"failures="3""#))
    }

    @Test func passesForSeveralConformingCassettes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Fixtures.write(Self.conforming, "a.json", in: directory.url)
        let second = try Fixtures.write(Self.conforming, "b.json", in: directory.url)
        let result = try await CLIRunner.run(["verify", "--openapi", Self.document.path, first.path, second.path, "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["passed"] as? Bool == true)
        #expect((report["interactions"] as? [Any])?.count == 4)
    }

    @Test func refusesAnUnusableDocumentOrMixedModes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.conforming, "a.json", in: directory.url)
        let notOpenAPI = directory.url.appendingPathComponent("spec.yaml")
        try Data("swagger: '2.0'\n".utf8).write(to: notOpenAPI)
        let result = try await CLIRunner.run(["verify", "--openapi", notOpenAPI.path, file.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("the OpenAPI document cannot be used: \(notOpenAPI.path): not an OpenAPI document"), "\(result.stderr)")
        let mixed = try await CLIRunner.run(["verify", "--openapi", notOpenAPI.path, "--against", "http://127.0.0.1:1", file.path])
        #expect(mixed.status != 0)
        #expect(mixed.stderr.contains("use either --against URL or --openapi SPEC, not both"), "\(mixed.stderr)")
        let neither = try await CLIRunner.run(["verify", file.path])
        #expect(neither.stderr.contains("missing --against URL (a live provider) or --openapi SPEC (a document)"), "\(neither.stderr)")
    }
}
