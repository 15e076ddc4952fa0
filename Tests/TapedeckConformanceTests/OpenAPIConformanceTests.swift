import Foundation
import Testing
import TapedeckCassette
import TapedeckConformance
import TapedeckCore

@Suite("OpenAPIConformance")
struct OpenAPIConformanceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let users30 = try! OpenAPIConformance(contentsOf: fixtures.appendingPathComponent("users-api.yaml"))
    static let users31 = try! OpenAPIConformance(contentsOf: fixtures.appendingPathComponent("users-api-3.1.json"))

    private func exchange(
        _ method: String, _ url: String, requestHeaders: HTTPHeaders = [:], requestBody: String = "",
        status: Int, headers: HTTPHeaders = ["Content-Type": "application/json"], body: String = ""
    ) -> Interaction {
        Interaction(
            request: .init(method: method, url: url, headers: requestHeaders, body: CassetteBody(Data(requestBody.utf8))),
            outcome: .response(.init(statusCode: status, headers: headers, body: CassetteBody(Data(body.utf8)))))
    }

    private func problems(_ contract: OpenAPIConformance, _ interaction: Interaction) -> [String] {
        contract.check(interaction).violations.map(\.description).sorted()
    }

    @Test func readsBothVersionsAndEveryOperation() {
        #expect(Self.users30.operationCount == 4)
        #expect(Self.users31.operationCount == 1)
    }

    @Test func conformingExchangesHaveNoViolations() {
        let list = exchange("GET", "http://api.example.com/users?page=2&tag=admin&tag=staff", status: 200,
                            body: #"[{"id":1,"name":"Ada","age":null,"tags":["x"]}]"#)
        #expect(Self.users30.check(list).operation == "listUsers")
        #expect(problems(Self.users30, list) == [])
        let create = exchange("POST", "http://api.example.com/users", requestHeaders: ["Content-Type": "application/json"],
                              requestBody: #"{"name":"Bob"}"#, status: 201,
                              headers: ["Content-Type": "application/json; charset=utf-8", "Location": "/users/2"], body: #"{"id":2,"name":"Bob"}"#)
        #expect(problems(Self.users30, create) == [])
        #expect(problems(Self.users30, exchange("POST", "http://api.example.com/users", requestBody: #"{"name":"Bob"}"#, status: 422)) == [])
        #expect(problems(Self.users30, exchange("GET", "http://api.example.com/users/7", status: 404, headers: [:])) == [])
    }

    @Test func theMostLiteralTemplateWins() {
        let me = exchange("GET", "http://api.example.com/users/me", status: 500, body: "{}")
        #expect(Self.users30.check(me).operation == "getMe")
        #expect(problems(Self.users30, me) == [])
    }

    @Test func eachBrokenRuleIsNamedWithItsPlace() {
        #expect(problems(Self.users30, exchange("GET", "http://api.example.com/users?tag=root", status: 200, body: "[]")) == [
            #"query parameter page: required: the required parameter is missing"#,
            #"query parameter tag /0: enum: "root" is not one of ["admin","staff"]"#,
        ])
        #expect(problems(Self.users30, exchange("GET", "http://api.example.com/users/abc", status: 200,
                                                body: #"{"id":"1","age":-1}"#)) == [
            "path parameter id /: type: expected integer, found a string",
            #"response body /: required: the member "name" is missing"#,
            "response body /age: minimum: -1 is less than 0",
            "response body /id: type: expected integer, found a string",
        ])
        #expect(problems(Self.users30, exchange("POST", "http://api.example.com/users", requestHeaders: ["Content-Type": "text/plain"],
                                                requestBody: "Bob", status: 201, body: #"{"id":2,"name":"Bob"}"#)) == [
            "request body: mediaType: text/plain is not documented (documented: application/json)",
            "response header Location: required: the required parameter is missing",
        ])
        #expect(problems(Self.users30, exchange("POST", "http://api.example.com/users", requestHeaders: ["Content-Type": "application/json"],
                                                requestBody: #"{"name":"","admin":true}"#, status: 500)) == [
            #"request body /: additionalProperties: the member "admin" is not allowed"#.replacingOccurrences(of: "/: ", with: "/admin: "),
            "request body /name: minLength: is 0 characters long, shorter than 1",
            "status: status: 500 is not documented for createUser (documented: 201, 4XX)",
        ])
        #expect(problems(Self.users30, exchange("DELETE", "http://api.example.com/users/1", status: 204)) == [
            "operation: method: /users/{id} has no DELETE operation (documented: GET)",
        ])
        #expect(problems(Self.users30, exchange("GET", "http://api.example.com/admin", status: 200)) == [
            "operation: path: no path in the document matches /admin",
        ])
        #expect(problems(Self.users30, exchange("GET", "http://api.example.com/users/1", status: 200, body: "{not json")) == [
            "response body /: json: the application/json body is not valid JSON",
        ])
    }

    @Test func openAPI31TypeListsServerVariablesHeadersAndRecursion() {
        let good = exchange("GET", "http://api.example.com/v2/users/1", requestHeaders: ["X-Request-Id": "0123abcd"], status: 200,
                            body: #"{"id":1,"name":"Ada","age":null,"manager":{"id":2,"name":"Grace"}}"#)
        #expect(problems(Self.users31, good) == [])
        let bad = exchange("GET", "http://api.example.com/v2/users/1", requestHeaders: ["x-request-id": "nope"], status: 200,
                           body: #"{"id":1,"name":"Ada","manager":{"id":2,"name":3}}"#)
        #expect(problems(Self.users31, bad) == [
            #"request header X-Request-Id /: pattern: "nope" does not match /^[0-9a-f]{8}$/"#,
            "response body /manager/name: type: expected string, found a number",
        ])
        #expect(problems(Self.users31, exchange("GET", "http://api.example.com/users/1", status: 200)) == [
            "operation: path: no path in the document matches /users/1",
        ])
    }

    @Test func recordedFailuresAreCheckedForTheirRequestOnly() {
        let failure = Interaction(request: .init(method: "GET", url: "http://api.example.com/users?page=0"),
                                  outcome: .failure(.init(code: -1001, message: "The request timed out.")))
        #expect(problems(Self.users30, failure) == ["query parameter page /: minimum: 0 is less than 1"])
    }

    @Test func unusableDocumentsSayWhatIsWrong() {
        #expect(throws: OpenAPIDocumentError.self) { try OpenAPIConformance(document: Data("{}".utf8), source: "empty.json") }
        do {
            _ = try OpenAPIConformance(document: Data("openapi: 2.0.0\ninfo: {}\n".utf8), source: "old.yaml")
            Issue.record("an OpenAPI 2.0 document was accepted")
        } catch {
            #expect(error.description == "old.yaml: OpenAPI 2.0.0 is not supported (3.0 and 3.1 are) (at $.openapi)")
        }
        do {
            _ = try OpenAPIConformance(document: Data("""
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /a:
                    get:
                      responses:
                        "200":
                          description: ok
                          content:
                            application/json:
                              schema: {pattern: "("}
                """.utf8), source: "bad.yaml")
            Issue.record("an invalid pattern was accepted")
        } catch {
            #expect(error.description.hasPrefix("bad.yaml: the schema at $.paths['/a'].get.responses.200.content['application/json'].schema"))
            #expect(error.description.contains("is not a valid regular expression: expected ')' at offset 1"))
        }
    }

    @Test func checksAWholeCassetteWithItsSidecars() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = "[" + (1...400).map { #"{"id":\#($0),"name":"user \#($0)"}"# }.joined(separator: ",") + #",{"id":"x","name":"bad"}]"#
        let file = folder.appendingPathComponent("users.json")
        try Data(large.utf8).write(to: CassetteFile.sidecarURL("users-0.json", cassette: file))
        var listing = exchange("GET", "http://api.example.com/users?page=1", status: 200)
        if case .response(var response) = listing.outcome {
            response.body = CassetteBody(sidecar: "users-0.json", byteCount: Int64(large.utf8.count))
            listing.outcome = .response(response)
        }
        let cassette = Cassette(interactions: [
            listing, exchange("GET", "http://api.example.com/users/1", status: 200, body: #"{"id":1,"name":"Ada"}"#),
        ])
        try CassetteFile.save(cassette, to: file)
        let report = try Self.users30.check(cassetteAt: file)
        #expect(report.map(\.conforms) == [false, true])
        #expect(report[0].violations.map(\.description) == ["response body /400/id: type: expected integer, found a string"])
        #expect(report[0].summary == "GET http://api.example.com/users?page=1 → 200")
    }
}
