import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// The recording proxy forwards and records the client's request headers as sent, `Accept-Encoding` included, and
    /// relays the answer in the coding the client chose and the framing the upstream chose.
    @Suite struct RecordingProxyHeadersTests {
        @Test(arguments: [[String](), ["--compressed"], ["-H", "Accept-Encoding: gzip;q=1.0, identity;q=0.5"]])
        func acceptEncodingGoesUpstreamAndIntoTheCassetteAsSent(curlOptions: [String]) async throws {
            let curlTool = try #require(ExternalCommand.find("curl"))
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstream = try StubServer.httpbin()
            defer { upstream.stop() }
            let proxy = try StubServer()
            defer { proxy.stop() }
            let file = directory.cassette()
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all)

            // What curl itself sends, seen by a server with no proxy in between.
            _ = try await ExternalCommand.run(curlTool, ["-s", "-o", "/dev/null"] + curlOptions + [upstream.url("/gzip").absoluteString])
            let sentDirectly = try #require(upstream.journal.entries.last).headers["Accept-Encoding"]
            let viaProxy = try await ExternalCommand.run(curlTool, ["-s"] + curlOptions + [proxy.url("/gzip").absoluteString])
            #expect(viaProxy.status == 0, "\(viaProxy.standardError)")
            let forwarded = try #require(upstream.journal.entries.last).headers["Accept-Encoding"]
            _ = try await proxy.finishRecording()

            #expect(forwarded == sentDirectly, "forwarded \(forwarded ?? "none"), curl sent \(sentDirectly ?? "none")")
            let recorded = try CassetteFile.load(file).interactions[0]
            #expect(recorded.request.headers["Accept-Encoding"] == sentDirectly)
            if sentDirectly == nil {
                #expect(recorded.response?.headers["Content-Encoding"] == nil || recorded.response?.headers["Content-Encoding"] == "gzip")
            }
            // httpbin answers /gzip compressed whatever was asked; curl decodes it when it asked (--compressed), and
            // otherwise prints the stream as it came, through the proxy as directly.
            let body = viaProxy.standardOutput
            if curlOptions == ["--compressed"] {
                #expect(try JSONSerialization.jsonObject(with: body) is [String: Any])
            } else {
                #expect(body.starts(with: [0x1F, 0x8B]))
            }
        }

        /// An answer reaches the client framed as the upstream framed it, whether its body came whole with its head
        /// (which the proxy sends as one buffer) or over many reads (relayed as it arrives): curl's view of the raw
        /// answer, directly and through the proxy, has the same status, `Content-Length` or chunked coding, and body.
        @Test func everyAnswerKeepsTheUpstreamsFraming() async throws {
            let curlTool = try #require(ExternalCommand.find("curl"))
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstream = try StubServer()
            defer { upstream.stop() }
            upstream.route(.get, "/sized", response: StubResponse(body: .data(Data("a sized body".utf8))))
            upstream.route(.head, "/sized", response: StubResponse(body: .data(Data("a sized body".utf8))))
            upstream.route(.get, "/chunked", response: StubResponse(body: .chunked(ChunkedBody(data: Data("a chunked body".utf8)))))
            upstream.route(.get, "/none", response: StubResponse(status: 204))
            upstream.route(.get, "/empty", response: StubResponse(status: 200, body: .empty))
            upstream.route(.get, "/large", response: StubResponse(body: .generated(length: 3 << 20)))
            upstream.route(.get, "/large-chunked", response: StubResponse(body: .chunked(ChunkedBody(generatedLength: 3 << 20))))
            let proxy = try StubServer()
            defer { proxy.stop() }
            let file = directory.cassette()
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all)

            /// Status line, framing headers and body of curl's raw view of `url`.
            func raw(_ url: URL, head: Bool) async throws -> (status: String, framing: [String], body: Data) {
                let output = try await ExternalCommand.run(curlTool, ["-s", head ? "-I" : "-i", url.absoluteString])
                #expect(output.status == 0, "\(output.standardError)")
                let data = output.standardOutput
                let end = try #require(data.firstRange(of: Data("\r\n\r\n".utf8)))
                let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let framing = lines.dropFirst().map { $0.lowercased() }
                    .filter { $0.hasPrefix("content-length:") || $0.hasPrefix("transfer-encoding:") }.sorted()
                return (lines[0], framing, Data(data[end.upperBound...]))
            }
            let requests = [("/sized", false), ("/sized", true), ("/chunked", false), ("/none", false), ("/empty", false),
                            ("/large", false), ("/large-chunked", false)]
            var answers: [(status: String, framing: [String], body: Data)] = []
            for (path, head) in requests {
                let direct = try await raw(upstream.url(path), head: head)
                let proxied = try await raw(proxy.url(path), head: head)
                #expect(proxied.status == direct.status, "\(path)")
                #expect(proxied.framing == direct.framing, "\(path): \(proxied.framing) through the proxy, \(direct.framing) directly")
                #expect(proxied.body == direct.body, "\(path): \(proxied.body.count) bytes through the proxy, \(direct.body.count) directly")
                answers.append(direct)
            }
            _ = try await proxy.finishRecording()

            // Served from the cassette, each answer is framed as it was live.
            let served = try StubServer()
            defer { served.stop() }
            try served.serve(cassette: file)
            for ((path, head), live) in zip(requests, answers) {
                let replayed = try await raw(served.url(path), head: head)
                #expect(replayed.status == live.status, "\(path)")
                #expect(replayed.framing == live.framing, "\(path): \(replayed.framing) served, \(live.framing) live")
                #expect(replayed.body == live.body, "\(path): \(replayed.body.count) bytes served, \(live.body.count) live")
            }
        }
    }
}
