import Foundation
import TapedeckCLICore
import TapedeckCassette
import TapedeckTestSupport
import Testing

/// `tapedeck sweep` serves the cassette with one pair faulted per run of the command under test.
@Suite struct SweepEndToEndTests {
    private let flow = CLIRunner.packageRoot.appendingPathComponent("Cassettes/TapedeckTestingTests/FaultSweepTests/profileFlow.json").path

    @Test func listsThePairsAndTheSkippedOnes() async throws {
        let result = try await CLIRunner.run(["sweep", flow, "--list", "--fault", "resetMidBody", "--fault", "503 with Retry-After",
                                        "--known", "GET /v1/me · reset mid-body"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            GET /v1/me · reset mid-body (known failure)
            GET /v1/me · 503 with Retry-After
            GET /v1/me/avatar · reset mid-body
            GET /v1/me/avatar · 503 with Retry-After
            DELETE /v1/session · 503 with Retry-After
            DELETE /v1/session · reset mid-body (skipped: a 204 with 0 body byte(s) has no body to cut)

            """)
    }

    @Test func listsTheWebSocketFaultsForTheConversationAndSkipsThemForPlainHTTP() async throws {
        let chat = CLIRunner.packageRoot.appendingPathComponent("Cassettes/Compatibility/v2/websocket-chat.json").path
        let result = try await CLIRunner.run(["sweep", chat, "--list", "--fault", "webSocketDrop", "--fault", "WebSocket close 1013"])
        #expect(result.status == 0, "\(result.stderr)")
        let skipped = "(skipped: a WebSocket fault, and this interaction is not a WebSocket conversation)"
        #expect(result.stdout == """
            GET /chat?room=lobby · WebSocket dropped
            GET /chat?room=lobby · WebSocket close 1013
            GET /rooms · WebSocket dropped \(skipped)
            GET /rooms · WebSocket close 1013 \(skipped)

            """)
    }

    @Test func anUnknownFaultIsAnErrorNamingTheKnownOnes() async throws {
        let result = try await CLIRunner.run(["sweep", flow, "--list", "--fault", "slowloris"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown fault \"slowloris\"; the known faults are timeout, resetBeforeHead, resetMidBody"))
    }

    @Test func runsTheCommandOncePerPairAndReportsInJSONAndJUnit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let json = directory.file("sweep.json"), junit = directory.file("sweep.xml")
        // The command under test fetches the profile once, without retrying, and needs the name in it.
        let script = "'\(CLIRunner.executable.path)' fetch \"$TAPEDECK_SWEEP_URL/v1/me\" | grep -q Ada"
        let result = try await CLIRunner.run([
            "sweep", flow, "--fault", "serverError", "--fault", "truncatedBody", "--interaction", "GET /v1/me",
            "--interaction", "DELETE *", "--known", "GET /v1/me · 500", "--json", json.path, "--junit", junit.path,
            "--", "/bin/sh", "-c", script,
        ])
        #expect(result.status == 1, "one pair was not handled")
        let report = try JSONDecoder().decode(FaultSweepReport.self, from: Data(contentsOf: json))
        #expect(report.results.map { "\($0.name): \($0.verdict.rawValue)" } == [
            "GET /v1/me · 500: knownFailure",
            "GET /v1/me · body cut short: failed",
            "DELETE /v1/session · 500: handled",  // the command never deletes the session
        ])
        #expect(report.skipped.map(\.name) == ["DELETE /v1/session · body cut short"])
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="4" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"<testcase name="GET /v1/me · body cut short" classname="profileFlow.json""#))
        #expect(result.stdout.contains("3 pair(s): 1 handled, 1 failed, 1 known failure(s), 0 fixed; 1 skipped"))
    }
}
