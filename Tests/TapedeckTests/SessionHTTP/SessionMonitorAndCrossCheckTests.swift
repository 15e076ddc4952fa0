import Foundation
import Logging
import Testing
import Tapedeck
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Event monitors, and the session's cookie, redirect and Digest behaviour checked against the curl command-line
/// tool on the same stub server (skipped, with a message, where curl is missing).
@Suite struct SessionMonitorAndCrossCheckTests {
    struct Recording: SessionEventMonitor {
        let names = Collected<String>()
        func session(_ manager: SessionManager, didEmit event: SessionEvent) {
            switch event {
            case .taskDidCreate: names.append("create")
            case .taskDidResume: names.append("resume")
            case .taskWillPerformHTTPRedirection(_, let head, _): names.append("hop \(head.statusCode)")
            case .taskWillRetry(_, let attempt, _): names.append("retry \(attempt)")
            case .taskDidFinishCollectingMetrics: names.append("metrics")
            case .taskDidComplete(_, let result): names.append("complete \(result.response?.statusCode ?? 0)")
            default: break
            }
        }
    }

    /// Keeps what a `Logger` writes.
    struct CapturingHandler: LogHandler {
        let lines: Collected<String>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.append("\(event.level): \(event.message)")
        }
    }

    @Test func monitorsSeeEachTasksLifeInOrder() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let manager = SessionManager(transport: server.transport())
            let monitor = Recording()
            let lines = Collected<String>()
            manager.monitors = [monitor, LoggingEventMonitor(logger: Logger(label: "test") { _ in CapturingHandler(lines: lines) })]
            _ = await manager.dataTask(with: HTTPRequest(url: server.url("/redirect/2"))).run()
            #expect(monitor.names.values == ["create", "resume", "hop 302", "hop 302", "metrics", "complete 200"])
            #expect(lines.values.contains { $0.hasPrefix("info: GET \(server.url("/redirect/2").absoluteString) → 200") })
            #expect(lines.values.contains { $0.hasPrefix("debug: 302 redirect to GET") })
            #expect(lines.values.contains { $0.hasPrefix("trace: curl") })
        }
    }

    /// Runs the curl tool; `nil` when it is not installed.
    private func curl(_ arguments: [String]) async throws -> Data? {
        guard Curl.isInstalled else { return nil }
        return Data(try await Curl.run(arguments).output.utf8)
    }

    private func json(_ data: Data?) -> JSONValue? { data.flatMap { try? JSONValueParser.parse($0) } }

    @Test func cookiesRedirectsAndDigestMatchTheCurlTool() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withStubServer { server in
            server.installHttpbinRoutes()
            server.route(.post, "/post-redirect/{status}") { request in
                StubResponse(status: Int(request.decodedPath.split(separator: "/").last ?? "") ?? 302, headers: ["Location": "/anything/landed"])
            }
            let jar = directory.file("jar.txt").path
            guard let curlCookies = try await curl(["-L", "-c", jar, "-b", jar, server.url("/cookies/set?a=1&b=2").absoluteString]) else {
                Issue.record("curl is not installed; the cross-check needs it (apt-get install curl)")
                return
            }
            let manager = SessionManager(transport: server.transport())
            let ours = await manager.dataTask(with: HTTPRequest(url: server.url("/cookies/set?a=1&b=2"))).run()
            #expect(ours.value as? JSONValue == json(curlCookies))

            for status in [301, 302, 303, 307, 308] {
                let url = server.url("/post-redirect/\(status)").absoluteString
                let theirs = json(try await curl(["-L", "-d", "x=1", url]))  // curl's default: what browsers do, as NSURLSession
                var request = HTTPRequest(method: .post, url: server.url("/post-redirect/\(status)"),
                                          headers: ["Content-Type": "application/x-www-form-urlencoded"])
                request.body = .data(Data("x=1".utf8))
                let mine = await manager.dataTask(with: request).run().value as? JSONValue
                #expect(mine?["method"] == theirs?["method"], "\(status): method after the redirect")
                #expect(mine?["form"] == theirs?["form"], "\(status): body after the redirect")
            }

            let digest = server.url("/digest-auth/auth/ada/lovelace/MD5")
            let theirs = json(try await curl(["--digest", "-u", "ada:lovelace", digest.absoluteString]))
            manager.credentialStore.set(Credential(user: "ada", password: "lovelace"), for: ProtectionSpace(url: digest, realm: "me@tapedeck.test"))
            #expect(await manager.dataTask(with: HTTPRequest(url: digest)).run().value as? JSONValue == theirs)
            #expect(theirs == ["authenticated": true, "user": "ada"])
        }
    }
}
