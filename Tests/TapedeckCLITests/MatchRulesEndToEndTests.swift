import Foundation
import Testing
import TapedeckTestSupport

/// `--match` spells the rules as they print; a cassette that stores its rules is served by them without being told;
/// `serve` names the requests its rules cannot tell apart; a name it does not know is refused with the list.
@Suite struct MatchRulesEndToEndTests {
    /// Four GraphQL operations posted to one URL, each answered with its own name, and no stored rules.
    static let cassette = #"""
        {"version": 1, "interactions": [
        {"recordedAt": "2026-11-28T09:00:00.000Z", "request": {"method": "POST", "url": "http://127.0.0.1:4000/graphql",
          "headers": [["Content-Type", "application/json"]], "body": {"encoding": "utf8", "text": "{\"query\":\"query Hero { hero { name } }\"}"}},
         "response": {"status": 200, "reason": "OK", "httpVersion": "HTTP/1.1", "headers": [], "body": {"encoding": "utf8", "text": "Hero"}}},
        {"recordedAt": "2026-11-28T09:00:01.000Z", "request": {"method": "POST", "url": "http://127.0.0.1:4000/graphql",
          "headers": [["Content-Type", "application/json"]], "body": {"encoding": "utf8", "text": "{\"query\":\"query Droid { droid(id: 1) { name } }\"}"}},
         "response": {"status": 200, "reason": "OK", "httpVersion": "HTTP/1.1", "headers": [], "body": {"encoding": "utf8", "text": "Droid"}}},
        {"recordedAt": "2026-11-28T09:00:02.000Z", "request": {"method": "POST", "url": "http://127.0.0.1:4000/graphql",
          "headers": [["Content-Type", "application/json"]], "body": {"encoding": "utf8", "text": "{\"query\":\"mutation Add { add(stars: 5) { stars } }\"}"}},
         "response": {"status": 200, "reason": "OK", "httpVersion": "HTTP/1.1", "headers": [], "body": {"encoding": "utf8", "text": "Add"}}}
        ]}
        """#

    static let reformatted = [
        ("Add", #"{"query": "mutation Add {\n  add(stars: 5) {\n    stars\n  }\n}"}"#),
        ("Droid", #"{"query": "query Droid {\n  droid(id: 1) { name }\n}"}"#),
        ("Hero", #"{"query": "query Hero { hero { name } }"}"#),
    ]

    /// The cassette without rules (`plain.json`) and converted with `--match method,host,path,graphql` (`ruled.json`).
    static func cassettes(in directory: TemporaryDirectory) async throws -> (plain: URL, ruled: URL) {
        let plain = directory.url.appendingPathComponent("plain.json")
        try Data(Self.cassette.utf8).write(to: plain)
        let ruled = directory.url.appendingPathComponent("ruled.json")
        let converted = try await CLIRunner.run(["convert", plain.path, "--to", "cassette", "--match", "method,host,path,graphql", "-o", ruled.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        return (plain, ruled)
    }

    @Test func aCassetteConvertedWithRulesIsServedByThemAndTheOldOneIsNamedAmbiguous() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (plain, ruled) = try await Self.cassettes(in: directory)

        let lint = try await CLIRunner.run(["lint", plain.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[ambiguous-match]") && lint.stdout.contains("match method,url,graphql tells them apart"), "\(lint.stdout)")
        #expect(String(decoding: try Data(contentsOf: ruled), as: UTF8.self).contains(#""match": ["#))
        #expect(try await CLIRunner.run(["lint", ruled.path]).status == 0)

        // Served with no rule on the command line: the stored GraphQL rule answers each operation, in any order and
        // spelling; the plain cassette's serve names its ambiguity on stderr.
        let errors = Pipe()
        let served = try await CLIRunner.launch(["serve", ruled.path, "--port", "0"], errors: errors)
        defer { if served.process.isRunning { served.process.terminate() } }
        for (name, body) in Self.reformatted {
            let fetched = try await CLIRunner.run(["fetch", "-H", "Content-Type: application/json", "-d", body, "\(served.baseURL)/graphql"])
            #expect(fetched.status == 0 && fetched.stdout == name, "\(name): \(fetched.stdout) \(fetched.stderr)")
        }
        served.process.terminate()
        served.process.waitUntilExit()
        #expect(!String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("note:"))

        let plainErrors = Pipe()
        let plainServed = try await CLIRunner.launch(["serve", plain.path, "--port", "0"], errors: plainErrors)
        plainServed.process.terminate()
        plainServed.process.waitUntilExit()
        let notes = String(decoding: plainErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(notes.contains("note: interactions #0 POST") && notes.contains("match method,url,graphql tells them apart"), "\(notes)")
    }

    @Test func anUnknownRuleIsRefusedWithTheRulesThereAre() async throws {
        for command in [["serve", "x.json", "--port", "0"], ["record", "--upstream", "http://127.0.0.1:1", "--cassette", "x.json"],
                        ["fetch", "--cassette", "x.json", "http://127.0.0.1:1/"], ["sweep", "x.json", "--list"],
                        ["convert", "x.json", "--to", "cassette"]] {
            let result = try await CLIRunner.run(command + ["--match", "method,grapql"])
            #expect(result.status != 0)
            #expect(result.stderr.contains(#"--match: match rules "method,grapql" at character 8: unknown rule "grapql"; the rules are method, url"#),
                    "\(command[0]): \(result.stderr)")
        }
    }

    @Test func aRuleGivenToServeOverridesTheStoredOneAndSaysSo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ruled = try await Self.cassettes(in: directory).ruled
        let errors = Pipe()
        let served = try await CLIRunner.launch(["serve", ruled.path, "--port", "0", "--match", "method,url"], errors: errors)
        defer { if served.process.isRunning { served.process.terminate() } }
        // By method and URL alone, the first request gets the first recording, whatever it asks.
        let fetched = try await CLIRunner.run(["fetch", "-H", "Content-Type: application/json", "-d", Self.reformatted[0].1, "\(served.baseURL)/graphql"])
        #expect(fetched.stdout == "Hero")
        served.process.terminate()
        served.process.waitUntilExit()
        let notes = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(notes.contains("note: match method,url overrides the cassette's method,host,path,graphql"), "\(notes)")
    }
}
