import Foundation
import OpenAPIKit
import OpenAPIKit30
import Testing
@testable import TapedeckConformance
import TapedeckYAML

/// Path items decoded on a second thread (`DecodedAhead`) give the document, and the error, that one thread gives:
/// with path items that aliases repeat across the two halves, in YAML and as JSON.
@Suite struct DecodingAheadTests {
    /// A 3.0 document of `count` paths; from the middle on every fifth path item is an alias of one before the
    /// middle, and every path shares an anchored schema. `broken` names a path whose operation is not valid.
    static func document(paths count: Int, broken: Int? = nil) -> String {
        var text = """
        openapi: 3.0.3
        info: {title: ahead, version: "1"}
        paths:

        """
        for index in 0..<count {
            if index >= count / 2, index % 5 == 0 {
                text += "  /items/\(index): *item\(index - count / 2)\n"
                continue
            }
            let responses = index == broken ? "responses: 12" : """
            responses:
                    "200":
                      description: item \(index)
                      content:
                        application/json:
                          schema: \(index == 0 ? "&shared {type: object, properties: {id: {type: integer}}, x-note: [1, true, null]}" : "*shared")
            """
            text += """
              /items/\(index): &item\(index)
                get:
                  operationId: get\(index)
                  parameters: [{name: q, in: query, schema: {type: string, default: "x\(index)"}}]
                  \(responses)

            """
        }
        return text
    }

    static func tree(_ text: String) throws -> DocumentNode {
        try DocumentNode.yaml(text)
    }

    /// A document as sorted JSON, or an error in OpenAPIKit's words with its place.
    enum Outcome: Equatable {
        case document(String)
        case error(String)
    }

    static func bothWays(_ tree: DocumentNode) -> (oneThread: Outcome, ahead: Outcome) {
        func run(_ decode: () throws -> OpenAPIKit30.OpenAPI.Document) -> Outcome {
            do { return .document(try DocumentDecoderTests.sortedJSON(try decode())) } catch {
                let described = OpenAPIKit.OpenAPI.Error(from: error)
                return .error("\(described.localizedDescription) at \(described.codingPathString)")
            }
        }
        let oneThread = run { try DocumentDecoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: tree) }
        let ahead = run {
            try DocumentDecoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: tree, decodingAhead: "paths",
                                       as: OpenAPIKit30.OpenAPI.PathItem.Map.Value.self)
        }
        return (oneThread, ahead)
    }

    @Test(arguments: [4, 40, 200]) func decodesTheDocumentOneThreadDecodes(_ paths: Int) throws {
        let (oneThread, ahead) = Self.bothWays(try Self.tree(Self.document(paths: paths)))
        guard case .document(let json) = oneThread else {
            Issue.record("not read: \(oneThread)")
            return
        }
        #expect(json.contains("\"operationId\":\"get\(paths - 1)\""))
        #expect(ahead == oneThread)
        // The same document as JSON text, through the reader.
        let read = try OpenAPIDocumentReader.read(Data(json.utf8), source: "ahead.json")
        #expect(read.paths.count == paths)
    }

    /// Broken before the middle, after it, and in a path item that an alias after the middle repeats.
    @Test(arguments: [3, 36, 5]) func reportsTheErrorOneThreadReports(_ broken: Int) throws {
        let (oneThread, ahead) = Self.bothWays(try Self.tree(Self.document(paths: 40, broken: broken)))
        guard case .error(let message) = oneThread else {
            Issue.record("the broken path \(broken) was read")
            return
        }
        #expect(message.contains("/items/\(broken)"))
        #expect(ahead == oneThread)
    }
}
