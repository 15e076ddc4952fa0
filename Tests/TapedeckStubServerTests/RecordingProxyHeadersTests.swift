import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// The recording proxy forwards and records the client's request headers as sent, `Accept-Encoding` included, and
    /// relays the answer in the coding the client chose.
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
    }
}
