import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckTestSupport

/// Tapedeck's GraphQL lexer and normalization against graphql-core (the Python port of graphql-js, installed with
/// pip at a pinned version when missing): the same normalized text as its `strip_ignored_characters`, the same
/// lexical errors, and the same operation definitions as its parser finds.
@Suite struct GraphQLNormalizationTests {
    static let corpus: [String] = [
        // Apollo iOS's generated HeroName query, as its code generator lays it out.
        "query HeroName($episode: Episode) {\n  hero(episode: $episode) {\n    __typename\n    name\n  }\n}",
        "query GetDogs { dogs { id breed __typename } }",
        "{ a, b, c }",
        "mutation AddTodo($text: String!) { addTodo(text: $text) { id text } }",
        "subscription OnComment($repo: String!){commentAdded(repoFullName:$repo){id content}}",
        "query A { ...F } fragment F on Q { a } query B { b }",
        "# a comment\nquery WithComments { # trailing\n  a # more\n  ,,, b\n}",
        "\u{FEFF}query BOM { a }",
        "query Numbers { a(i: -0, f: 1.5e3, g: 0.25, h: 2E-7, j: -12) }",
        "query Lists { a(list: [1 2 3], spread: [1, 2]) ...on Q { b } }",
        #"query Strings { a(s: "with \"quotes\" and \\ and \u00e9 and \u{1F600}", t: "tab\there") }"#,
        "query Block { a(s: \"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\") }",
        "query Block2 { a(s: \"\"\"  single line with leading space\"\"\", t: \"\"\"ends with quote\"\"\" , u: \"\"\"\\\"\"\" escaped\"\"\") }",
        "query Block3 { a(s: \"\"\"\n\n   first\n  second\n\"\"\", t: \"\"\"ends with backslash \\\"\"\") }",
        "query Directives($skip: Boolean = false) @live { a @skip(if: $skip) b @include(if: true) }",
        "query Vars($in: In = {a: 1, b: [\"x\", null], c: ENUM}) { a(in: $in) }",
        "query Unicode { café: a }",
        "{a{b{c{d{e}}}}}",
        "query\r\nCRLF\r{\ra\r\n}",
        // Lexical errors.
        "query Broken { a(s: \"unterminated) }",
        "query Broken { a(s: \"line\nbreak\") }",
        "query Broken { a(i: 00) }",
        "query Broken { a(i: 1.) }",
        "query Broken { a(i: 1a) }",
        "query Broken { ..F }",
        "query Broken { a ? }",
        #"query Broken { a(s: "\x") }"#,
        #"query Broken { a(s: "\u12") }"#,
        "query Broken { a(s: \"\"\"never closed) }",
        "query Broken { a(i: 1.5.3) }",
    ]

