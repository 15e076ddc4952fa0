import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Re-recording a cassette whose requests carry redaction placeholders: ``CassetteConfiguration/secrets`` fills them
/// on the way out, so the provider authenticates, while the file keeps the placeholder and never the secret.
@Suite struct SecretFillingRecordingTests {
    static let token = "s3cret-token-4711"

    /// httpbin (`/basic-auth/u/p`) plus `/bearer`, which wants exactly ``token`` and echoes it, as httpbin's does.
    static func provider() throws -> StubServer {
        let server = try StubServer.httpbin()
        server.route(.get, "/bearer") { request in
            guard request.headers["Authorization"] == "Bearer \(token)" else {
                return .text("unauthorized\n", status: 401)
            }
            return .json(Data(#"{"authenticated":true,"echo":"Bearer \#(token)"}"#.utf8))
        }
        return server
    }

    @Test func aNewEpisodesRecordingAuthenticatesAndKeepsThePlaceholder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.provider()
        defer { server.stop() }
        var configuration = CassetteConfiguration()
        configuration.secrets = PlaceholderSecrets(values: ["AUTHORIZATION_BASIC": "u:p"],
                                                   environment: ["TAPEDECK_SECRET_AUTHORIZATION_BEARER": Self.token])
        let transport = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport(), configuration: configuration)
        var basic = HTTPRequest(url: server.url("/basic-auth/u/p"))
        basic.headers["Authorization"] = "Basic [REDACTED]"
        var bearer = HTTPRequest(url: server.url("/bearer"))
        bearer.headers["Authorization"] = "Bearer [REDACTED]"
        #expect(try await transport.send(basic).statusCode == 200)
        let echoed = try await transport.send(bearer)
        #expect(echoed.statusCode == 200)
        #expect(String(decoding: echoed.data ?? Data(), as: UTF8.self).contains(Self.token), "the caller sees the live answer")
        try transport.finish()

        #expect(server.journal.entries.map { $0.headers["Authorization"] } == ["Basic dTpw", "Bearer \(Self.token)"])
        let text = try String(contentsOf: directory.cassette(), encoding: .utf8)
        #expect(!text.contains(Self.token) && !text.contains("dTpw"))
        let recorded = try CassetteFile.load(directory.cassette()).interactions
        #expect(recorded.map { $0.request.headers["Authorization"] } == ["Basic [REDACTED]", "Bearer [REDACTED]"])
        #expect(recorded.map { $0.response?.statusCode } == [200, 200])
        let body = try #require(recorded[1].response?.body.inlineData)
        let salt = try #require(CassetteFile.load(directory.cassette()).redactionSalt)
        #expect(String(decoding: body, as: UTF8.self).contains("Bearer " + StandIn.make(for: Self.token, salt: salt)))
    }

    @Test func withoutTheSecretThePlaceholderGoesOutAndIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.provider()
        defer { server.stop() }
        var configuration = CassetteConfiguration()
        configuration.secrets = PlaceholderSecrets(environment: [:])
        let transport = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport(), configuration: configuration)
        var bearer = HTTPRequest(url: server.url("/bearer"))
        bearer.headers["Authorization"] = "Bearer [REDACTED]"
        #expect(try await transport.send(bearer).statusCode == 401)
        try transport.finish()
        #expect(server.journal.entries.map { $0.headers["Authorization"] } == ["Bearer [REDACTED]"])
    }

    @Test func aHostCredentialReplacesADummyTokenAndIsScrubbedFromTheAnswer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.provider()
        defer { server.stop() }
        var configuration = CassetteConfiguration()
        configuration.secrets = PlaceholderSecrets(credentials: [.bearer(host: "127.0.0.1", token: Self.token)], readsEnvironment: false)
        let transport = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport(), configuration: configuration)
        var bearer = HTTPRequest(url: server.url("/bearer"))
        bearer.headers["Authorization"] = "Bearer test-dummy"
        #expect(try await transport.send(bearer).statusCode == 200)
        try transport.finish()
        let text = try String(contentsOf: directory.cassette(), encoding: .utf8)
        #expect(!text.contains(Self.token))
        #expect(!text.contains("test-dummy"), "the request as given is recorded, and redacted")
    }
}
