import Foundation
import Testing
import TapedeckCassette
import TapedeckConformance
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport

/// `CassetteConfiguration.recordingCheck` with an OpenAPI document: a provider answering outside its contract is
/// flagged while recording, and nothing recorded is lost.
@Suite("Recording check")
struct RecordingCheckTests {
    @Test func flagsANonConformingAnswerAndKeepsTheInteraction() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let provider = try StubServer()
        defer { provider.stop() }
        provider.route(.get, "/users/1", response: .json(Data(#"{"id":1,"name":"Ada"}"#.utf8)))
        provider.route(.get, "/users/2", response: .json(Data(#"{"id":"two"}"#.utf8)))
        var configuration = CassetteConfiguration()
        let contract = OpenAPIConformanceTests.users30
        configuration.recordingCheck = contract.recordingCheck
        let transport = try CassetteTransport(cassette: directory.cassette(), mode: .newEpisodes, upstream: provider.transport(),
                                              configuration: configuration)
        // The document's server is api.example.com; the stub answers on loopback, so check against the path only.
        let base = provider.baseURL
        let good = try await transport.send(HTTPRequest(url: base.appendingPathComponent("users/1")))
        #expect(good.statusCode == 200)
        let error = await #expect(throws: CassetteError.self) {
            try await transport.send(HTTPRequest(url: base.appendingPathComponent("users/2")))
        }
        guard case .recordingRejected(_, let request, let problems)? = error else {
            Issue.record("expected recordingRejected, got \(String(describing: error))")
            return
        }
        #expect(request.hasSuffix("/users/2"))
        #expect(problems.sorted() == [
            #"response body /: required: the member "name" is missing"#,
            "response body /id: type: expected integer, found a string",
        ])
        _ = try transport.finish()
        let saved = try CassetteFile.load(directory.cassette())
        #expect(saved.interactions.count == 2)
    }
}
