import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckConformance
import TapedeckCore
import TapedeckYAML

/// Hostile OpenAPI documents (H9): an alias bomb, a syntax error, nesting past the limit and schemas that ask the
/// mock for a billion items are each refused with their place and the limit, fast.
@Suite struct OpenAPIDocumentLimitsTests {
    static func refusal(_ text: String) -> String? {
        do {
            _ = try OpenAPIConformance(document: Data(text.utf8), source: "api.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    /// Nine levels of ten aliases each: 10⁹ nodes when expanded; 4.8 s at six levels before the budget.
    static let aliasBomb: String = {
        var lines = ["openapi: 3.1.0", "info: {title: t, version: \"1\"}", "paths: {}", "x-bomb:", "  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            let previous = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("  a\(level): &a\(level) [\(previous)]")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func anAliasBombIsRefusedAtItsLine() throws {
        let reason = try #require(Self.refusal(Self.aliasBomb))
        #expect(reason.hasPrefix("api.yaml: "), "\(reason)")
        #expect(reason.contains("aliases expand the document past 1000000 nodes"), "\(reason)")
        #expect(reason.range(of: #"api.yaml: \d+:\d+: "#, options: .regularExpression) != nil, "the line and column: \(reason)")
    }

    /// An alias as a mapping key (`? *a4`; the fuzzer found `[*a6,?*a6, …]`) stood for its anchor's whole tree, which
    /// Yams' duplicate-key check hashed while composing. The document is composed straight from libyaml's events
    /// now, where no key is hashed beyond its text, and an OpenAPI key must be a string: the first such key is refused
    /// at its own line, ahead of the syntax error after it.
    @Test func aliasesUsedAsKeysAreRefusedAtTheFirstKey() throws {
        var lines = ["openapi: 3.1.0", "info: {title: t, version: \"1\"}", "paths: {}", "x-bomb:", "  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...4 {
            lines.append("  a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]")
        }
        lines.append("x-keys:")
        let firstKeyLine = lines.count + 1
        for key in 0..<10 { lines.append("  - {? *a4 : \(key)}") }   // 111,111 nodes each
        lines.append("x-broken: {")
        let reason = try #require(Self.refusal(lines.joined(separator: "\n") + "\n"))
        #expect(reason == "api.yaml: \(firstKeyLine):8: a mapping key must be a string (OpenAPI's YAML allows no other keys)")
    }

    /// JSON that is not UTF-8, or that the strict reader refuses otherwise, is refused with its place before any
    /// decoder reads it. Two fuzz regressions: a byte 0xFF in a string, and a raw NUL in a key; `JSONDecoder` read
    /// each into an error whose coding path OpenAPIKit does not expect, and OpenAPIKit trapped.
    @Test(arguments: [
        ("not-utf8-json.json", "api.json: 10:128: not UTF-8 text (JSON must be UTF-8)"),
        ("control-character-in-a-key.json",
         "api.json: not valid JSON: Invalid JSON at line 12, column 62 (byte 582): a control character must be escaped inside a string."),
    ])
    func jsonTheStrictReaderRefusesIsRefusedWithItsPlace(_ file: String, _ expected: String) throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appending(path: "Tools/Fuzz/Regressions/openapi-document/\(file)"))
        #expect {
            _ = try OpenAPIConformance(document: data, source: "api.json")
        } throws: { error in
            "\(error)" == expected
        }
    }

    /// Two YAML fuzz regressions. A tag on a mapping (`!applic`) sent the document to `YAMLDecoder`, which read the
    /// tag as a member, and OpenAPIKit trapped on the error that made; OpenAPI allows only the JSON schema's tags, so
    /// it is refused at its place. And a decoding error after aliases that expand to 500,000 scalars was decoded again
    /// by `YAMLDecoder`, every alias expanded (19 s in a debug build; CI's fuzz step timed out on such an input): the
    /// tree decoder's own error is the answer.
    @Test(arguments: [
        ("tag-on-a-mapping.yaml", "api.yaml: 10:12: the tag !applic is not one OpenAPI allows (only the JSON schema's: "
         + "!!str, !!int, !!float, !!bool, !!null, !!seq, !!map)"),
        ("aliases-and-a-decoding-error.yaml", "api.yaml: Found neither a $ref nor a PathItem in Document.paths['/b']."),
    ])
    func yamlFuzzFindingsAreRefusedWithTheirPlace(_ file: String, _ expected: String) throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appending(path: "Tools/Fuzz/Regressions/openapi-document/\(file)"))
        let reason = try #require(Self.refusal(String(decoding: data, as: UTF8.self)))
        #expect(reason.hasPrefix(expected), "\(reason)")
    }

    /// What OpenAPI's YAML leaves out (OpenAPI 3.1 §4.3: the JSON schema's tags only, string keys only) is refused at
    /// its line and column, as is a `<<` merge of something other than mappings.
    @Test(arguments: [
        ("x-a: !include other.yaml", "4:6: the tag !include is not one OpenAPI allows"),
        ("x-a: !!binary aGk=", "4:6: the tag !!binary is not one OpenAPI allows"),
        ("x-a: !<tag:example.com,2026:thing> {b: 1}", "4:6: the tag tag:example.com,2026:thing is not one OpenAPI allows"),
        ("x-a: !!set {b, c}", "4:6: the tag !!set is not one OpenAPI allows"),
        ("x-a:\n  ? [b, c]\n  : d", "5:5: a mapping key must be a string"),
        ("x-a: {? {b: 1} : c}", "4:9: a mapping key must be a string"),
        ("x-a: {<<: 5}", "4:11: a << merge takes a mapping or a list of mappings"),
        ("x-a: {<<: [{b: 1}, 2]}", "4:11: a << merge takes a mapping or a list of mappings"),
    ])
    func yamlThatOpenAPILeavesOutIsRefusedAtItsPlace(_ member: String, _ expected: String) throws {
        let reason = try #require(Self.refusal("openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\n\(member)\n"))
        #expect(reason.hasPrefix("api.yaml: " + expected), "\(reason)")
    }

    @Test func aFewAliasesAreRead() throws {
        let text = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200": &ok {description: ok, content: {application/json: {schema: {type: integer}}}}
          /b:
            get:
              responses:
                "200": *ok
        """
        #expect(try OpenAPIConformance(document: Data(text.utf8)).operationCount == 2)
    }

    @Test func aYAMLSyntaxErrorNamesTheLineAndColumn() throws {
        let reason = try #require(Self.refusal("openapi: 3.1.0\ninfo: {title: t\npaths: {}\n"))
        #expect(!reason.contains("Yams.YamlError"), "\(reason)")
        #expect(reason.range(of: #"^api\.yaml: \d+:\d+: not valid YAML: "#, options: .regularExpression) != nil, "\(reason)")
    }

    /// libyaml's reader errors (a control character, found by the CLI sweep) carry only a character offset; it is
    /// said as the line and column, as the scanner's and parser's errors are.
    @Test func aControlCharacterIsRefusedAtItsLineAndColumn() throws {
        let reason = try #require(Self.refusal("openapi: 3.1.0\ninfo: {title: \u{01}t}\npaths: {}\n"))
        #expect(reason == "api.yaml: 2:15: not valid YAML: control characters are not allowed", "\(reason)")
    }

    /// A server URL template OpenAPIKit cannot parse (found by the CLI sweep) is said in its words, not as
    /// "The operation could not be completed", and placed at its server's `url` (OpenAPIKit throws it with no
    /// coding path). In a path item or an operation, OpenAPIKit's `$ref`-or-path-item decoding takes the error in and
    /// names the path item: placed there.
    @Test func aBrokenServerURLTemplateSaysWhatIsWrongAndWhere() throws {
        let top = try #require(Self.refusal("openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\nservers: [{url: /a}, {url: \"http://api.example.com/{v\"}]\npaths: {}\n"))
        #expect(top.contains("An opening brace with no closing brace was found"), "\(top)")
        #expect(!top.contains("could not be completed"), "\(top)")
        #expect(top.hasSuffix("(at $.servers[1].url)"), "\(top)")
        let json = try #require(Self.refusal(#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "x}"}], "paths": {}}"#))
        #expect(json.contains("A closing brace with no opening brace was found"), "\(json)")
        #expect(json.hasSuffix("(at $.servers[0].url)"), "\(json)")
        let operation = try #require(Self.refusal(#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"servers": [{"url": "x}"}], "responses": {}}}}}"#))
        #expect(operation.hasSuffix("(at $.paths['/a'])"), "\(operation)")
    }

    /// An example YAML can write and JSON cannot (`-.inf`, found by the CLI sweep) is refused at its JSONPath in the
    /// document, as the decoding errors are, not as the encoder's "Path: examples.Cat.value.id".
    @Test func anExampleJSONCannotHoldIsPlacedAtItsJSONPath() throws {
        let reason = try #require(Self.refusal("""
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          examples:
                            Cat: {value: {id: -.inf}}
            """))
        #expect(reason.hasPrefix("api.yaml: a value JSON cannot hold: "), "\(reason)")
        #expect(reason.hasSuffix("(at $.paths['/pets'].get.responses.200.content['application/json'].examples.Cat.value.id)"), "\(reason)")
    }

    /// The same in a component example (found by the 10,000-input CLI sweep): placed below `$.components`.
    @Test func aComponentExampleJSONCannotHoldIsPlacedAtItsJSONPath() throws {
        let reason = try #require(Self.refusal("""
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths: {}
            components:
              examples:
                Cat: {value: {id: -.inf}}
            """))
        #expect(reason.hasPrefix("api.yaml: a value JSON cannot hold: "), "\(reason)")
        #expect(reason.hasSuffix("(at $.components.examples.Cat.value.id)"), "\(reason)")
    }

    /// A problem OpenAPIKit finds in the document's own members comes with no coding path; it is placed at the root.
    @Test func aMissingTopLevelMemberIsPlacedAtTheRoot() throws {
        let reason = try #require(Self.refusal("openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\nx-a: 1\nbad-extension: 2\n"))
        #expect(reason.hasSuffix("(at $)"), "\(reason)")
    }

    @Test func aJSONSyntaxErrorNamesTheLineAndColumn() throws {
        let reason = try #require(Self.refusal("{\"openapi\": \"3.1.0\",\n  \"info\": }"))
        #expect(reason.contains("line 2, column"), "\(reason)")
    }

    @Test func nestingPastTheLimitIsRefusedWithItsPlace() throws {
        let deepYAML = "openapi: 3.1.0\nx: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "\n"
        #expect(Self.refusal(deepYAML)?.contains("nest deeper than 256 levels") == true)
        let deepJSON = "{\"openapi\": \"3.1.0\", \"x\": " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}"
        #expect(Self.refusal(deepJSON) == "api.yaml: 1:282: objects and arrays nest deeper than 256 levels")
    }

    /// The size limit (256 MiB by default) is named in its refusal, for YAML and for JSON.
    @Test func aDocumentPastTheSizeLimitIsRefusedNamingTheLimit() {
        let small = YAMLDocument.Limits(maximumBytes: 8)
        do {
            _ = try YAMLDocument.compose("a: [1, 2, 3]\n", limits: small)
            Issue.record("a 13-byte YAML document passed an 8-byte limit")
        } catch {
            #expect(error.message == "the document has 13 bytes, more than the 8 a YAML document may have")
        }
        do {
            try JSONNesting.check(Array(#"{"a": [1, 2]}"#.utf8), limits: small)
            Issue.record("a 13-byte JSON document passed an 8-byte limit")
        } catch {
            #expect(error.message == "the document has 13 bytes, more than the 8 a document may have")
        }
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\n".utf8))
        #expect(try OpenAPIConformance(document: data).operationCount == 0)
    }

    /// `minItems: 1000000000` grew `serve --openapi` past 2.3 GB.
    @Test(arguments: [
        ("{type: array, minItems: 1000000000}", "minItems 1000000000 is more than the 10000 items the mock makes; document an example"),
        ("{type: string, minLength: 1000000000}", "minLength 1000000000 is more than the 100000 characters the mock makes; document an example"),
        ("{type: object, minProperties: 1000000000}", "minProperties 1000000000 is more than the 10000 members the mock makes; document an example"),
        ("{type: array, minItems: 1000, items: {type: array, minItems: 1000}}", "the value would hold more than 100000 values; document an example"),
    ])
    func hugeGeneratedValuesAreRefusedNamingTheLimit(_ schema: String, _ problem: String) throws {
        let text = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              operationId: big
              responses:
                "200": {description: ok, content: {application/json: {schema: \(schema)}}}
        """
        let mock = OpenAPIMock(try OpenAPIConformance(document: Data(text.utf8)))
        #expect(mock.problems.count == 1)
        #expect(mock.problems.first?.hasSuffix(problem) == true, "\(mock.problems)")
        #expect(mock.respond(to: Interaction.Request(method: "GET", url: "/a")).statusCode == 500)
    }

    @Test func patternsThatRepeatTooMuchAreNotSampled() {
        var random = SplitMix64(seed: 1)
        #expect(PatternSampler.sample("a{1000000000}", using: &random) == nil)
        #expect(PatternSampler.sample("a{-5}", using: &random) == nil)
        #expect(PatternSampler.sample("((a{1000}){1000}){1000}", using: &random) == nil)
        #expect(PatternSampler.sample(String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000), using: &random) == nil)
        #expect(PatternSampler.sample("^[A-Z]{3}$", using: &random)?.count == 3)
    }
}
