import Foundation
import Testing
import TapedeckConformance
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// `StubServer(openAPI:)` over loopback: a real client gets the document's answers, and stubs added by hand answer
/// first.
@Suite struct StubServerOpenAPITests {
    @Test func aClientGetsTheDocumentsAnswersAndHandAddedStubsWin() async throws {
        let server = try StubServer(openAPI: OpenAPIConformanceTests.fixtures.appendingPathComponent("pets-mock.yaml"), seed: 1)
        defer { server.stop() }
        let client = CurlTransport()
        let listed = try await client.send(HTTPRequest(url: server.url("/v1/pets")))
        #expect(listed.statusCode == 200 && JSONValue(parsing: listed.data ?? Data()) == [["id": 1, "name": "Rex", "kind": "dog"]])
        let refused = try await client.send(HTTPRequest(method: .post, url: server.url("/v1/pets"),
                                                        headers: ["Content-Type": "application/json"], body: .data(Data("{}".utf8))))
        // createPet documents its error answer, 422: an invalid request gets it, with the violations in a header.
        #expect(refused.statusCode == 422)
        #expect(refused.headers["Tapedeck-Violations"]?.hasPrefix("2 violation(s): ") == true, "name and kind are required")

        server.route(.get, "/v1/pets/7", response: .text("pinned by the test"))
        let pinned = try await client.send(HTTPRequest(url: server.url("/v1/pets/7")))
        #expect(pinned.data == Data("pinned by the test".utf8))
        let other = try await client.send(HTTPRequest(url: server.url("/v1/pets/8")))
        #expect(other.statusCode == 200 && JSONValue(parsing: other.data ?? Data())?["chip"] != nil)
    }
}
