import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// A client talks to the recording proxy, which forwards to an httpbin server and records into a cassette.
    @Suite struct RecordingProxyTests {
        let client = CurlTransport()

        static let secrets = ["TOPSECRET-BEARER", "KEYSECRET-HEADER", "QUERYSECRET-KEY", "BODYSECRET-PASSWORD"]

        static func requests(base: URL) -> [HTTPRequest] {
            func url(_ path: String) -> URL { URL(string: base.absoluteString + path)! }
            return [
                HTTPRequest(url: url("/json")),
                HTTPRequest(url: url("/gzip")),
                HTTPRequest(url: url("/stream-bytes/2000?chunk_size=500")),
                HTTPRequest(url: url("/status/418")),
                HTTPRequest(url: url("/redirect/1"), redirectPolicy: .none),
                HTTPRequest(url: url("/get?api_key=\(secrets[2])&page=1"),
                            headers: ["Authorization": "Bearer \(secrets[0])", "X-Api-Key": secrets[1]]),
                HTTPRequest(method: .post, url: url("/post"), headers: ["Content-Type": "application/json"],
                            body: .data(Data(#"{"user":"ada","password":"\#(secrets[3])"}"#.utf8))),
                HTTPRequest(url: url("/reset")),
            ]
        }

        @Test func theProxyForwardsRecordsAndTheCassetteReplaysTheSameAnswers() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("proxied.json")
            let upstream = try CassetteServingParityTests.makeOrigin()
            defer { upstream.stop() }
            let proxy = try StubServer()
            defer { proxy.stop() }
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all)

            // The reset goes over a fresh connection: on a reused one libcurl would send the request again, and the
            // proxy would (faithfully) record both attempts.
            var proxied: [ClientOutcome] = []
            for request in Self.requests(base: proxy.baseURL) {
                let transport = request.url.path == "/reset" ? CurlTransport() : client
                proxied.append(await ClientOutcome.of(request, over: transport))
            }
            var direct: [ClientOutcome] = []
            for request in Self.requests(base: upstream.baseURL) {
                direct.append(await ClientOutcome.of(request, over: client))
            }
            #expect(proxy.recordedInteractionCount == proxied.count)
            // /gzip echoes the request headers, which the proxy changes (Accept-Encoding, Host): status only there.
            #expect(proxied[1].status == direct[1].status)
            for index in [0, 2, 3] {
                #expect(proxied[index].status == direct[index].status && proxied[index].body == direct[index].body,
                        "request \(index): proxied \(proxied[index]), direct \(direct[index])")
            }
            #expect(proxied[4].status == 302, "redirects reach the client")
            #expect(proxied[7].errorCode == URLError.Code.networkConnectionLost.rawValue, "an upstream reset is reproduced")
            #expect(String(decoding: proxied[1].body, as: UTF8.self).contains("gzipped"), "a gzip body arrives decodable")

            let summary = try #require(try await proxy.finishRecording())
            #expect(summary.interactionCount == proxied.count)
            let stored = allBytes(under: directory.url)
            for secret in Self.secrets {
                #expect(!bytes(stored, contain: secret), "\(secret) reached the cassette")
            }

            // The cassette replays the same answers, in process (under the upstream's URLs) and over sockets.
            let inProcess = try openCassette(file, mode: .replay)
            let served = try StubServer(cassette: file)
            defer { served.stop() }
            let upstreamRequests = Self.requests(base: upstream.baseURL)
            let servedRequests = Self.requests(base: served.baseURL)
            for index in upstreamRequests.indices {
                let a = await ClientOutcome.of(upstreamRequests[index], over: inProcess)
                let b = await ClientOutcome.of(servedRequests[index], over: client)
                #expect(a.status == proxied[index].status && a.errorCode == proxied[index].errorCode, "request \(index) in process: \(a)")
                #expect(a == b, "request \(index): in process \(a), served \(b)")
                if index < 4 { #expect(b.body == proxied[index].body, "request \(index) replays the proxied body") }
            }
        }

        @Test func newEpisodesForwardsOnlyWhatTheCassetteLacks() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let upstream = try CassetteServingParityTests.makeOrigin()
            defer { upstream.stop() }
            let proxy = try StubServer()
            defer { proxy.stop() }
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .newEpisodes)
            #expect(try await client.send(HTTPRequest(url: proxy.url("/counter"))).text == "call 1")
            #expect(proxy.recordedInteractionCount == 1)
            try await proxy.finishRecording()

            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .newEpisodes)
            #expect(try await client.send(HTTPRequest(url: proxy.url("/counter"))).text == "call 1", "replayed, not forwarded")
            #expect(proxy.recordedInteractionCount == 0)
            #expect(try await client.send(HTTPRequest(url: proxy.url("/json"))).statusCode == 200)
            #expect(proxy.recordedInteractionCount == 1)
            let summary = try #require(try await proxy.finishRecording())
            #expect(summary.interactionCount == 2)
            #expect(try await client.send(HTTPRequest(url: proxy.url("/json"))).statusCode == 404, "finished: the stubs' 404")
        }

        @Test func anUnusableUpstreamIsRefusedWithTheReason() throws {
            let proxy = try StubServer()
            defer { proxy.stop() }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("never.json")
            #expect {
                try proxy.recordProxy(upstream: URL(string: "ftp://example.com")!, cassette: file)
            } throws: { error in
                "\(error)".contains("ftp://example.com must start with http:// or https://")
            }
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }

        @Test func pythonsURLLibThroughTheProxyRecordsACassetteThatReplays() async throws {
            let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
            let python = searchPath.map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let python else {
                print("Skipping the urllib test: python3 is not installed")
                return
            }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("urllib.json")
            let upstream = try StubServer.httpbin()
            defer { upstream.stop() }
            let proxy = try StubServer()
            defer { proxy.stop() }
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all)

            let script = """
                import sys, urllib.request
                base = sys.argv[1]
                with urllib.request.urlopen(urllib.request.Request(base + "/json", headers={"Authorization": "Bearer PYSECRET"}), timeout=10) as r:
                    sys.stdout.write(str(r.status) + "\\n" + r.read().decode())
                post = urllib.request.Request(base + "/post", data=b"a=1&b=2", method="POST")
                with urllib.request.urlopen(post, timeout=10) as r:
                    r.read()
                """
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", script, proxy.baseURL.absoluteString]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "python3 said: \(String(decoding: printed, as: UTF8.self))")
            #expect(proxy.recordedInteractionCount == 2)
            try await proxy.finishRecording()
            #expect(!bytes(allBytes(under: directory.url), contain: "PYSECRET"))

            let text = String(decoding: printed, as: UTF8.self)
            let replay = try openCassette(file, mode: .replay)
            let replayed = try await replay.send(HTTPRequest(url: upstream.url("/json")))
            #expect(text == "200\n" + replayed.text)
            #expect(try await replay.send(HTTPRequest(method: .post, url: upstream.url("/post"))).statusCode == 200)
            #expect(try replay.finish().unplayed.isEmpty)
        }
    }
}
