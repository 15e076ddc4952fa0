import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// Clients nobody here wrote, configured only with the proxy and its CA: the curl command-line tool and Python
    /// `requests` each record through `ForwardProxy`, then replay with the upstreams stopped.
    @Suite struct ForwardProxyInteropTests {
        /// The URLs each client fetches: intercepted HTTPS (one with a secret query value) and plain HTTP.
        static let urls = [
            "https://api.example.test/hello", "https://api.example.test/me?token=interop-query-secret-42",
            "http://plain.example.test/hello",
        ]
        static let bearer = "interop-bearer-secret-17"
        static let expected = ["200 hello from api.example.test", "200 signed in", "200 hello from plain.example.test"]

        /// Fetches `urls` with `client` through `proxy` (trusting the CA in `caFile`): one `STATUS BODY` line each.
        typealias Client = (_ proxy: String, _ caFile: String, _ urls: [String]) async throws -> [String]

        /// The curl command-line tool: `-x` and `--cacert`, one process fetching every URL (keep-alive inside it).
        static func curl(proxy: String, caFile: String, urls: [String]) async throws -> [String] {
            let arguments = ["-s", "--max-time", "30", "-x", proxy, "--cacert", caFile, "-H", "Authorization: Bearer \(bearer)",
                             "-w", "\\n%{http_code}\\n"] + urls
            let output = try await run("/usr/bin/curl", arguments)
            // Each transfer prints BODY\nSTATUS\n.
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return stride(from: 0, to: lines.count - 1, by: 2).map { "\(lines[$0 + 1]) \(lines[$0])" }
        }

        /// Python `requests`: a `Session` with `proxies=` and `verify=` (and nothing from the environment).
        static func python(proxy: String, caFile: String, urls: [String]) async throws -> [String] {
            let script = """
                import sys
                try:
                    import requests
                except ImportError:
                    sys.exit("python3 cannot import requests: run Tools/dev/test.sh, which installs it, or pip install requests")
                proxy, ca, bearer, *urls = sys.argv[1:]
                session = requests.Session()
                session.trust_env = False
                session.proxies = {"http": proxy, "https": proxy}
                session.verify = ca
                for url in urls:
                    response = session.get(url, headers={"Authorization": "Bearer " + bearer}, timeout=30)
                    print(response.status_code, response.text)
                """
            let output = try await run("/usr/bin/env", ["python3", "-c", script, proxy, caFile, bearer] + urls)
            return output.split(separator: "\n").map(String.init)
        }

        /// Runs a program (stopped after five minutes, a safety net against a hang) and returns its standard output;
        /// a failure is an error with its stderr.
        static func run(_ program: String, _ arguments: [String]) async throws -> String {
            let output = try await ExternalCommand.run(URL(fileURLWithPath: program), arguments, timeLimit: 300)
            guard output.status == 0 else {
                throw ClientFailure(description: "\(program) \(arguments.first ?? "") exited with \(output.status): \(output.standardError)")
            }
            return String(decoding: output.standardOutput, as: UTF8.self)
        }

        struct ClientFailure: Error, CustomStringConvertible {
            let description: String
        }

        func recordThenReplay(with client: Client) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let ca = directory.file("ca.pem")
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])

            let recorder = try ForwardProxy(cassette: file, mode: .record(.all), configuration: upstreams.proxyConfiguration(log: log))
            try recorder.writeCertificateAuthority(to: ca)
            // Credentials for the proxy itself: the client sends Proxy-Authorization, which is never recorded.
            let withCredentials = "http://tapedeck:proxy-password@127.0.0.1:\(recorder.port)"
            let recorded = try await client(withCredentials, ca.path, Self.urls)
            #expect(recorded == Self.expected)
            try await recorder.finishRecording()
            recorder.stop()
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(Self.bearer.utf8)) == nil)
            #expect(bytes.range(of: Data("interop-query-secret-42".utf8)) == nil)
            #expect(String(decoding: bytes, as: UTF8.self).lowercased().contains("proxy-authorization") == false)
            #expect(try CassetteFile.load(file).interactions.count == Self.urls.count)

            upstreams.stop()
            let replayer = try ForwardProxy(cassette: file, mode: .replay, configuration: upstreams.proxyConfiguration(log: log))
            defer { replayer.stop() }
            try replayer.writeCertificateAuthority(to: ca)
            let replayed = try await client(replayer.proxyURL.absoluteString, ca.path, Self.urls)
            #expect(replayed == Self.expected)
            #expect(replayer.servingSummary()?.playedCount == Self.urls.count)
        }

        @Test func theCurlCommandLineToolRecordsAndReplays() async throws {
            try await recordThenReplay(with: Self.curl)
        }

        @Test func aTunnelCarryingPlainHTTPIsRecordedAsHTTP() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let proxy = try ForwardProxy(cassette: file, mode: .record(.all), configuration: upstreams.proxyConfiguration(log: Locked([])))
            // curl --proxytunnel sends CONNECT plain.example.test:80, then plain HTTP inside the tunnel.
            let output = try await Self.run("/usr/bin/curl", ["-s", "--max-time", "30", "-p", "-x", proxy.proxyURL.absoluteString,
                                                         "http://plain.example.test/hello"])
            #expect(output == "hello from plain.example.test")
            try await proxy.finishRecording()
            proxy.stop()
            #expect(try CassetteFile.load(file).interactions.map(\.request.url) == ["http://plain.example.test/hello"])
        }

        @Test func pythonRequestsRecordsAndReplays() async throws {
            try await recordThenReplay(with: Self.python)
        }
    }
}
