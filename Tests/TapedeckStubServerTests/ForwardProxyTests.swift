import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

extension OnLoopback {
    /// A client configured with a proxy records through `ForwardProxy` (plain requests and intercepted HTTPS) and
    /// replays through it with the upstreams stopped.
    @Suite struct ForwardProxyTests {
        @Test func recordsPlainAndInterceptedHTTPSThenReplaysWithTheUpstreamStopped() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("proxied.json")
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])

            let recorder = try ForwardProxy(cassette: file, mode: .record(.all), configuration: upstreams.proxyConfiguration(log: log))
            let client = recorder.client()
            var bodies: [String] = []
            for request in ProxiedRequests.all() {
                let response = try await client.send(request)
                #expect(response.statusCode == 200, "\(request.url)")
                bodies.append(response.text)
            }
            #expect(bodies == ProxiedRequests.expectedBodies)
            #expect(recorder.recordedInteractionCount == 4)
            #expect(recorder.interceptedAuthorities == ["api.example.test:443"])
            let summary = try #require(try await recorder.finishRecording())
            #expect(summary.interactionCount == 4)
            recorder.stop()
            #expect(log.value.isEmpty, "\(log.value)")

            // Recorded as an in-process CassetteTransport records: the URLs the client asked for, secrets redacted.
            let cassette = try CassetteFile.load(file)
            let withoutQuery = { (url: String) in String(url.prefix { $0 != "?" }) }
            #expect(cassette.interactions.map { withoutQuery($0.request.url) }
                    == ProxiedRequests.all().map { withoutQuery($0.url.absoluteString) })
            #expect(cassette.interactions[1].request.url.contains("api_key="))
            let bytes = try Data(contentsOf: file)
            for secret in ProxiedRequests.secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) reached the cassette")
            }

            upstreams.stop()
            let replayer = try ForwardProxy(cassette: file, mode: .replay, configuration: upstreams.proxyConfiguration(log: log))
            defer { replayer.stop() }
            let replayClient = replayer.client()
            var replayed: [String] = []
            for request in ProxiedRequests.all() {
                replayed.append(try await replayClient.send(request).text)
            }
            #expect(replayed == ProxiedRequests.expectedBodies)
            let served = try #require(replayer.servingSummary())
            #expect(served.playedCount == 4 && served.unplayed.isEmpty && served.unmatched.isEmpty, "\(served)")

            // The same cassette replays in process, with no proxy at all.
            let inProcess = try CassetteTransport(cassette: file, mode: .replay, environment: [:])
            var direct: [String] = []
            for request in ProxiedRequests.all() { direct.append(try await inProcess.send(request).text) }
            #expect(direct == ProxiedRequests.expectedBodies)
        }

        @Test func aCassetteRecordedInProcessReplaysThroughTheProxy() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("in-process.json")
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let recorder = try CassetteTransport(cassette: file, mode: .all, upstream: CurlTransport(configuration: upstreams.curlConfiguration),
                                                 environment: [:])
            for request in ProxiedRequests.all() { _ = try await recorder.send(request) }
            _ = try recorder.finish()
            upstreams.stop()

            let log = Locked<[String]>([])
            let proxy = try ForwardProxy(cassette: file, mode: .replay, configuration: upstreams.proxyConfiguration(log: log))
            defer { proxy.stop() }
            let client = proxy.client()
            var bodies: [String] = []
            for request in ProxiedRequests.all() { bodies.append(try await client.send(request).text) }
            #expect(bodies == ProxiedRequests.expectedBodies)
        }

        @Test func connectionsAreKeptAliveInsideTunnelsAndForPlainRequests() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all),
                                         configuration: upstreams.proxyConfiguration(log: log))
            defer { proxy.stop() }
            let client = proxy.client()
            for url in ["https://api.example.test/hello", "http://plain.example.test/hello"] {
                var reused: [Bool] = []
                for _ in 0..<4 {
                    let response = try await client.send(HTTPRequest(url: URL(string: url)!))
                    #expect(response.statusCode == 200)
                    reused.append(response.metrics.connectionReused)
                }
                #expect(reused == [false, true, true, true], "\(url): \(reused)")
            }
            #expect(proxy.interceptedAuthorities == ["api.example.test:443"])
        }

        @Test func aHostOutsideTheAllowListIsRefusedWithAReasonAndALogLine() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all),
                                         configuration: upstreams.proxyConfiguration(log: log, allowedHosts: [ProxyUpstreams.secureHost]))
            defer { proxy.stop() }
            let client = proxy.client()

            let plain = try await client.send(HTTPRequest(url: URL(string: "http://plain.example.test/hello")!))
            #expect(plain.statusCode == 403)
            #expect(plain.text.contains("refused a request to plain.example.test"), "\(plain.text)")
            #expect(plain.text.contains("--allow-host plain.example.test"), "\(plain.text)")

            await #expect(throws: URLError.self) {
                _ = try await client.send(HTTPRequest(url: URL(string: "https://other.example.test/hello")!))
            }
            #expect(log.value.count == 2)
            #expect(log.value.last?.contains("refused a request to other.example.test") == true, "\(log.value)")
            #expect(proxy.recordedInteractionCount == 0)
            #expect(upstreams.plain.journal.entries.isEmpty)
        }

        @Test func passthroughForwardsAndTunnelsHostsOutsideTheListWithoutRecordingThem() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])
            let proxy = try ForwardProxy(cassette: file, mode: .record(.all), configuration: upstreams.proxyConfiguration(
                log: log, allowedHosts: [ProxyUpstreams.secureHost], passthrough: true))
            defer { proxy.stop() }
            // The client trusts the upstream's own CA too: a passed-through tunnel is not intercepted.
            let client = CurlTransport(configuration: CurlTransport.Configuration(
                trustedCertificates: [proxy.certificateAuthority.trustAnchor] + upstreams.secure.configuration.trustedCertificates,
                proxy: proxy.proxyURL.absoluteString))

            let plain = try await client.send(HTTPRequest(url: URL(string: "http://plain.example.test/hello")!))
            #expect(plain.statusCode == 200 && plain.text == "hello from plain.example.test")
            let tunnelled = try await client.send(HTTPRequest(url: upstreams.secure.url("/hello")))
            #expect(tunnelled.statusCode == 200 && tunnelled.text == "hello from 127.0.0.1:\(upstreams.secure.port)")
            let intercepted = try await client.send(HTTPRequest(url: URL(string: "https://api.example.test/hello")!))
            #expect(intercepted.text == "hello from api.example.test")
            #expect(proxy.interceptedAuthorities == ["api.example.test:443"])
            try await proxy.finishRecording()
            #expect(try CassetteFile.load(file).interactions.map(\.request.url) == ["https://api.example.test/hello"])
            #expect(log.value.isEmpty)
        }

        @Test func replayNeverContactsTheUpstreamAndReportsAMissAsA404() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])
            let recorder = try ForwardProxy(cassette: file, mode: .record(.all), configuration: upstreams.proxyConfiguration(log: log))
            _ = try await recorder.client().send(HTTPRequest(url: URL(string: "https://api.example.test/hello")!))
            recorder.stop()
            let before = upstreams.secure.journal.entries.count

            let replayer = try ForwardProxy(cassette: file, mode: .replay, configuration: upstreams.proxyConfiguration(log: log))
            defer { replayer.stop() }
            let client = replayer.client()
            #expect(try await client.send(HTTPRequest(url: URL(string: "https://api.example.test/hello")!)).text == "hello from api.example.test")
            let missed = try await client.send(HTTPRequest(url: URL(string: "https://api.example.test/missing")!))
            #expect(missed.statusCode == 404)
            #expect(missed.headers["X-Tapedeck-Unmatched"] == "1")
            #expect(missed.text.contains("https://api.example.test/missing"), "\(missed.text)")
            #expect(upstreams.secure.journal.entries.count == before)
        }

        @Test func aRequestSentToTheProxyAsIfToAServerIsToldHowToUseIt() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let log = Locked<[String]>([])
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all),
                                         configuration: .init(environment: [:], log: { line in log.withLock { $0.append(line) } }))
            defer { proxy.stop() }
            let response = try await CurlTransport(configuration: .init(proxy: "")).send(HTTPRequest(url: proxy.proxyURL.appendingPathComponent("hello")))
            #expect(response.statusCode == 400)
            #expect(response.text.contains("takes absolute-form requests"), "\(response.text)")
        }

        @Test func refusesANonLoopbackListenerAndListensOnIPv6Loopback() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            for host in ["0.0.0.0", "192.0.2.1", "::"] {
                let error = #expect(throws: ForwardProxy.StartError.self) {
                    _ = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all),
                                         configuration: .init(host: host, environment: [:]))
                }
                guard case .nonLoopbackListener(let refused)? = error else {
                    Issue.record("\(host): \(String(describing: error))")
                    continue
                }
                #expect(refused == host && "\(error!)".contains("allowsNonLoopbackListener"))
            }
            let ipv6 = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all), configuration: .init(host: "::1", environment: [:]))
            #expect(ipv6.proxyURL.absoluteString == "http://[::1]:\(ipv6.port)")
            ipv6.stop()
        }

        @Test func idleAndSlowClientsDoNotHoldUpOthers() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])
            var configuration = upstreams.proxyConfiguration(log: log)
            // Long enough for the slow client to finish its head on a loaded machine.
            configuration.connectionTimeout = 30
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all), configuration: configuration)
            defer { proxy.stop() }
            let idle = (0..<200).map { _ in ServerFaultTests.connect(to: proxy.port) }
            defer { for socket in idle where socket >= 0 { close(socket) } }
            #expect(idle.allSatisfy { $0 >= 0 })
            // A slow client: half of its request head now, the rest after another client has been answered.
            let slow = ServerFaultTests.connect(to: proxy.port)
            defer { close(slow) }
            let head = Array("GET http://plain.example.test/hello HTTP/1.1\r\nHost: plain.example.test\r\n\r\n".utf8)
            #expect(send(slow, head, 20, Int32(MSG_NOSIGNAL)) == 20)

            let response = try await proxy.client().send(HTTPRequest(url: URL(string: "https://api.example.test/hello")!, timeoutInterval: 5))
            #expect(response.text == "hello from api.example.test")

            #expect(head.withUnsafeBufferPointer { send(slow, $0.baseAddress! + 20, head.count - 20, Int32(MSG_NOSIGNAL)) } == head.count - 20)
            var answer = [UInt8](repeating: 0, count: 4096)
            var received = 0
            var waited = 0
            while !String(decoding: answer[..<received], as: UTF8.self).contains("hello from plain.example.test"), waited < 100 {
                var poller = pollfd(fd: slow, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 100) > 0 {
                    let count = answer.withUnsafeMutableBytes { recv(slow, $0.baseAddress! + received, 4096 - received, 0) }
                    if count <= 0 { break }
                    received += count
                }
                waited += 1
            }
            #expect(String(decoding: answer[..<received], as: UTF8.self).contains("hello from plain.example.test"))
        }

        @Test func connectionsWithoutAWholeHeadAreClosedAfterTheTimeout() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all),
                                         configuration: .init(connectionTimeout: 1, environment: [:]))
            defer { proxy.stop() }
            let idle = ServerFaultTests.connect(to: proxy.port)
            let partial = ServerFaultTests.connect(to: proxy.port)
            defer { close(idle); close(partial) }
            #expect(send(partial, Array("CONNECT api.exam".utf8), 16, Int32(MSG_NOSIGNAL)) == 16)
            #expect(ServerFaultTests.isClosed(idle, within: 10) && ServerFaultTests.isClosed(partial, within: 10))
        }

        @Test func theAllowListComesFromTheEnvironmentWhenSet() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let log = Locked<[String]>([])
            var configuration = upstreams.proxyConfiguration(log: log, allowedHosts: nil)
            configuration.environment = ["TAPEDECK_ALLOWED_HOSTS": "*.other.test, api.example.test"]
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all), configuration: configuration)
            defer { proxy.stop() }
            let refused = try await proxy.client().send(HTTPRequest(url: URL(string: "http://plain.example.test/hello")!))
            #expect(refused.statusCode == 403)
            #expect(refused.text.contains("*.other.test, api.example.test"), "\(refused.text)")
        }

        @Test func theCertificateAuthorityIsWrittenAsPEMAndTheEnvironmentNamesIt() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all), configuration: .init(environment: [:]))
            defer { proxy.stop() }
            let pem = directory.file("ca.pem")
            try proxy.writeCertificateAuthority(to: pem)
            let text = try String(contentsOf: pem, encoding: .utf8)
            #expect(text.hasPrefix("-----BEGIN CERTIFICATE-----") && text == proxy.certificateAuthorityPEM)
            let variables = proxy.environment(certificateAuthorityFile: pem.path)
            #expect(variables.first { $0.name == "HTTPS_PROXY" }?.value == proxy.proxyURL.absoluteString)
            #expect(variables.first { $0.name == "REQUESTS_CA_BUNDLE" }?.value == pem.path)
        }
    }
}
