import Foundation
import Testing
import TapedeckTestSupport

/// `tapedeck record` proxies to an upstream and records; `tapedeck serve CASSETTE` answers from the recording.
@Suite struct RecordEndToEndTests {
    @Test func recordsThroughTheProxyThenServesTheCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let stubs = folder.appendingPathComponent("stubs.json")
        try Data(#"[{"request":{"method":"GET","path":"/hello"},"response":{"status":200,"body":"world"}}]"#.utf8).write(to: stubs)
        let (upstream, _, upstreamURL) = try await CLIRunner.startServing(["serve", "--stubs", stubs.path, "--port", "0"])
        defer { if upstream.isRunning { upstream.terminate() } }
        #expect(upstreamURL.hasPrefix("http://127.0.0.1:"))

        let cassette = folder.appendingPathComponent("recorded.json")
        let (recorder, recorderOut, proxyURL) = try await CLIRunner.startServing(
            ["record", "--upstream", upstreamURL, "--cassette", cassette.path, "--listen", "127.0.0.1:0"])
        defer { if recorder.isRunning { recorder.terminate() } }
        let fetched = try await CLIRunner.run(["fetch", "\(proxyURL)/hello?api_key=k-0123456789abcdef"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout == "world")
        // A client nobody here wrote: the curl command-line tool, through the same proxy.
        let curl = ChildProcess()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-H", "Authorization: Bearer t-abcdef0123456789", "\(proxyURL)/hello"]
        let curlOut = Pipe()
        curl.standardOutput = curlOut
        try curl.run()
        curl.waitUntilExit()
        #expect(String(decoding: curlOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "world")
        recorder.interrupt()
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)
        let said = String(decoding: recorderOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("saved 2 interaction(s)"), "\(said)")
        let bytes = try Data(contentsOf: cassette)
        #expect(bytes.range(of: Data("k-0123456789abcdef".utf8)) == nil)
        #expect(bytes.range(of: Data("t-abcdef0123456789".utf8)) == nil)
        upstream.terminate()
        upstream.waitUntilExit()

        let (server, serverOut, servedURL) = try await CLIRunner.startServing(["serve", cassette.path, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }
        let replayed = try await CLIRunner.run(["fetch", "\(servedURL)/hello?api_key=another-key-value"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == "world")
        server.terminate()
        server.waitUntilExit()
        let summary = String(decoding: serverOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(summary.contains("1 of 2 interaction(s) played"), "\(summary)")
    }

    @Test func refusesAnUpstreamThatIsNotAURL() async throws {
        let result = try await CLIRunner.run(["record", "--upstream", "not a url", "--cassette", "/tmp/x.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--upstream not a url is not an absolute http(s) URL"))
    }
}
