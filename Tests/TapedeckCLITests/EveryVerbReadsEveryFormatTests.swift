import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore
import TapedeckTestSupport

/// Every verb that reads recorded traffic takes whatever `convert` reads (a cassette, HAR, a VCR cassette, a Pact
/// contract), recognised from the content; a verb that writes the file back, or a file of another kind, is refused
/// with the format found and the verb or flag that reads it.
@Suite struct EveryVerbReadsEveryFormatTests {
    private static let vcr = VCRImportTests.folder.appendingPathComponent("vcrpy-plain.yaml")

    @Test func formatsAreRecognisedFromTheirContent() {
        func evidence(_ text: String) -> RecordingFormat? { RecordingFormat.evidence(prefix: Data(text.utf8)) }
        #expect(evidence(#"{"version": 2, "interactions": []}"#) == .cassette)
        #expect(evidence(#"  {"log": {"version": "1.2", "entries": []}}"#) == .har)
        #expect(evidence("\u{FEFF}" + #"{"log": {}}"#) == .har)
        #expect(evidence(#"{"interactions": [{"request": {"a": "}\"{"}}], "consumer": {"name": "web"}, "provider": {"name": "api"}}"#) == .pact)
        #expect(evidence(#"{"mappings": [{"request": {}, "response": {}}]}"#) == .stubs)
        #expect(evidence(#"{"request": {"method": "GET"}, "response": {"status": 200}}"#) == .stubs)
        #expect(evidence(#"[ {"request": {"url": "/x"}, "response": {"status": 200}} ]"#) == .stubs)
        #expect(evidence(#"{"stubs": []}"#) == .stubs)
        #expect(evidence("# recorded\n---\ninteractions:\n- request: {}\n") == .vcr)
        #expect(evidence("http_interactions:\n- request: {}\n") == .vcr)
        // No sign of anything: the cassette loader is left to say what is wrong.
        #expect(evidence(#"{"version": 2}"#) == nil)
        #expect(evidence(#"[1, 2]"#) == nil)
        #expect(evidence("hello") == nil)
        #expect(evidence("") == nil)
        #expect(RecordingFormat.recognise(path: "/nonexistent/file.json") == .cassette)
    }

    @Test func inspectLintAndDiffReadHARVCRAndPact() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let contract = directory.file("contract.json")
        try PactImportTests.exported().write(to: contract)
        let har = directory.file("session.har.json")
        let converted = try await CLIRunner.run(["convert", Self.vcr.path, "--to", "har", "-o", har.path])
        #expect(converted.status == 0, "\(converted.stderr)")

        let inspected = try await CLIRunner.run(["inspect", contract.path])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stderr.contains("Read 7 interaction(s) from a Pact v3 contract between web and users-api"))
        #expect(inspected.stdout.contains("/users"), "\(inspected.stdout)")

        let vcrInspected = try await CLIRunner.run(["inspect", Self.vcr.path])
        #expect(vcrInspected.status == 0, "\(vcrInspected.stderr)")
        #expect(vcrInspected.stderr.contains("Read 9 interaction(s) from a vcrpy cassette"))
        #expect(vcrInspected.stdout.contains("/text"))

        // The HAR file has no .har name: its top-level "log" says what it is.
        let linted = try await CLIRunner.run(["lint", har.path])
        #expect(!linted.stdout.contains("[schema]"), "\(linted.stdout)")
        let diffed = try await CLIRunner.run(["diff", Self.vcr.path, Self.vcr.path])
        #expect(diffed.status == 0, "\(diffed.stderr)")
        #expect(diffed.stdout.contains("are equivalent"), "\(diffed.stdout)")
    }

    @Test func serveAndFetchReplayAVCRCassetteConvertedOnTheWay() async throws {
        let served = try await CLIRunner.launch(["serve", Self.vcr.path, "--port", "0"])
        defer { if served.process.isRunning { served.process.terminate() } }
        try #require(!served.baseURL.isEmpty, "serve printed no base URL")
        let fetched = try await CLIRunner.run(["fetch", "\(served.baseURL)/text"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout == "plain text, with ünïcode\n")

        let replayed = try await CLIRunner.run(["fetch", "--cassette", Self.vcr.path, "--mode", "replay", "http://127.0.0.1:33687/text"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == "plain text, with ünïcode\n")
        #expect(replayed.stderr.contains("is a VCR cassette (vcrpy or Ruby VCR): fetch uses a cassette converted from it"))
    }

    @Test func verbsThatWriteBackRefuseOtherFormatsAndLeaveThemAlone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let contract = directory.file("contract.json")
        try PactImportTests.exported().write(to: contract)
        let before = try Data(contentsOf: contract)
        let report = directory.file("report.json")
        try Data("{}".utf8).write(to: report)
        for arguments in [["prune", contract.path, "--unused-in", report.path], ["migrate", contract.path, "--to", "1"],
                          ["redact", contract.path]] {
            let refused = try await CLIRunner.run(arguments)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("\(contract.path) is a Pact contract, and \(arguments[0]) rewrites Tapedeck cassettes: "
                                            + "`tapedeck convert \(contract.path) -o contract-cassette.json` makes one"),
                    "\(arguments): \(refused.stderr)")
        }
        #expect(try Data(contentsOf: contract) == before)
    }

    @Test func servingAFileInTheWrongPlaceNamesTheFlagThatServesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let contract = directory.file("contract.json")
        try PactImportTests.exported().write(to: contract)
        let asStubs = try await CLIRunner.run(["serve", "--stubs", contract.path, "--port", "0"])
        #expect(asStubs.status != 0)
        #expect(asStubs.stderr.contains("\(contract.path) is a Pact contract, not stub definitions: serve it with --pact \(contract.path)"),
                "\(asStubs.stderr)")
        let asCassette = try await CLIRunner.run(["serve", contract.path, "--port", "0"])
        #expect(asCassette.status != 0)
        #expect(asCassette.stderr.contains("serve it with `tapedeck serve --pact \(contract.path)`"), "\(asCassette.stderr)")

        let mappings = directory.file("mappings.json")
        try Data(#"{"mappings": [{"request": {"method": "GET", "url": "/x"}, "response": {"status": 200}}]}"#.utf8).write(to: mappings)
        let inspected = try await CLIRunner.run(["inspect", mappings.path])
        #expect(inspected.status != 0)
        #expect(inspected.stderr.contains("`tapedeck serve --stubs \(mappings.path)` serves them"), "\(inspected.stderr)")
    }
}
