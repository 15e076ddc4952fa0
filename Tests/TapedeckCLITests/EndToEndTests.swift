import Foundation
import Testing
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport

/// Runs the built `tapedeck` binary and compares its output with `Golden/` (paths, ports and timings masked).
@Suite struct EndToEndTests {
    @Test func inspectPrintsATable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.users, "users.json", in: folder)
        let result = try await CLIRunner.run(["inspect", file.path])
        #expect(result.status == 0)
        try CLIRunner.expectGolden(CLIRunner.mask(result.stdout, folder: folder), "inspect.txt")
        let json = try await CLIRunner.run(["inspect", "--json", file.path])
        #expect(json.status == 0)
        try CLIRunner.expectGolden(json.stdout, "inspect.json")
    }

    @Test func inspectNamesTheFileLineAndColumnOfBrokenJSON() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = folder.appendingPathComponent("broken.json")
        try Data("{\n  \"version\": 1,\n  \"interactions\": [}\n".utf8).write(to: file)
        let result = try await CLIRunner.run(["inspect", file.path])
        #expect(result.status != 0)
        try CLIRunner.expectGolden(CLIRunner.mask(result.stderr, folder: folder), "inspect-broken.txt")
    }

    @Test func lintReportsSecretsStaleInteractionsSidecarsAndSchemaErrors() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let leaky = try Fixtures.write(Fixtures.leaky, "leaky.json", in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("leaky.bodies"), withIntermediateDirectories: true)
        try Data("orphan".utf8).write(to: folder.appendingPathComponent("leaky.bodies/0123.bin"))
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\"version\": 1, \"interactions\": [{\"recordedAt\": \"yesterday\"}]}\n".utf8).write(to: broken)
        let result = try await CLIRunner.run(["lint", "--max-age", "365", leaky.path, broken.path])
        #expect(result.status == 1)
        try CLIRunner.expectGolden(CLIRunner.mask(result.stdout, folder: folder), "lint.txt")
        let json = try await CLIRunner.run(["lint", "--json", leaky.path])
        #expect(json.status == 1)
        try CLIRunner.expectGolden(CLIRunner.mask(json.stdout, folder: folder), "lint.json")
    }

    @Test func lintReportsWhatRedactionWouldChangeAcrossInteractionsAndRedactFixesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.echoing, "echo.json", in: folder)
        let result = try await CLIRunner.run(["lint", file.path])
        #expect(result.status == 1)
        #expect(!result.stdout.contains("5f4e3d2c1b0a9f"), "the secret itself is never printed")
        try CLIRunner.expectGolden(CLIRunner.mask(result.stdout, folder: folder), "lint-redaction.txt")
        #expect(try await CLIRunner.run(["redact", file.path]).status == 0)
        let after = try await CLIRunner.run(["lint", file.path])
        #expect(after.status == 0, "what lint reported is what redact changes: \(after.stdout)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("5f4e3d2c1b0a9f") && text.contains("bearer") && text.contains("3600"), "look-alikes are kept")
    }

    @Test func lintPassesACleanCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.users, "users.json", in: folder)
        let result = try await CLIRunner.run(["lint", file.path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout == "1 file(s) checked, no findings\n")
    }

    @Test func redactFixesWhatLintFoundAndIsIdempotent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.leaky, "leaky.json", in: folder)
        let first = try await CLIRunner.run(["redact", file.path, "--header", "X-Trace"])
        #expect(first.status == 0)
        try CLIRunner.expectGolden(CLIRunner.mask(first.stdout, folder: folder), "redact.txt")
        let lint = try await CLIRunner.run(["lint", file.path])
        #expect(lint.status == 0, "\(lint.stdout)")
        let second = try await CLIRunner.run(["redact", file.path, "--header", "X-Trace"])
        #expect(second.stdout.hasSuffix("nothing to redact\n"))
    }

    @Test func redactTakesAJSONPathInEitherSpellingAndRefusesABadOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var written: [String] = []
        for (index, path) in ["$.tags[0]", "tags.0", "$['tags'][*]"].enumerated() {
            let file = try Fixtures.write(Fixtures.users, "users-\(index).json", in: directory.url)
            let result = try await CLIRunner.run(["redact", file.path, "--no-defaults", "--json-path", path])
            #expect(result.status == 0, "\(path): \(result.stderr)")
            // The salt is drawn for each file; the rest must be the same.
            let text = try String(contentsOf: file, encoding: .utf8)
            written.append(text.split(separator: "\n").filter { !$0.contains(#""salt""#) }.joined().filter { !$0.isWhitespace })
        }
        #expect(written[0].contains(#""tags":["[REDACTED]"]"#), "\(written[0])")
        #expect(Set(written).count == 1, "both spellings redact the same member")
        let file = try Fixtures.write(Fixtures.users, "users.json", in: directory.url)
        let bad = try await CLIRunner.run(["redact", file.path, "--json-path", "$..id"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains(#"--json-path: unsupported JSONPath "$..id" at character 2: deep scan ("..") is not supported"#), "\(bad.stderr)")
        let fromTheEnd = try await CLIRunner.run(["redact", file.path, "--json-path", "$.tags[-1]"])
        #expect(fromTheEnd.status != 0)
        #expect(fromTheEnd.stderr.contains("cannot be redacted"), "\(fromTheEnd.stderr)")
    }

    @Test func pruneDropsWhatNoRunPlayed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette()
        try CassetteFile.save(Cassette(interactions: ["a", "b", "c"].map { name in
            Interaction(request: .init(method: "GET", url: "https://api.example.test/\(name)"), outcome: .response(.init(statusCode: 200)))
        }), to: file)
        let report = directory.file("run.jsonl")
        try Data("{\"cassette\":\"\(file.standardizedFileURL.path)\",\"interactions\":3,\"played\":[1]}\n".utf8).write(to: report)
        let dry = try await CLIRunner.run(["prune", file.path, "--unused-in", report.path, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would drop #0 GET https://api.example.test/a"))
        #expect(try CassetteFile.load(file).interactions.count == 3)
        let result = try await CLIRunner.run(["prune", file.path, "--unused-in", report.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("2 interaction(s) dropped\n"))
        #expect(try CassetteFile.load(file).interactions.map(\.request.url) == ["https://api.example.test/b"])
        let stale = try await CLIRunner.run(["prune", file.path, "--unused-in", report.path])
        #expect(stale.status != 0 && stale.stderr.contains("3 interactions"), "the report no longer fits the cassette")
    }

    @Test func convertRoundTripsThroughHARAndDiffSeesNoDifference() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.users, "users.json", in: folder)
        let har = folder.appendingPathComponent("users.har"), back = folder.appendingPathComponent("back.json")
        #expect(try await CLIRunner.run(["convert", file.path, "--to", "har", "-o", har.path]).status == 0)
        #expect(try await CLIRunner.run(["convert", har.path, "--to", "cassette", "-o", back.path]).status == 0)
        let diff = try await CLIRunner.run(["diff", file.path, back.path])
        #expect(diff.status == 0, "\(diff.stdout)")
        #expect(try HARCodec.import(Data(contentsOf: har)).interactions.count == 4)
    }

    @Test func diffReportsJSONChangesAndIgnoresVolatileHeaders() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let a = try Fixtures.write(Fixtures.users, "a.json", in: folder)
        var changed = Fixtures.users
        if case .response(var response) = changed.interactions[0].outcome {
            response.headers.replaceOrAdd(name: "Date", value: "Fri, 16 Jan 2026 11:00:00 GMT")
            response.body = Fixtures.json(#"{"name":"Ada","id":1,"age":37,"tags":["admin","ops"]}"#)
            changed.interactions[0].outcome = .response(response)
        }
        changed.interactions.removeLast()
        let b = try Fixtures.write(changed, "b.json", in: folder)
        let result = try await CLIRunner.run(["diff", a.path, b.path])
        #expect(result.status == 1)
        try CLIRunner.expectGolden(result.stdout, "diff.txt")
    }
}
