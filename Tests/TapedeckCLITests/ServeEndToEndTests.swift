import Foundation
import Testing
import TapedeckTestSupport

/// `tapedeck serve --stubs` serves a stub file until SIGTERM; `tapedeck fetch` talks to it.
@Suite struct ServeEndToEndTests {
    @Test func servesStubsAnswersFetchAndStopsOnSIGTERM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let stubs = folder.appendingPathComponent("stubs.json")
        try Data(#"{"stubs":[{"request":{"method":"GET","path":"/hello"},"response":{"status":200,"headers":{"Content-Type":"text/plain"},"body":"world"}}]}"#.utf8)
            .write(to: stubs)
        let (process, out, base) = try CLIRunner.startServing(["serve", "--stubs", stubs.path, "--port", "0"])
        defer { if process.isRunning { process.terminate() } }
        try #require(!base.isEmpty, "serve printed no base URL")
        let fetched = try CLIRunner.run(["fetch", "-i", "\(base)/hello"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(fetched.stdout.hasSuffix("\n\nworld"))
        let missing = try CLIRunner.run(["fetch", "http://127.0.0.1:1/"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("URLError -1004 cannotConnectToHost"))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("Received SIGTERM; stopped after 1 request(s)."))
    }

    @Test func refusesABadStubFileNamingThePlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let stubs = folder.appendingPathComponent("bad.json")
        try Data(#"{"stubs":[{"request":{"method":3}}]}"#.utf8).write(to: stubs)
        let result = try CLIRunner.run(["serve", "--stubs", stubs.path, "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.json: invalid stub definition at stubs[0].request.method"))
    }
}
