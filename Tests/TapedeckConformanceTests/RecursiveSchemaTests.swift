import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckConformance
import TapedeckCore

/// Recursive `$ref`s (H9): they crashed `serve --openapi` and `verify --openapi` with a segmentation fault. A schema
/// that recurses through the value (a tree) is valid and is checked and generated from; a loop that never steps into
/// the value is refused, naming the pointers round it. The documents are also fuzz regressions in
/// Tools/Fuzz/Regressions/openapi-document.
@Suite struct RecursiveSchemaTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tools/Fuzz/Regressions/openapi-document")

    /// A document whose `GET /things` answers a `Thing`, with `components.schemas` as given (YAML).
    static func document(_ schemas: String) -> Data {
        Data("""
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /things:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Thing"}
        components:
          schemas:
        \(schemas)
        """.utf8)
    }

    static func refusal(_ data: Data) -> String? {
        do {
            _ = try OpenAPIConformance(document: data, source: "api.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aTreeThatRefersToItselfIsCheckedAndGenerated() throws {
        let conformance = try OpenAPIConformance(document: Self.document("""
              Thing:
                type: object
                required: [name]
                properties:
                  name: {type: string}
                  children: {type: array, items: {$ref: "#/components/schemas/Thing"}}
                  parent: {$ref: "#/components/schemas/Thing"}
        """))
        let mock = OpenAPIMock(conformance, seed: 3)
        #expect(mock.problems.isEmpty)
        let answer = mock.respond(to: Interaction.Request(method: "GET", url: "/things"))
        #expect(answer.statusCode == 200)
        let body = try #require(JSONValue(parsing: answer.body.inlineData ?? Data()))
        #expect(body["name"]?.stringValue != nil)
        let schema = try JSONSchemaValidator(schema: ["$ref": "#/components/schemas/Thing"], root: conformance.schemaRoot)
        #expect(schema.isValid(["name": "a", "children": [["name": "b", "children": [["name": "c"]]]]]))
        #expect(schema.violations(of: ["name": "a", "children": [["name": "b", "parent": ["name": 1]]]]).map(\.description)
                == ["/children/0/parent/name: type: expected string, found a number"])
    }

    @Test func twoSchemasThatReferToEachOtherThroughMembersAreValid() throws {
        let conformance = try OpenAPIConformance(document: Self.document("""
              Thing:
                type: object
                properties: {owner: {$ref: "#/components/schemas/Person"}}
              Person:
                type: object
                required: [things]
                properties: {things: {type: array, items: {$ref: "#/components/schemas/Thing"}}}
        """))
        #expect(OpenAPIMock(conformance).problems.isEmpty)
    }

    @Test func aRequiredMemberThatRecursesForeverIsAProblemOfTheMockNotACrash() throws {
        let conformance = try OpenAPIConformance(document: Self.document("""
              Thing:
                type: object
                required: [next]
                properties: {next: {$ref: "#/components/schemas/Thing"}}
        """))
        let mock = OpenAPIMock(conformance)
        #expect(mock.problems.count == 1)
        #expect(mock.problems.first?.contains("nests deeper than 24 levels") == true)
        #expect(mock.respond(to: Interaction.Request(method: "GET", url: "/things")).statusCode == 500)
    }

    @Test func aSchemaThatIsOnlyAReferenceToItselfIsRefusedWithItsPointer() throws {
        let reason = Self.refusal(try Data(contentsOf: Self.regressions.appendingPathComponent("self-reference.yaml")))
        #expect(reason == "api.yaml: the schema at $.paths['/things'].get.responses.200.content['application/json'].schema: invalid schema at "
                + "/components/schemas/Thing: $ref loop /components/schemas/Thing → /components/schemas/Thing never reaches "
                + "a keyword that checks the value (allOf, anyOf, oneOf, not and $ref apply to the same value)")
    }

    @Test func aLoopThroughAllOfAndOneOfIsRefusedNamingEveryPointer() throws {
        let reason = try #require(Self.refusal(try Data(contentsOf: Self.regressions.appendingPathComponent("all-of-loop.yaml"))))
        #expect(reason.contains("$ref loop /components/schemas/Thing → /components/schemas/Thing/allOf/0 → "
                                + "/components/schemas/Other → /components/schemas/Other/oneOf/1 → /components/schemas/Thing"), "\(reason)")
        #expect(Self.refusal(Self.document("""
              Thing: {not: {$ref: "#/components/schemas/Thing"}}
        """))?.contains("$ref loop") == true)
    }

    @Test func aValidatorOfASchemaThatIsItsOwnReferenceIsRefused() {
        #expect(throws: SchemaError.self) { try JSONSchemaValidator(schema: ["$ref": "#"]) }
        #expect(throws: SchemaError.self) { try JSONSchemaValidator(schema: ["anyOf": [["type": "string"], ["$ref": "#"]]]) }
        #expect(throws: Never.self) { try JSONSchemaValidator(schema: ["type": "array", "items": ["$ref": "#"]]) }
    }

    @Test func schemasNestedDeeperThanTheLimitAreRefusedWithTheirPlace() {
        var schema: JSONValue = ["type": "string"]
        for _ in 0..<300 { schema = ["type": "array", "items": schema] }
        #expect {
            try JSONSchemaValidator(schema: schema)
        } throws: { error in
            (error as? SchemaError)?.reason == "schemas nest deeper than \(SchemaCompiler.maximumNesting) levels"
        }
    }
}
