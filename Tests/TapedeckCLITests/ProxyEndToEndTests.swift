import Foundation
import Testing
import TapedeckStubServer
import TapedeckTestSupport

/// `tapedeck record --proxy` records what the curl command-line tool sends through it (plain and intercepted
/// HTTPS) from local upstreams; `tapedeck serve --proxy` replays it with the upstreams stopped.
@Suite(.serialized) struct ProxyEndToEndTests {
    /// Runs `/usr/bin/curl arguments…` (at most 30 s) and returns its exit status and standard output.
    static func curl(_ arguments: [String]) async throws -> (status: Int32, output: String) { try await Curl.run(arguments) }

    /// What a serving command printed after it stopped, without the running count of recordings (its lines depend
    /// on when the counter looked) and with the folder and ports masked.
    static func finalOutput(of served: CLIRunner.Served, folder: URL) -> String {
        served.process.interrupt()
        served.process.waitUntilExit()
        let text = served.printed + String(decoding: served.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasSuffix("interaction(s) recorded") }
        return CLIRunner.mask(kept.joined(separator: "\n"), folder: folder)
    }

    @Test func recordsCurlThroughTheProxyThenReplaysWithTheUpstreamsStopped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let secure = try StubServer.https(hostNames: ["api.example.test"])
        let plain = try StubServer()
        defer { secure.stop(); plain.stop() }
        secure.route(.get, "/hello", response: .text("hello over https"))
        plain.route(.get, "/hello", response: .text("hello over http"))
        let upstreamCA = folder.appendingPathComponent("upstream-ca.pem")
        guard case .pem(let pem)? = secure.configuration.trustedCertificates.first else { Issue.record("no CA"); return }
        try pem.write(to: upstreamCA)

        let cassette = folder.appendingPathComponent("proxied.json")
        let ca = folder.appendingPathComponent("ca.pem")
        let recorder = try await CLIRunner.launch([
            "record", "--proxy", "--cassette", cassette.path, "--listen", "127.0.0.1:0", "--ca-out", ca.path,
            "--allow-host", "api.example.test", "--allow-host", "plain.example.test",
            "--connect-to", "api.example.test:443:127.0.0.1:\(secure.port)", "--connect-to", "plain.example.test:80:127.0.0.1:\(plain.port)",
            "--upstream-ca", upstreamCA.path,
        ])
        defer { if recorder.process.isRunning { recorder.process.terminate() } }
        let proxyURL = recorder.baseURL
        #expect(proxyURL.hasPrefix("http://127.0.0.1:"))
        let https = try await Self.curl(["-x", proxyURL, "--cacert", ca.path, "-H", "Authorization: Bearer cli-secret-0123456789",
                                   "https://api.example.test/hello"])
        #expect(https.status == 0 && https.output == "hello over https", "\(https)")
        let http = try await Self.curl(["-x", proxyURL, "http://plain.example.test/hello"])
        #expect(http.output == "hello over http", "\(http)")
        let refused = try await Self.curl(["-x", proxyURL, "http://elsewhere.example.test/hello"])
        #expect(refused.output.contains("refused a request to elsewhere.example.test"), "\(refused)")
        try CLIRunner.expectGolden(Self.finalOutput(of: recorder, folder: folder), "record-proxy.txt")
        #expect(recorder.process.terminationStatus == 0)
        #expect(try Data(contentsOf: cassette).range(of: Data("cli-secret-0123456789".utf8)) == nil)

        secure.stop()
        plain.stop()
        let replayCA = folder.appendingPathComponent("replay-ca.pem")
        let server = try await CLIRunner.launch([
            "serve", "--proxy", "--cassette", cassette.path, "--port", "0", "--ca-out", replayCA.path,
        ])
        defer { if server.process.isRunning { server.process.terminate() } }
        let servedURL = server.baseURL
        let replayed = try await Self.curl(["-x", servedURL, "--cacert", replayCA.path, "https://api.example.test/hello"])
        #expect(replayed.output == "hello over https", "\(replayed)")
        let replayedPlain = try await Self.curl(["-x", servedURL, "http://plain.example.test/hello"])
        #expect(replayedPlain.output == "hello over http", "\(replayedPlain)")
        try CLIRunner.expectGolden(Self.finalOutput(of: server, folder: folder), "serve-proxy.txt")
    }

    @Test func proxyOptionsNeedProxyAndProxyNeedsNoUpstream() async throws {
        let both = try await CLIRunner.run(["record", "--proxy", "--upstream", "http://127.0.0.1:1", "--cassette", "/tmp/x.json"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("give either --upstream URL (a reverse proxy) or --proxy (a forward proxy)"), "\(both.stderr)")
        let stray = try await CLIRunner.run(["record", "--upstream", "http://127.0.0.1:1", "--cassette", "/tmp/x.json", "--allow-host", "a.test"])
        #expect(stray.stderr.contains("--allow-host only apply with --proxy"), "\(stray.stderr)")
        let anywhere = try await CLIRunner.run(["record", "--proxy", "--cassette", "/tmp/x.json", "--listen", "0.0.0.0:0"])
        #expect(anywhere.status == 1)
        #expect(anywhere.stderr.contains("is not a loopback address"), "\(anywhere.stderr)")
    }
}
