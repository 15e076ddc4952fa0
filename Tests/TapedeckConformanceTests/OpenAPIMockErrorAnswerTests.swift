import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckConformance
import TapedeckCore

/// `OpenAPIMock` answering as the document says when a request is invalid, when an operation documents no
/// response, with request validation off, and with examples that break their own schema.
@Suite struct OpenAPIMockErrorAnswerTests {
    static let document = """
        openapi: 3.1.0
        info: {title: errors, version: '1'}
        paths:
          /items:
            get:
              operationId: listItems
              parameters: [{name: limit, in: query, schema: {type: integer, maximum: 10}}]
              responses:
                '200':
                  description: items
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: '#/components/schemas/Item'}}
                      example: [{id: 1, name: one}, {id: "two", name: two}]
                default:
                  description: an error
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
          /items/{id}:
            get:
              operationId: getItem
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                '200': {description: an item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                '400':
                  description: a bad request
                  content: {text/html: {example: '<h1>Bad request</h1>'}}
          /ping:
            post:
              operationId: ping
        components:
          schemas:
            Item:
              type: object
              required: [id, name]
              properties: {id: {type: integer}, name: {type: string}}
            Error:
              type: object
              required: [code, message]
              properties: {code: {type: integer}, message: {type: string}}
        """
    static let conformance = try! OpenAPIConformance(document: Data(document.utf8))

    static func get(_ mock: OpenAPIMock, _ path: String) -> Interaction.Response {
        mock.respond(to: Interaction.Request(method: "GET", url: path))
    }

    @Test func anInvalidRequestGetsTheDocumentedDefaultAnswerInItsMediaType() throws {
        let answer = Self.get(OpenAPIMock(Self.conformance), "/items?limit=50")
        #expect(answer.statusCode == 400 && answer.headers["Content-Type"] == "application/json")
        let body = try #require(JSONValue(parsing: answer.body.inlineData ?? Data()))
        guard case .number? = body["code"], body["message"]?.stringValue != nil else {
            Issue.record("not an Error generated from its schema: \(body)")
            return
        }
        #expect(answer.headers["Tapedeck-Violations"] == "1 violation(s): query parameter limit: maximum: 50 is greater than 10")
    }

    @Test func anInvalidRequestGetsADocumented400AsItsExample() {
        let answer = Self.get(OpenAPIMock(Self.conformance), "/items/abc")
        #expect(answer.statusCode == 400 && answer.headers["Content-Type"] == "text/html")
        #expect(answer.body.inlineData == Data("<h1>Bad request</h1>".utf8))
        #expect(answer.headers["Tapedeck-Violations"]?.hasPrefix("1 violation(s): path parameter id") == true)
    }

    @Test func anOperationWithoutResponsesAnswers204NotA5xx() {
        let answer = OpenAPIMock(Self.conformance).respond(to: Interaction.Request(method: "POST", url: "/ping"))
        #expect(answer.statusCode == 204 && answer.body.isEmpty)
    }

    /// A mock never answers with a 1xx status (found by the openapi-document fuzz target): a server that sends
    /// `100 Continue` as the answer leaves the client waiting for ever. A final status documented beside it is
    /// answered; an operation that documents only 1xx statuses, or a request that prefers one, gets a 501 that says why.
    @Test func aMockNeverAnswersWithAnInformationalStatus() throws {
        let document = """
            openapi: 3.1.0
            info: {title: informational, version: '1'}
            paths:
              /only: {get: {responses: {'100': {description: continue}}}}
              /both: {get: {responses: {'101': {description: switching}, '404': {description: missing}}}}
            """
        let mock = OpenAPIMock(try OpenAPIConformance(document: Data(document.utf8)))
        let only = Self.get(mock, "/only")
        #expect(only.statusCode == 501, "\(only.statusCode)")
        #expect(String(decoding: only.body.inlineData ?? Data(), as: UTF8.self).contains("a 1xx status is not a final answer"))
        #expect(Self.get(mock, "/both").statusCode == 404)
        let preferred = mock.respond(to: Interaction.Request(method: "GET", url: "/both", headers: ["Prefer": "code=101"]))
        #expect(preferred.statusCode == 501, "\(preferred.statusCode)")
    }

    @Test func requestValidationCanBeTurnedOff() {
        let mock = OpenAPIMock(Self.conformance, options: .init(validatesRequests: false))
        #expect(Self.get(mock, "/items?limit=50").statusCode == 200)
        #expect(Self.get(mock, "/items/abc").statusCode == 200)
    }

    @Test func examplesThatBreakTheirSchemaAreListedWithTheirPointerAndCanBeReplaced() throws {
        let mock = OpenAPIMock(Self.conformance)
        #expect(mock.exampleProblems == ["listItems 200 application/json example: /1/id: type: expected integer, found a string"])
        let generated = OpenAPIMock(Self.conformance, options: .init(usesExamples: false))
        let answer = Self.get(generated, "/items")
        let request = Interaction.Request(method: "GET", url: "https://api.example.com/items")
        #expect(answer.statusCode == 200)
        #expect(Self.conformance.check(Interaction(request: request, outcome: .response(answer))).violations.isEmpty,
                "a value generated from the schema conforms: \(String(decoding: answer.body.inlineData ?? Data(), as: UTF8.self))")
    }
}
