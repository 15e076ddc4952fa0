import Foundation
import OpenAPIKit
import OpenAPIKit30
import TapedeckCassette
import Testing
@testable import TapedeckConformance
import TapedeckYAML
import Yams

/// `DocumentDecoder` decodes OpenAPIKit's documents as `JSONDecoder` and `YAMLDecoder` do: the same document,
/// compared as sorted JSON, for every OpenAPI document in the repository, as YAML and as JSON.
@Suite struct DocumentDecoderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let documents: [String] = {
        let folders = ["Tests/TapedeckConformanceTests/Fixtures", "Tools/Interop/OpenAPIExamples", "Tests/TapedeckOpenAPITests/Fixture"]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
        }
    }()

    /// Extensions holding every kind of value, numbers JSON spells in several ways, escapes and a repeated key.
    static let edgeCases = #"""
    {"openapi": "3.0.3", "info": {"title": "edge \u00e9 \ud83d\ude00", "version": "1", "x-numbers": [1, 1.0, 1e2, -0, 0.5,
     9223372036854775807, 18446744073709551615, 12345678901234567890123, {"nested": [null, true, "s"]}]},
     "x-top": {"a": [], "b": {}}, "paths": {"/items/{id}": {"x-path": 1, "get": {"parameters": [{"name": "id", "in": "path",
     "required": true, "schema": {"type": "integer", "maximum": 9223372036854775807, "minimum": 1.0, "default": 2,
     "x-schema": "yes"}}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
     {"type": "object", "properties": {"n": {"type": "number", "multipleOf": 0.01, "enum": [1, 2.5, null]}},
     "example": {"n": 2.5}}}}}, "default": {"description": "error", "description": "repeated"}}}}}}
    """#

    /// The document as JSON with sorted keys and sorted `required` lists: `JSONDecoder` hands OpenAPIKit an object's
    /// members in a random order, and the order of a schema's `required` list follows it.
    static func sortedJSON(_ value: some Encodable) throws -> String {
        func sortingRequired(_ value: Any, key: String?) -> Any {
            if let object = value as? [String: Any] {
                return object.reduce(into: [String: Any]()) { $0[$1.key] = sortingRequired($1.value, key: $1.key) }
            }
            if let array = value as? [Any] {
                let elements = array.map { sortingRequired($0, key: nil) }
                return key == "required" ? (elements as? [String])?.sorted() ?? elements : elements
            }
            return value
        }
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value))
        return String(decoding: try JSONSerialization.data(withJSONObject: sortingRequired(object, key: nil), options: .sortedKeys), as: UTF8.self)
    }

    /// The document as both decoders read it, as sorted JSON; `fast` is `nil` where the tree decoder gave up.
    static func both(_ data: Data) throws -> (reference: String, fast: String?) {
        let isJSON = data.first == UInt8(ascii: "{")
        let tree: DocumentNode?
        let yaml: Node?
        if isJSON {
            tree = (try? CassetteJSON.parse(data)).map { DocumentNode(json: $0) }
            yaml = nil
        } else {
            yaml = try YAMLDocument.compose(String(decoding: data, as: UTF8.self))
            tree = yaml == nil ? nil : try DocumentNode.yaml(String(decoding: data, as: UTF8.self))
        }
        let version = isJSON ? ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["openapi"] as? String ?? "")
            : (yaml?["openapi"]?.string ?? "")
        func decode<Document: Codable>(_ type: Document.Type) throws -> (String, String?) {
            let reference = isJSON ? try JSONDecoder().decode(type, from: data) : try YAMLDecoder().decode(type, from: yaml!)
            guard let tree else { return (try sortedJSON(reference), nil) }
            return (try sortedJSON(reference), try sortedJSON(try DocumentDecoder.decode(type, from: tree)))
        }
        return version.contains("3.0") ? try decode(OpenAPIKit30.OpenAPI.Document.self) : try decode(OpenAPIKit.OpenAPI.Document.self)
    }

    @Test(arguments: documents) func decodesAsTheReferenceDecoders(_ path: String) throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
        let yaml = try Self.both(data)
        #expect(yaml.fast != nil, "the tree decoder reads \(path)")
        #expect(yaml.fast == yaml.reference)
        // The same document as JSON text.
        let json = try Self.both(Data(yaml.reference.utf8))
        #expect(json.fast != nil, "the tree decoder reads \(path) as JSON")
        #expect(json.fast == json.reference)
        #expect(json.reference == yaml.reference)
    }

    /// The quick refusal before Yams' number constructors never refuses what they read: tried on YAML's number
    /// spellings and on 20,000 random strings over the characters numbers are made of, for every integer type and
    /// Double, each a plain scalar. (A refusal it gets wrong would decode a number as a string.)
    @Test func theQuickNumberRefusalRefusesOnlyWhatYamsCannotRead() {
        var texts = ["0", "-0", "+12", "0x1F", "-0x1f", "0o17", "0b101", "017", "1_000", "_1", "-_1", "+-1", "--1:00", "190:20:30",
                     "-1:30", "+1:30", "1:-30", ".5", "-.5", "+.inf", ".INF", "-.Inf", ".nan", ".NaN", "inf", "Infinity", "nan",
                     "snan", "-snan", "NAN", "1e3", "1E-3", "6.8523015e+5", "685.230_15e+03", "0x1p3", "1x", "x1", "a", "", "_",
                     "+", "-", "++1", "true", "null", "~", "lol", " 1", "1 ", "1,000"]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789_+-.:xobeEinfatyINFsSpP ,")
        for _ in 0..<20_000 {
            texts.append(String((0..<Int.random(in: 1...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        func check<Value: ScalarConstructible>(_ type: Value.Type, _ text: String) {
            guard !DocumentDecoder.mayBeNumber(text, as: type) else { return }
            #expect(Value.construct(from: Node.Scalar(text, Tag(.implicit), .plain)) == nil, "\(type) from \(text.debugDescription)")
        }
        for text in texts {
            check(Int.self, text); check(Int8.self, text); check(Int16.self, text); check(Int32.self, text); check(Int64.self, text)
            check(UInt.self, text); check(UInt8.self, text); check(UInt16.self, text); check(UInt32.self, text); check(UInt64.self, text)
            check(Double.self, text)
        }
    }

    @Test func decodesExtensionsNumbersAndEscapesAsJSONDecoder() throws {
        let result = try Self.both(Data(Self.edgeCases.utf8))
        #expect(result.fast != nil)
        #expect(result.fast == result.reference)
        #expect(result.reference.contains("9223372036854775807"), "\(result.reference)")
    }

    /// Vendor extensions are read as `AnyCodable`; a YAML scalar there is read as the first of null, Bool, Int, UInt,
    /// Double and String that Yams reads it as, as `YAMLDecoder` reads it, without the probes' errors. (Infinities
    /// and NaNs are left out: the comparison goes through JSON, which cannot hold them.)
    @Test func readsEveryKindOfYAMLScalarInAnExtensionAsYAMLDecoder() throws {
        let values = ["true", "yes", "Off", "~", "null", "", "0", "-12", "+7", "0x1F", "0o17", "017", "0b101", "1_000", "190:20:30",
                      "-1:30", "9223372036854775807", "18446744073709551615", "18446744073709551616", "1.5", "-.5", "1e3",
                      "6.8523015e+5", "1x", "x1", "lol", "'12'", "\"true\"", "!!str 12", "_", "+", "1:x", "infinite", "nano"]
        let document = "openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\nx-values:\n"
            + values.map { "  - \($0)\n" }.joined() + "x-map: {a: 1, b: yes, c: 2.5}\n"
        let result = try Self.both(Data(document.utf8))
        #expect(result.fast != nil)
        #expect(result.fast == result.reference)
    }

    /// Aliased nodes are converted once and shared; the document reads as `YAMLDecoder` reads it with every alias
    /// expanded: scalars, sequences and mappings repeated, an anchor defined again further on, empty values beside them.
    @Test func readsAliasedNodesAsYAMLDecoder() throws {
        let document = """
        openapi: 3.1.0
        info: {title: &title t, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200": &ok {description: ok, content: {application/json: {schema: &int {type: integer}}}}
          /b:
            get:
              responses:
                "200": *ok
                "404": {description: *title, content: {application/json: {schema: *int}}}
        x-lists:
          one: &list [a, 1, yes, ~, [nested, *title]]
          two: [*list, *list]
          empty:
          again: &list [redefined]
          three: *list
          blank:
        """
        let result = try Self.both(Data(document.utf8))
        #expect(result.fast != nil)
        #expect(result.fast == result.reference)
        #expect(result.reference.contains(#""three":["redefined"]"#), "\(result.reference)")
        let tree = try DocumentNode.yaml(document)
        guard case .object(_, let top) = tree.content, case .object(_, let lists)? = top["x-lists"]?.content,
              case .array(let two)? = lists["two"]?.content else { Issue.record("no x-lists.two"); return }
        #expect(two.count == 2 && two[0] === two[1] && two[0] === lists["one"], "one node for every repeat of &list")
    }

    /// `<<` merges read as `YAMLDecoder` reads them: a mapping's own keys win, of a list of mappings the earlier
    /// wins, and merges nest; a quoted "<<" is an ordinary key.
    @Test func readsMergesAsYAMLDecoder() throws {
        let document = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        x-defaults: &defaults {description: merged, content: {text/plain: {schema: {type: string}}}}
        x-more: &more {description: more, x-from: more, x-only-more: 1}
        x-nested: &nested {<<: *more, x-nested: yes}
        paths:
          /a:
            get:
              responses:
                "200": {<<: *defaults, description: own}
                "201": {<<: [*more, *defaults]}
                "202": {<<: [*defaults, *nested], x-own: 2}
          /b:
            <<: {get: {responses: {"200": *defaults}}}
        """
        let result = try Self.both(Data(document.utf8))
        #expect(result.fast != nil)
        #expect(result.fast == result.reference)
        #expect(result.reference.contains(#""description":"own""#), "\(result.reference)")
        #expect(result.reference.contains(#""x-only-more":1"#), "\(result.reference)")
        // A quoted "<<" is a key like any other (which YAMLDecoder cannot look up: it looks for a plain one).
        let quoted = try DocumentNode.yaml(#"{<<: {a: 1}, "<<": quoted}"#)
        guard case .object(let keys, _) = quoted.content else { Issue.record("not a mapping"); return }
        #expect(keys == ["a", "<<"])
    }

    /// JSON that the strict reader does not read (and so the tree decoder never sees: the document is refused with the
    /// reader's place) and a misspelled member, whose error reads as JSONDecoder's.
    @Test func leavesToTheReferenceWhatItDoesNotReadTheSame() throws {
        #expect((try? CassetteJSON.parse(Data(#"{"a": [1, 2,]}"#.utf8))) == nil, "a trailing comma")
        #expect((try? CassetteJSON.parse(Data(#"{"a": 01}"#.utf8))) == nil, "a leading zero")
        #expect((try? CassetteJSON.parse(Data(#"{"a": "\x"}"#.utf8))) == nil, "an unknown escape")
        #expect((try? CassetteJSON.parse(Data(#"{"a": 1} x"#.utf8))) == nil, "text after the value")
        // A document whose unknown key OpenAPIKit refuses reads the same error as before (JSONDecoder's).
        let misspelled = #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"respones": {}}}}}"#
        #expect(throws: OpenAPIDocumentError.self) { try OpenAPIConformance(document: Data(misspelled.utf8), source: "api.json") }
    }
}
