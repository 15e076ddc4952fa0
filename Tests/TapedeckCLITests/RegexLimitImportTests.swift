import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore
import TapedeckCore
import TapedeckTestSupport

/// Regular expressions that a contract or an import's filter brings run within `RegexStepLimit` (issue H9): a
/// catastrophic one (`^(a+)+$` against `aaaa…b`) finishes, and the result says which expression gave up and where.
@Suite struct RegexLimitImportTests {
    static let hostile = String(repeating: "a", count: 40) + "b"
    static let gaveUp = "gave up after \(RegexStepLimit.steps) backtracking steps (the step limit of one match)"

    @Test func aPactRegexThatGivesUpFailsTheMatchNamingThePathAndTheExpression() throws {
        let expected = try #require(CassetteJSON.parseBody(Data(#"""
            {"method": "POST", "path": "/", "headers": {"X-Trace": "aaa", "Content-Type": "application/json"},
             "body": {"name": "aaa"},
             "matchingRules": {"header": {"X-Trace": {"matchers": [{"match": "regex", "regex": "^(a+)+$"}]}},
                               "body": {"$.name": {"matchers": [{"match": "regex", "regex": "(a+)+"}]}}}}
            """#.utf8)))
        let actual = CassetteJSON.object([
            .init("method", .string("POST")), .init("path", .string("/")),
            .init("headers", .object([.init("X-Trace", .string(Self.hostile)), .init("Content-Type", .string("application/json"))])),
            .init("body", .object([.init("name", .string(Self.hostile))])),
        ])
        let comparison = try PactComparison(expected: expected, version: 3, isRequest: true)
        #expect(try comparison.mismatches(actual: actual) == [
            "header X-Trace: '\(Self.hostile)' was not decided: the rule's regex /^(a+)+$/ \(Self.gaveUp)",
            "$.name: \"\(Self.hostile)\" was not decided: the rule's regex /(a+)+/ \(Self.gaveUp)",
        ])
        // The same rules on values they match, and on one they do not.
        let matching = CassetteJSON.object([
            .init("method", .string("POST")), .init("path", .string("/")),
            .init("headers", .object([.init("X-Trace", .string("aaaa")), .init("Content-Type", .string("application/json"))])),
            .init("body", .object([.init("name", .string("b"))])),
        ])
        #expect(try comparison.mismatches(actual: matching) == ["$.name: \"b\" does not match the rule"])
    }

    /// A Pact regex ICU cannot read decides nothing and says what is wrong with it (it failed the match silently).
    @Test func aPactRegexThatCannotBeReadSaysWhatIsWrong() throws {
        let expected = try #require(CassetteJSON.parseBody(Data(#"""
            {"method": "GET", "path": "/", "headers": {"X-Trace": "a"},
             "matchingRules": {"header": {"X-Trace": {"matchers": [{"match": "regex", "regex": "a(b"}]}}}}
            """#.utf8)))
        let actual = CassetteJSON.object([
            .init("method", .string("GET")), .init("path", .string("/")), .init("headers", .object([.init("X-Trace", .string("ab"))])),
        ])
        #expect(try PactComparison(expected: expected, version: 3, isRequest: true).mismatches(actual: actual) == [
            "header X-Trace: 'ab' was not decided: the rule's regex /a(b/ cannot be read: expected ')' at offset 3",
        ])
    }

    /// `redact --regex` names what is wrong with a pattern, not Foundation's "could not be completed".
    @Test func redactSaysWhatIsWrongWithAPattern() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Cassette(), "empty.json", in: directory.url)
        let result = try await CLIRunner.run(["redact", file.path, "--regex", "[z-a]"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--regex [z-a] is not a valid regular expression: character 'z' must compare less than or equal to 'a' at offset 2"),
                "\(result.stderr)")
    }

    @Test func aVCRImportWhoseRedactionFilterGivesUpIsRefusedWithThePath() throws {
        let yaml = """
            interactions:
            - request: {method: GET, uri: 'http://h/', body: null, headers: {X-Trace: ['\(Self.hostile) tok-1']}}
              response: {status: {code: 200, message: OK}, headers: {}, body: {string: ok}}
            version: 1

            """
        let redaction = Redaction(filters: [try .regex(#"^(a+)+$|tok-[0-9]+"#)], redactsDefaults: false)
        #expect {
            try VCRImport.cassette(fromYAML: yaml, file: "traces.yaml", recordedAt: Date(timeIntervalSince1970: 0), redaction: redaction)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("traces.yaml:2:") && text.contains("interactions[0]") && text.contains("redaction filter regex /^(a+)+$|tok-[0-9]+/ \(Self.gaveUp)")
        }
    }
}
