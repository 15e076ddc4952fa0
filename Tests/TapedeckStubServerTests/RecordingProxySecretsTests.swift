import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// The recording proxy fills redaction placeholders from ``CassetteConfiguration/secrets`` on the way upstream:
    /// a client holding only the placeholder authenticates, and the cassette keeps the placeholder.
    @Suite struct RecordingProxySecretsTests {
        @Test func aPlaceholderFromTheClientIsFilledUpstreamAndKeptInTheCassette() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("proxied.json")
            let upstream = try StubServer.httpbin()
            defer { upstream.stop() }
            let proxy = try StubServer()
            defer { proxy.stop() }
            let configuration = CassetteConfiguration(secrets: PlaceholderSecrets(values: ["AUTHORIZATION_BASIC": "ada:lovelace-pw"],
                                                                                  readsEnvironment: false))
            try proxy.recordProxy(upstream: upstream.baseURL, cassette: file, mode: .all, configuration: configuration)

            let client = CurlTransport()
            let request = HTTPRequest(url: proxy.url("/basic-auth/ada/lovelace-pw"), headers: ["Authorization": "Basic [REDACTED]"])
            #expect(try await client.send(request).statusCode == 200)
            try await proxy.finishRecording()

            let expected = "Basic " + Data("ada:lovelace-pw".utf8).base64EncodedString()
            #expect(upstream.journal.entries.map { $0.headers["Authorization"] } == [expected])
            let recorded = try CassetteFile.load(file).interactions
            #expect(recorded.map { $0.request.headers["Authorization"] } == ["Basic [REDACTED]"])
            #expect(recorded.map { $0.response?.statusCode } == [200])
            #expect(!(try String(contentsOf: file, encoding: .utf8)).contains(expected.dropFirst(6)))
        }
    }
}