    @Test func normalizationAndErrorsAgreeWithGraphQLCore() async throws {
        try #require(ExternalCommand.hasPython, "python3 is needed for the graphql-core cross-check")
        var documents = Self.corpus
        // The corpus again with its layout scrambled: spaces, tabs, line breaks, commas and comments between tokens
        // where they change nothing, so each must normalize to its original's text.
        var generator = SplitMix64(seed: 30)
        let valid = Self.corpus.filter { (try? GraphQLDocument($0)) != nil }
        let scrambled = valid.map { Self.scrambled($0, using: &generator) }
        documents += scrambled
        let reference = try await Self.graphQLCore(documents)
        try #require(reference.count == documents.count)
        var disagreements: [String] = []
        for (document, expected) in zip(documents, reference) {
            let ours: (normalized: String?, operations: [String]?)
            do {
                let parsed = try GraphQLDocument(document)
                ours = (parsed.normalized, parsed.operations.map { "\($0.kind.rawValue) \($0.name ?? "-")" })
            } catch {
                #expect(error.line >= 1 && error.column >= 1)
                ours = (nil, nil)
            }
            if ours.normalized != expected.normalized {
                disagreements.append("\(document.debugDescription): Tapedeck \(ours.normalized.debugDescription), graphql-core \(expected.normalized.debugDescription)")
            }
            if let operations = expected.operations, ours.operations != operations {
                disagreements.append("\(document.debugDescription): operations \(ours.operations ?? []) vs \(operations)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        for (original, variant) in zip(valid, scrambled) {
            #expect(try GraphQLDocument(variant).normalized == GraphQLDocument(original).normalized, "\(variant.debugDescription)")
        }
        #expect(reference.filter { $0.normalized == nil }.count >= 11, "the error cases must be errors to graphql-core too")
    }

    @Test func syntaxErrorsSayWhereAndWhat() {
        func error(_ text: String) -> String? {
            do { _ = try GraphQLDocument(text) } catch { return error.description }
            return nil
        }
        #expect(error("query Q {\n  a(s: \"open\n}") == "GraphQL syntax error at line 2, column 13: unterminated string")
        #expect(error("query Q { ? }") == "GraphQL syntax error at line 1, column 11: unexpected character \"?\"")
        #expect(error("query Q { a(i: 01) }") == "GraphQL syntax error at line 1, column 17: a number may not have a leading zero")
        #expect(error("query Q { a(s: \"\u{7}\") }") == "GraphQL syntax error at line 1, column 17: invalid character U+0007 in a string")
    }

    @Test func documentsAreToldFromOtherQueryText() {
        #expect(GraphQLDocument.looksLikeDocument("  # c\n query Q { a }"))
        #expect(GraphQLDocument.looksLikeDocument("{ a }"))
        #expect(GraphQLDocument.looksLikeDocument("fragment F on Q { a } query { ...F }"))
        #expect(!GraphQLDocument.looksLikeDocument("shoes"))
        #expect(!GraphQLDocument.looksLikeDocument("queryString"))
        #expect(!GraphQLDocument.looksLikeDocument(""))
    }

    /// `document` with what the grammar ignores put between its tokens at random, where it cannot join or split
    /// tokens (a comment always ends with a line break).
    static func scrambled(_ document: String, using generator: inout SplitMix64) -> String {
        let fillers = [" ", "  ", "\t", "\n", "\r\n", ",", " , ", "\n# a comment, with \"quotes\"\n", ",,\n"]
        var output = ""
        var inString = false, inBlock = false, inComment = false
        let scalars = Array(document.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            output.unicodeScalars.append(scalar)
            if inComment {
                if scalar == "\n" || scalar == "\r" { inComment = false }
            } else if inBlock {
                if scalar == "\\", index + 3 < scalars.count, scalars[index + 1...index + 3].allSatisfy({ $0 == "\"" }) {
                    output += "\"\"\""
                    index += 3
                } else if scalar == "\"", index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                    output += "\"\""
                    index += 2
                    inBlock = false
                }
            } else if inString {
                if scalar == "\\" {
                    index += 1
                    output.unicodeScalars.append(scalars[index])
                } else if scalar == "\"" {
                    inString = false
                }
            } else if scalar == "#" {
                inComment = true
            } else if scalar == "\"" {
                if index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                    output += "\"\""
                    index += 2
                    inBlock = true
                } else {
                    inString = true
                }
            } else if " \t\n\r,{}()[]:=!$@|".unicodeScalars.contains(scalar), generator.next() % 2 == 0 {
                output += fillers[Int(generator.next() % UInt64(fillers.count))]
            }
            index += 1
        }
        return output
    }

    /// graphql-core's normalized text (`nil` on a lexical error) and operations (`nil` when its parser refuses the
    /// document) for each document.
    static func graphQLCore(_ documents: [String]) async throws -> [(normalized: String?, operations: [String]?)] {
        if try await python(["-c", "import graphql, sys; sys.exit(0 if graphql.__version__.startswith('3.2.') else 1)"]).status != 0 {
            let install = try await python(["-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                      "--break-system-packages", "graphql-core==3.2.8"])
            try #require(install.status == 0, "pip could not install graphql-core: \(install.errors)")
        }
        let script = """
            import json, sys
            from graphql import parse, GraphQLError
            from graphql.language import OperationDefinitionNode
            from graphql.utilities import strip_ignored_characters
            results = []
            for document in json.load(sys.stdin):
                try:
                    normalized = strip_ignored_characters(document)
                except GraphQLError:
                    normalized = None
                try:
                    operations = [definition.operation.value + " " + (definition.name.value if definition.name else "-")
                                  for definition in parse(document).definitions
                                  if isinstance(definition, OperationDefinitionNode)]
                except GraphQLError:
                    operations = None
                results.append({"normalized": normalized, "operations": operations})
            json.dump(results, sys.stdout)
            """
        let input = try JSONSerialization.data(withJSONObject: documents)
        let result = try await python(["-c", script], input: input)
        try #require(result.status == 0, "graphql-core failed: \(result.errors)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        return decoded.map { ($0["normalized"] as? String, $0["operations"] as? [String]) }
    }

    private static func python(_ arguments: [String], input: Data = Data()) async throws -> (status: Int32, output: String, errors: String) {
        let python = try #require(ExternalCommand.find("python3"))
        let result = try await ExternalCommand.run(python, arguments, input: input)
        return (result.status, String(decoding: result.standardOutput, as: UTF8.self), result.standardError)
    }
}
