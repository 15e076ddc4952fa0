import Foundation
import OpenAPIRuntime
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckOpenAPI
import TapedeckStubServer
import TapedeckTestSupport

/// The client generated from Fixture/openapi.yaml, over each kind of transport.
@Suite struct GeneratedClientTests {
    @Test func overLiveCurlAgainstALoopbackServer() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let client = Client(serverURL: server.url("/"), transport: TapedeckClientTransport(CurlTransport()))
            expectHttpbinAnswers(try await runScenario(client))
        }
    }

    @Test func overTheStubServersTransportWithTheProductionURL() async throws {
        let server = try StubServer.https(hostNames: ["api.example.com"])
        defer { server.stop() }
        server.installHttpbinRoutes()
        let client = Client(
            serverURL: URL(string: "https://api.example.com")!, transport: TapedeckClientTransport(server.transport())
        )
        expectHttpbinAnswers(try await runScenario(client))
        #expect(server.journal.entries.first?.headers["Host"] == "api.example.com")
    }

    @Test func recordedThenReplayedWithTheServerStopped() async throws {
        try await withTemporaryDirectory { directory in
            let server = try StubServer.httpbin()
            let serverURL = server.url("/")
            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: CurlTransport())
            let recorded = try await runScenario(Client(serverURL: serverURL, transport: TapedeckClientTransport(recorder)))
            try recorder.finish()
            server.stop()

            let player = try openCassette(directory.cassette(), mode: .replay)
            let replayed = try await runScenario(Client(serverURL: serverURL, transport: TapedeckClientTransport(player)))
            expectHttpbinAnswers(recorded)
            expectHttpbinAnswers(replayed)
            #expect(replayed == recorded)
        }
    }

    @Test func aRequestTheCassetteDoesNotHoldIsTheCassettesErrorInsideClientError() async throws {
        try await withTemporaryDirectory { directory in
            try Data(#"{"version":1,"interactions":[]}"#.utf8).write(to: directory.cassette())
            let player = try openCassette(directory.cassette(), mode: .replay)
            let client = Client(serverURL: URL(string: "http://127.0.0.1:1")!, transport: TapedeckClientTransport(player))
            let error = await #expect(throws: ClientError.self) {
                _ = try await client.getEcho(query: .init(name: "nobody"))
            }
            #expect(error?.operationID == "getEcho")
            #expect(error?.underlyingError is CassetteError)
        }
    }
}
