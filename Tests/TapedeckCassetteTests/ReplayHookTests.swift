import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// `CassetteConfiguration.beforeReplay`: the live request shapes the replayed response.
@Suite struct ReplayHookTests {
    private let url = URL(string: "https://api.example.test/v1/orders")!

    private func transport(_ hook: @escaping @Sendable (HTTPRequest, Interaction.Response) throws -> Interaction.Response) throws
        -> (CassetteTransport, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        try CassetteFile.save(Cassette(interactions: [interaction("POST", url.absoluteString, responseBody: "created")]),
                              to: directory.cassette())
        return (try openCassette(directory.cassette(), mode: .replay, configuration: CassetteConfiguration(beforeReplay: hook)), directory)
    }

    @Test func theHookEchoesTheLiveRequestIntoTheResponseAndItsEvents() async throws {
        let (transport, directory) = try transport { request, recorded in
            var response = recorded
            response.headers["X-Request-Id"] = request.headers["X-Request-Id"]
            response.body = CassetteBody(Data("created for \(request.headers["X-Request-Id"] ?? "?")".utf8))
            return response
        }
        defer { directory.remove() }
        let log = TransportEventLog()
        let response = try await transport.send(
            HTTPRequest(method: .post, url: url, headers: ["X-Request-Id": "r-42"]), onEvent: log.handler)
        #expect(response.headers["X-Request-Id"] == "r-42")
        #expect(response.data == Data("created for r-42".utf8))
        #expect(log.heads.first?.headers["X-Request-Id"] == "r-42", "events carry the hook's response too")
    }

    @Test func whatTheHookThrowsIsTheRequestsError() async throws {
        struct Refused: Error {}
        let (transport, directory) = try transport { _, _ in throw Refused() }
        defer { directory.remove() }
        await #expect(throws: Refused.self) { try await transport.send(HTTPRequest(method: .post, url: url)) }
    }
}
