import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TapedeckStubServer
import TapedeckTestSupport

/// `tapedeck run` records and replays a whole command's traffic: curl and two Python clients (`requests` and the
/// standard library's `urllib`), plain HTTP and intercepted HTTPS, with nothing configured in the command but what
/// `run` puts in its environment; the command's exit status and signals pass through.
@Suite(.serialized) struct RunEndToEndTests {
    /// What the command under `run` does: two requests with curl, two with `requests`, one with `urllib`.
    static let script = #"""
        import sys, urllib.request
        import requests
        answers = [
            requests.get("https://api.example.test/hello", timeout=30).text,
            requests.post("https://api.example.test/echo", json={"n": 1}, timeout=30).text,
            urllib.request.urlopen("https://api.example.test/hello", timeout=30).read().decode(),
            urllib.request.urlopen("http://plain.example.test/hello", timeout=30).read().decode(),
        ]
        print(" | ".join(answers))
        """#

    static func command(_ folder: URL) -> [String] {
        ["sh", "-c", "curl -sS https://api.example.test/hello && echo && curl -sS http://plain.example.test/hello && echo "
            + "&& python3 \(folder.appendingPathComponent("clients.py").path)"]
    }

    @Test func recordsACommandsTrafficThenReplaysItWithTheUpstreamsStopped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        try Data(Self.script.utf8).write(to: folder.appendingPathComponent("clients.py"))
        let secure = try StubServer.https(hostNames: ["api.example.test"])
        let plain = try StubServer()
        defer { secure.stop(); plain.stop() }
        secure.route(.get, "/hello", response: .text("hello over https"))
        secure.route(.post, "/echo") { request in .text("echo " + String(decoding: request.body, as: UTF8.self)) }
        plain.route(.get, "/hello", response: .text("hello over http"))
        let upstreamCA = folder.appendingPathComponent("upstream-ca.pem")
        guard case .pem(let pem)? = secure.configuration.trustedCertificates.first else { Issue.record("no CA"); return }
        try pem.write(to: upstreamCA)
        let cassette = folder.appendingPathComponent("run.json").path
        let expected = "hello over https\nhello over http\nhello over https | echo {\"n\": 1} | hello over https | hello over http\n"

        let recorded = try await CLIRunner.run([
            "run", "--record", "--cassette", cassette,
            "--connect-to", "api.example.test:443:127.0.0.1:\(secure.port)", "--connect-to", "plain.example.test:80:127.0.0.1:\(plain.port)",
            "--upstream-ca", upstreamCA.path, "--",
        ] + Self.command(folder))
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout == expected, "the command's output is its own: \(recorded.stderr)")
        #expect(recorded.stderr.contains("saved 6 interaction(s) in \(cassette)"), "\(recorded.stderr)")

        secure.stop()
        plain.stop()
        let replayed = try await CLIRunner.run(["run", "--cassette", cassette, "--"] + Self.command(folder))
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == expected)
        #expect(replayed.stderr.contains("6 of 6 interaction(s) played, 0 request(s) unmatched"), "\(replayed.stderr)")

        // A request the cassette does not have is answered 404 and named; the command's status passes through.
        let missing = try await CLIRunner.run([
            "run", "--cassette", cassette, "--", "sh", "-c",
            "curl -s -o /dev/null -w '%{http_code}' https://api.example.test/missing; exit 7",
        ])
        #expect(missing.status == 7, "\(missing.stderr)")
        #expect(missing.stdout == "404")
        #expect(missing.stderr.contains("1 request(s) unmatched") && missing.stderr.contains("GET https://api.example.test/missing"),
                "\(missing.stderr)")
    }

    @Test func signalsReachTheCommandAndItsStatusIsTheExitStatus() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.url.appendingPathComponent("empty.json").path
        try Data(#"{"version": 1, "interactions": []}"#.utf8).write(to: URL(fileURLWithPath: cassette))
        for (signal, status) in [(SIGTERM, 42), (SIGINT, 43)] {
            // The command says it is ready the way a serving command does, then waits for the signal. Standard input
            // is not a terminal, as in CI: run from one, a SIGINT is the terminal's, which reached the command itself.
            let running = try await ServingCommand.launch(URL(fileURLWithPath: "/bin/sh"), [
                "-c", #"exec "$0" "$@" </dev/null"#, CLIRunner.executable.path,
                "run", "--cassette", cassette, "--", "sh", "-c",
                #"trap 'exit 42' TERM; trap 'exit 43' INT; echo "Press Ctrl-C"; while :; do sleep 0.05; done"#,
            ])
            defer { if running.process.isRunning { running.process.terminate() } }
            #expect(running.printed.contains("Press Ctrl-C"))
            kill(running.process.processIdentifier, signal)
            running.process.waitUntilExit()
            #expect(running.process.terminationStatus == Int32(status), "signal \(signal)")
        }
    }

    @Test func aCommandIsRequiredAndModeNeedsRecord() async throws {
        let none = try await CLIRunner.run(["run", "--cassette", "/tmp/x.json"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("give the command to run after --"), "\(none.stderr)")
        let mode = try await CLIRunner.run(["run", "--cassette", "/tmp/x.json", "--mode", "all", "--", "true"])
        #expect(mode.stderr.contains("--mode applies with --record"), "\(mode.stderr)")
        let absent = try await CLIRunner.run(["run", "--cassette", "/tmp/tapedeck-no-such-cassette.json", "--", "true"])
        #expect(absent.status != 0)
        #expect(absent.stderr.contains("tapedeck-no-such-cassette.json"), "\(absent.stderr)")
    }
}
